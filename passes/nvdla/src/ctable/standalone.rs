//! INT8 element-wise ops of two activations on a standalone SDP, for any
//! ratio of their scales.
//!
//! In: the program, the index of an INT8 SDP op with no fused conv, the
//! scale `s_in` of the input it reads from memory, its output scale and the
//! scale of the feature operand its X2 or Y ALU adds (or takes the max or
//! min with). Out: `None` when today's path already fits (no feature
//! operand, or one a whole power of two above `s_in`: the ALU's left shift
//! aligns it exactly, and the registers stay the ones the aligned case
//! always had), else a [`Rescale`]: the unit the sub-units then work in, the
//! X1 registers and the X1 weight to scale. `Err` when X1 is taken by
//! something that cannot absorb a factor.
//!
//! The X1/X2/Y ALUs have no operand converter, only a left shift by whole
//! bits, so the operand `b` (counting `s_b`) can only be added in a unit
//! `U = s_b · 2^-j`. X1's multiplier, free on a standalone SDP or holding a
//! per-channel factor (the −1 of a `Sub`), moves the input there:
//!
//! * `j ≥ 0` is the smallest with `U ≤ s_out · 2^-8`, eight guard bits
//!   below an output step, as for a conv's per-channel rescale;
//! * X1 multiplies by `r = s_in / U`: a free X1 becomes `type = mul`,
//!   `mode = per_layer`, `mul_operand = round(r · 2^t)` with the largest
//!   `t` (0..=63) that keeps it in int16; an X1 multiplier by constants
//!   `f_k` has them scaled to `f_k · r` and its `truncate` chosen again;
//! * the operand's `shift_value` is then `j` ([`super::units`]) and the
//!   output converter maps `U` to `s_out`.
//!
//! A positive `r` commutes with X1's ReLU and keeps max and min exact.

use super::apply::fixed_point;
use super::perchan::shift_within;
use super::units::{Divide, SHIFT_TOLERANCE};
use crate::program::{Precision, Program, TensorId, TensorKind, Value};

/// Guard bits between the working unit and an output step.
const GUARD_BITS: i32 = 8;

/// What moving a standalone SDP's input to its operand's unit sets.
#[derive(Debug)]
pub(super) struct Rescale {
    /// The unit X1 writes in, `s_b · 2^-j`.
    pub(super) unit: f64,
    /// `(op index, register, value)`.
    pub(super) sets: Vec<(usize, &'static str, Value)>,
    /// X1's constant multiplier operand to scale by `r`, if it has one.
    pub(super) divide: Option<Divide>,
}

/// Plans the rescale of SDP `sdp` (see the module doc). `feature` is the
/// feature operand's scale.
pub(super) fn plan(
    p: &Program,
    sdp: usize,
    s_in: f64,
    s_out: f64,
    feature: Option<f64>,
) -> Result<Option<Rescale>, String> {
    let Some(s_b) = feature else {
        return Ok(None);
    };
    let op = &p.ops[sdp];
    let ratio = s_b / s_in;
    let whole = ratio.log2().round();
    if (0.0..=63.0).contains(&whole) && (ratio / whole.exp2() - 1.0).abs() <= SHIFT_TOLERANCE {
        return Ok(None);
    }
    let j = (0..=63)
        .find(|&j| s_b * 2f64.powi(-j) <= s_out * 2f64.powi(-GUARD_BITS))
        .ok_or_else(|| {
            format!(
                "layer '{}': the operand's scale {s_b:e} is more than 2^63 times the output's {s_out:e}",
                op.hw_layer
            )
        })?;
    let unit = s_b * 2f64.powi(-j);
    let r = s_in / unit;
    match op.str("x1_op.type").unwrap_or("none") {
        "none" => {
            let (m, t) = fixed_point(r).ok_or_else(|| {
                format!(
                    "layer '{}': the input rescale {r} does not fit an int16 multiplier and a 0..=63 shift",
                    op.hw_layer
                )
            })?;
            let sets = vec![
                (sdp, "x1_op.enable", Value::Int(1)),
                (sdp, "x1_op.type", Value::Str("mul".into())),
                (sdp, "x1_op.mode", Value::Str("per_layer".into())),
                (sdp, "x1_op.act", Value::Str("none".into())),
                (sdp, "x1_op.alu_type", Value::Str("sum".into())),
                (sdp, "x1_op.precision", Value::Str("int16".into())),
                (sdp, "x1_op.mul_operand", Value::Int(m)),
                (sdp, "x1_op.truncate", Value::Int(t)),
            ];
            Ok(Some(Rescale {
                unit,
                sets,
                divide: None,
            }))
        }
        "mul" => {
            let (w, values, qmax) = x1_constant(p, sdp).ok_or_else(|| taken(p, sdp))?;
            let max = values.iter().fold(0f64, |m, v| m.max(f64::from(v.abs()))) * r;
            let t = shift_within(max, qmax).ok_or_else(|| {
                format!(
                    "layer '{}': the X1 factors times the input rescale {r} do not fit the operand's range with a 0..=63 shift",
                    op.hw_layer
                )
            })?;
            Ok(Some(Rescale {
                unit,
                sets: vec![(sdp, "x1_op.truncate", Value::Int(t))],
                divide: Some(Divide::uniform(w, 1.0 / r, values.len())),
            }))
        }
        _ => Err(taken(p, sdp)),
    }
}

/// X1's constant multiplier operand: the weight, its values and the
/// operand's largest integer.
fn x1_constant(p: &Program, sdp: usize) -> Option<(TensorId, &[f32], f64)> {
    let w = p.ops[sdp].inputs.get(1).copied().flatten()?;
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return None;
    };
    let qmax = match p.tensors[w].precision {
        Precision::Int8 => 127.0,
        Precision::Int16 => 32767.0,
        Precision::Fp16 => return None,
    };
    Some((w, values.values(), qmax))
}

fn taken(p: &Program, sdp: usize) -> String {
    let op = &p.ops[sdp];
    format!(
        "layer '{}': the INT8 element-wise operand's scale is not a power of two times the input's, and X1 ({}) cannot also rescale the input; calibrate the two branches to units a power of two apart, or compile this layer in FP16",
        op.hw_layer,
        op.str("x1_op.type").unwrap_or("none")
    )
}
