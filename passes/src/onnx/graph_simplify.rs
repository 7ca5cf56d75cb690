//! The graph-level work of `onnx-simplify`: constant folding, Identity,
//! inference-Dropout and identity-pooling removal, dead-code elimination.
//!
//! In: an [`onnc_onnx::Graph`]. Out: the same graph, simplified in place, and
//! [`Stats`]. Folding runs the reference interpreter's kernel on nodes whose
//! inputs are all constants (initializers or earlier folds), so a
//! `ConstantOfShape` weight generator becomes its weight. A `Shape` or `Size`
//! node folds when shape inference gives its input a static shape, even
//! though the input itself is computed at run time, so every Shape-derived
//! computation of static tensors becomes a constant:
//! `x.view(x.size(0), -1)` (`Shape → Gather → Unsqueeze → Concat → Reshape`),
//! channel-shuffle `x.size()` chains, `F.interpolate(size=x.shape[-2:])`
//! (`Shape → Slice → Cast → Concat → Resize`). Folding repeats, with shapes
//! inferred afresh, until a round folds nothing (at most [`MAX_ROUNDS`]).
//! Poolings whose window is one element ([`onnc_onnx::is_identity_pool`]:
//! `AdaptiveAvgPool2d((7, 7))` on a 7×7 map exports a 1×1 stride-1
//! `AveragePool`) forward their input like `Identity`.
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
    /// Poolings over one-element windows removed.
    pub identity_pools: usize,
    /// Nodes removed because nothing used them.
    pub dead_nodes: usize,
    /// Initializers removed because nothing used them.
    pub dead_initializers: usize,
}

impl Stats {
    /// Whether the graph was changed at all.
    pub fn changed(&self) -> bool {
        *self != Stats::default()
    }
}

/// Simplifies `g` in place. `fold_limit` caps the element count of a folded
/// result (larger results stay computed at run time).
pub fn simplify(g: &mut Graph, fold_limit: usize) -> Result<Stats, String> {
    let mut stats = Stats::default();
    let types = match fold_constants(g, fold_limit, &mut stats)? {
        Some(types) => types,
        None => onnc_onnx::infer_graph(g).unwrap_or_default(),
    };
    remove_forwarding(g, &types, &mut stats);
    remove_dead(g, &mut stats);
    Ok(stats)
}

/// Most fold rounds: each round infers shapes, then folds in node order; a
/// round after the first only helps when a fold made a shape static that
/// inference could not see before (a Resize whose sizes were computed).
pub const MAX_ROUNDS: usize = 8;

/// Folds in rounds; returns the types of the graph as it is left when the
/// last round folded nothing (they still hold), `None` when the rounds ran
/// out.
fn fold_constants(
    g: &mut Graph,
    fold_limit: usize,
    stats: &mut Stats,
) -> Result<Option<HashMap<String, onnc_onnx::TypeInfo>>, String> {
    for _ in 0..MAX_ROUNDS {
        let before = stats.folded;
        // A graph inference cannot type folds nothing through Shape; the
        // importer has already reported real inference errors.
        let types = onnc_onnx::infer_graph(g).unwrap_or_default();
        fold_round(g, fold_limit, &types, stats)?;
        if stats.folded == before {
            return Ok(Some(types));
        }
    }
    Ok(None)
}

/// The value of a `Shape` (with `start`/`end`) or `Size` node whose input has
/// the static shape `dims`.
fn shape_value(node: &onnc_onnx::Node, dims: &[usize]) -> Option<Tensor> {
    let as_i64 = |d: usize| i64::try_from(d).ok();
    if node.op_type == "Size" {
        let n = dims
            .iter()
            .try_fold(1i64, |a, &d| a.checked_mul(as_i64(d)?))?;
        return Tensor::from_i64(vec![], vec![n]).ok();
    }
    let r = dims.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) } as usize;
    let attr = |k: &str| node.attrs.get(k).and_then(onnc_tensor::Attr::as_int);
    let (start, end) = (
        clamp(attr("start").unwrap_or(0)),
        clamp(attr("end").unwrap_or(r)),
    );
    let v: Vec<i64> = dims
        .get(start..end.max(start))?
        .iter()
        .map(|&d| as_i64(d))
        .collect::<Option<_>>()?;
    Tensor::from_i64(vec![v.len()], v).ok()
}

