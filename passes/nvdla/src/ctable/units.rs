//! Integer units of an INT8 SDP's weights, for [`super::load_nvidia_calibtable`].
//!
//! In: the program, the index of an INT8 SDP op and the unit of its input
//! (`s_in · s_w` after a fused conv). Out: the weight tensors to divide
//! (which values, by what) and the shift registers to set.
//!
//! The emitter encodes a weight `w` as `round(w · 2^s)`, `s` from registers
//! (`emit::quant`): a conv's `out_cvt.truncate`, an SDP ALU operand's
//! `−shift_value`. Calibration chooses the units so that these integers
//! mean what the converter registers assume:
//! * the fused conv's weights are divided by `s_w = max |w| / 127` (they
//!   span ±127 with `out_cvt.truncate` 0, so the accumulator counts
//!   `s_in · s_w`);
//! * an SDP ALU (`add`, row 0 of `both`) weight operand is divided by the
//!   accumulator unit, and its `shift_value` is the smallest that fits the
//!   result in the operand's precision (int8 ±127, int16 ±32767).
//!
//! MUL weight operands (type `mul`, row 1 of `both`, the PReLU slope) are
//! unitless factors: they stay as they are, and the sub-unit's `truncate`
//! is the largest shift (0..=63) that keeps every `round(f · 2^truncate)`
//! in the operand's range (a 15-bit mantissa for the largest). A MUL by a
//! *feature* (squeeze-excitation `x · s`, HardSwish's `x · HardSigmoid(x)`)
//! multiplies two integers: the product counts `unit · s_b`, exactly (the
//! multiplier keeps all 32 bits, `truncate` 0), so the units after it —
//! a later ALU row, the output converter — work in that unit
//! ([`Units::unit`]). A per-point
//! *feature* operand of an add (a residual Add) is not rescaled: the X1/X2
//! ALUs have no operand converter, only the left shift, so its unit must be
//! the accumulator's times `2^shift_value` (within 1 %); otherwise the
//! calibration is refused rather than computing a wrong sum.
//!
//! The Y (EW) unit is different: it has no operand shift (the firmware
//! programs no `shift_value` for it, nvdla-arith §6.5) but an operand
//! converter, `y_op.cvt.alu_cvt`, which maps a memory operand `b` to
//! `((b − offset) · scale) >> truncate` before the ALU. So on Y:
//! * a weight ALU operand that needs a left shift `s` to fit its
//!   precision is encoded at `2^-s` (as on X) and the converter multiplies
//!   it back by `scale = 2^s` (`truncate` 0), exactly; `y_op.shift_value`
//!   stays 0 ([`crate::emit::encode`] reads the exponent from the
//!   converter);
//! * a feature ALU operand (a residual Add on Y) is brought to the
//!   accumulator unit by the converter with any ratio, `(scale, truncate)
//!   = fixed_point(s_b / unit)`, not only powers of two.

use crate::program::{Precision, Program, TensorId, TensorKind, Value};

/// Divide a weight's leading values: value `i` (for `i <
/// divisors.len() · block`) by `divisors[i / block]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Divide {
    /// The weight.
    pub(super) tensor: TensorId,
    /// One divisor per block.
    pub(super) divisors: Vec<f64>,
    /// Values per block.
    pub(super) block: usize,
}

impl Divide {
    /// The first `n` values divided by `d`.
    pub(super) fn uniform(tensor: TensorId, d: f64, n: usize) -> Divide {
        Divide {
            tensor,
            divisors: vec![d],
            block: n,
        }
    }
}

