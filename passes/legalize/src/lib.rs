//! `onnc-legalize` — rewrite what a target cannot run into what it can, by
//! equality saturation (egg), and extract the cheapest legal graph.
//!
//! In: an [`onnc_onnx::Graph`] (normalized, static shapes; weights as
//! initializers or constant subgraphs) and a [`Target`]. Out: a
//! [`Legalized`] graph in which every op runs on the target (natively, or
//! marked for its CPU path with [`DEVICE_ATTR`]), the source nodes of every
//! output node ([`Provenance`], for fused MLIR locations) and a [`Report`];
//! or [`Error::Illegal`] listing **every** op no rule made legal, with the
//! violated limit.
//!
//! # The outer loop
//! 1. [`build`]: one e-node per ONNX node; attributes ride in the e-node,
//!    weights stay in a side table referred to by name; the analysis
//!    ([`analysis`]) types every e-class with onnc-onnx's shape inference.
//! 2. Saturate with the target's rules ([`rules`]): each rule adds an
//!    equivalent form and merges it with the matched e-class; nothing is
//!    deleted. Rules are directional (source form → target form), so the
//!    e-graph stays small and saturates in a few iterations. Limits:
//!    [`Options`].
//! 3. Extract ([`extract`]) with the target's cost model ([`cost`]): ops the
//!    target cannot run cost ∞, so a finite result is a legal graph, and
//!    among legal graphs the one the hardware runs best wins.
//! 4. If the result is ∞, [`diagnose`] reports every illegal op of the graph
//!    with the fewest illegal ops, with the violated limits.
//! 5. [`rebuild`] the graph: node names kept (`conv1+bn1` for fusions),
//!    value names kept, new initializers for folded weights.
//!
//! Determinism: egg's tables use a fixed hasher; our own tables are
//! B-trees; rules run in a fixed order; extraction breaks ties by e-class
//! id. The same input gives the same output unless the time limit stops
//! saturation (it is 60 s by default and never reached by the tests).
//!
//! ```
//! use onnc_legalize::{legalize, Options, Target};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 8, 4, 4])],
//!     outputs: vec![vi("y", &[1, 8, 1, 1])],
//!     nodes: vec![Node::new("gap", "GlobalAveragePool", &["x"], &["y"])],
//!     ..Default::default()
//! };
//! let out = legalize(g, Target::NvFull, &Options::default()).unwrap();
//! assert_eq!(out.graph.nodes[0].op_type, "AveragePool");
//! assert_eq!(out.provenance[0].sources, ["gap"]);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod analysis;
pub mod build;
pub mod cond;
pub mod cost;
pub mod diagnose;
mod error;
pub mod extract;
pub mod lang;
pub mod legality;
mod limits;
pub mod options;
pub mod rebuild;
pub mod report;
pub mod rules;
pub mod target;
pub mod target_ops;
pub mod targets;

pub use diagnose::Violation;
pub use error::{Error, Result};
pub use extract::ExtractorKind;
pub use options::Options;
pub use report::{Report, StopReason};
pub use target::{Config, Target, ALL_TARGETS};

use std::time::Instant;

/// The attribute that marks a node for the target's CPU path; its value is `"cpu"`.
pub const DEVICE_ATTR: &str = "onnc.device";
/// The domain of onnc's own target ops ([`target_ops`]).
pub const ONNC_DOMAIN: &str = "onnc";

/// Which input-graph nodes an output node was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The output node's name.
    pub node: String,
    /// The input nodes' names, sorted (e.g. `["bn1", "conv1"]` for `conv1+bn1`).
    pub sources: Vec<String>,
}

/// A legalized graph.
#[derive(Debug, Clone)]
pub struct Legalized {
    /// The graph: every op legal for the target.
    pub graph: onnc_onnx::Graph,
    /// For each node of `graph`, in order: its sources.
    pub provenance: Vec<Provenance>,
    /// What the run did.
    pub report: Report,
}

/// Legalizes `graph` for `target`.
pub fn legalize(graph: onnc_onnx::Graph, target: Target, opts: &Options) -> Result<Legalized> {
    let t0 = Instant::now();
    let input_nodes = graph.nodes.len();
    limits::check_sizes(&graph)?;
    let built = build::build(graph)?;
    let build_time = t0.elapsed();

    let t1 = Instant::now();
    let runner = egg::Runner::<lang::ENode, analysis::TensorAnalysis, ()>::new(
        analysis::TensorAnalysis::default(),
    )
    .with_egraph(built.egraph)
    .with_node_limit(opts.node_limit)
    .with_iter_limit(opts.iter_limit)
    .with_time_limit(opts.time_limit)
    .with_scheduler(egg::SimpleScheduler)
    .run(&rules::rewrites(target));
    let saturate_time = t1.elapsed();
    let stop = runner
        .stop_reason
        .as_ref()
        .map(StopReason::from)
        .unwrap_or_default();
    let iterations = runner.iterations.len();
    let mut eg = runner.egraph;
    eg.rebuild();

    let t2 = Instant::now();
    let costs = cost::NodeCosts::new(&eg, target);
    let root = eg.find(built.root);
    let sel = match opts.extractor {
        ExtractorKind::Greedy => extract::greedy(&eg, &costs, root),
        ExtractorKind::Dag => extract::dag(&eg, &costs, root, opts.dag_passes),
    };
    if !sel.cost.is_finite() {
        let mut violations = diagnose::diagnose(&eg, &costs, root, target);
        // Refusals are reported in graph order (the nodes are sorted); the
        // index is built only here, on the error path.
        let order: std::collections::HashMap<&str, usize> = built
            .plan
            .node_names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        violations.sort_by_key(|v| order.get(v.node.as_str()).copied().unwrap_or(usize::MAX));
        if violations.is_empty() {
            return Err(Error::Internal(
                "the extracted graph is illegal but no frontier op was found".into(),
            ));
        }
        return Err(Error::Illegal {
            target: target.name().into(),
            violations,
            stop,
        });
    }
    let weights = std::mem::take(&mut eg.analysis.weights);
    let (graph, provenance) = rebuild::rebuild(&eg, weights, &sel, root, &built.plan);
    let report = Report {
        target: target.name().into(),
        input_nodes,
        output_nodes: graph.nodes.len(),
        enodes: eg.total_size(),
        eclasses: eg.number_of_classes(),
        iterations,
        stop_reason: stop,
        build_time,
        saturate_time,
        extract_time: t2.elapsed(),
        cost: sel.cost,
        rules_fired: std::mem::take(&mut eg.analysis.fire_counts),
    };
    Ok(Legalized {
        graph,
        provenance,
        report,
    })
}
