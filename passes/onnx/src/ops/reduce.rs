//! Reductions: `ReduceMean`, `ReduceSum`, `ReduceMax`, `ReduceMin`,
//! `ReduceProd`, `ReduceL1`, `ReduceL2`, `ReduceLogSum`, `ReduceLogSumExp`,
//! `ReduceSumSquare`; and `ArgMax`/`ArgMin` (int64 result; `axis` 0,
//! `keepdims` 1, `select_last_index` 0).
//!
//! Spec: `https://onnx.ai/onnx/operators/onnx__<Op>.html`. Opset history: 1,
//! 11 (negative axes), 13 (`ReduceSum`: `axes` becomes an input,
//! `noop_with_empty_axes`), 18 (the others follow), 20 (Max/Min: bool).
//! Normalization moves an `axes` attribute to an int64 input `<node>__axes`.
//! Attributes (materialized): `keepdims` 1, `noop_with_empty_axes` 0.

use super::attrs::{attr, attr_in, int, AttrKind as K, AttrSpec, Default as D};
use super::shape::{arity, axis, const_ints, input};
use super::squeeze::axes_to_input;
use super::{NormCx, OpSpec};
use crate::error::unknowable;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

const REDUCE_ATTRS: &[AttrSpec] = &[
    attr("axes", K::Ints, D::None),
    attr("keepdims", K::Int, D::Int(1)),
    attr("noop_with_empty_axes", K::Int, D::Int(0)),
];

const fn reduce(name: &'static str, url: &'static str) -> OpSpec {
    OpSpec {
        name,
        min_opset: 1,
        max_opset: 25,
        spec_url: url,
        notes: "axes attribute → input",
        attrs: REDUCE_ATTRS,
        normalize: Some(normalize),
        infer_fn: infer,
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    reduce("ReduceMax", crate::spec_url!("ReduceMax")),
    reduce("ReduceMean", crate::spec_url!("ReduceMean")),
    reduce("ReduceMin", crate::spec_url!("ReduceMin")),
    reduce("ReduceProd", crate::spec_url!("ReduceProd")),
    reduce("ReduceSum", crate::spec_url!("ReduceSum")),
    reduce("ReduceL1", crate::spec_url!("ReduceL1")),
    reduce("ReduceL2", crate::spec_url!("ReduceL2")),
    reduce("ReduceLogSum", crate::spec_url!("ReduceLogSum")),
    reduce("ReduceLogSumExp", crate::spec_url!("ReduceLogSumExp")),
    reduce("ReduceSumSquare", crate::spec_url!("ReduceSumSquare")),
];

pub(super) const ARG_SPECS: &[OpSpec] = &[
    OpSpec {
        name: "ArgMax",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("ArgMax"),
        notes: "int64 result",
        attrs: ARG_ATTRS,
        normalize: Some(normalize_arg),
        infer_fn: infer_arg,
    },
    OpSpec {
        name: "ArgMin",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("ArgMin"),
        notes: "int64 result",
        attrs: ARG_ATTRS,
        normalize: Some(normalize_arg),
        infer_fn: infer_arg,
    },
];

const ARG_ATTRS: &[AttrSpec] = &[
    attr("axis", K::Int, D::Int(0)),
    attr("keepdims", K::Int, D::Int(1)),
    attr_in("select_last_index", K::Int, D::Int(0), 12, i64::MAX),
];

fn normalize_arg(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    Ok(vec![node])
}

fn infer_arg(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let a = axis(node, int(node, "axis", 0)?, x.rank(), 0)?;
    let mut dims = x.dims.clone();
    if int(node, "keepdims", 1)? != 0 {
        dims[a] = Dim::Fixed(1);
    } else {
        dims.remove(a);
    }
    Ok(vec![TypeInfo {
        dtype: onnc_tensor::DType::I64,
        dims,
    }])
}

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 2)?;
    axes_to_input(&mut node, cx)?;
    Ok(vec![node])
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let r = x.rank();
    let keep = int(node, "keepdims", 1)? != 0;
    let axes: Vec<usize> = match (node.input(1), const_ints(consts, 1)) {
        (Some(_), None) => return Err(unknowable(node, "axes are not constant")),
        (_, Some(a)) if !a.is_empty() => a
            .iter()
            .map(|&a| axis(node, a, r, 0))
            .collect::<Result<_>>()?,
        _ if int(node, "noop_with_empty_axes", 0)? != 0 => return Ok(vec![x.clone()]),
        _ => (0..r).collect(),
    };
    let mut dims = Vec::with_capacity(r);
    for (i, d) in x.dims.iter().enumerate() {
        if !axes.contains(&i) {
            dims.push(d.clone());
        } else if keep {
            dims.push(Dim::Fixed(1));
        }
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
