//! Element-wise binary operators with numpy broadcasting: `Add`, `Sub`,
//! `Mul`, `Div`, `Pow`, `Mod`, `PRelu`, the comparisons `Equal`, `Less`,
//! `Greater`, `LessOrEqual`, `GreaterOrEqual` and the logic ops `And`, `Or`,
//! `Xor` (boolean result).
//!
//! Spec: `https://onnx.ai/onnx/operators/onnx__<Op>.html`.
//!
//! Opset history: before opset 7 `Add`/`Sub`/`Mul`/`Div`/`Pow` broadcast only
//! with `broadcast=1`, aligning `B` at `axis` (default: trailing). Normalization
//! drops `broadcast`/`axis`/`consumed_inputs` and, when `axis` puts `B` away
//! from the trailing position, inserts an `Unsqueeze` of `B` (axes input
//! `<node>__axes`) so numpy broadcasting means the same thing. `PRelu` before
//! opset 7 took a per-channel slope of shape `[C]`; it becomes `[C,1,…,1]`
//! the same way. Later versions add types only.

use super::shape::{arity, broadcast, input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Node, Result, TypeInfo};
use onnc_tensor::{Attr, DType, Tensor};

const fn binary(name: &'static str, url: &'static str) -> OpSpec {
    OpSpec {
        name,
        min_opset: 1,
        max_opset: 25,
        spec_url: url,
        notes: "legacy broadcast/axis (opset < 7) normalized",
        attrs: &[],
        normalize: Some(normalize),
        infer_fn: infer,
    }
}

const fn compare(name: &'static str, url: &'static str) -> OpSpec {
    compare_since(name, url, 7)
}

const fn compare_since(name: &'static str, url: &'static str, since: i64) -> OpSpec {
    OpSpec {
        name,
        min_opset: since,
        max_opset: 25,
        spec_url: url,
        notes: "boolean result",
        attrs: &[],
        normalize: None,
        infer_fn: infer_compare,
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    binary("Add", crate::spec_url!("Add")),
    binary("Div", crate::spec_url!("Div")),
    binary("Mul", crate::spec_url!("Mul")),
    OpSpec {
        notes: "legacy broadcast/axis (opset < 7) normalized; NNIE: by a constant scalar, a Caffe Power",
        ..binary("Pow", crate::spec_url!("Pow"))
    },
    binary("Sub", crate::spec_url!("Sub")),
    // PyTorch exports `//` and `%` on sizes (multi-head attention) as Mod.
    OpSpec {
        name: "Mod",
        min_opset: 10,
        max_opset: 25,
        spec_url: crate::spec_url!("Mod"),
        notes: "fmod 0: sign of the divisor (Python `%`); fmod 1: C `fmod`",
        attrs: &[super::attrs::attr(
            "fmod",
            super::attrs::AttrKind::Int,
            super::attrs::Default::Int(0),
        )],
        normalize: Some(normalize),
        infer_fn: infer,
    },
    OpSpec {
        name: "PRelu",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("PRelu"),
        notes: "slope broadcasts to X (unidirectional); per-channel slope before opset 7 reshaped",
        attrs: &[],
        normalize: Some(normalize_prelu),
        infer_fn: infer_prelu,
    },
    compare("Equal", crate::spec_url!("Equal")),
    compare("Greater", crate::spec_url!("Greater")),
    compare("Less", crate::spec_url!("Less")),
    compare_since("LessOrEqual", crate::spec_url!("LessOrEqual"), 12),
    compare_since("GreaterOrEqual", crate::spec_url!("GreaterOrEqual"), 12),
    compare("And", crate::spec_url!("And")),
    compare("Or", crate::spec_url!("Or")),
    compare("Xor", crate::spec_url!("Xor")),
];

/// An `Unsqueeze` node giving `value` `count` trailing unit dims after `rank` dims.
pub(crate) fn unsqueeze_trailing(
    cx: &mut NormCx,
    node: &Node,
    value: &str,
    rank: usize,
    count: usize,
) -> (Node, String) {
    let axes: Vec<i64> = (rank..rank + count).map(|a| a as i64).collect();
    let n = axes.len();
    let axes = cx.add_const(
        &format!("{}__axes", node.name),
        Tensor::from_i64(vec![n], axes).expect("n elements for [n]"),
    );
    let out = cx.fresh(&format!("{}__{}_unsqueezed", node.name, value));
    let name = cx.fresh(&format!("{}__unsqueeze", node.name));
    (Node::new(&name, "Unsqueeze", &[value, &axes], &[&out]), out)
}

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 2)?;
    node.attrs.remove("consumed_inputs");
    let broadcast = node.attrs.remove("broadcast");
    let axis = node.attrs.remove("axis");
    if cx.opset >= 7 {
        if let Some(b) = broadcast {
            node.attrs.insert("broadcast".into(), b);
        }
        if let Some(a) = axis {
            node.attrs.insert("axis".into(), a);
        }
        return Ok(vec![node]);
    }
    let (Some(Attr::Int(1)), Some(axis)) = (broadcast, axis) else {
        return Ok(vec![node]);
    };
    let axis = axis
        .as_int()
        .ok_or_else(|| crate::error::attr_err(&node, "axis", "must be an int"))?;
    let (Some(a), Some(b)) = (cx.input_ty(&node, 0), cx.input_ty(&node, 1)) else {
        return Ok(vec![node]);
    };
    let (ra, rb) = (a.rank() as i64, b.rank() as i64);
    let axis = if axis < 0 { axis + ra } else { axis };
    let trailing = if (0..=ra).contains(&axis) {
        ra - axis - rb
    } else {
        -1
    };
    if trailing < 0 {
        return Err(crate::error::attr_err(
            &node,
            "axis",
            format!("{axis} does not fit B of rank {rb} into A of rank {ra}"),
        ));
    }
    if trailing == 0 {
        return Ok(vec![node]);
    }
    let b_name = node.input(1).unwrap_or_default().to_string();
    let (unsq, out) = unsqueeze_trailing(cx, &node, &b_name, rb as usize, trailing as usize);
    node.inputs[1] = Some(out);
    Ok(vec![unsq, node])
}

