//! `Concat` — join tensors along `axis`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Concat.html>. Opset history: 1
//! (`axis` optional, default 1), 4 (`axis` required), 11 (negative axis), 13.
//! Attribute (materialized): `axis` (1 before opset 4).

use super::attrs::{attr_in, req_int, AttrKind as K, Default as D};
use super::shape::{axis, input};
use super::{NormCx, OpSpec};
use crate::error::{arity_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Concat",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Concat"),
    notes: "",
    attrs: &[
        attr_in("axis", K::Int, D::Int(1), 1, 3),
        attr_in("axis", K::Int, D::None, 4, i64::MAX),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    if node.inputs.is_empty() || node.inputs.iter().any(Option::is_none) {
        return Err(arity_err(&node, "needs one or more inputs, none absent"));
    }
    req_int(&node, "axis")?;
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let first = input(node, inputs, 0)?;
    let ax = axis(node, req_int(node, "axis")?, first.rank(), 0)?;
    let mut dims = first.dims.clone();
    for i in 1..node.inputs.len() {
        let t = input(node, inputs, i)?;
        if t.rank() != first.rank() || t.dtype != first.dtype {
            return Err(infer_err(
                node,
                format!("input {i} {t} does not match input 0 {first}"),
            ));
        }
        for (d, (x, y)) in dims.iter_mut().zip(&t.dims).enumerate() {
            if d == ax {
                *x = match (&*x, y) {
                    (Dim::Fixed(p), Dim::Fixed(q)) => Dim::Fixed(p.saturating_add(*q)),
                    _ => Dim::Unknown,
                };
            } else if let (Dim::Fixed(p), Dim::Fixed(q)) = (&*x, y) {
                if p != q {
                    return Err(infer_err(
                        node,
                        format!("input {i} {t} differs from input 0 {first} on axis {d}"),
                    ));
                }
            } else if x.fixed().is_none() && y.fixed().is_some() {
                *x = y.clone();
            }
        }
    }
    Ok(vec![TypeInfo {
        dtype: first.dtype,
        dims,
    }])
}
