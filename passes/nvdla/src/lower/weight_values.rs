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
//!
//! Both read the weights' bytes once, in parallel, and look closer only at
//! a tensor that has a bad value.

use half::f16;

use super::error::Problem;
use crate::program::{Precision, Program, TensorKind, Weights};
use rayon::prelude::*;

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

/// The exponent bits of an `f32` (all set: NaN or ±∞).
const EXP: u32 = 0x7f80_0000;
/// Every bit but the sign.
const ABS: u32 = 0x7fff_ffff;
/// The bits of FP16's largest finite value as an `f32`: a finite `f32`
/// whose magnitude bits are at most these is finite in FP16.
const F16_MAX: u32 = 0x477f_e000;

/// Whether any value's bits pass `test`: one pass over the weights' bytes
/// where they lie, in parallel (1 MiB pieces of each run; rows of lazily
/// scaled weights), nothing decoded or copied.
fn any_bits(w: &Weights, test: impl Fn(u32) -> bool + Sync) -> bool {
    if let Some(r) = w.row_scaled() {
        // A folded batch normalization: the products, row by row, as the
        // packer will compute them.
        return (0..r.rows())
            .into_par_iter()
            .any(|o| r.row(o).any(|v| test(v.to_bits())));
    }
    let view = w.le_view();
    (0..view.run_count()).into_par_iter().any(|o| {
        view.run(o).par_chunks(1 << 20).any(|piece| {
            piece
                .chunks_exact(4)
                .any(|b| test(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        })
    })
}

/// NaN or infinite weights: one problem per tensor.
pub fn errors(p: &Program) -> Vec<Problem> {
    let mut out = Vec::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        let TensorKind::Weight(values) = &tensor.kind else {
            continue;
        };
        if !any_bits(values, |b| b & EXP == EXP) {
            continue;
        }
        let nan = values.iter().filter(|v| v.is_nan()).count();
        let inf = values.iter().filter(|v| v.is_infinite()).count();
        let first = values.iter().position(|v| !v.is_finite()).unwrap_or(0);
        let (node, op) = reader(p, t);
        out.push(Problem::new(
            &node,
            &op,
            format!(
                "weight '{}' has {nan} NaN and {inf} infinite value(s) (the first at element {first}: {})",
                tensor.name, values.at(first)
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
        if tensor.precision != Precision::Fp16 || !any_bits(values, |b| b & ABS > F16_MAX) {
            continue;
        }
        let over: Vec<f32> = values
            .iter()
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
