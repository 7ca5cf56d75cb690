//! Variadic element-wise operators with numpy broadcasting: `Sum`, `Max`,
//! `Min`, `Mean`.
//!
//! Spec: `https://onnx.ai/onnx/operators/onnx__<Op>.html`. Opsets 1, 6, 8
//! (8: multidirectional broadcasting; before it all inputs had one shape, a
//! special case), 12/13 (types). `consumed_inputs` (< 6) is dropped.

use super::shape::{broadcast, input};
use super::{NormCx, OpSpec};
use crate::error::arity_err;
use crate::{Node, Result, TypeInfo};
use onnc_tensor::Tensor;

const fn variadic(name: &'static str, url: &'static str) -> OpSpec {
    OpSpec {
        name,
        min_opset: 1,
        max_opset: 25,
        spec_url: url,
        notes: "one or more inputs",
        attrs: &[],
        normalize: Some(normalize),
        infer_fn: infer,
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    variadic("Max", crate::spec_url!("Max")),
    variadic("Mean", crate::spec_url!("Mean")),
    variadic("Min", crate::spec_url!("Min")),
    variadic("Sum", crate::spec_url!("Sum")),
];

fn normalize(mut node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    if node.inputs.is_empty() || node.inputs.iter().any(Option::is_none) {
        return Err(arity_err(&node, "needs one or more inputs, none absent"));
    }
    node.attrs.remove("consumed_inputs");
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let mut acc = input(node, inputs, 0)?.clone();
    for i in 1..node.inputs.len() {
        let t = input(node, inputs, i)?;
        acc.dims = broadcast(node, &acc.dims, &t.dims)?;
    }
    Ok(vec![acc])
}
