//! `LayerNormalization` (opset 17).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__LayerNormalization.html>.
//! Attributes (materialized): `axis` -1, `epsilon` 1e-5, `stash_type` 1.
//! Outputs: `Y` like `X`; optional `Mean` and `InvStdDev` keep the dims before
//! `axis` and have 1 from `axis` on (element type f32 for `stash_type` 1).

use super::attrs::{attr, int, AttrKind as K, Default as D};
use super::shape::{arity, axis, input};
use super::{NormCx, OpSpec};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "LayerNormalization",
    min_opset: 17,
    max_opset: 25,
    spec_url: crate::spec_url!("LayerNormalization"),
    notes: "NVDLA: over the last axis of 3-D tokens (or ConvNeXt's channels-last map), 1×1 convolutions and SDP products, 1/√ by a lookup table with two Newton steps (FP16) or by the EMU's power op (INT8, calibrated inner tensors); the op-by-op form is recognised (`common/layer-norm-fuse`; docs/targets/nvdla.md#transformers). NNIE: over the channels of a map written channels-last (ConvNeXt), as ones-Convolutions, Eltwise, Power and Scale layers (`nnie/layer-norm-channels`; docs/targets/nnie.md)",
    attrs: &[
        attr("axis", K::Int, D::Int(-1)),
        attr("epsilon", K::Float, D::Float(1e-5)),
        attr("stash_type", K::Int, D::Int(1)),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 3)?;
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let a = axis(node, int(node, "axis", -1)?, x.rank(), 0)?;
    let stash = if int(node, "stash_type", 1)? == 1 {
        DType::F32
    } else {
        x.dtype
    };
    let mut reduced = x.dims[..a].to_vec();
    reduced.extend(std::iter::repeat_n(Dim::Fixed(1), x.rank() - a));
    let mut out = vec![x.clone()];
    for _ in 1..node.outputs.len().min(3) {
        out.push(TypeInfo {
            dtype: stash,
            dims: reduced.clone(),
        });
    }
    Ok(out)
}
