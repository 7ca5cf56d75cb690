//! The plain-chain check: BARVINN runs a network as one chain of layers, so
//! every activation must flow from one producer to one consumer.
//!
//! In: a [`Graph`]. Out: the set of constant values (initializers and values
//! computed only from them, e.g. `DequantizeLinear` of a weight), or the
//! problems: a node that joins two activation paths (a residual connection),
//! an activation read by two nodes (a branch), or more than one graph input or
//! output.
//!
//! ```
//! use onnc_mvu::frontend::plain_chain;
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let vi = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: vec![Dim::Fixed(4)] };
//! let g = Graph {
//!     inputs: vec![vi("x")],
//!     outputs: vec![vi("y")],
//!     nodes: vec![Node::new("relu_1", "Relu", &["x"], &["a"]), Node::new("add_3", "Add", &["a", "x"], &["y"])],
//!     ..Graph::default()
//! };
//! let e = plain_chain(&g).unwrap_err();
//! assert!(e[0].to_string().starts_with("node 'add_3' (Add): joins two paths (from 'relu_1' and graph input 'x')"));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use onnc_onnx::Graph;

use super::error::Problem;

/// Values that do not depend on the graph input.
pub type Constants = BTreeSet<String>;

/// How a producer is named in messages.
fn producer_name(producers: &BTreeMap<&str, &str>, value: &str) -> String {
    match producers.get(value) {
        Some(n) => format!("'{n}'"),
        None => format!("graph input '{value}'"),
    }
}

/// The problem of a `Concat` of the activations `parts`, `joins` saying from
/// where: BARVINN's data RAM holds a pixel's channels in 64-lane words and a
/// job writes whole words, so producers could write their outputs into
/// adjacent channel ranges of one buffer (a free Concat on channels) only
/// when every part but the last has a multiple of 64 channels; onnc-mvu's
/// program is one chain of layers, each reading the previous one's buffer,
/// so the branches feeding a Concat are not compiled either way.
fn concat_problem(graph: &Graph, node: &onnc_onnx::Node, parts: &[&str], joins: String) -> Problem {
    let types = onnc_onnx::infer_graph(graph).unwrap_or_default();
    let channels: Option<Vec<usize>> = parts
        .iter()
        .map(|v| types.get(*v)?.static_shape()?.get(1).copied())
        .collect();
    let axis = node
        .attrs
        .get("axis")
        .and_then(onnc_tensor::Attr::as_int)
        .unwrap_or(0);
    let rank = parts
        .first()
        .and_then(|v| types.get(*v))
        .map_or(0, |t| t.rank() as i64);
    let layout = match channels {
        Some(c) if axis == 1 || (rank > 0 && axis == 1 - rank) => {
            let aligned = c[..c.len() - 1].iter().all(|&n| n % 64 == 0);
            format!(
                "; the parts have {c:?} channels, {} in BARVINN's data RAM (64 channels per word, whole \
                 words per job), and onnc-mvu compiles one chain of layers, not the branches that feed a Concat",
                if aligned {
                    "so the producers could write adjacent word ranges of one buffer"
                } else {
                    "so a part would start inside a 64-channel word, which no MVU job can write alone"
                }
            )
        }
        _ => format!(
            "; it concatenates on axis {axis}, and onnc-mvu compiles one chain of layers, not the branches \
             that feed a Concat"
        ),
    };
    Problem::node(
        &node.name,
        "Concat",
        format!("{joins}{layout}"),
        "run the branches and the Concat on the host, or replace the block by one layer (branches of \
         one input and equal kernels merge into one Conv with stacked weights)",
    )
}

/// Checks that `graph` is one chain; returns its constant values.
pub fn plain_chain(graph: &Graph) -> Result<Constants, Vec<Problem>> {
    let mut problems = Vec::new();
    if graph.inputs.len() != 1 {
        let names: Vec<&str> = graph.inputs.iter().map(|v| v.name.as_str()).collect();
        problems.push(Problem::option(
            "graph inputs",
            format!(
                "the model has {} runtime inputs {names:?}; an MVU program reads one",
                graph.inputs.len()
            ),
            "export the model with one input and its weights as initializers",
        ));
    }
    if graph.outputs.len() != 1 {
        let names: Vec<&str> = graph.outputs.iter().map(|v| v.name.as_str()).collect();
        problems.push(Problem::option(
            "graph outputs",
            format!(
                "the model has {} outputs {names:?}; an MVU chain produces one",
                graph.outputs.len()
            ),
            "keep one output",
        ));
    }
    let mut consts: Constants = graph.initializers.iter().map(|(n, _)| n.clone()).collect();
    let mut producers: BTreeMap<&str, &str> = BTreeMap::new();
    let mut consumers: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    let mut joined = false;
    for node in &graph.nodes {
        let present: Vec<&str> = node.inputs.iter().flatten().map(String::as_str).collect();
        let mut data: Vec<&str> = present
            .iter()
            .copied()
            .filter(|v| !consts.contains(*v))
            .collect();
        data.dedup();
        if data.is_empty() {
            consts.extend(node.outputs.iter().filter(|o| !o.is_empty()).cloned());
            continue;
        }
        for o in &node.outputs {
            producers.insert(o, &node.name);
        }
        for v in &data {
            consumers
                .entry(v)
                .or_default()
                .push((&node.name, &node.op_type));
        }
        let distinct: BTreeSet<&str> = data.iter().copied().collect();
        if distinct.len() > 1 {
            joined = true;
            let from: Vec<String> = data.iter().map(|v| producer_name(&producers, v)).collect();
            let count = match from.len() {
                2 => "two".to_string(),
                n => n.to_string(),
            };
            let last = from.len() - 1;
            let joins = format!(
                "joins {count} paths (from {} and {})",
                from[..last].join(", "),
                from[last]
            );
            problems.push(if node.op_type == "Concat" {
                concat_problem(graph, node, &data, joins)
            } else {
                Problem::node(
                    &node.name,
                    &node.op_type,
                    joins,
                    "BARVINN runs plain chains of Conv/Gemm/MatMul/Relu without residual connections; remove \
                     the shortcut (e.g. distil the network into a plain one, as BARVINN's distilled \
                     ResNet-18) or run the join on the host",
                )
            });
        }
    }
    if !joined {
        for (value, readers) in &consumers {
            if readers.len() > 1 {
                problems.push(Problem::node(
                    readers[1].0,
                    readers[1].1,
                    format!(
                        "value '{value}' (from {}) is read by {} nodes ({})",
                        producer_name(&producers, value),
                        readers.len(),
                        readers
                            .iter()
                            .map(|(r, _)| format!("'{r}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    "BARVINN runs one chain of layers; keep one consumer per activation",
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(consts)
    } else {
        Err(problems)
    }
}
