//! The working graph the lowering walks: constants evaluated, shapes known,
//! consumers indexed.
//!
//! In: a legalized [`onnc_onnx::Graph`]. Out: [`Work`]: the nodes that
//! compute on features (every node whose operands are all constant, such as
//! the `ConstantOfShape`/`Unsqueeze` chains of the light zoo models, is
//! evaluated with `onnc-interp` and becomes a constant), the constant table,
//! every value's static shape, each value's consumers and the ONNX node names
//! each working node stands for.
//!
//! ```
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{DType, Tensor};
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 4, 2, 2])],
//!     outputs: vec![vi("y", &[1, 4, 2, 2])],
//!     initializers: vec![("c".into(), Tensor::from_f32(vec![4], vec![1.0; 4]).unwrap()),
//!                        ("axes".into(), Tensor::from_i64(vec![2], vec![1, 2]).unwrap())],
//!     nodes: vec![Node::new("u", "Unsqueeze", &["c", "axes"], &["c3"]), Node::new("m", "Mul", &["x", "c3"], &["y"])],
//!     ..Default::default()
//! };
//! let w = onnc_nvdla::lower::graph::Work::new(&g).unwrap();
//! assert_eq!(w.nodes.len(), 1);
//! assert_eq!(w.consts["c3"].shape(), &[4, 1, 1]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use onnc_onnx::{Graph, Node};
use onnc_tensor::Tensor;
use rustc_hash::FxHashMap;

use super::error::Problem;

/// The attribute legalization puts on nodes for the CPU path.
pub const DEVICE_ATTR: &str = "onnc.device";

/// The graph being lowered.
#[derive(Debug, Clone)]
pub struct Work {
    /// Nodes that compute on features, in topological order.
    pub nodes: Vec<Node>,
    /// For each node: the ONNX node names it stands for.
    pub sources: Vec<Vec<String>>,
    /// Constant values (initializers and evaluated constant subgraphs).
    pub consts: BTreeMap<String, Tensor>,
    /// Static shape of every value (a hash table: looked up, never walked).
    pub shapes: FxHashMap<String, Vec<usize>>,
    /// Graph output names.
    pub outputs: BTreeSet<String>,
    /// Consumers (node indices) of every value, in node order (a hash
    /// table: looked up, never walked).
    pub uses: FxHashMap<String, Vec<usize>>,
}

impl Work {
    /// Evaluates constants and indexes `g`; a problem per value without a static shape.
    pub fn new(g: &Graph) -> Result<Work, Vec<Problem>> {
        let types = onnc_onnx::infer_graph(g).map_err(|e| {
            vec![Problem::new(
                &g.name,
                "graph",
                format!("shape inference failed: {e}"),
                "simplify the model (onnx-simplify) so every shape is static",
            )]
        })?;
        let mut consts: BTreeMap<String, Tensor> = g.initializers.iter().cloned().collect();
        let mut nodes = Vec::new();
        for n in &g.nodes {
            if let Some(outs) = fold(n, &consts) {
                for (name, t) in n.outputs.iter().zip(outs) {
                    consts.insert(name.clone(), t);
                }
            } else {
                nodes.push(n.clone());
            }
        }
        let mut shapes = FxHashMap::default();
        let mut problems = Vec::new();
        for n in &nodes {
            for v in n.inputs.iter().flatten().chain(&n.outputs) {
                if v.is_empty() || shapes.contains_key(v) {
                    continue;
                }
                if let Some(t) = consts.get(v) {
                    shapes.insert(v.clone(), t.shape().to_vec());
                } else if let Some(s) = types.get(v).and_then(|t| t.static_shape()) {
                    shapes.insert(v.clone(), s);
                } else {
                    problems.push(Problem::new(
                        &n.name,
                        &n.op_type,
                        format!("value '{v}' has no static shape"),
                        "give the inputs fixed shapes (--input-shape) and run onnx-simplify",
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let sources = nodes.iter().map(|n| vec![n.name.clone()]).collect();
        let mut w = Work {
            nodes,
            sources,
            consts,
            shapes,
            outputs: g.outputs.iter().map(|o| o.name.clone()).collect(),
            uses: FxHashMap::default(),
        };
        w.reindex();
        Ok(w)
    }

    /// Recomputes [`Work::uses`] after the node list changed.
    pub fn reindex(&mut self) {
        self.uses.clear();
        for (i, n) in self.nodes.iter().enumerate() {
            for v in n.inputs.iter().flatten() {
                let u = self.uses.entry(v.clone()).or_default();
                if u.last() != Some(&i) {
                    u.push(i);
                }
            }
        }
    }

    /// The consumers of `v`.
    pub fn users(&self, v: &str) -> &[usize] {
        self.uses.get(v).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether `v` is read by exactly one node and is not a graph output.
    pub fn single_use(&self, v: &str) -> bool {
        self.users(v).len() == 1 && !self.outputs.contains(v)
    }

    /// The constant `v`, if it is one.
    pub fn constant(&self, v: &str) -> Option<&Tensor> {
        self.consts.get(v)
    }

    /// The shape of `v` (empty when unknown, which [`Work::new`] rules out).
    pub fn shape(&self, v: &str) -> &[usize] {
        self.shapes.get(v).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The index of the node producing `v`.
    pub fn producer(&self, v: &str) -> Option<usize> {
        self.nodes
            .iter()
            .position(|n| n.outputs.iter().any(|o| o == v))
    }
}

/// The outputs of `n` when every operand is constant and the interpreter
/// runs it ([`onnc_interp::fold`]); a node placed on the CPU stays a node,
/// and a kernel that fails leaves the node for the lowering to report.
fn fold(n: &Node, consts: &BTreeMap<String, Tensor>) -> Option<Vec<Tensor>> {
    if n.attrs.contains_key(DEVICE_ATTR) {
        return None;
    }
    onnc_interp::fold::fold_node(n, |name| consts.get(name))?.ok()
}
