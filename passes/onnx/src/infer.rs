//! Whole-graph shape and type inference ([`infer_graph`]) over normalized nodes.
//!
//! In: a [`Graph`] as [`crate::load`] returns it (normalized, sorted). Out: the
//! type of every value that can be inferred: graph inputs, initializers and
//! the outputs of known operators whose input types are known. Outputs of
//! unknown operators (and everything downstream of them) are absent, not errors.

use crate::ops;
use crate::{Graph, Node, Result, TypeInfo};
use onnc_tensor::Tensor;
use std::collections::HashMap;

/// Infers the type of every reachable value of `g`.
pub fn infer_graph(g: &Graph) -> Result<HashMap<String, TypeInfo>> {
    infer_graph_with(g, |_, _| None)
}

/// [`infer_graph`], with `assume` giving the output types of nodes the
/// registry does not know (another domain, or an operator onnc has no
/// inference for): it gets the node and the types inferred so far, and its
/// answer flows on to the nodes downstream, whose types then come from their
/// own rules. `assume` is asked only about unknown operators; a known
/// operator whose type cannot be inferred stays absent.
pub fn infer_graph_with(
    g: &Graph,
    assume: impl Fn(&Node, &HashMap<String, TypeInfo>) -> Option<Vec<TypeInfo>>,
) -> Result<HashMap<String, TypeInfo>> {
    // Sized once: grown one insert at a time, the map rehashed every name
    // it held at each doubling.
    let values = g.inputs.len()
        + g.initializers.len()
        + g.nodes.iter().map(|n| n.outputs.len()).sum::<usize>();
    let mut types: HashMap<String, TypeInfo> = HashMap::with_capacity(values);
    for vi in &g.inputs {
        types.insert(vi.name.clone(), vi.type_info());
    }
    let inits: HashMap<&str, &Tensor> = g
        .initializers
        .iter()
        .map(|(n, t)| (n.as_str(), t))
        .collect();
    for (n, t) in &g.initializers {
        types.insert(n.clone(), TypeInfo::of(t));
    }
    let mut known: HashMap<String, Tensor> = HashMap::new();
    for node in &g.nodes {
        let lookup = |n: &str| inits.get(n).copied().or_else(|| known.get(n));
        if let Some((ts, values)) = infer_node(node, &types, lookup)? {
            record(node, ts, values, &mut types, &mut known);
        } else if !is_known(node) {
            if let Some(ts) = assume(node, &types) {
                record(node, ts, None, &mut types, &mut known);
            }
        }
    }
    Ok(types)
}

/// Whether inference has rules for `node`'s operator.
fn is_known(node: &Node) -> bool {
    (node.domain == "onnc" && node.op_type == "ChannelShuffle")
        || ops::find(&node.op_type, &node.domain).is_some()
}

/// Stores a node's inferred output types and folded values.
pub(crate) fn record(
    node: &Node,
    ts: Vec<TypeInfo>,
    values: Option<Vec<Tensor>>,
    types: &mut HashMap<String, TypeInfo>,
    known: &mut HashMap<String, Tensor>,
) {
    for (o, t) in node.outputs.iter().zip(ts) {
        if !o.is_empty() {
            types.insert(o.clone(), t);
        }
    }
    for (o, v) in node.outputs.iter().zip(values.into_iter().flatten()) {
        if !o.is_empty() {
            known.insert(o.clone(), v);
        }
    }
}

/// Output types of a node and, when folded, their values.
pub(crate) type Inferred = (Vec<TypeInfo>, Option<Vec<Tensor>>);

/// Infers one node's output types (and values, when small and foldable);
/// `None` when its operator is unknown or an input's type is unknown.
pub(crate) fn infer_node<'t>(
    node: &Node,
    types: &HashMap<String, TypeInfo>,
    constant: impl Fn(&str) -> Option<&'t Tensor>,
) -> Result<Option<Inferred>> {
    // onnc's own ops that legalization produces: ChannelShuffle keeps its input's type.
    if node.domain == "onnc" && node.op_type == "ChannelShuffle" {
        return Ok(node
            .input(0)
            .and_then(|x| types.get(x))
            .map(|t| (vec![t.clone()], None)));
    }
    let Some(spec) = ops::find(&node.op_type, &node.domain) else {
        return Ok(None);
    };
    let mut in_types = Vec::with_capacity(node.inputs.len());
    let mut consts = Vec::with_capacity(node.inputs.len());
    for i in &node.inputs {
        match i {
            None => {
                in_types.push(None);
                consts.push(None);
            }
            Some(name) => {
                let value = constant(name);
                match (types.get(name), value) {
                    (Some(t), _) => in_types.push(Some(t.clone())),
                    (None, Some(v)) => in_types.push(Some(TypeInfo::of(v))),
                    (None, None) => return Ok(None),
                }
                consts.push(value);
            }
        }
    }
    match spec.infer(node, &in_types, &consts) {
        Ok(t) => {
            let values = crate::fold::fold(node, &t, &consts, &in_types);
            Ok(Some((t, values)))
        }
        Err(crate::Error::Unknowable { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}
