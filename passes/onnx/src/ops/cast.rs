//! `Cast` and `CastLike` (15: the element type of the second input).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Cast.html>. Opset history: 1
//! (`to` is a string such as `"FLOAT"`), 6 (`to` is a `DataType` code), 9, 13,
//! 19 (`saturate`), 21, 24 (`round_mode`). Normalization turns a string `to`
//! into its code. Attributes (materialized): `to` (required), `saturate` 1,
//! `round_mode` `up` (both only matter for float8 targets, which onnc does
//! not compute, but the dialect declares them so that every Cast verifies).

use super::attrs::{attr, req_int, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::attr_err;
use crate::{Node, Result, TypeInfo};
use onnc_proto::onnx::tensor_proto::DataType;
use onnc_tensor::{Attr, DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "CastLike",
        min_opset: 15,
        max_opset: 25,
        spec_url: crate::spec_url!("CastLike"),
        notes: "element type of the second input",
        attrs: &[],
        normalize: None,
        infer_fn: infer_like,
    },
    OpSpec {
        name: "Cast",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Cast"),
        notes: "string `to` (< 6) → code",
        attrs: &[
            attr("saturate", K::Int, D::Int(1)),
            attr("round_mode", K::String, D::Str("up")),
        ],
        normalize: Some(normalize),
        infer_fn: infer,
    },
];

fn normalize(mut node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    if let Some(Attr::String(s)) = node.attrs.get("to") {
        let code = DataType::from_str_name(&s.to_ascii_uppercase())
            .ok_or_else(|| attr_err(&node, "to", format!("unknown type name '{s}'")))?;
        node.attrs.insert("to".into(), Attr::Int(code as i64));
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let to = req_int(node, "to")?;
    let dtype = i32::try_from(to)
        .ok()
        .and_then(DType::from_onnx)
        .ok_or_else(|| {
            attr_err(
                node,
                "to",
                format!("element type code {to} is not supported"),
            )
        })?;
    Ok(vec![TypeInfo {
        dtype,
        dims: x.dims.clone(),
    }])
}

fn infer_like(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let (x, like) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    Ok(vec![TypeInfo {
        dtype: like.dtype,
        dims: x.dims.clone(),
    }])
}
