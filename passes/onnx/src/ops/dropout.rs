//! `Dropout` (an identity at inference).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Dropout.html>. Opset history: 1
//! (`consumed_inputs`, `is_test`), 6, 7 (drops `is_test`), 10 (`mask` is
//! bool), 12 (`ratio` and `training_mode` become inputs), 13, 22.
//! Normalization drops `is_test`/`consumed_inputs` and moves `ratio` (default
//! 0.5) to an f32 scalar input `<node>__ratio`.

use super::attrs::{attr_in, float, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::{Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Dropout",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Dropout"),
    notes: "ratio attribute → input",
    attrs: &[attr_in("ratio", K::Float, D::Float(0.5), 1, 11)],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    node.attrs.remove("is_test");
    node.attrs.remove("consumed_inputs");
    if cx.opset >= 12 {
        arity(&node, 1, 3)?;
        return Ok(vec![node]);
    }
    arity(&node, 1, 1)?;
    let ratio = float(&node, "ratio", 0.5)?;
    node.attrs.remove("ratio");
    let name = cx.add_const(
        &format!("{}__ratio", node.name),
        Tensor::full(DType::F32, vec![], ratio as f64),
    );
    node.inputs.push(Some(name));
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let mut out = vec![x.clone()];
    if node.outputs.len() > 1 {
        out.push(TypeInfo {
            dtype: DType::Bool,
            dims: x.dims.clone(),
        });
    }
    Ok(out)
}
