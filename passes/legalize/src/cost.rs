//! Cost models: what an extraction minimizes, per target.
//!
//! In: a saturated e-graph and a [`Target`]. Out: a cost per e-node
//! ([`NodeCosts`]), which the extractors ([`crate::extract`]) sum.
//!
//! # Units
//! One unit is one cycle of the engine that runs the op, at the throughput
//! the target's configuration gives it: CONV work is MACs / (atomic-C ×
//! atomic-K), SDP/PDP/CDP work is elements / 8 per pass, MVU work is MACs /
//! 64². On top of the work every launched op pays [`LAUNCH`] cycles (a
//! descriptor, a memory round trip), so *fewer, fused* ops win over
//! equivalent chains — BN folded into Conv beats Conv + Mul + Add, and a
//! kept ReLU6 beats Max + Min. Free things (graph inputs, weights, constant
//! subgraphs the compiler folds, Reshape/Squeeze aliases) cost
//! [`EPSILON`], never zero, so every cycle in the e-graph has positive cost
//! and extraction terminates on an acyclic choice.
//!
//! CPU work (ops marked `onnc.device = "cpu"`, NVDLA's EMU) costs
//! [`CPU_LAUNCH`] plus [`CPU_PER_ELEMENT`] per element: far more than the
//! accelerator, so the CPU path is chosen only when nothing native exists.
//!
//! # Saturation
//! Tree costs (the greedy extractor) count a shared subgraph once per use,
//! so on a densely connected net (DenseNet) the sums grow exponentially.
//! Every finite sum saturates at [`SATURATED`] (1e30): finite stays finite,
//! orderings among reasonable graphs are exact, and a saturated value still
//! means "legal".
//!
//! # Infinity
//! An op the target cannot run costs `f64::INFINITY`, and so does every term
//! containing it (∞ + x = ∞; we never subtract or multiply by zero, so no
//! NaN). After extraction, an infinite root cost means some op has no legal
//! form: [`crate::diagnose`] walks down to the frontier and reports each
//! such op with the limit it violates.
//!
//! ```
//! use onnc_legalize::cost::{add, SATURATED};
//! assert_eq!(add(1.0, 2.0), 3.0);
//! assert_eq!(add(SATURATED, SATURATED), SATURATED);
//! assert!(add(1.0, f64::INFINITY).is_infinite());
//! ```

use crate::analysis::Graph;
use crate::lang::ENode;
use crate::legality::{judge, Verdict};
use crate::target::Target;
use rustc_hash::FxHashMap as HashMap;

/// Cost of a free node.
pub const EPSILON: f64 = 1e-3;
/// Fixed cost of launching one accelerator op.
pub const LAUNCH: f64 = 1000.0;
/// Fixed cost of one CPU-path op.
pub const CPU_LAUNCH: f64 = 1e6;
/// CPU cost per element.
pub const CPU_PER_ELEMENT: f64 = 100.0;
/// Where finite sums stop growing.
pub const SATURATED: f64 = 1e30;

/// Saturating addition: finite + finite ≤ [`SATURATED`]; anything + ∞ = ∞.
pub fn add(a: f64, b: f64) -> f64 {
    if a.is_infinite() || b.is_infinite() {
        f64::INFINITY
    } else {
        (a + b).min(SATURATED)
    }
}

/// The cost of a verdict.
pub fn verdict_cost(v: &Verdict) -> f64 {
    match v {
        Verdict::Free => EPSILON,
        Verdict::Native(work) => LAUNCH + work,
        Verdict::Cpu(elems) => CPU_LAUNCH + CPU_PER_ELEMENT * elems,
        Verdict::Illegal(_) => f64::INFINITY,
    }
}

/// Each e-node's own cost (not counting operands), computed once per extraction.
#[derive(Debug, Default)]
pub struct NodeCosts {
    map: HashMap<ENode, f64>,
}

impl NodeCosts {
    /// Judges every e-node of `eg` for `target`.
    pub fn new(eg: &Graph, target: Target) -> NodeCosts {
        let mut map = HashMap::default();
        for class in eg.classes() {
            for n in &class.nodes {
                map.insert(n.clone(), verdict_cost(&judge(target, eg, n, &class.data)));
            }
        }
        NodeCosts { map }
    }

    /// Costs from a function of the e-node (for experiments and tests).
    pub fn from_fn(eg: &Graph, f: impl Fn(&ENode) -> f64) -> NodeCosts {
        NodeCosts {
            map: eg
                .classes()
                .flat_map(|c| c.nodes.iter())
                .map(|n| (n.clone(), f(n)))
                .collect(),
        }
    }

    /// Costs that count illegal e-nodes: 1 for an illegal e-node, 10⁻⁶ for any
    /// other. Extracting with these finds a graph with the fewest illegal ops,
    /// which [`crate::diagnose`] reports.
    pub fn violation_counts(&self) -> NodeCosts {
        NodeCosts {
            map: self
                .map
                .iter()
                .map(|(n, c)| (n.clone(), if c.is_finite() { 1e-6 } else { 1.0 }))
                .collect(),
        }
    }

    /// The own cost of `node` (∞ when unknown).
    pub fn get(&self, node: &ENode) -> f64 {
        self.map.get(node).copied().unwrap_or(f64::INFINITY)
    }
}
