//! `BatchNormalization`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__BatchNormalization.html>.
//! Opset history: 1 (`consumed_inputs`, `is_test`, `spatial`), 6 (drops
//! `consumed_inputs`), 7 (drops `is_test`), 9 (drops `spatial`; per-channel
//! only), 14 (`training_mode`), 15 (types). Normalization drops `spatial`,
//! `consumed_inputs` and `is_test` (inference semantics; `spatial=0` with
//! per-element statistics is rejected). Attributes (materialized): `epsilon`
//! 1e-5, `momentum` 0.9, `training_mode` 0.
//!
//! Outputs: `Y` like `X`; the optional training outputs (mean, var, …) are
//! typed `[C]`.

use super::attrs::{attr, attr_in, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "BatchNormalization",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("BatchNormalization"),
    notes: "spatial/consumed_inputs/is_test dropped",
    attrs: &[
        attr("epsilon", K::Float, D::Float(1e-5)),
        attr("momentum", K::Float, D::Float(0.9)),
        attr_in("training_mode", K::Int, D::Int(0), 14, i64::MAX),
        attr_in("spatial", K::Int, D::None, 1, 8),
        attr_in("is_test", K::Int, D::None, 1, 6),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 5, 5)?;
    node.attrs.remove("consumed_inputs");
    node.attrs.remove("is_test");
    if let Some(Attr::Int(0)) = node.attrs.remove("spatial") {
        let scale_rank = cx.input_ty(&node, 1).map(|t| t.rank());
        if scale_rank.is_some_and(|r| r > 1) {
            return Err(attr_err(
                &node,
                "spatial",
                "spatial=0 (per-element statistics) is not supported",
            ));
        }
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    if x.rank() < 2 {
        return Err(infer_err(node, format!("X {x} must have rank ≥ 2")));
    }
    let c = x.dims[1].clone();
    for i in 1..5 {
        let t = input(node, inputs, i)?;
        let ok =
            t.rank() == 1 && (t.dims[0] == c || t.dims[0].fixed().is_none() || c.fixed().is_none());
        if !ok {
            return Err(infer_err(
                node,
                format!("input {i} {t} must have shape [{c}]"),
            ));
        }
    }
    let mut out = vec![x.clone()];
    for _ in 1..node.outputs.len() {
        out.push(TypeInfo {
            dtype: x.dtype,
            dims: vec![c.clone()],
        });
    }
    let _ = Dim::Unknown;
    Ok(out)
}
