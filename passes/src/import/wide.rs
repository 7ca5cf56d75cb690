//! Wide ops: more operands or results than the dialect's slots hold.
//!
//! IRDL forces one type on a variadic group, so `onnx.concat` (32 inputs),
//! `onnx.sum`/`max`/`min` (16) and `onnx.split` (16 results) use numbered
//! optional slots. A node wider than that is rewritten exactly before import:
//! - Concat with n > 32 inputs → a chain of Concats along the same axis;
//! - Sum/Max/Min with n > 16 inputs → a chain (the ops are associative);
//! - Split with n > 16 outputs → one Slice per output.
//!
//! In: a graph and its inferred types. Out: the same graph with no node wider
//! than its dialect op; new nodes are named `<node>/part<k>` or
//! `<node>/slice<k>`, new constants `<node>__slice<k>_starts` and so on.

use onnc_onnx::{Graph, Node, TypeInfo};
use onnc_tensor::{Attr, Tensor};
use std::collections::HashMap;

/// Input slots of `onnx.concat`.
pub const CONCAT_SLOTS: usize = 32;
/// Input slots of `onnx.sum`, `onnx.max`, `onnx.min`; result slots of `onnx.split`.
pub const VARIADIC_SLOTS: usize = 16;

/// Rewrites every over-wide node of `g`. Needs the types of Split outputs.
pub fn expand(g: &mut Graph, types: &HashMap<String, TypeInfo>) -> Result<(), String> {
    let mut out = Vec::with_capacity(g.nodes.len());
    let mut new_inits: Vec<(String, Tensor)> = Vec::new();
    for node in std::mem::take(&mut g.nodes) {
        let default_domain = node.domain.is_empty() || node.domain == "ai.onnx";
        let limit = match node.op_type.as_str() {
            "Concat" => CONCAT_SLOTS,
            "Sum" | "Max" | "Min" => VARIADIC_SLOTS,
            _ => usize::MAX,
        };
        if default_domain && node.inputs.len() > limit {
            chain(node, limit, &mut out);
        } else if default_domain && node.op_type == "Split" && node.outputs.len() > VARIADIC_SLOTS {
            split_to_slices(node, types, &mut out, &mut new_inits)?;
        } else {
            out.push(node);
        }
    }
    g.nodes = out;
    g.initializers.extend(new_inits);
    Ok(())
}

fn chain(node: Node, limit: usize, out: &mut Vec<Node>) {
    let inputs: Vec<Option<String>> = node.inputs.clone();
    let mut acc: Option<String> = None;
    let mut rest = inputs.as_slice();
    let mut k = 0;
    while !rest.is_empty() {
        let room = if acc.is_some() { limit - 1 } else { limit };
        let take = room.min(rest.len());
        let mut ins: Vec<Option<String>> = acc.iter().cloned().map(Some).collect();
        ins.extend(rest[..take].iter().cloned());
        rest = &rest[take..];
        let last = rest.is_empty();
        let name = if last {
            node.name.clone()
        } else {
            format!("{}/part{k}", node.name)
        };
        let output = if last {
            node.outputs[0].clone()
        } else {
            format!("{}/part{k}", node.outputs[0])
        };
        out.push(Node {
            name,
            op_type: node.op_type.clone(),
            domain: node.domain.clone(),
            inputs: ins,
            outputs: vec![output.clone()],
            attrs: node.attrs.clone(),
        });
        acc = Some(output);
        k += 1;
    }
}

