//! `onnc-legalize{target=...}` — equality saturation (egg) that makes an
//! `onnx`-dialect graph runnable on one target.
//!
//! Input: `onnx` dialect after `onnx-simplify` → Output: `onnx` dialect in
//! which every op is one the target runs (or is marked for its CPU path with
//! `onnc.device = "cpu"`); merged ops carry fused locations
//! (`loc(fused["conv1", "bn1"])`).
//!
//! Before (nv_full):
//! ```mlir
//! %c = "onnx.conv"(%x, %w, %b) {...} loc("conv1")
//! %n = "onnx.batch_normalization"(%c, %s, %o, %m, %v) {...} loc("bn1")
//! %f = "onnx.flatten"(%n) {axis = 1 : i64} loc("flat")
//! ```
//! After `--pass-pipeline='builtin.module(onnc-legalize{target=nv_full})'`:
//! ```mlir
//! %c = "onnx.conv"(%x, %w2, %b2) {...} loc(fused["conv1", "bn1"])   // BN folded into the weights
//! %f = "onnx.reshape"(%c, %shape) {...} loc("flat")
//! ```
//!
//! The rules, cost models and extraction live in the `onnc-legalize` engine
//! (`passes/legalize`, its README lists every rule by target). The pass
//! legalizes the in-memory graph and gives it the text form's names
//! (`pipeline::names::settle`).
//!
//! Options: `target` (nv_full|nv_large|nv_small|nnie|mvu), `node-limit`,
//! `iter-limit`, `time-limit-ms`, `extractor` (dag|greedy), `report` (emit
//! the e-graph report — e-nodes, e-classes, iterations, stop reason, time,
//! rules fired — as a remark on each function).
//! Preconditions: static shapes (run `onnx-simplify` first).
//! Failure modes: every op no rule makes legal is reported at once, each at
//! its own location, naming the op, the target and the violated limit
//! ("MaxPool kernel 9 exceeds nv_full's limit of 8"); then the pass fails.

use crate::pipeline::{mlir_face, Diags, Module, Pass};
use onnc_dialects::{
    ir::Severity,
    pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration},
};
use onnc_legalize::{options, ExtractorKind, Options, Target};
use std::collections::HashSet;

/// Registration of `onnc-legalize`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "onnc-legalize",
    summary: "Rewrite what the target cannot run into what it can (egg equality saturation)",
    anchor: "builtin.module",
    options: &[
        OptionSpec {
            name: "target",
            kind: OptionKind::Enum(&["nv_full", "nv_large", "nv_small", "nnie", "mvu"]),
            default: "nv_full",
            help: "the hardware to legalize for",
        },
        OptionSpec {
            name: "node-limit",
            kind: OptionKind::Int {
                min: 1,
                max: 100_000_000,
            },
            default: "200000",
            help: "stop saturating at this many e-nodes",
        },
        OptionSpec {
            name: "iter-limit",
            kind: OptionKind::Int {
                min: 1,
                max: 10_000,
            },
            default: "30",
            help: "stop saturating after this many iterations",
        },
        OptionSpec {
            name: "time-limit-ms",
            kind: OptionKind::Int {
                min: 1,
                max: 86_400_000,
            },
            default: "60000",
            help: "stop saturating after this long (the only non-deterministic stop)",
        },
        OptionSpec {
            name: "extractor",
            kind: OptionKind::Enum(&["dag", "greedy"]),
            default: "dag",
            help: "greedy tree-cost extraction, or DAG-aware (shared subgraphs counted once)",
        },
        OptionSpec {
            name: "report",
            kind: OptionKind::Bool,
            default: "false",
            help: "emit the e-graph report as a remark",
        },
    ],
    factory: |o: &PassOptions| mlir_face::body("onnc-legalize", o),
};

fn make_legalize(o: &PassOptions) -> Result<Legalize, String> {
    let target: Target = o
        .str("target")
        .parse()
        .map_err(|e: onnc_legalize::Error| e.to_string())?;
    let options = Options {
        node_limit: o.int("node-limit") as usize,
        iter_limit: o.int("iter-limit") as usize,
        time_limit: std::time::Duration::from_millis(o.int("time-limit-ms") as u64),
        extractor: if o.str("extractor") == "greedy" {
            ExtractorKind::Greedy
        } else {
            ExtractorKind::Dag
        },
        dag_passes: options::DEFAULT_DAG_PASSES,
    };
    Ok(Legalize {
        target,
        options,
        report: o.bool("report"),
    })
}

struct Legalize {
    target: Target,
    options: Options,
    report: bool,
}

/// A problem legalization found: the node it names (if any) and the message.
type Blame = (Option<String>, String);

/// Why legalization failed: every problem, and a note when saturation
/// stopped early (some ops may have had a legal form it did not reach).
type Refusal = (Vec<Blame>, Option<String>);

impl Legalize {
    /// Legalizes `graph`; the e-graph report with `report=true`.
    fn apply(
        &self,
        graph: onnc_onnx::Graph,
    ) -> Result<(onnc_onnx::Graph, Option<String>), Refusal> {
        match onnc_legalize::legalize(graph, self.target, &self.options) {
            Ok(l) => Ok((l.graph, self.report.then_some(l.report.to_string()))),
            Err(onnc_legalize::Error::Illegal {
                target,
                violations,
                stop,
            }) => Err((
                violations
                    .into_iter()
                    .map(|v| {
                        (
                            Some(v.node),
                            format!("'{}' cannot run on {target}: {}", v.op, v.reason),
                        )
                    })
                    .collect(),
                stop.incomplete(),
            )),
            Err(e) => Err((vec![(None, format!("onnc-legalize: {e}"))], None)),
        }
    }

    fn report_text(&self, function: &str, report: &str) -> String {
        format!(
            "onnc-legalize report for @{function} on {}:\n{report}",
            self.target
        )
    }
}

/// The in-memory `onnc-legalize` (see [`crate::pipeline`]).
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    make_legalize(o).map(|l| Box::new(l) as Box<dyn Pass>)
}

impl Pass for Legalize {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let graph = module.onnx_mut("onnc-legalize").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let nodes: HashSet<String> = graph.nodes.iter().map(|n| n.name.clone()).collect();
        // The graph's name is its function's (`main_graph` in a compile).
        let function = graph.name.clone();
        match self.apply(std::mem::take(graph)) {
            Ok((g, report)) => {
                if let Some(r) = report {
                    diags.at_module(Severity::Remark, self.report_text(&function, &r));
                }
                *graph = g;
                crate::pipeline::names::settle(graph, "onnc-legalize", diags)
            }
            Err((blames, incomplete)) => {
                for (node, m) in blames {
                    diags.error(node.as_deref().filter(|n| nodes.contains(*n)), m);
                }
                if let Some(note) = incomplete {
                    diags.push(Severity::Note, None, note);
                }
                Err(PassFailed)
            }
        }
    }
}
