//! Every check `onnc compile` can make, in one round, when legalization
//! refuses some nodes: the refused nodes are cut out ([`crate::cut`]) and
//! legalization runs again on the rest (until it accepts it), then the
//! lowering's checks run on what legalization accepted. Nothing is
//! emitted.
//!
//! In: the command line, the legalization pipeline
//! (`onnc-legalize{target=...}`) and the target's check of a legalized
//! module ([`Lowering`]: `convert-onnx-to-nvdla{...}` for NVDLA, the MVU
//! code generator for BARVINN). Out: a
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
//! problems (those at no node) are left out: they would judge the cut.

use crate::{
    cli::Compile,
    common::diagnostics::Failure,
    pipeline::{run_on, Compilation},
    stages::stopped_in,
};
use onnc_diag::{graph_order, parse, parse_all, Diagnostic};
use onnc_passes::pipeline::Module;
use std::collections::BTreeSet;

/// How many times legalization runs at most (each round cuts the nodes
/// the previous one refused; one or two rounds are the rule).
const MAX_ROUNDS: usize = 8;

/// The target's check of what legalization accepted: its errors and
/// warnings in the engines' text forms (empty when it accepts everything).
pub type Lowering<'a> = &'a dyn Fn(Module) -> Vec<String>;

/// `convert-onnx-to-nvdla{...}` as the lowering check.
pub fn nvdla_lowering(convert: &str) -> impl Fn(Module) -> Vec<String> + '_ {
    move |mut m| match run_on(&mut m, "convert-onnx-to-nvdla", convert) {
        Ok(w) | Err(w) => w,
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
    for _ in 0..MAX_ROUNDS {
        let cut = crate::cut::without(&graph, &refused).map_err(|e| {
            let mut f = Failure::from(legalization.clone());
            f.diagnostics.push(Diagnostic::error(format!(
                "the checks after legalization cannot run: {e}"
            )));
            f.stopped(stopped_in("onnc-legalize"))
        })?;
        changed_interface = cut.changed_interface;
        let mut module = Module::Onnx(cut.graph);
        match run_on(&mut module, "onnc-legalize", legalize) {
            Ok(warnings) => {
                legalization.extend(warnings.iter().map(|m| parse(m)));
                accepted = Some(module);
                break;
            }
            Err(messages) => {
                let found: Vec<Diagnostic> = messages.iter().map(|m| parse(m)).collect();
                let new: Vec<String> = found
                    .iter()
                    .filter(|d| d.is_error())
                    .filter_map(|d| d.node.clone())
                    .filter(|n| !refused.contains(n) && graph.node(n).is_some())
                    .collect();
                legalization.extend(found);
                if new.is_empty() {
                    break; // nothing more to cut: report what was found
                }
                refused.extend(new);
            }
        }
    }
    let mut lowered: Vec<Diagnostic> = accepted
        .map(|m| lowering(m).iter().flat_map(|m| parse_all(m)).collect())
        .unwrap_or_default();
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
            d.node.is_some() && cut_boundary(&d.message).is_none_or(|name| interface.contains(name))
        });
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

/// The value a lowering message is about when it names a graph input or
/// output (`... the graph output 'q' ...`), for telling the model's own
/// boundary from one the cut made.
fn cut_boundary(message: &str) -> Option<&str> {
    ["graph output '", "graph input '"].iter().find_map(|key| {
        let rest = &message[message.find(key)? + key.len()..];
        rest.split('\'').next()
    })
}

#[cfg(test)]
mod tests {
    use super::cut_boundary;

    #[test]
    fn boundary_names_are_read_from_lowering_messages() {
        assert_eq!(
            cut_boundary("writes the graph output 'proj_q' [1, 8, 16] as tokens"),
            Some("proj_q")
        );
        assert_eq!(
            cut_boundary("reads the graph input 't' [1, 8, 16]"),
            Some("t")
        );
        assert_eq!(cut_boundary("needs 29 CBUF banks"), None);
    }
}
