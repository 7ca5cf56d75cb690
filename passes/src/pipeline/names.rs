//! The text form's naming rule, applied in memory: an ONNX-level value is
//! named after the node that produces it.
//!
//! MLIR values carry no names: the `onnx` dialect text gives each node its
//! name as a location, and reading the text back names every node's result
//! after its node (`conv1`; `split1:1` for a second result), keeps graph
//! inputs, constants (by their location) and declared outputs, and makes
//! clashes unique (`conv1_1`). [`canonicalize`] gives a graph exactly those
//! names, the graph shape the importer gives it (over-wide nodes chained,
//! unused weights dropped, output types inferred) and the function name
//! `main_graph` — so the in-memory pipeline and `onnc-opt` on the text see
//! the same graph, and emit the same bytes. The test below holds it to the
//! real round trip (import, then export) on every model it can find.
//!
//! In: a loaded or transformed graph. Out: the same graph, renamed, or the
//! shape-inference error that the importer would report.

use crate::{
    export::onnx::unique,
    import::{onnx::dialect_op, wide},
};
use onnc_dialects::schema::{self, Variadicity};
use onnc_onnx::{Dim, Graph, Node};
use std::collections::{HashMap, HashSet};

/// The name a node's location reads back as: `a+b` for a merged node (its
/// non-empty parts, as a fused location), the name itself otherwise.
fn location_name(name: &str) -> String {
    let parts: Vec<&str> = name.split('+').filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 {
        name.to_string()
    } else {
        parts.join("+")
    }
}

/// Only fixed sizes survive the text form (`?` otherwise).
fn text_dims(dims: &[Dim]) -> Vec<Dim> {
    dims.iter()
        .map(|d| match d {
            Dim::Fixed(n) => Dim::Fixed(*n),
            _ => Dim::Unknown,
        })
        .collect()
}

/// The node's results as its dialect op `op` (`onnx.custom` for an
/// undeclared one; `None` when even that is missing) has them: for each, the ONNX output
/// name it came from (`None` for a required result ONNX left unnamed), and
/// the position of each ONNX output slot in the exported node (`None` for an
/// absent optional one).
fn result_slots(node: &Node, op: Option<&schema::OpSchema>) -> Vec<Option<Option<String>>> {
    let Some(op) = op else {
        return node.outputs.iter().map(|o| Some(Some(o.clone()))).collect();
    };
    let mut slots = Vec::new();
    let mut next = 0usize;
    for slot in &op.results {
        let out = node.outputs.get(next).filter(|o| !o.is_empty()).cloned();
        match slot.variadicity {
            Variadicity::Single => {
                slots.push(Some(out));
                next += 1;
            }
            Variadicity::Optional => {
                slots.push(out.map(Some));
                next += 1;
            }
            Variadicity::Variadic => {
                let rest = node.outputs.get(next..).unwrap_or_default();
                slots.extend(rest.iter().map(|o| Some(Some(o.clone()))));
                next = node.outputs.len();
            }
        }
    }
    slots
}

/// The node's inputs as they read back through its dialect op `op` (as in
/// [`result_slots`]): absent optional operands as `None`
/// (trailing ones dropped), a variadic group without its gaps.
fn operand_names(node: &Node, op: Option<&schema::OpSchema>) -> Vec<Option<String>> {
    let mut inputs: Vec<Option<String>> = match op {
        None => node.inputs.clone(),
        Some(op) => {
            let mut out = Vec::new();
            let mut next = 0usize;
            for slot in &op.operands {
                match slot.variadicity {
                    Variadicity::Single | Variadicity::Optional => {
                        out.push(node.inputs.get(next).cloned().flatten());
                        next += 1;
                    }
                    Variadicity::Variadic => {
                        let rest = node.inputs.get(next..).unwrap_or_default();
                        out.extend(rest.iter().flatten().map(|n| Some(n.clone())));
                        next = node.inputs.len();
                    }
                }
            }
            out
        }
    };
    while inputs.last() == Some(&None) {
        inputs.pop();
    }
    inputs
}

