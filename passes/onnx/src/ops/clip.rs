//! `Clip`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Clip.html>. Opset history: 1
//! (`min`/`max` attributes, `consumed_inputs`), 6, 11 (`min`/`max` become
//! optional inputs), 12 (integer types), 13. Normalization (< 11) moves each
//! given attribute to a scalar input `<node>__min` / `<node>__max` of the
//! input's element type (f32 when unknown); an absent attribute stays an
//! absent input (no bound).

use super::attrs::{attr_in, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::{Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Clip",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Clip"),
    notes: "min/max attributes (< 11) → inputs",
    attrs: &[
        attr_in("min", K::Float, D::None, 1, 10),
        attr_in("max", K::Float, D::None, 1, 10),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    node.attrs.remove("consumed_inputs");
    if cx.opset >= 11 {
        arity(&node, 1, 3)?;
        return Ok(vec![node]);
    }
    arity(&node, 1, 1)?;
    let dtype = cx.input_ty(&node, 0).map_or(DType::F32, |t| t.dtype);
    for key in ["min", "max"] {
        let v = node.attrs.remove(key).and_then(|a| a.as_float());
        let input = v.map(|v| {
            cx.add_const(
                &format!("{}__{key}", node.name),
                Tensor::full(dtype, vec![], v as f64),
            )
        });
        node.inputs.push(input);
    }
    while node.inputs.last().is_some_and(Option::is_none) {
        node.inputs.pop();
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    Ok(vec![input(node, inputs, 0)?.clone()])
}
