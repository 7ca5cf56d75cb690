//! `LRN` — local response normalization across channels.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__LRN.html>. Opsets 1, 13 (types).
//! Attributes (materialized): `size` (required), `alpha` 1e-4, `beta` 0.75,
//! `bias` 1.0.

use super::attrs::{attr, req_int, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::attr_err;
use crate::{Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "LRN",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("LRN"),
    notes: "",
    attrs: &[
        attr("alpha", K::Float, D::Float(1e-4)),
        attr("beta", K::Float, D::Float(0.75)),
        attr("bias", K::Float, D::Float(1.0)),
        attr("size", K::Int, D::None),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    if req_int(&node, "size")? < 1 {
        return Err(attr_err(&node, "size", "must be ≥ 1"));
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    Ok(vec![input(node, inputs, 0)?.clone()])
}