/// Gives `g` the names and shape of its text form (see the module doc).
pub fn canonicalize(g: &mut Graph) -> Result<(), String> {
    let mut types = onnc_onnx::infer_graph(g).map_err(|e| e.to_string())?;
    let wide = g
        .nodes
        .iter()
        .any(|n| n.inputs.len() > wide::VARIADIC_SLOTS || n.outputs.len() > wide::VARIADIC_SLOTS);
    if wide {
        wide::expand(g, &types)?;
        types = onnc_onnx::infer_graph(g).map_err(|e| e.to_string())?;
    }
    let too_big = |dims: &[Dim]| {
        dims.iter().find_map(|d| match d {
            Dim::Fixed(n) if *n > i64::MAX as usize => Some(*n),
            _ => None,
        })
    };
    let mut names: Vec<&String> = types.keys().collect();
    names.sort();
    for name in names {
        if let Some(n) = too_big(&types[name].dims) {
            return Err(format!("value '{name}': a dimension of {n} is beyond the largest a tensor can have (2^63-1); the shape, pads or strides that produce it are wrong"));
        }
    }
    for o in &mut g.outputs {
        if let Some(t) = types.get(&o.name) {
            o.dtype = t.dtype;
            o.dims = t.dims.clone();
        }
        o.dims = text_dims(&o.dims);
    }

    let values = g.inputs.len()
        + g.initializers.len()
        + g.nodes.iter().map(|n| n.outputs.len()).sum::<usize>();
    let mut used: HashSet<String> = HashSet::with_capacity(values);
    let mut rename: HashMap<String, String> = HashMap::with_capacity(values);
    let input_names: HashSet<String> = g.inputs.iter().map(|v| v.name.clone()).collect();
    for v in &mut g.inputs {
        let new = unique(&v.name, &mut used);
        rename.insert(v.name.clone(), new.clone());
        v.name = new;
        v.dims = text_dims(&v.dims);
    }

    let read: HashSet<&str> = g
        .nodes
        .iter()
        .flat_map(|n| n.inputs.iter().flatten().map(String::as_str))
        .chain(g.outputs.iter().map(|o| o.name.as_str()))
        .collect();
    let keep: Vec<bool> = g
        .initializers
        .iter()
        .map(|(n, _)| read.contains(n.as_str()) && !input_names.contains(n))
        .collect();
    let mut k = keep.iter();
    g.initializers.retain(|_| *k.next().unwrap_or(&false));
    for (name, _) in &mut g.initializers {
        let new = unique(name, &mut used);
        rename.insert(name.clone(), new.clone());
        *name = new;
    }

    let custom = schema::lookup("onnx.custom");
    for node in &mut g.nodes {
        let declared = dialect_op(node);
        let op = declared.or(custom);
        let inputs = operand_names(node, op)
            .into_iter()
            .map(|i| i.map(|n| rename.get(&n).cloned().unwrap_or(n)))
            .collect();
        let slots = result_slots(node, op);
        let name = unique(&location_name(&node.name), &mut used);
        let multi = slots.iter().flatten().count() > 1;
        let mut outputs = Vec::with_capacity(slots.len());
        let mut r = 0usize;
        for slot in slots {
            let Some(old) = slot else {
                outputs.push(String::new());
                continue;
            };
            let new = if multi && r > 0 {
                unique(&format!("{name}:{r}"), &mut used)
            } else {
                name.clone()
            };
            if let Some(old) = old {
                rename.insert(old, new.clone());
            }
            outputs.push(new);
            r += 1;
        }
        while outputs.last().is_some_and(|o| o.is_empty()) {
            outputs.pop();
        }
        if declared.is_some() {
            node.domain.clear();
        }
        node.name = name;
        node.inputs = inputs;
        node.outputs = outputs;
    }

    // Declared output names win where free, as the text's result names do;
    // `current` follows each tensor's name through those renames, applied in
    // one sweep at the end (one rename per output would be quadratic).
    let mut current: HashMap<String, String> = HashMap::new();
    let mut holder: HashMap<String, String> = HashMap::new();
    for i in 0..g.outputs.len() {
        let wanted = g.outputs[i].name.clone();
        let key = rename
            .get(&wanted)
            .cloned()
            .unwrap_or_else(|| wanted.clone());
        let inner = current.get(&key).cloned().unwrap_or_else(|| key.clone());
        if inner != wanted && !used.contains(&wanted) {
            let owner = holder.remove(&inner).unwrap_or_else(|| inner.clone());
            current.insert(owner.clone(), wanted.clone());
            holder.insert(wanted.clone(), owner);
            used.insert(wanted.clone());
            g.outputs[i].name = wanted;
        } else {
            g.outputs[i].name = inner;
        }
    }
    if !current.is_empty() {
        let rename_all = |n: &mut String| {
            if let Some(to) = current.get(n.as_str()) {
                *n = to.clone();
            }
        };
        for node in &mut g.nodes {
            node.outputs.iter_mut().for_each(rename_all);
            node.inputs.iter_mut().flatten().for_each(rename_all);
        }
        g.initializers.iter_mut().for_each(|(n, _)| rename_all(n));
        g.inputs.iter_mut().for_each(|v| rename_all(&mut v.name));
    }
    g.name = super::text::MAIN.to_string();
    Ok(())
}

