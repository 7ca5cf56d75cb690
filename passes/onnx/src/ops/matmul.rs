//! `MatMul` — numpy `matmul` (batched, broadcasting batch dims; 1-D operands
//! are promoted and the added dim removed).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__MatMul.html>. Opsets 1, 9, 13
//! (types only). No attributes.

use super::shape::{arity, broadcast, input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "MatMul",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("MatMul"),
    notes: "by a constant [K, M]: a 1×1 convolution in legalization (2-D `common/matmul-to-gemm`); NVDLA: on 3-D tokens too, as the cube [N, K, T, 1] (docs/targets/nvdla.md#transformers); two activations are refused",
    attrs: &[],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 2)?;
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let (a, b) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if a.rank() == 0 || b.rank() == 0 {
        return Err(infer_err(node, "operands must have rank ≥ 1"));
    }
    let mut ad = a.dims.clone();
    let mut bd = b.dims.clone();
    let (a1, b1) = (ad.len() == 1, bd.len() == 1);
    if a1 {
        ad.insert(0, Dim::Fixed(1));
    }
    if b1 {
        bd.push(Dim::Fixed(1));
    }
    let (ka, kb) = (&ad[ad.len() - 1], &bd[bd.len() - 2]);
    if let (Dim::Fixed(x), Dim::Fixed(y)) = (ka, kb) {
        if x != y {
            return Err(infer_err(
                node,
                format!("inner dimensions differ: {a} × {b}"),
            ));
        }
    }
    let mut dims = broadcast(node, &ad[..ad.len() - 2], &bd[..bd.len() - 2])?;
    if !a1 {
        dims.push(ad[ad.len() - 2].clone());
    }
    if !b1 {
        dims.push(bd[bd.len() - 1].clone());
    }
    Ok(vec![TypeInfo {
        dtype: a.dtype,
        dims,
    }])
}
