//! The join check: the MVU runs plain CNNs, chains and branches whose paths
//! join only in a channel `Concat` (the producers write adjacent words of one
//! buffer, [`super::flow`]); it cannot add or multiply two activations.
//!
//! In: a [`Graph`]. Out: the set of constant values (initializers and values
//! computed only from them, e.g. `DequantizeLinear` of a weight), or the
//! problems: a node other than a channel `Concat` that joins two activation
//! paths (a residual connection: one problem naming both producers), a
//! `Concat` on another axis, or more than one graph input or output.
//!
//! ```
//! use onnc_mvu::frontend::check_joins;
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let vi = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: vec![Dim::Fixed(4)] };
//! let g = Graph {
//!     inputs: vec![vi("x")],
//!     outputs: vec![vi("y")],
//!     nodes: vec![Node::new("relu_1", "Relu", &["x"], &["a"]), Node::new("add_3", "Add", &["a", "x"], &["y"])],
//!     ..Graph::default()
//! };
//! let e = check_joins(&g).unwrap_err();
//! assert!(e[0].to_string().starts_with("node 'add_3' (Add): joins two paths (from 'relu_1' and graph input 'x')"));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use onnc_onnx::Graph;

use super::problem::Problem;

/// Values that do not depend on the graph input.
pub type Constants = BTreeSet<String>;

/// How a producer is named in messages.
fn producer_name(producers: &BTreeMap<&str, &str>, value: &str) -> String {
    match producers.get(value) {
        Some(n) => format!("'{n}'"),
        None => format!("graph input '{value}'"),
    }
}

/// Whether `node` (a `Concat` of activations) joins on the channel axis:
/// axis 1 of 4-D (N×C×H×W) or 2-D (rows × features) parts. `None` when the
/// parts' ranks are unknown.
fn channel_axis(
    types: &std::collections::HashMap<String, onnc_onnx::TypeInfo>,
    node: &onnc_onnx::Node,
    parts: &[&str],
) -> (i64, Option<usize>) {
    let axis = node
        .attrs
        .get("axis")
        .and_then(onnc_tensor::Attr::as_int)
        .unwrap_or(0);
    let rank = parts.first().and_then(|v| types.get(*v)).map(|t| t.rank());
    (axis, rank)
}

/// The problem of a `Concat` of activations on another axis than channels:
/// the data RAM holds a pixel's channels in 64-lane words, so only a channel
/// `Concat` is a layout of producers' outputs in one buffer.
fn concat_problem(
    node: &onnc_onnx::Node,
    axis: i64,
    rank: Option<usize>,
    joins: String,
) -> Problem {
    Problem::node(
        &node.name,
        "Concat",
        format!(
            "{joins}; it concatenates on axis {axis} of {} parts, and the MVU lays out only a channel Concat \
             (axis 1 of N x C x H x W or rows x features): its producers write adjacent 64-channel words of one buffer",
            rank.map_or_else(|| "unknown-rank".to_string(), |r| format!("{r}-D"))
        ),
        "concatenate on the channel axis, or run the Concat on the host",
    )
}

/// Checks the joins of `graph` (one input, one output, no join but a
/// channel `Concat`); returns its constant values.
pub fn check_joins(graph: &Graph) -> Result<Constants, Vec<Problem>> {
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
    let mut types = None;
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
        let distinct: BTreeSet<&str> = data.iter().copied().collect();
        if distinct.len() < 2 && node.op_type != "Concat" {
            continue;
        }
        let from: Vec<String> = data.iter().map(|v| producer_name(&producers, v)).collect();
        let count = match from.len() {
            2 => "two".to_string(),
            n => n.to_string(),
        };
        let last = from.len() - 1;
        let joins = if last == 0 {
            format!("concatenates one path (from {})", from[0])
        } else {
            format!(
                "joins {count} paths (from {} and {})",
                from[..last].join(", "),
                from[last]
            )
        };
        if node.op_type == "Concat" {
            let types =
                types.get_or_insert_with(|| onnc_onnx::infer_graph(graph).unwrap_or_default());
            let (axis, rank) = channel_axis(types, node, &data);
            let channels = matches!(rank, Some(r @ (2 | 4)) if axis == 1 || axis == 1 - r as i64);
            if !channels {
                problems.push(concat_problem(node, axis, rank, joins));
            }
            continue;
        }
        problems.push(Problem::node(
            &node.name,
            &node.op_type,
            joins,
            "BARVINN runs plain CNNs, whose paths join only in a channel Concat: the MVU cannot add \
             or multiply two activations; remove the shortcut (e.g. distil the network into a plain \
             one, as BARVINN's distilled ResNet-18) or run the join on the host",
        ));
    }
    if problems.is_empty() {
        Ok(consts)
    } else {
        Err(problems)
    }
}