fn split_to_slices(
    node: Node,
    types: &HashMap<String, TypeInfo>,
    out: &mut Vec<Node>,
    inits: &mut Vec<(String, Tensor)>,
) -> Result<(), String> {
    let input = node
        .inputs
        .first()
        .cloned()
        .flatten()
        .ok_or_else(|| format!("Split '{}' has no input", node.name))?;
    let rank = types
        .get(&input)
        .map(|t| t.rank())
        .ok_or_else(|| format!("Split '{}': the input's type is unknown", node.name))?
        as i64;
    let mut axis = node.attrs.get("axis").and_then(Attr::as_int).unwrap_or(0);
    if axis < 0 {
        axis += rank;
    }
    let mut start = 0i64;
    for (k, o) in node.outputs.iter().enumerate() {
        let size = types
            .get(o)
            .and_then(|t| t.static_shape())
            .and_then(|s| s.get(axis as usize).copied())
            .ok_or_else(|| {
                format!(
                    "Split '{}': the size of output {k} along axis {axis} is unknown",
                    node.name
                )
            })? as i64;
        let prefix = format!("{}__slice{k}", node.name);
        let consts = [("starts", start), ("ends", start + size), ("axes", axis)];
        for (what, v) in consts {
            inits.push((
                format!("{prefix}_{what}"),
                Tensor::from_i64(vec![1], vec![v]).map_err(|e| e.to_string())?,
            ));
        }
        start += size;
        if o.is_empty() {
            continue;
        }
        out.push(Node {
            name: format!("{}/slice{k}", node.name),
            op_type: "Slice".into(),
            domain: String::new(),
            inputs: vec![
                Some(input.clone()),
                Some(format!("{prefix}_starts")),
                Some(format!("{prefix}_ends")),
                Some(format!("{prefix}_axes")),
            ],
            outputs: vec![o.clone()],
            attrs: Default::default(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::ValueInfo;

    fn vi(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo::f32(name, dims)
    }

    #[test]
    fn wide_concat_becomes_a_chain_that_computes_the_same() {
        let n = 40;
        let names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut g = Graph {
            name: "g".into(),
            inputs: names.iter().map(|s| vi(s, &[1, 1])).collect(),
            outputs: vec![vi("y", &[1, n])],
            initializers: vec![],
            nodes: vec![Node::new("cat", "Concat", &refs, &["y"]).with_attr("axis", Attr::Int(1))],
        };
        let before = g.clone();
        let types = onnc_onnx::infer_graph(&g).unwrap();
        expand(&mut g, &types).unwrap();
        assert_eq!(g.nodes.len(), 2);
        assert!(g.nodes.iter().all(|n| n.inputs.len() <= CONCAT_SLOTS));
        let inputs: Vec<(String, Tensor)> = names
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.clone(),
                    Tensor::from_f32(vec![1, 1], vec![i as f32]).unwrap(),
                )
            })
            .collect();
        assert_eq!(
            onnc_interp::run_graph(&before, &inputs).unwrap(),
            onnc_interp::run_graph(&g, &inputs).unwrap()
        );
    }

    #[test]
    fn wide_split_becomes_slices_that_compute_the_same() {
        let n = 20;
        let outs: Vec<String> = (0..n).map(|i| format!("y{i}")).collect();
        let refs: Vec<&str> = outs.iter().map(String::as_str).collect();
        let mut g = Graph {
            name: "g".into(),
            inputs: vec![vi("x", &[1, n, 2])],
            outputs: outs.iter().map(|s| vi(s, &[1, 1, 2])).collect(),
            initializers: vec![],
            nodes: vec![Node::new("sp", "Split", &["x"], &refs)
                .with_attr("axis", Attr::Int(1))
                .with_attr("num_outputs", Attr::Int(n as i64))],
        };
        let before = g.clone();
        let types = onnc_onnx::infer_graph(&g).unwrap();
        expand(&mut g, &types).unwrap();
        assert_eq!(g.nodes.len(), n);
        assert!(g.nodes.iter().all(|n| n.op_type == "Slice"));
        let x = Tensor::from_f32(vec![1, n, 2], (0..2 * n).map(|i| i as f32).collect()).unwrap();
        let inputs = vec![("x".to_string(), x)];
        assert_eq!(
            onnc_interp::run_graph(&before, &inputs).unwrap(),
            onnc_interp::run_graph(&g, &inputs).unwrap()
        );
    }
}
