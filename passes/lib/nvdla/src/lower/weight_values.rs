//! Weight values the hardware cannot hold: NaN and ±∞ are errors, values
//! beyond FP16's range in an FP16 program are warnings.
//!
//! In: a lowered [`Program`]. Out: [`Problem`]s naming the ONNX node that
//! reads the weight, the weight tensor, how many values are bad and the
//! worst one. NNIE already refuses NaN weights; before this NVDLA compiled
//! them without a word, and an FP16 weight above 65504 silently became ∞.
//!
//! * [`errors`]: any NaN or infinite weight (every precision).
//! * [`warnings`]: in FP16 tensors, finite weights that round to ±∞ in
//!   FP16 (|w| ≥ 65520), with the largest |w|. INT8 weights are scaled per
//!   layer by their own max |w| (see `ctable::nvidia`), so they cannot
//!   overflow; INT16 SDP operands are scaled at calibration.

use half::f16;

use super::error::Problem;
use crate::program::{Precision, Program, TensorKind};

/// The ONNX node and op kind that read weight tensor `t`, for messages.
fn reader(p: &Program, t: usize) -> (String, String) {
    p.ops
        .iter()
        .find(|o| o.operands().any(|x| x == t))
        .map(|o| {
            (
                o.onnx_nodes
                    .first()
                    .cloned()
                    .unwrap_or_else(|| o.hw_layer.clone()),
                format!("nvdla.{}", o.engine),
            )
        })
        .unwrap_or_else(|| (p.tensors[t].name.clone(), "weight".into()))
}

/// NaN or infinite weights: one problem per tensor.
pub fn errors(p: &Program) -> Vec<Problem> {
    let mut out = Vec::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        let TensorKind::Weight(values) = &tensor.kind else {
            continue;
        };
        let nan = values.iter().filter(|v| v.is_nan()).count();
        let inf = values.iter().filter(|v| v.is_infinite()).count();
        if nan + inf == 0 {
            continue;
        }
        let first = values.iter().position(|v| !v.is_finite()).unwrap_or(0);
        let (node, op) = reader(p, t);
        out.push(Problem::new(
            &node,
            &op,
            format!(
                "weight '{}' has {nan} NaN and {inf} infinite value(s) (the first at element {first}: {})",
                tensor.name, values[first]
            ),
            "fix the model's weights (NaN/∞ usually come from a diverged training run or a broken export); NVDLA cannot compute with them",
        ));
    }
    out
}

/// FP16 weights beyond FP16's range (they would become ±∞): one per tensor.
pub fn warnings(p: &Program) -> Vec<Problem> {
    let mut out = Vec::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        let TensorKind::Weight(values) = &tensor.kind else {
            continue;
        };
        if tensor.precision != Precision::Fp16 {
            continue;
        }
        let over: Vec<f32> = values
            .iter()
            .copied()
            .filter(|v| v.is_finite() && f16::from_f32(*v).is_infinite())
            .collect();
        if over.is_empty() {
            continue;
        }
        let largest = over.iter().fold(0f32, |m, v| m.max(v.abs()));
        let (node, op) = reader(p, t);
        out.push(Problem::new(
            &node,
            &op,
            format!(
                "weight '{}' has {} value(s) beyond FP16's range ±65504 (largest |w| = {largest}); they become ±∞ on the hardware",
                tensor.name,
                over.len()
            ),
            "rescale the layer (e.g. fold the scale into the next layer) or compile for INT8 with calibration",
        ));
    }
    out
}
