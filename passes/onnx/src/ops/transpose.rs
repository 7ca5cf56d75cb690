//! `Transpose` — permute dims.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Transpose.html>. Opsets 1, 13,
//! 21. Attribute (materialized): `perm`, default the reversed dims (needs the
//! input rank).

use super::attrs::{attr, ints, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::attr_err;
use crate::{Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Transpose",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Transpose"),
    notes: "default perm materialized; consecutive Transposes compose into one, and an identity permutation disappears, in legalization (`common/transpose-transpose`); NVDLA: a 3-D [0, 2, 1] between channels and tokens is a view",
    attrs: &[attr("perm", K::Ints, D::None)],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    if !node.attrs.contains_key("perm") {
        if let Some(x) = cx.input_ty(&node, 0) {
            let perm = (0..x.rank() as i64).rev().collect();
            node.attrs.insert("perm".into(), Attr::Ints(perm));
        }
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let r = x.rank();
    let perm = ints(node, "perm")?.unwrap_or_else(|| (0..r as i64).rev().collect());
    let mut seen = vec![false; r];
    let ok = perm.len() == r
        && perm.iter().all(|&p| {
            p >= 0 && (p as usize) < r && !std::mem::replace(&mut seen[p as usize], true)
        });
    if !ok {
        return Err(attr_err(
            node,
            "perm",
            format!("{perm:?} is not a permutation of {r} dims"),
        ));
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims: perm.iter().map(|&p| x.dims[p as usize].clone()).collect(),
    }])
}