/// [`canonicalize`] after an ONNX-level pass (what rebuilding the function
/// does to the text form), keeping the graph's name (its function's, in
/// `onnc-opt`); a failure is reported under `pass`.
pub fn settle(
    g: &mut Graph,
    pass: &str,
    diags: &mut super::Diags,
) -> Result<(), super::pass::PassFailed> {
    let name = std::mem::take(&mut g.name);
    let settled = canonicalize(g);
    g.name = name;
    settled.map_err(|e| {
        diags.error(None, format!("{pass}: rebuilding the function failed: {e}"));
        super::pass::PassFailed
    })
}

/// The graph after the text round trip, for tests: import, then export
/// (`None` when the importer refuses the graph).
#[cfg(test)]
pub fn through_text(g: &Graph) -> Option<Graph> {
    let context = onnc_dialects::ir::new_context().expect("context");
    let func = crate::import::onnx::build_main_func(&context, g.clone(), "test", super::text::MAIN)
        .ok()?;
    let module = melior::ir::Module::new(melior::ir::Location::unknown(&context));
    use melior::ir::block::BlockLike;
    let func = module.body().append_operation(func);
    Some(crate::export::onnx::graph_from_func(&func).expect("exports"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &std::path::Path) {
        let Ok(model) = onnc_onnx::load(path, &Default::default()) else {
            return;
        };
        if onnc_onnx::infer_graph(&model.graph).is_err() {
            return;
        }
        let mut g = model.graph.clone();
        let Some(expected) = through_text(&model.graph) else {
            // A model with an operator of another domain: the importer must
            // give every value a rank to build IR and refuses what it cannot
            // rank; the in-memory pipeline keeps such a value untyped and
            // legalization refuses the unknown operator itself.
            let foreign = model.graph.nodes.iter().any(|n| !n.domain.is_empty());
            if foreign {
                return;
            }
            assert!(
                canonicalize(&mut g).is_err(),
                "{}: the importer refuses it, canonicalize must too",
                path.display()
            );
            return;
        };
        canonicalize(&mut g).expect("canonicalizes");
        // Idempotent: a pass that changes nothing may skip renaming (simplify).
        let mut again = g.clone();
        canonicalize(&mut again).expect("canonicalizes again");
        assert_eq!(
            again,
            g,
            "{}: canonicalize is not idempotent",
            path.display()
        );
        assert_eq!(g.inputs, expected.inputs, "{}: inputs", path.display());
        assert_eq!(g.outputs, expected.outputs, "{}: outputs", path.display());
        assert_eq!(g.nodes, expected.nodes, "{}: nodes", path.display());
        assert_eq!(g, expected, "{}", path.display());
    }

    /// The in-memory names are the text round trip's, on every ONNX file of
    /// the lit suite's inputs and the model zoo's light nets.
    #[test]
    fn canonical_names_are_the_text_round_trips() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        let mut dirs = vec![root.join("test")];
        let zoo = std::process::Command::new("python3")
            .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| std::path::PathBuf::from(s.trim()).join("backend/test/data/light"));
        dirs.extend(zoo.filter(|d| d.is_dir()));
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "onnx") {
                    files.push(p);
                }
            }
        }
        files.sort();
        assert!(files.len() > 5, "found {} models", files.len());
        for f in &files {
            check(f);
        }
    }
}
