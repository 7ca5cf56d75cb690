//! Every check `onnc compile` can make, in one round, when legalization
//! refuses some nodes: the refused nodes are cut out ([`crate::cut`]) and
//! legalization runs again on the rest (until it accepts it), then the
//! lowering's checks run on what legalization accepted. Nothing is
//! emitted.
//!
//! In: the command line, the legalization pipeline
//! (`onnc-legalize{target=...}`) and the target's check of a legalized
//! module ([`Lowering`]: NVDLA's lowering, the MVU code generator for
//! BARVINN, the NNIE layer mapping). Out: a
//! [`Failure`] with every refusal and lowering problem, each at the node
//! that causes it, in graph order, and a summary saying how many came
//! from each stage:
//!
//! ```text
//! m.onnx: node 'up' (Resize): error: cannot run on nv_small: ...
//! m.onnx: node 'cat' (Concat): error: concatenates along an axis other than channels; fix: ...
//! error: 2 problems; 1 in legalization, 1 in lowering; stopped before emission
//! ```
//! A node's problems are found once the nodes before it that legalization
//! refused are cut; what follows a cut reads a graph input of the same
//! shape, so the shapes it is checked with are the model's. When the cut
//! changes the model's inputs or outputs, the lowering's whole-model
//! problems (those at no node) are left out, and so are those about a
//! graph input or output the cut made ([`Diagnostic::value`], set where
//! the lowering raises them): they would judge the cut.

use crate::{
    cli::Compile,
    common::diagnostics::Failure,
    pipeline::{run_on, Compilation},
    stages::stopped_in,
};
use onnc_diag::{graph_order, parse, Diagnostic};
use onnc_nvdla::{lower::LowerOptions, ConfigName, Precision};
use onnc_passes::pipeline::Module;
use std::collections::BTreeSet;

/// How many times legalization runs at most (each round cuts the nodes
/// the previous one refused; one or two rounds are the rule).
const MAX_ROUNDS: usize = 8;

/// The target's check of what legalization accepted: its errors and
/// warnings (none when it accepts everything), each problem about a
/// graph input or output carrying it in [`Diagnostic::value`].
pub type Lowering<'a> = &'a dyn Fn(Module) -> Vec<Diagnostic>;

/// A refusal found only after the first round's refused nodes were cut out,
/// as a note: the node maps together with them, and fails only alone.
fn consequence(d: &Diagnostic) -> Diagnostic {
    Diagnostic {
        severity: onnc_diag::Severity::Note,
        message: format!(
            "{} (only once the other refused nodes are cut out: it maps together with them; fix those first)",
            d.message
        ),
        ..d.clone()
    }
}

/// `message` with each graph input the cut made (an output of a refused
/// node, in `cut_inputs` but not among `graph`'s inputs) named as what it
/// is: `graph input 'v'` becomes `'n' (refused above)`, `n` the node of
/// `graph` that outputs `v`.
fn name_cut_inputs(message: &str, graph: &onnc_onnx::Graph, cut_inputs: &[String]) -> String {
    let mut m = message.to_string();
    for v in cut_inputs {
        if graph.inputs.iter().any(|i| &i.name == v) {
            continue;
        }
        if let Some(n) = graph.nodes.iter().find(|n| n.outputs.contains(v)) {
            m = m.replace(
                &format!("graph input '{v}'"),
                &format!("'{}' (refused above)", n.name),
            );
        }
    }
    m
}

/// NVDLA's lowering (`convert-onnx-to-nvdla` for `spec`: `nv_small`,
/// `nv_full:int8`...) as the lowering check: its problems with the graph
/// input or output each is about, and its warnings.
pub fn nvdla_lowering(spec: &str) -> impl Fn(Module) -> Vec<Diagnostic> + '_ {
    move |m| match m {
        Module::Onnx(g) => nvdla_problems(&g, spec),
        Module::Nvdla(_) | Module::Mvu(_) | Module::Nnie(_) => Vec::new(),
    }
}

fn nvdla_problems(g: &onnc_onnx::Graph, spec: &str) -> Vec<Diagnostic> {
    let (config, precision) = spec.split_once(':').unwrap_or((spec, "auto"));
    let config: ConfigName = match config.parse() {
        Ok(c) => c,
        Err(e) => return vec![Diagnostic::error(e)],
    };
    let precision = match precision {
        "auto" => None,
        p => match Precision::parse(p) {
            Some(p) => Some(p),
            None => return vec![Diagnostic::error(format!("unknown precision '{p}'"))],
        },
    };
    let opts = LowerOptions {
        precision,
        ..Default::default()
    };
    // The pass's text form (`node 'X': error: onnx.Op 'X': what; fix: how`).
    let at = |node: &str, word: &str, text: String| match g.node(node) {
        Some(_) => parse(&format!("node '{node}': {word}: {text}")),
        None => parse(&format!("{word}: {text}")),
    };
    match onnc_nvdla::lower::lower(g, config, &opts) {
        Ok(program) => onnc_nvdla::lower::weight_values::warnings(&program)
            .iter()
            .map(|w| at(&w.node, "warning", w.to_string()))
            .collect(),
        Err(e) => e
            .problems()
            .iter()
            .map(|p| {
                let mut d = at(&p.node, "error", p.to_string());
                d.value = p.value.clone();
                d
            })
            .collect(),
    }
}