fn fold_round(
    g: &mut Graph,
    fold_limit: usize,
    types: &HashMap<String, onnc_onnx::TypeInfo>,
    stats: &mut Stats,
) -> Result<(), String> {
    // Constants keep their order: the graph's initializers first, then each
    // folded result in the order it was computed (deterministic output).
    let mut index: HashMap<String, usize> = g
        .initializers
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.clone(), i))
        .collect();
    let mut kept = Vec::with_capacity(g.nodes.len());
    for node in std::mem::take(&mut g.nodes) {
        let static_input = || {
            node.input(0)
                .and_then(|x| types.get(x))
                .and_then(onnc_onnx::TypeInfo::static_shape)
        };
        if node.domain.is_empty()
            && matches!(node.op_type.as_str(), "Shape" | "Size")
            && node.outputs.len() == 1
        {
            if let Some(t) = static_input().and_then(|dims| shape_value(&node, &dims)) {
                index.insert(node.outputs[0].clone(), g.initializers.len());
                g.initializers.push((node.outputs[0].clone(), t));
                stats.folded += 1;
                continue;
            }
        }
        let inits = &g.initializers;
        let folded = onnc_interp::fold::fold_node(&node, |n| index.get(n).map(|&k| &inits[k].1));
        if let Some(folded) = folded {
            match folded {
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
                Err(e) => {
                    return Err(format!(
                        "node '{}' ({}): cannot fold its constant inputs: {e}",
                        node.name, node.op_type
                    ))
                }
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
        Some(t) => g
            .initializer(&t)
            .is_some_and(|v| v.data().to_i64_vec().iter().all(|&x| x == 0)),
    }
}

/// Whether `node` pools one-element windows; `types` gives its input's shape.
fn is_identity_pool(node: &onnc_onnx::Node, types: &HashMap<String, onnc_onnx::TypeInfo>) -> bool {
    let dims = node
        .input(0)
        .and_then(|x| types.get(x))
        .and_then(onnc_onnx::TypeInfo::static_shape);
    onnc_onnx::is_identity_pool(node, dims.as_deref())
}

/// Identity, inference Dropout and identity poolings forward their input:
/// rewire consumers. `types` are the graph's inferred types (pool shapes).
fn remove_forwarding(
    g: &mut Graph,
    types: &HashMap<String, onnc_onnx::TypeInfo>,
    stats: &mut Stats,
) {
    let graph_outputs: HashSet<String> = g.outputs.iter().map(|o| o.name.clone()).collect();
    let mut i = 0;
    while i < g.nodes.len() {
        let node = &g.nodes[i];
        let pool = is_identity_pool(node, types);
        let forwards = node.op_type == "Identity" || pool || is_inference_dropout(g, node);
        let mask_used = node.outputs.get(1).is_some_and(|m| {
            !m.is_empty()
                && (graph_outputs.contains(m)
                    || g.nodes
                        .iter()
                        .any(|n| n.inputs.iter().flatten().any(|x| x == m)))
        });
        let (Some(Some(src)), Some(dst)) =
            (node.inputs.first().cloned(), node.outputs.first().cloned())
        else {
            i += 1;
            continue;
        };
        if !forwards
            || mask_used
            || (graph_outputs.contains(&dst)
                && (graph_outputs.contains(&src) || g.inputs.iter().any(|v| v.name == src)))
        {
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
        } else if pool {
            stats.identity_pools += 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Dim, Node, ValueInfo};
    use onnc_tensor::{Attr, DType};

    fn vi(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo::f32(name, dims)
    }

    fn i64s(name: &str, v: &[i64]) -> (String, Tensor) {
        (
            name.into(),
            Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap(),
        )
    }

    /// `x.view(x.size(0), -1)`: Shape → Gather → Unsqueeze → Concat → Reshape.
    #[test]
    fn view_of_size_folds_to_a_constant_reshape() {
        let mut g = Graph {
            name: "view".into(),
            inputs: vec![vi("x", &[1, 4, 2, 2])],
            outputs: vec![vi("y", &[1, 16])],
            initializers: vec![
                ("zero".into(), Tensor::from_i64(vec![], vec![0]).unwrap()),
                i64s("ax0", &[0]),
                i64s("minus1", &[-1]),
            ],
            nodes: vec![
                Node::new("relu", "Relu", &["x"], &["r"]),
                Node::new("shape", "Shape", &["r"], &["s"]),
                Node::new("gather", "Gather", &["s", "zero"], &["n"])
                    .with_attr("axis", Attr::Int(0)),
                Node::new("unsq", "Unsqueeze", &["n", "ax0"], &["n1"]),
                Node::new("cat", "Concat", &["n1", "minus1"], &["target"])
                    .with_attr("axis", Attr::Int(0)),
                Node::new("reshape", "Reshape", &["r", "target"], &["y"]),
            ],
        };
        let stats = simplify(&mut g, 1 << 20).unwrap();
        assert_eq!(stats.folded, 4);
        let ops: Vec<&str> = g.nodes.iter().map(|n| n.op_type.as_str()).collect();
        assert_eq!(ops, ["Relu", "Reshape"]);
        assert_eq!(g.initializer("target").unwrap().as_i64().unwrap(), &[1, -1]);
    }

    /// `F.interpolate(size=x.shape[-2:])` through a float Floor (which shape
    /// inference does not propagate), then the Shape of the Resize result:
    /// only a second round, with the sizes constant, sees that shape.
    #[test]
    fn shape_of_a_computed_resize_folds_in_a_second_round() {
        let mut g = Graph {
            name: "interp".into(),
            inputs: vec![vi("x", &[1, 2, 3, 3]), vi("z", &[1, 2, 6, 6])],
            outputs: vec![vi("y", &[1, 2, 6, 6]), vi("s2", &[4])],
            initializers: vec![
                i64s("st", &[2]),
                i64s("en", &[4]),
                i64s("ax", &[0]),
                i64s("nc", &[1, 2]),
            ],
            nodes: vec![
                Node::new("shape", "Shape", &["z"], &["s"]),
                Node::new("slice", "Slice", &["s", "st", "en", "ax"], &["hw"]),
                Node::new("tof", "Cast", &["hw"], &["hwf"]).with_attr("to", Attr::Int(1)),
                Node::new("floor", "Floor", &["hwf"], &["hwr"]),
                Node::new("toi", "Cast", &["hwr"], &["hwi"]).with_attr("to", Attr::Int(7)),
                Node::new("cat", "Concat", &["nc", "hwi"], &["sizes"])
                    .with_attr("axis", Attr::Int(0)),
                Node::new("resize", "Resize", &["x", "", "", "sizes"], &["y"])
                    .with_attr("mode", Attr::String("nearest".into())),
                Node::new("shape2", "Shape", &["y"], &["s2"]),
            ],
        };
        let stats = simplify(&mut g, 1 << 20).unwrap();
        let ops: Vec<&str> = g.nodes.iter().map(|n| n.op_type.as_str()).collect();
        assert_eq!(ops, ["Resize"], "every Shape-derived node folds");
        assert_eq!(stats.folded, 7);
        assert_eq!(
            g.initializer("sizes").unwrap().as_i64().unwrap(),
            &[1, 2, 6, 6]
        );
        assert_eq!(
            g.initializer("s2").unwrap().as_i64().unwrap(),
            &[1, 2, 6, 6]
        );
    }

    /// A dynamic input dimension keeps its Shape node.
    #[test]
    fn shape_of_a_dynamic_tensor_stays() {
        let mut g = Graph {
            name: "dyn".into(),
            inputs: vec![ValueInfo {
                name: "x".into(),
                dtype: DType::F32,
                dims: vec![Dim::Param("N".into()), Dim::Fixed(4)],
            }],
            outputs: vec![vi("s", &[2])],
            initializers: vec![],
            nodes: vec![Node::new("shape", "Shape", &["x"], &["s"])],
        };
        assert_eq!(simplify(&mut g, 1 << 20).unwrap().folded, 0);
        assert_eq!(g.nodes.len(), 1);
    }
}
