//! `Flatten` — to 2-D at `axis`: `[prod(d[..axis]), prod(d[axis..])]`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Flatten.html>. Opsets 1, 9,
//! 11 (negative axis), 13, 21. Attribute (materialized): `axis` 1.

use super::attrs::{attr, int, AttrKind as K, Default as D};
use super::shape::{arity, axis, input, product};
use super::{NormCx, OpSpec};
use crate::{Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Flatten",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Flatten"),
    notes: "",
    attrs: &[attr("axis", K::Int, D::Int(1))],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let a = axis(node, int(node, "axis", 1)?, x.rank(), 1)?;
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims: vec![product(&x.dims[..a]), product(&x.dims[a..])],
    }])
}
