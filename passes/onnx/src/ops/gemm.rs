//! `Gemm` — `Y = alpha·op(A)·op(B) + beta·C`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Gemm.html>. Opset history: 1,
//! 6 (`broadcast` attribute), 7 (unidirectional broadcasting of `C`, `broadcast`
//! removed), 9, 11 (`C` optional), 13 (types). Normalization drops
//! `broadcast`. Attributes (materialized): `alpha` 1.0, `beta` 1.0, `transA`
//! 0, `transB` 0.

use super::attrs::{attr, int, AttrKind as K, Default as D};
use super::shape::{arity, broadcast, input, opt_input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Gemm",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Gemm"),
    notes: "legacy broadcast attribute dropped",
    attrs: &[
        attr("alpha", K::Float, D::Float(1.0)),
        attr("beta", K::Float, D::Float(1.0)),
        attr("transA", K::Int, D::Int(0)),
        attr("transB", K::Int, D::Int(0)),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 3)?;
    node.attrs.remove("broadcast");
    Ok(vec![node])
}

fn compatible(a: &Dim, b: &Dim) -> bool {
    a == b || a.fixed().is_none() || b.fixed().is_none()
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let (a, b) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if a.rank() != 2 || b.rank() != 2 {
        return Err(infer_err(node, format!("A {a} and B {b} must be matrices")));
    }
    let (ta, tb) = (int(node, "transA", 0)? != 0, int(node, "transB", 0)? != 0);
    let (m, ka) = if ta {
        (&a.dims[1], &a.dims[0])
    } else {
        (&a.dims[0], &a.dims[1])
    };
    let (kb, n) = if tb {
        (&b.dims[1], &b.dims[0])
    } else {
        (&b.dims[0], &b.dims[1])
    };
    if !compatible(ka, kb) {
        return Err(infer_err(
            node,
            format!("inner dimensions differ: A {a} (transA={ta}) vs B {b} (transB={tb})"),
        ));
    }
    let dims = vec![m.clone(), n.clone()];
    if let Some(c) = opt_input(inputs, 2) {
        let bc = broadcast(node, &dims, &c.dims)?;
        if bc.len() != 2 || !bc.iter().zip(&dims).all(|(x, y)| compatible(x, y)) {
            return Err(infer_err(
                node,
                format!("C {c} does not broadcast to [{m}, {n}]"),
            ));
        }
    }
    Ok(vec![TypeInfo {
        dtype: a.dtype,
        dims,
    }])
}
