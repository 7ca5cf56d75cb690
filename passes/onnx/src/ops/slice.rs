//! `Slice` — strided sub-tensor.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Slice.html>. Opset history: 1
//! (`starts`, `ends`, `axes` attributes), 10 (they become inputs, plus
//! `steps`), 11 (negative axes), 13. Normalization moves the attributes to
//! inputs `<node>__starts`, `<node>__ends`, `<node>__axes` (int64).
//! Inference needs `starts`/`ends` (and `axes`/`steps` when given) constant.

use super::attrs::{attr_in, ints, AttrKind as K, Default as D};
use super::shape::{arity, axis, const_ints, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Slice",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Slice"),
    notes: "attribute form (< 10) → inputs; MVU: a Slice of channels only is a 1×1 copy Conv, folded into the Convs that read it (`mvu/slice-to-conv`, `mvu/selection-into-conv`)",
    attrs: &[
        attr_in("starts", K::Ints, D::None, 1, 9),
        attr_in("ends", K::Ints, D::None, 1, 9),
        attr_in("axes", K::Ints, D::None, 1, 9),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    if cx.opset >= 10 {
        arity(&node, 3, 5)?;
        return Ok(vec![node]);
    }
    arity(&node, 1, 1)?;
    let starts = ints(&node, "starts")?.ok_or_else(|| super::attrs::missing(&node, "starts"))?;
    let ends = ints(&node, "ends")?.ok_or_else(|| super::attrs::missing(&node, "ends"))?;
    let axes = ints(&node, "axes")?;
    if ends.len() != starts.len() || axes.as_ref().is_some_and(|a| a.len() != starts.len()) {
        return Err(attr_err(
            &node,
            "ends",
            "starts, ends and axes must have the same length",
        ));
    }
    for k in ["starts", "ends", "axes"] {
        node.attrs.remove(k);
    }
    let mut add = |k: &str, v: Vec<i64>| {
        let n = v.len();
        Some(cx.add_const(
            &format!("{}__{k}", node.name),
            Tensor::from_i64(vec![n], v).expect("n values"),
        ))
    };
    let s = add("starts", starts);
    let e = add("ends", ends);
    let a = axes.and_then(|a| add("axes", a));
    node.inputs.push(s);
    node.inputs.push(e);
    if a.is_some() {
        node.inputs.push(a);
    }
    Ok(vec![node])
}

fn clamp(v: i64, d: i64, lo: i64, hi: i64) -> i64 {
    let v = if v < 0 { v.saturating_add(d) } else { v };
    v.clamp(lo, hi)
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let (Some(starts), Some(ends)) = (const_ints(consts, 1), const_ints(consts, 2)) else {
        return Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims: vec![Dim::Unknown; x.rank()],
        }]);
    };
    let axes = match (node.input(3), const_ints(consts, 3)) {
        (None, _) => (0..starts.len() as i64).collect(),
        (Some(_), Some(a)) => a,
        (Some(_), None) => {
            return Ok(vec![TypeInfo {
                dtype: x.dtype,
                dims: vec![Dim::Unknown; x.rank()],
            }])
        }
    };
    let steps = match (node.input(4), const_ints(consts, 4)) {
        (None, _) => vec![1; starts.len()],
        (Some(_), Some(s)) => s,
        (Some(_), None) => {
            return Ok(vec![TypeInfo {
                dtype: x.dtype,
                dims: vec![Dim::Unknown; x.rank()],
            }])
        }
    };
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err(infer_err(
            node,
            "starts, ends, axes and steps must have the same length",
        ));
    }
    let mut dims = x.dims.clone();
    let mut seen = vec![false; x.rank()];
    for i in 0..starts.len() {
        let a = axis(node, axes[i], x.rank(), 0)?;
        if std::mem::replace(&mut seen[a], true) {
            return Err(infer_err(node, format!("axis {a} is sliced twice")));
        }
        let step = steps[i];
        if step == 0 {
            return Err(infer_err(node, "steps must not be 0"));
        }
        let Dim::Fixed(d) = dims[a] else {
            dims[a] = Dim::Unknown;
            continue;
        };
        let d = d as i64;
        let n = if step > 0 {
            let (s, e) = (clamp(starts[i], d, 0, d), clamp(ends[i], d, 0, d));
            if e > s {
                (e - s - 1) as u64 / step as u64 + 1
            } else {
                0
            }
        } else {
            let (s, e) = (clamp(starts[i], d, -1, d - 1), clamp(ends[i], d, -1, d - 1));
            if s > e {
                (s - e - 1) as u64 / step.unsigned_abs() + 1
            } else {
                0
            }
        };
        dims[a] = Dim::Fixed(n as usize);
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