fn normalize_prelu(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 2)?;
    node.attrs.remove("consumed_inputs");
    if cx.opset >= 7 {
        return Ok(vec![node]);
    }
    let (Some(x), Some(s)) = (cx.input_ty(&node, 0), cx.input_ty(&node, 1)) else {
        return Ok(vec![node]);
    };
    if s.rank() == 1 && x.rank() > 2 && s.dims[0] == x.dims[1] && x.dims[1] != crate::Dim::Fixed(1)
    {
        let count = x.rank() - 2;
        let slope = node.input(1).unwrap_or_default().to_string();
        let (unsq, out) = unsqueeze_trailing(cx, &node, &slope, 1, count);
        node.inputs[1] = Some(out);
        return Ok(vec![unsq, node]);
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let (a, b) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if node.op_type != "Pow" && a.dtype != b.dtype {
        return Err(infer_err(
            node,
            format!("operand types differ: {} vs {}", a.dtype, b.dtype),
        ));
    }
    Ok(vec![TypeInfo {
        dtype: a.dtype,
        dims: broadcast(node, &a.dims, &b.dims)?,
    }])
}

fn infer_compare(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let (a, b) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    Ok(vec![TypeInfo {
        dtype: DType::Bool,
        dims: broadcast(node, &a.dims, &b.dims)?,
    }])
}

fn infer_prelu(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let (x, s) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    let dims = broadcast(node, &x.dims, &s.dims)?;
    if dims.len() != x.rank()
        || dims
            .iter()
            .zip(&x.dims)
            .any(|(d, e)| d != e && e.fixed().is_some())
    {
        return Err(infer_err(
            node,
            format!("slope {s} does not broadcast to X {x}"),
        ));
    }
    Ok(vec![x.clone()])
}
