//! Cutting refused nodes out of a graph, so that the checks after
//! legalization can still run on everything else.
//!
//! In: a graph (static shapes, after `onnx-simplify`) and the names of the
//! nodes legalization refused. Out: the graph without them, each treated
//! as opaque: an output of a refused node that a kept node reads becomes a
//! graph input of its inferred type, and an activation a refused node
//! reads that no kept node reads becomes a graph output, so that its
//! producer stays in the graph and is checked. The graph's outputs made by
//! refused nodes are dropped, and so are initializers only refused nodes
//! read. The fewer inputs and outputs the cut adds, the fewer whole-model
//! checks (one input, one output) it trips; [`Cut::changed_interface`]
//! says whether it added or removed any.
//!
//! ```text
//! x → conv → resize(refused) → sigmoid → y
//! becomes  x → conv → (output)   and   (input resize.out) → sigmoid → y
//! ```

use onnc_onnx::{Graph, ValueInfo};
use std::collections::{BTreeSet, HashSet};

/// A graph with refused nodes cut out.
pub struct Cut {
    /// The rest of the graph.
    pub graph: Graph,
    /// Whether its inputs or outputs differ from the model's.
    pub changed_interface: bool,
}

/// `graph` without the `refused` nodes (see the module documentation); an
/// error names a cut value whose type cannot be inferred.
pub fn without(graph: &Graph, refused: &BTreeSet<String>) -> Result<Cut, String> {
    let names = |v: &[ValueInfo]| v.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
    let rest = rest(graph, refused)?;
    Ok(Cut {
        changed_interface: names(&rest.inputs) != names(&graph.inputs)
            || names(&rest.outputs) != names(&graph.outputs),
        graph: rest,
    })
}

fn rest(graph: &Graph, refused: &BTreeSet<String>) -> Result<Graph, String> {
    if refused.is_empty() {
        return Ok(graph.clone());
    }
    let types = onnc_onnx::infer_graph(graph).map_err(|e| e.to_string())?;
    let (cut, kept): (Vec<_>, Vec<_>) = graph.nodes.iter().partition(|n| refused.contains(&n.name));
    let read_by_kept: HashSet<&str> = kept
        .iter()
        .flat_map(|n| n.inputs.iter().flatten())
        .map(String::as_str)
        .collect();
    let graph_outputs: HashSet<&str> = graph.outputs.iter().map(|o| o.name.as_str()).collect();
    let made_by_kept: HashSet<&str> = kept
        .iter()
        .flat_map(|n| n.outputs.iter())
        .map(String::as_str)
        .collect();
    let mut out = Graph {
        name: graph.name.clone(),
        inputs: graph.inputs.clone(),
        outputs: Vec::new(),
        initializers: Vec::new(),
        nodes: kept.iter().map(|n| (*n).clone()).collect(),
    };
    let typed = |name: &str| -> Result<ValueInfo, String> {
        let t = types.get(name).ok_or_else(|| {
            format!("the type of '{name}' (at a refused node) cannot be inferred")
        })?;
        Ok(ValueInfo {
            name: name.to_string(),
            dtype: t.dtype,
            dims: t.dims.clone(),
        })
    };
    let mut new_outputs: Vec<ValueInfo> = Vec::new();
    for n in &cut {
        for o in n.outputs.iter().filter(|o| !o.is_empty()) {
            if read_by_kept.contains(o.as_str()) {
                out.inputs.push(typed(o)?);
            }
        }
        for i in n.inputs.iter().flatten() {
            // Only a value nothing kept reads needs to become an output
            // (its producer would be dead otherwise).
            let dead = made_by_kept.contains(i.as_str()) && !read_by_kept.contains(i.as_str());
            let listed =
                graph_outputs.contains(i.as_str()) || new_outputs.iter().any(|v| &v.name == i);
            if dead && !listed {
                new_outputs.push(typed(i)?);
            }
        }
    }
    // The graph's own outputs that a kept node makes, then the cut points.
    out.outputs = graph
        .outputs
        .iter()
        .filter(|o| made_by_kept.contains(o.name.as_str()))
        .cloned()
        .chain(new_outputs)
        .collect();
    let read: HashSet<&str> = out
        .nodes
        .iter()
        .flat_map(|n| n.inputs.iter().flatten())
        .map(String::as_str)
        .collect();
    out.initializers = graph
        .initializers
        .iter()
        .filter(|(n, _)| read.contains(n.as_str()))
        .cloned()
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Node, ValueInfo};

    fn vi(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo::f32(name, dims)
    }

    #[test]
    fn a_refused_node_becomes_an_input_and_an_output() {
        let g = Graph {
            name: "g".into(),
            inputs: vec![vi("x", &[1, 2, 4, 4])],
            outputs: vec![vi("y", &[1, 2, 4, 4])],
            initializers: vec![],
            nodes: vec![
                Node::new("r1", "Relu", &["x"], &["a"]),
                Node::new("bad", "Relu", &["a"], &["b"]),
                Node::new("r2", "Relu", &["b"], &["y"]),
            ],
        };
        let refused: BTreeSet<String> = ["bad".to_string()].into();
        let cut = without(&g, &refused).unwrap();
        assert!(cut.changed_interface);
        let c = cut.graph;
        let names: Vec<&str> = c.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["r1", "r2"]);
        let inputs: Vec<&str> = c.inputs.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(inputs, ["x", "b"]);
        assert_eq!(c.inputs[1].dims, g.inputs[0].dims, "the inferred type");
        let outputs: Vec<&str> = c.outputs.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(outputs, ["y", "a"]);
    }

    #[test]
    fn a_value_still_read_by_kept_nodes_does_not_become_an_output() {
        // x → r1 → a → {bad → b (graph output), r2 → y}
        let g = Graph {
            name: "g".into(),
            inputs: vec![vi("x", &[1, 2, 4, 4])],
            outputs: vec![vi("b", &[1, 2, 4, 4]), vi("y", &[1, 2, 4, 4])],
            initializers: vec![],
            nodes: vec![
                Node::new("r1", "Relu", &["x"], &["a"]),
                Node::new("bad", "Relu", &["a"], &["b"]),
                Node::new("r2", "Relu", &["a"], &["y"]),
            ],
        };
        let refused: BTreeSet<String> = ["bad".to_string()].into();
        let cut = without(&g, &refused).unwrap();
        let inputs: Vec<&str> = cut.graph.inputs.iter().map(|v| v.name.as_str()).collect();
        let outputs: Vec<&str> = cut.graph.outputs.iter().map(|v| v.name.as_str()).collect();
        assert_eq!((inputs, outputs), (vec!["x"], vec!["y"]));
        assert!(cut.changed_interface, "the model's output b is gone");
        let unchanged = without(&g, &BTreeSet::new()).unwrap();
        assert!(!unchanged.changed_interface);
    }
}
