//! `Constant`, `ConstantOfShape`, `Shape`, `Size` (int64 scalar).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Constant.html>,
//! <https://onnx.ai/onnx/operators/onnx__ConstantOfShape.html>,
//! <https://onnx.ai/onnx/operators/onnx__Shape.html>.
//!
//! `Constant` nodes never survive loading: they become initializers (`value`,
//! `value_float(s)`, `value_int(s)`); the spec here types one that reaches
//! [`super::OpSpec::infer`] directly. `ConstantOfShape` (9, 20, 21): `value`
//! defaults to an f32 zero `[1]` tensor (materialized); the shape input must
//! be constant for a static type. `Shape` (1, 13, 15 `start`/`end`, 19, 21):
//! int64 `[rank]` (or the `start..end` slice); `start` 0 is materialized,
//! `end` only when given.

use super::attrs::{attr, attr_in, int, AttrKind as K, Default as D};
use super::shape::{arity, const_ints, input};
use super::{NormCx, OpSpec};
use crate::error::{arity_err, attr_err, infer_err, unknowable};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "Constant",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Constant"),
        notes: "becomes an initializer at load time",
        attrs: &[],
        normalize: None,
        infer_fn: infer_constant,
    },
    OpSpec {
        name: "ConstantOfShape",
        min_opset: 9,
        max_opset: 25,
        spec_url: crate::spec_url!("ConstantOfShape"),
        notes: "default value materialized",
        attrs: &[attr("value", K::Tensor, D::None)],
        normalize: Some(normalize_cos),
        infer_fn: infer_cos,
    },
    OpSpec {
        name: "Size",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Size"),
        notes: "int64 scalar",
        attrs: &[],
        normalize: Some(normalize_shape),
        infer_fn: infer_size,
    },
    OpSpec {
        name: "Shape",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Shape"),
        notes: "start/end (opset 15)",
        attrs: &[
            attr_in("start", K::Int, D::Int(0), 15, i64::MAX),
            attr_in("end", K::Int, D::None, 15, i64::MAX),
        ],
        normalize: Some(normalize_shape),
        infer_fn: infer_shape,
    },
];

fn infer_constant(
    node: &Node,
    _: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let one = |dtype, n: Option<usize>| TypeInfo::fixed(dtype, n.as_slice());
    let t = match node.attrs.iter().find(|(k, _)| k.starts_with("value")) {
        Some((_, Attr::Tensor(t))) => TypeInfo::of(t),
        Some((k, Attr::Float(_))) if k == "value_float" => one(DType::F32, None),
        Some((k, Attr::Floats(v))) if k == "value_floats" => one(DType::F32, Some(v.len())),
        Some((k, Attr::Int(_))) if k == "value_int" => one(DType::I64, None),
        Some((k, Attr::Ints(v))) if k == "value_ints" => one(DType::I64, Some(v.len())),
        Some((k, _)) => return Err(attr_err(node, k, "unsupported constant value")),
        None => return Err(arity_err(node, "Constant needs a value attribute")),
    };
    Ok(vec![t])
}

fn normalize_cos(mut node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    match node.attrs.get("value") {
        None => {
            node.attrs.insert(
                "value".into(),
                Attr::Tensor(Tensor::full(DType::F32, vec![1], 0.0)),
            );
        }
        Some(Attr::Tensor(t)) if t.numel() != 1 => {
            return Err(attr_err(
                &node,
                "value",
                format!("must hold one element, has {}", t.numel()),
            ))
        }
        _ => {}
    }
    Ok(vec![node])
}

fn infer_cos(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let s = input(node, inputs, 0)?;
    let dtype = match node.attrs.get("value") {
        Some(Attr::Tensor(t)) => t.dtype(),
        _ => DType::F32,
    };
    let dims = match const_ints(consts, 0) {
        Some(shape) => shape
            .iter()
            .map(|&d| {
                usize::try_from(d)
                    .map(Dim::Fixed)
                    .map_err(|_| infer_err(node, format!("negative dimension in {shape:?}")))
            })
            .collect::<Result<_>>()?,
        None => match s.dims.as_slice() {
            [Dim::Fixed(n)] => super::shape::unknown_dims(node, *n)?,
            _ => {
                return Err(unknowable(
                    node,
                    "shape input is not constant and its length is unknown",
                ))
            }
        },
    };
    Ok(vec![TypeInfo { dtype, dims }])
}

fn normalize_shape(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    Ok(vec![node])
}

fn infer_shape(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let r = input(node, inputs, 0)?.rank() as i64;
    let clamp = |v: i64| if v < 0 { (v + r).max(0) } else { v.min(r) };
    let start = clamp(int(node, "start", 0)?);
    let end = clamp(int(node, "end", r)?);
    Ok(vec![TypeInfo::fixed(
        DType::I64,
        &[(end - start).max(0) as usize],
    )])
}

fn infer_size(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    input(node, inputs, 0)?;
    Ok(vec![TypeInfo::fixed(DType::I64, &[])])
}
