//! `Expand`, `Tile`, `Where` — shape-growing operators.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Expand.html> (8, 13),
//! <https://onnx.ai/onnx/operators/onnx__Tile.html> (1, 6 `repeats` input,
//! 13), <https://onnx.ai/onnx/operators/onnx__Where.html> (9, 16). No
//! attributes. `Expand` broadcasts the input with a constant `shape`; `Tile`
//! multiplies each dim by a constant `repeats`; `Where` broadcasts its three
//! operands (result: the type of `X`). Without constants the dims are unknown.

use super::shape::{arity, broadcast, const_ints, input, unknown_dims};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "Expand",
        min_opset: 8,
        max_opset: 25,
        spec_url: crate::spec_url!("Expand"),
        notes: "static with a constant shape",
        attrs: &[],
        normalize: Some(normalize_two),
        infer_fn: infer_expand,
    },
    OpSpec {
        name: "Tile",
        min_opset: 6,
        max_opset: 25,
        spec_url: crate::spec_url!("Tile"),
        notes: "static with constant repeats",
        attrs: &[],
        normalize: Some(normalize_two),
        infer_fn: infer_tile,
    },
    OpSpec {
        name: "Where",
        min_opset: 9,
        max_opset: 25,
        spec_url: crate::spec_url!("Where"),
        notes: "",
        attrs: &[],
        normalize: Some(normalize_where),
        infer_fn: infer_where,
    },
];

fn normalize_two(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 2)?;
    Ok(vec![node])
}

fn normalize_where(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 3, 3)?;
    Ok(vec![node])
}

fn rank_of_param(node: &Node, t: &TypeInfo) -> Result<usize> {
    match t.dims.as_slice() {
        [Dim::Fixed(n)] => Ok(*n),
        _ => Err(crate::error::unknowable(
            node,
            "the shape operand's length is unknown",
        )),
    }
}

fn infer_expand(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let dims = match const_ints(consts, 1) {
        Some(shape) => {
            let target = shape
                .iter()
                .map(|&d| {
                    usize::try_from(d)
                        .map(Dim::Fixed)
                        .map_err(|_| infer_err(node, format!("negative dimension in {shape:?}")))
                })
                .collect::<Result<Vec<_>>>()?;
            broadcast(node, &x.dims, &target)?
        }
        None => {
            let n = rank_of_param(node, input(node, inputs, 1)?)?;
            unknown_dims(node, n.max(x.rank()))?
        }
    };
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}

fn infer_tile(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let Some(reps) = const_ints(consts, 1) else {
        return Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims: vec![Dim::Unknown; x.rank()],
        }]);
    };
    if reps.len() != x.rank() || reps.iter().any(|&r| r < 0) {
        return Err(infer_err(
            node,
            format!("repeats {reps:?} do not fit rank {}", x.rank()),
        ));
    }
    let dims = x
        .dims
        .iter()
        .zip(&reps)
        .map(|(d, &r)| match d {
            Dim::Fixed(n) => Dim::Fixed(n.saturating_mul(r as usize)),
            _ if r == 1 => d.clone(),
            _ => Dim::Unknown,
        })
        .collect();
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}

fn infer_where(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let (c, x, y) = (
        input(node, inputs, 0)?,
        input(node, inputs, 1)?,
        input(node, inputs, 2)?,
    );
    let dims = broadcast(node, &broadcast(node, &c.dims, &x.dims)?, &y.dims)?;
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
