//! The graph-level work of `onnx-simplify`: constant folding, Identity and
//! inference-Dropout removal, dead-code elimination.
//!
//! In: an [`onnc_onnx::Graph`]. Out: the same graph, simplified in place, and
//! [`Stats`]. Folding runs the reference interpreter's kernel on nodes whose
//! inputs are all constants (initializers or earlier folds), so a
//! `ConstantOfShape` weight generator becomes its weight, and
//! `Shape → Gather → Unsqueeze → Concat → Reshape` chains become constants.
//!
//! ```
//! use onnc_onnx::{Graph, Node, ValueInfo, Dim};
//! use onnc_tensor::{DType, Tensor};
//! let mut g = Graph {
//!     name: "g".into(),
//!     inputs: vec![ValueInfo { name: "x".into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] }],
//!     outputs: vec![ValueInfo { name: "y".into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] }],
//!     initializers: vec![("k".into(), Tensor::from_f32(vec![2], vec![1.0, 2.0]).unwrap())],
//!     nodes: vec![
//!         Node::new("neg", "Neg", &["k"], &["nk"]),        // constant: folds
//!         Node::new("id", "Identity", &["x"], &["x2"]),     // forwards: removed
//!         Node::new("add", "Add", &["x2", "nk"], &["y"]),
//!     ],
//! };
//! let stats = onnc_passes::onnx::graph_simplify::simplify(&mut g, 1 << 20).unwrap();
//! assert_eq!((stats.folded, stats.identities), (1, 1));
//! assert_eq!(g.nodes.len(), 1);
//! assert_eq!(g.nodes[0].inputs, vec![Some("x".to_string()), Some("nk".to_string())]);
//! assert_eq!(g.initializer("nk").unwrap().as_f32().unwrap(), &[-1.0, -2.0]);
//! ```

use onnc_onnx::Graph;
use onnc_tensor::Tensor;
use std::collections::{HashMap, HashSet};

/// What one run changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes replaced by their constant results.
    pub folded: usize,
    /// Identity nodes removed.
    pub identities: usize,
    /// Inference-mode Dropout nodes removed.
    pub dropouts: usize,
    /// Nodes removed because nothing used them.
    pub dead_nodes: usize,
    /// Initializers removed because nothing used them.
    pub dead_initializers: usize,
}

/// Ops never folded even with constant inputs (non-deterministic or stateful).
const NEVER_FOLD: [&str; 5] = ["RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial"];

/// Simplifies `g` in place. `fold_limit` caps the element count of a folded
/// result (larger results stay computed at run time).
pub fn simplify(g: &mut Graph, fold_limit: usize) -> Result<Stats, String> {
    let mut stats = Stats::default();
    fold_constants(g, fold_limit, &mut stats)?;
    remove_forwarding(g, &mut stats);
    remove_dead(g, &mut stats);
    Ok(stats)
}

fn fold_constants(g: &mut Graph, fold_limit: usize, stats: &mut Stats) -> Result<(), String> {
    // Constants keep their order: the graph's initializers first, then each
    // folded result in the order it was computed (deterministic output).
    let mut index: HashMap<String, usize> = g.initializers.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
    let mut kept = Vec::with_capacity(g.nodes.len());
    for node in std::mem::take(&mut g.nodes) {
        let foldable = node.domain.is_empty()
            && !NEVER_FOLD.contains(&node.op_type.as_str())
            && onnc_interp::is_supported(&node.op_type)
            && node.inputs.iter().flatten().all(|i| index.contains_key(i));
        if foldable {
            let inputs: Vec<Option<&Tensor>> =
                node.inputs.iter().map(|i| i.as_ref().and_then(|n| index.get(n)).map(|&k| &g.initializers[k].1)).collect();
            match onnc_interp::run_op(&node.op_type, &node.attrs, &inputs) {
                Ok(results) if results.iter().all(|t| t.numel() <= fold_limit) => {
                    for (name, t) in node.outputs.iter().zip(results) {
                        if !name.is_empty() {
                            index.insert(name.clone(), g.initializers.len());
                            g.initializers.push((name.clone(), t));
                        }
                    }
                    stats.folded += 1;
                    continue;
                }
                Ok(_) => {}
                Err(e) => return Err(format!("node '{}' ({}): cannot fold its constant inputs: {e}", node.name, node.op_type)),
            }
        }
        kept.push(node);
    }
    g.nodes = kept;
    Ok(())
}

fn is_inference_dropout(g: &Graph, node: &onnc_onnx::Node) -> bool {
    if node.op_type != "Dropout" {
        return false;
    }
    match node.inputs.get(2).cloned().flatten() {
        None => true,
        Some(t) => g.initializer(&t).is_some_and(|v| v.data().to_i64_vec().iter().all(|&x| x == 0)),
    }
}

/// Identity and inference Dropout forward their input: rewire consumers.
fn remove_forwarding(g: &mut Graph, stats: &mut Stats) {
    let graph_outputs: HashSet<String> = g.outputs.iter().map(|o| o.name.clone()).collect();
    let mut i = 0;
    while i < g.nodes.len() {
        let node = &g.nodes[i];
        let forwards = node.op_type == "Identity" || is_inference_dropout(g, node);
        let mask_used = node.outputs.get(1).is_some_and(|m| !m.is_empty() && (graph_outputs.contains(m) || g.nodes.iter().any(|n| n.inputs.iter().flatten().any(|x| x == m))));
        let (Some(Some(src)), Some(dst)) = (node.inputs.first().cloned(), node.outputs.first().cloned()) else {
            i += 1;
            continue;
        };
        if !forwards || mask_used || (graph_outputs.contains(&dst) && (graph_outputs.contains(&src) || g.inputs.iter().any(|v| v.name == src))) {
            i += 1;
            continue;
        }
        let is_identity = node.op_type == "Identity";
        g.nodes.remove(i);
        if graph_outputs.contains(&dst) {
            // Keep the graph's output name: the producer of `src` now writes `dst`.
            rename(g, &src, &dst);
        } else {
            for n in &mut g.nodes {
                for x in n.inputs.iter_mut().flatten() {
                    if *x == dst {
                        *x = src.clone();
                    }
                }
            }
        }
        if is_identity {
            stats.identities += 1;
        } else {
            stats.dropouts += 1;
        }
    }
}

fn rename(g: &mut Graph, from: &str, to: &str) {
    for n in &mut g.nodes {
        for x in n.inputs.iter_mut().flatten().chain(n.outputs.iter_mut()) {
            if x == from {
                *x = to.to_string();
            }
        }
    }
    for (n, _) in &mut g.initializers {
        if n == from {
            *n = to.to_string();
        }
    }
}

fn remove_dead(g: &mut Graph, stats: &mut Stats) {
    let mut live: HashSet<String> = g.outputs.iter().map(|o| o.name.clone()).collect();
    let mut keep = vec![false; g.nodes.len()];
    for (i, n) in g.nodes.iter().enumerate().rev() {
        if n.outputs.iter().any(|o| live.contains(o)) {
            keep[i] = true;
            live.extend(n.inputs.iter().flatten().cloned());
        }
    }
    let before = g.nodes.len();
    let mut k = keep.into_iter();
    g.nodes.retain(|_| k.next().unwrap_or(true));
    stats.dead_nodes += before - g.nodes.len();
    let before = g.initializers.len();
    g.initializers.retain(|(n, _)| live.contains(n));
    stats.dead_initializers += before - g.initializers.len();
}
