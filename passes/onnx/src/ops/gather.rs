//! `GatherElements` (11; output shaped like `indices`) and
//! `Gather` — take entries of `data` along `axis` at `indices`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Gather.html>. Opsets 1, 11
//! (negative indices), 13. Attribute (materialized): `axis` 0. Output shape:
//! `data[:axis] ++ indices ++ data[axis+1:]`.

use super::attrs::{attr, int, AttrKind as K, Default as D};
use super::shape::{arity, axis, input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "GatherElements",
        min_opset: 11,
        max_opset: 25,
        spec_url: crate::spec_url!("GatherElements"),
        notes: "output has the indices' shape",
        attrs: &[attr("axis", K::Int, D::Int(0))],
        normalize: Some(normalize),
        infer_fn: infer_elements,
    },
    OpSpec {
        name: "Gather",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Gather"),
        notes: "",
        attrs: &[attr("axis", K::Int, D::Int(0))],
        normalize: Some(normalize),
        infer_fn: infer,
    },
];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 2)?;
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let (x, idx) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if !matches!(idx.dtype, DType::I32 | DType::I64) {
        return Err(infer_err(
            node,
            format!("indices must be int32 or int64, got {}", idx.dtype),
        ));
    }
    let a = axis(node, int(node, "axis", 0)?, x.rank(), 0)?;
    let mut dims = x.dims[..a].to_vec();
    dims.extend(idx.dims.iter().cloned());
    dims.extend(x.dims[a + 1..].iter().cloned());
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}

fn infer_elements(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let (x, idx) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if idx.rank() != x.rank() {
        return Err(infer_err(
            node,
            format!("indices {idx} must have the rank of data {x}"),
        ));
    }
    axis(node, int(node, "axis", 0)?, x.rank(), 0)?;
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims: idx.dims.clone(),
    }])
}