/// The diagnostics of every check (see the module documentation).
pub fn check(c: &Compile, legalize: &str, lowering: Lowering) -> Failure {
    match run(c, legalize, lowering) {
        Ok(f) | Err(f) => f,
    }
}

fn run(c: &Compile, legalize: &str, lowering: Lowering) -> Result<Failure, Failure> {
    // The simplified graph again (the failed legalization consumed it);
    // silently: this is not a new stage for the progress lines.
    let mut s = Compilation::import(&c.model, &c.input_shape, None, false, 1)
        .map_err(|m| Failure::from(m).stopped(stopped_in("import")))?;
    s.try_run("onnx-simplify", "onnx-simplify")
        .map_err(|m| Failure::from(m).stopped(stopped_in("onnx-simplify")))?;
    let Module::Onnx(graph) = std::mem::replace(&mut s.module, Module::Onnx(Default::default()))
    else {
        return Err(Failure::from(vec![
            "internal error: onnx-simplify left the onnx level".to_string(),
        ]));
    };
    let mut refused: BTreeSet<String> = BTreeSet::new();
    let mut legalization: Vec<Diagnostic> = Vec::new();
    let mut accepted: Option<Module> = None;
    let mut changed_interface = false;
    let mut cut_inputs: Vec<String> = Vec::new();
    for round in 0..MAX_ROUNDS {
        let cut = crate::cut::without(&graph, &refused).map_err(|e| {
            let mut f = Failure::from(legalization.clone());
            f.diagnostics.push(Diagnostic::error(format!(
                "the checks after legalization cannot run: {e}"
            )));
            f.stopped(stopped_in("onnc-legalize"))
        })?;
        changed_interface = cut.changed_interface;
        cut_inputs = cut.graph.inputs.iter().map(|v| v.name.clone()).collect();
        let mut module = Module::Onnx(cut.graph);
        match run_on(&mut module, "onnc-legalize", legalize) {
            Ok(warnings) => {
                legalization.extend(warnings.iter().map(|m| parse(m)));
                accepted = Some(module);
                break;
            }
            Err(messages) => {
                let mut found: Vec<Diagnostic> = messages.iter().map(|m| parse(m)).collect();
                let new: Vec<String> = found
                    .iter()
                    .filter(|d| d.is_error())
                    .filter_map(|d| d.node.clone())
                    .filter(|n| !refused.contains(n) && graph.node(n).is_some())
                    .collect();
                if round > 0 {
                    // Every op of the graph was judged in the first round, and these were
                    // not blamed: they map together with the nodes refused before (a
                    // layout Transpose that cancels through a refused LayerNormalization,
                    // an op fused into a refused producer) and fail only alone, cut
                    // from them. Not problems of their own: notes.
                    for d in found.iter_mut().filter(|d| d.is_error()) {
                        *d = consequence(d);
                    }
                }
                legalization.extend(found);
                if new.is_empty() {
                    break; // nothing more to cut: report what was found
                }
                refused.extend(new);
            }
        }
    }
    let mut lowered: Vec<Diagnostic> = accepted.map(lowering).unwrap_or_default();
    if changed_interface {
        // Whole-model checks (one input, one output...) then judge the
        // cut, not the model: only what a node causes is reported, and
        // not what a node is blamed for about a graph input or output
        // the cut made (a token-layout output, say).
        let interface: BTreeSet<&str> = graph
            .inputs
            .iter()
            .chain(&graph.outputs)
            .map(|v| v.name.as_str())
            .collect();
        lowered.retain(|d| {
            d.node.is_some() && d.value.as_deref().is_none_or(|v| interface.contains(v))
        });
    }
    for d in &mut lowered {
        d.message = name_cut_inputs(&d.message, &graph, &cut_inputs);
    }
    let count = |v: &[Diagnostic]| v.iter().filter(|d| d.is_error()).count();
    let (in_legalization, in_lowering) = (count(&legalization), count(&lowered));
    let mut all = legalization;
    all.extend(lowered);
    all.dedup();
    graph_order(&mut all, graph.nodes.iter().map(|n| n.name.as_str()));
    let stopped = if in_lowering == 0 {
        format!(
            "{}; the lowering accepts the rest",
            stopped_in("onnc-legalize")
        )
    } else {
        format!(
            "{in_legalization} in legalization, {in_lowering} in lowering; stopped before emission"
        )
    };
    Ok(Failure::from(all).stopped(stopped))
}

#[cfg(test)]
mod tests {
    use super::name_cut_inputs;
    use onnc_onnx::{Graph, Node, ValueInfo};

    #[test]
    fn a_cut_made_input_is_named_by_its_refused_node() {
        let g = Graph {
            inputs: vec![ValueInfo::f32("x", &[1, 4])],
            nodes: vec![
                Node::new("silu_mul", "Mul", &["x", "s"], &["m_out"]),
                Node::new("add", "Add", &["m_out", "x"], &["y"]),
            ],
            ..Graph::default()
        };
        let cut = ["m_out".to_string(), "x".to_string()];
        assert_eq!(
            name_cut_inputs(
                "joins two paths (from graph input 'm_out' and graph input 'x')",
                &g,
                &cut
            ),
            "joins two paths (from 'silu_mul' (refused above) and graph input 'x')"
        );
    }
}