/// What calibrating one SDP changes.
#[derive(Debug, Default)]
pub(super) struct Units {
    /// Weights to divide.
    pub(super) divide: Vec<Divide>,
    /// `(op index, register, value)`.
    pub(super) sets: Vec<(usize, &'static str, Value)>,
    /// The unit the SDP's last sub-unit writes in, which its output
    /// converter maps to the output scale: the input unit, times the
    /// scale of every feature operand a MUL row multiplied by.
    pub(super) unit: f64,
}

/// `s_w = max |w| / 127` of a conv weight (1/127 when all zero).
pub(super) fn weight_scale(values: &[f32]) -> f64 {
    let m = values.iter().fold(0f32, |m, v| m.max(v.abs()));
    if m > 0.0 {
        f64::from(m) / 127.0
    } else {
        1.0 / 127.0
    }
}

/// Largest relative difference between a feature operand's unit and the
/// accumulator's shifted unit.
pub(super) const SHIFT_TOLERANCE: f64 = 0.01;

/// The integer units of SDP op `sdp`, whose input counts `unit`;
/// `scale_of` gives a feature tensor's scale. With `per_channel`, the
/// fused conv's weights and X1 are calibrated by [`super::perchan`] and
/// `unit` is the unit X1 writes in: only X2 and Y are handled here.
///
/// `s_out` is the output scale: a standalone SDP (no fused conv) whose X1
/// multiplies by constants and whose unit is coarser than an output step
/// gets a gain there ([`gain`]), so the converter never amplifies.
pub(super) fn units(
    p: &Program,
    sdp: usize,
    unit: f64,
    per_channel: bool,
    s_out: f64,
    scale_of: &dyn Fn(TensorId) -> Result<f64, String>,
) -> Result<Units, String> {
    let mut u = Units {
        unit,
        ..Units::default()
    };
    let op = &p.ops[sdp];
    let input = op.inputs.first().copied().flatten();
    let standalone = !per_channel && input.is_some_and(|t| p.tensors[t].kind != TensorKind::Fused);
    if let Some(conv) = input
        .filter(|&t| p.tensors[t].kind == TensorKind::Fused)
        .and_then(|t| p.producer(t))
    {
        if let Some(w) = p.ops[conv].inputs.get(1).copied().flatten() {
            if let TensorKind::Weight(v) = &p.tensors[w].kind {
                if !per_channel {
                    u.divide
                        .push(Divide::uniform(w, weight_scale(v.values()), v.len()));
                }
                u.sets.push((conv, "out_cvt.truncate", Value::Int(0)));
            }
        }
    }
    for (slot, (ty, shift, trunc)) in [
        ("x1_op.type", "x1_op.shift_value", "x1_op.truncate"),
        ("x2_op.type", "x2_op.shift_value", "x2_op.truncate"),
        ("y_op.type", "y_op.shift_value", "y_op.truncate"),
    ]
    .into_iter()
    .enumerate()
    .skip(usize::from(per_channel))
    {
        // Sub-units run in slot order (X1, X2, Y), so a product's unit
        // reaches every later row; a feature MUL never shares its sub-unit
        // with an ALU row (refused below), so the order inside one does not
        // matter.
        let (rows, alu_row, mul_row) = match op.str(ty) {
            Some("add") => (1, true, false),
            Some("both") => (2, true, true),
            Some("mul") => (1, false, true),
            _ => continue,
        };
        let Some(b) = op.inputs.get(slot + 1).copied().flatten() else {
            continue;
        };
        let TensorKind::Weight(w) = &p.tensors[b].kind else {
            if mul_row && alu_row {
                // One operand tensor holds both rows only when constant.
                return Err(format!(
                    "layer '{}': the activation '{}' is both the ALU and the MUL operand of one SDP sub-unit, which INT8 calibration cannot give one unit",
                    op.hw_layer, p.tensors[b].name
                ));
            }
            if mul_row {
                // A product of two integers, `X · B`, counts `unit · s_b`;
                // no truncation, so nothing is rounded away (a product
                // beyond 32 bits saturates, as the output would).
                u.unit *= scale_of(b)?;
                u.sets.push((sdp, trunc, Value::Int(0)));
            } else if slot == Y {
                let (scale, truncate) = y_feature_cvt(p, sdp, b, u.unit, scale_of(b)?)?;
                u.sets.extend(y_alu_cvt(sdp, scale, truncate));
            } else {
                u.sets.push((
                    sdp,
                    shift,
                    Value::Int(feature_shift(p, sdp, b, u.unit, scale_of(b)?)?),
                ));
            }
            continue;
        };
        let qmax = match p.tensors[b].precision {
            Precision::Int8 => 127.0,
            Precision::Int16 => 32767.0,
            Precision::Fp16 => continue,
        };
        let v = w.values();
        let n = v.len() / rows;
        let alu_unit = u.unit;
        if alu_row {
            let max = v[..n].iter().fold(0f64, |m, x| m.max(f64::from(x.abs()))) / u.unit;
            let sv = (0..=63).find(|&s| max / 2f64.powi(s) <= qmax).unwrap_or(63);
            u.divide.push(Divide::uniform(b, u.unit, n));
            if slot != Y {
                u.sets.push((sdp, shift, Value::Int(i64::from(sv))));
            } else if sv > 0 {
                // Y ignores `shift_value`: its converter scales instead.
                if sv > Y_CVT_MAX_SHIFT {
                    return Err(format!(
                        "layer '{}': the Y operand '{}' reaches {max:e} accumulator steps, more than the operand converter can restore (int16 operand × 2^{Y_CVT_MAX_SHIFT}); compile this layer in FP16",
                        op.hw_layer, p.tensors[b].name
                    ));
                }
                u.sets.extend(y_alu_cvt(sdp, 1 << sv, 0));
            }
        }
        if mul_row {
            // A unitless factor: encoded round(f · 2^truncate), the largest
            // truncate that keeps every factor in the operand's range.
            let row = &v[(rows - 1) * n..rows * n];
            let max = row.iter().fold(0f64, |m, x| m.max(f64::from(x.abs())));
            let g = if standalone && slot == 0 && op.str("x1_op.act") != Some("prelu") {
                let alu_max = if alu_row {
                    v[..n].iter().fold(0f64, |m, x| m.max(f64::from(x.abs())))
                } else {
                    0.0
                };
                gain(u.unit, s_out, (127.0 * u.unit + alu_max) * max)
            } else {
                1.0
            };
            if g > 1.0 {
                // One divide per weight: the ALU row's (by the input unit)
                // and the factors times the gain.
                if alu_row {
                    u.divide.pop();
                }
                let divisors = if alu_row {
                    vec![alu_unit, 1.0 / g]
                } else {
                    vec![1.0 / g]
                };
                u.divide.push(Divide {
                    tensor: b,
                    divisors,
                    block: n,
                });
                u.unit /= g;
            }
            if let Some(t) = super::perchan::shift_within(max * g, qmax) {
                u.sets.push((sdp, trunc, Value::Int(t)));
            }
        }
    }
    Ok(u)
}

/// The index of the Y sub-unit in the slot loop of [`units`].
const Y: usize = 2;

/// Guard bits between a gained unit and an output step.
const GAIN_GUARD_BITS: i32 = 8;

/// The gain (a power of two) X1's constant factors take on a standalone
/// SDP whose input unit `unit` is coarser than an output step `s_out`:
/// the smallest that brings the unit to `s_out · 2^-8` (as a conv's
/// per-channel rescale), so that the sub-units keep the bits the output
/// converter would otherwise invent (a ramp `w · clamp(α·x + β, 0, 1)`
/// with `w` ≪ the input's range had three levels without it). Capped so
/// that X1's largest result, `reach` (real), stays within 2^30 units; 1
/// when the unit is already fine enough.
fn gain(unit: f64, s_out: f64, reach: f64) -> f64 {
    if !(unit > s_out && s_out > 0.0 && reach.is_finite()) {
        return 1.0;
    }
    let want = (unit / s_out).log2().ceil() + f64::from(GAIN_GUARD_BITS);
    let cap = if reach > 0.0 {
        (2f64.powi(30) * unit / reach).log2().floor()
    } else {
        want
    };
    want.min(cap).clamp(0.0, 62.0).exp2()
}

/// The largest power of two the Y converter's int16 `scale` holds.
const Y_CVT_MAX_SHIFT: i32 = 14;

/// The registers enabling Y's ALU operand converter with `scale` and
/// `truncate` (offset 0).
fn y_alu_cvt(sdp: usize, scale: i64, truncate: i64) -> [(usize, &'static str, Value); 4] {
    [
        (sdp, "y_op.cvt.alu_cvt.enable", Value::Int(1)),
        (sdp, "y_op.cvt.alu_cvt.scale", Value::Int(scale)),
        (sdp, "y_op.cvt.alu_cvt.truncate", Value::Int(truncate)),
        (sdp, "y_op.cvt.alu_cvt.offset", Value::Int(0)),
    ]
}

/// Y's converter `(scale, truncate)` that brings feature operand `b`
/// (scale `s_b`) to the accumulator unit `unit`: `fixed_point(s_b /
/// unit)`, or why the ratio does not fit.
fn y_feature_cvt(
    p: &Program,
    sdp: usize,
    b: TensorId,
    unit: f64,
    s_b: f64,
) -> Result<(i64, i64), String> {
    super::apply::fixed_point(s_b / unit).ok_or_else(|| {
        format!(
            "layer '{}': the INT8 element-wise operand '{}' counts {s_b:e} per step, {:e} times the accumulator's {unit:e}; the Y operand converter holds ratios up to 32767 with an int16 scale — compile this layer in FP16",
            p.ops[sdp].hw_layer,
            p.tensors[b].name,
            s_b / unit
        )
    })
}

/// The ALU shift that brings feature operand `b` (scale `s_b`) to the
/// accumulator unit `unit`, or why there is none.
fn feature_shift(p: &Program, sdp: usize, b: TensorId, unit: f64, s_b: f64) -> Result<i64, String> {
    let ratio = s_b / unit;
    let sv = ratio.log2().round();
    if (0.0..=63.0).contains(&sv) && (ratio / sv.exp2() - 1.0).abs() <= SHIFT_TOLERANCE {
        return Ok(sv as i64);
    }
    Err(format!(
        "layer '{}': the INT8 element-wise operand '{}' counts {s_b:e} per step, {ratio:.4} times the accumulator's {unit:e}; the SDP ALU can only shift it left by whole bits (no operand converter), so the sum would be wrong — calibrate the two branches to units a power of two apart, or compile this layer in FP16",
        p.ops[sdp].hw_layer, p.tensors[b].name
    ))
}
