//! `Split` — cut a tensor into pieces along `axis`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Split.html>. Opset history: 1
//! (`split` attribute or second input), 2, 11 (negative axis), 13 (`split`
//! becomes an input), 18 (`num_outputs`). Normalization moves a `split`
//! attribute to an input `<node>__split` (int64); an equal split gets
//! `num_outputs` (the number of outputs). Attribute (materialized): `axis` 0.

use super::attrs::{attr, int, ints, AttrKind as K, Default as D};
use super::shape::{arity, axis, const_ints, input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Split",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Split"),
    notes: "split attribute → input",
    attrs: &[
        attr("axis", K::Int, D::Int(0)),
        attr("split", K::Ints, D::None),
        attr("num_outputs", K::Int, D::None),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 2)?;
    if let Some(split) = ints(&node, "split")? {
        node.attrs.remove("split");
        let n = split.len();
        let name = cx.add_const(
            &format!("{}__split", node.name),
            Tensor::from_i64(vec![n], split).expect("n values"),
        );
        node.inputs.truncate(1);
        node.inputs.push(Some(name));
    }
    // Opset 18 needs `split` or `num_outputs`: an equal split names its parts.
    if node.input(1).is_none() && !node.attrs.contains_key("num_outputs") {
        node.attrs
            .insert("num_outputs".into(), Attr::Int(node.outputs.len() as i64));
    }
    Ok(vec![node])
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let ax = axis(node, int(node, "axis", 0)?, x.rank(), 0)?;
    let n = node.outputs.len().max(1);
    let sizes: Vec<Dim> = if let Some(split) = const_ints(consts, 1) {
        if split.len() != n {
            return Err(infer_err(
                node,
                format!("split has {} sizes for {n} outputs", split.len()),
            ));
        }
        let total: i64 = split
            .iter()
            .try_fold(0i64, |a, &s| if s < 0 { None } else { a.checked_add(s) })
            .ok_or_else(|| infer_err(node, format!("bad split sizes {split:?}")))?;
        if let Dim::Fixed(d) = x.dims[ax] {
            if total as u64 != d as u64 {
                return Err(infer_err(
                    node,
                    format!("split sizes {split:?} do not add up to {d}"),
                ));
            }
        }
        split.iter().map(|&s| Dim::Fixed(s as usize)).collect()
    } else if node.input(1).is_some() {
        vec![Dim::Unknown; n]
    } else {
        match x.dims[ax] {
            Dim::Fixed(d) => {
                let chunk = d.div_ceil(n);
                (0..n)
                    .map(|i| Dim::Fixed(chunk.min(d.saturating_sub(i * chunk))))
                    .collect()
            }
            _ => vec![Dim::Unknown; n],
        }
    };
    Ok(sizes
        .into_iter()
        .map(|s| {
            let mut dims = x.dims.clone();
            dims[ax] = s;
            TypeInfo {
                dtype: x.dtype,
                dims,
            }
        })
        .collect())
}
