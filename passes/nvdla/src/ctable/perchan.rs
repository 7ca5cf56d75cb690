//! Per-output-channel INT8 weight scales for a conv (or FC) and its SDP.
//!
//! In: the program, the index of an INT8 SDP whose input is a fused conv
//! accumulator, the input and output scales, and the scale of a feature
//! operand the SDP adds (a residual), if any. Out: a [`PerChannel`] plan
//! (weights to divide per channel, the new X1 operand and registers, the
//! unit the rest of the SDP works in), or why the layer stays per tensor.
//!
//! Derivation (real = q · scale everywhere):
//! * kernel `k`'s scale `s_w[k] = max|w[k,·,·,·]| / 127` (an all-zero kernel
//!   takes the largest, so it does not widen the multiplier range); its
//!   weights are encoded `round_half_away(w / s_w[k])` ∈ [−127, 127];
//! * the accumulator of channel `k` counts `a_k = s_in · s_w[k]`;
//! * the X1 (BS) unit, which every configuration has, rescales it per
//!   channel with its multiplier operand read from memory (`mode
//!   per_kernel`, int16): `y = ((acc + (b_k << shift_value)) · m_k) >>
//!   truncate` (round half away from zero, saturated to 32 bits), so `y`
//!   counts a common unit `U` when `m_k = round(f_k · a_k / U · 2^truncate)`
//!   (`f_k` an existing per-channel factor, e.g. an unfolded batch-norm
//!   scale, else 1). `truncate` is the largest shift (0..=63) that keeps
//!   every `|m_k|` ≤ 32767, so the largest multiplier has a 15-bit mantissa
//!   and one `2^t` serves all channels (the register is per layer);
//! * the bias (ALU row) is `b_k / a_k`, encoded `round(b_k / a_k ·
//!   2^-shift_value)` with the smallest `shift_value` that fits int16;
//! * `U = s_out · 2^-8` ([`GUARD_BITS`]): the X1 rounding costs at most
//!   1/512 of an output step, and `|y|` stays below 2^15 · headroom; when the
//!   SDP adds a feature operand of scale `s_b` (X2/Y per_point, which have no
//!   operand converter), `U = s_b · 2^-j` with the smallest `j ≥ 0` giving
//!   `U ≤ s_out · 2^-8`, so the operand's left shift `j` is exact whatever
//!   the two scales are;
//! * the output converter then maps `U` to `s_out` (`fixed_point(U/s_out)`).
//!
//! A layer stays per tensor (the note says why) when all kernels have the
//! same scale (nothing to gain), when X1's multiplier is taken (PReLU slope)
//! or X1 reads an activation or immediates, or when the multipliers do not
//! fit int16 with a shift in 0..=63.
//!
//! ```
//! use onnc_nvdla::ctable::perchan::{channel_scales, common_shift, intermediate_unit};
//! let s = channel_scales(&[0.5, -1.27, 0.0, 0.0, 2.54, 0.1], 3);
//! assert_eq!(s, [1.27f32 as f64 / 127.0, 2.54f32 as f64 / 127.0, 2.54f32 as f64 / 127.0]);
//! assert_eq!(common_shift(0.75), Some(15)); // 0.75 · 2^15 = 24576 ≤ 32767
//! assert_eq!(common_shift(40000.0), None);
//! assert_eq!(intermediate_unit(1.0, Some(0.3)), 0.3 / 128.0); // 0.3/2^6 > 1/256
//! ```

use crate::program::{Precision, Program, TensorId, TensorKind, Value};

/// Bits of the X1 intermediate unit below the output step.
pub const GUARD_BITS: i32 = 8;

/// Largest int16 multiplier magnitude.
const MUL_MAX: f64 = 32767.0;

/// `max|w| / 127` of each of the `k` kernels of `w` (row-major, kernel
/// first); an all-zero kernel takes the largest scale (1/127 if all are zero).
pub fn channel_scales(w: &[f32], k: usize) -> Vec<f64> {
    let block = w.len() / k.max(1);
    let raw: Vec<f64> = (0..k)
        .map(|c| {
            let m = w[c * block..(c + 1) * block]
                .iter()
                .fold(0f32, |m, v| m.max(v.abs()));
            f64::from(m) / 127.0
        })
        .collect();
    let top = raw.iter().copied().fold(0f64, f64::max);
    let fill = if top > 0.0 { top } else { 1.0 / 127.0 };
    raw.into_iter()
        .map(|s| if s > 0.0 { s } else { fill })
        .collect()
}

/// The largest shift `t` in 0..=63 with `round(max_abs · 2^t) ≤ 32767`;
/// `None` when `max_abs` is not finite and positive or exceeds the int16
/// range even unshifted.
pub fn common_shift(max_abs: f64) -> Option<i64> {
    shift_within(max_abs, MUL_MAX)
}

/// The largest shift `t` in 0..=63 with `round(max_abs · 2^t) ≤ qmax`.
pub fn shift_within(max_abs: f64, qmax: f64) -> Option<i64> {
    if !(max_abs.is_finite() && max_abs > 0.0) {
        return None;
    }
    (0..=63i32)
        .rev()
        .find(|&t| (max_abs * 2f64.powi(t)).round() <= qmax)
        .map(i64::from)
}

/// `round_half_away(r · 2^t)` clamped to int16.
pub fn quantize(r: f64, t: i64) -> i64 {
    (r * 2f64.powi(t as i32)).round().clamp(-32768.0, MUL_MAX) as i64
}

/// The smallest ALU left shift (0..=63) that brings `max_abs` into int16.
pub fn alu_shift(max_abs: f64) -> i64 {
    (0..=63i32)
        .find(|&s| max_abs / 2f64.powi(s) <= MUL_MAX)
        .unwrap_or(63)
        .into()
}

/// The unit `U` the X1 unit writes in (see the module doc): `s_out · 2^-8`,
/// or the feature operand's scale over the smallest power of two that
/// brings it to or below that.
pub fn intermediate_unit(s_out: f64, feature: Option<f64>) -> f64 {
    let u0 = s_out * 2f64.powi(-GUARD_BITS);
    match feature {
        Some(s_b) if s_b.is_finite() && s_b > 0.0 => {
            let j = (s_b / u0).log2().ceil().clamp(0.0, 63.0);
            let u = s_b / j.exp2();
            // log2 rounding: never above u0.
            if u > u0 {
                u / 2.0
            } else {
                u
            }
        }
        _ => u0,
    }
}

/// How one layer is quantized per channel.
#[derive(Debug)]
pub(super) struct PerChannel {
    /// The unit X1 writes in (`U`).
    pub(super) unit: f64,
    /// The conv weight, its per-kernel scales and the values per kernel.
    pub(super) weight: (TensorId, Vec<f64>, usize),
    /// The X1 operand: an existing tensor to rewrite, or `None` to add one
    /// named [`PerChannel::new_name`]; its shape and values.
    pub(super) x1: (Option<TensorId>, Vec<usize>, Vec<f32>),
    /// Name for a new X1 operand.
    pub(super) new_name: String,
    /// Registers of the SDP (`x1_op.*`).
    pub(super) sets: Vec<(&'static str, Value)>,
}

/// The per-channel plan of SDP `sdp` (input: the accumulator of `conv`),
/// or why the layer stays per tensor.
pub(super) fn plan(
    p: &Program,
    sdp: usize,
    conv: usize,
    s_in: f64,
    s_out: f64,
    feature: Option<f64>,
) -> Result<PerChannel, String> {
    let op = &p.ops[sdp];
    let w = p.ops[conv]
        .inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or("the conv has no weight")?;
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return Err("the conv's weight is not a constant".into());
    };
    let k = p.tensors[w].shape.first().copied().unwrap_or(0);
    if k == 0 || values.len() % k != 0 {
        return Err("the conv's weight has no kernels".into());
    }
    let s_w = channel_scales(values.values(), k);
    let (lo, hi) = min_max(&s_w);
    // Equal scales gain nothing, unless X1's rescale is needed to add a
    // feature operand of any scale (see `intermediate_unit`).
    if lo == hi && feature.is_none() {
        return Err("every output channel has the same max |w|".into());
    }
    let ty = op.str("x1_op.type").unwrap_or("none");
    if op.str("x1_op.act") == Some("prelu") {
        return Err("the X1 multiplier holds the PReLU slope".into());
    }
    let operand = op.inputs.get(1).copied().flatten();
    let (alu, mul): (Option<Vec<f32>>, Option<Vec<f32>>) = match (ty, operand) {
        ("none", None) => (None, None),
        (_, None) => return Err(format!("X1 ({ty}) uses per-layer immediates")),
        (_, Some(t)) if !p.tensors[t].is_weight() => {
            return Err(format!("X1 reads the activation '{}'", p.tensors[t].name))
        }
        (_, Some(_)) if op.str("x1_op.mode") != Some("per_kernel") => {
            return Err("the X1 operand is not per kernel".into())
        }
        (_, Some(t)) if p.consumers(t).len() != 1 => {
            return Err(format!(
                "the X1 operand '{}' is shared with another layer",
                p.tensors[t].name
            ))
        }
        (_, Some(t)) => {
            let TensorKind::Weight(v) = &p.tensors[t].kind else {
                unreachable!("checked: a weight")
            };
            let v = v.values();
            if v.len() != k * if ty == "both" { 2 } else { 1 } {
                return Err(format!(
                    "the X1 operand '{}' is not per channel",
                    p.tensors[t].name
                ));
            }
            match ty {
                "add" => (Some(v.to_vec()), None),
                "mul" => (None, Some(v.to_vec())),
                "both" => (Some(v[..k].to_vec()), Some(v[k..].to_vec())),
                other => return Err(format!("X1 type '{other}' has an operand")),
            }
        }
    };
    let unit = intermediate_unit(s_out, feature);
    let a: Vec<f64> = s_w.iter().map(|s| s_in * s).collect();
    let r: Vec<f64> = (0..k)
        .map(|c| mul.as_ref().map_or(1.0, |m| f64::from(m[c])) * a[c] / unit)
        .collect();
    let max = r.iter().fold(0f64, |m, x| m.max(x.abs()));
    let t = common_shift(max).ok_or_else(|| {
        format!("the per-channel rescale (up to {max:e}) does not fit an int16 multiplier with a 0..=63 shift")
    })?;
    let step = 2f64.powi(-(t as i32));
    // Exactly m·2^-t, so the emitter's round(v · 2^t) gives m back.
    let mul_row: Vec<f32> = r
        .iter()
        .map(|&x| (quantize(x, t) as f64 * step) as f32)
        .collect();
    let mut sets = vec![
        ("x1_op.enable", Value::Int(1)),
        ("x1_op.mode", Value::Str("per_kernel".into())),
        (
            "x1_op.precision",
            Value::Str(Precision::Int16.as_str().into()),
        ),
        ("x1_op.truncate", Value::Int(t)),
    ];
    let (shape, vals) = match alu {
        Some(b) => {
            let row: Vec<f64> = (0..k).map(|c| f64::from(b[c]) / a[c]).collect();
            let sv = alu_shift(row.iter().fold(0f64, |m, x| m.max(x.abs())));
            sets.push(("x1_op.shift_value", Value::Int(sv)));
            sets.push(("x1_op.type", Value::Str("both".into())));
            let mut vals: Vec<f32> = row.iter().map(|&x| x as f32).collect();
            vals.extend(mul_row);
            (vec![2, k, 1, 1], vals)
        }
        None => {
            sets.push(("x1_op.type", Value::Str("mul".into())));
            sets.push(("x1_op.alu_type", Value::Str("sum".into())));
            (vec![1, k, 1, 1], mul_row)
        }
    };
    let mut new_name = format!("{}.x1", op.hw_layer);
    while p.tensors.iter().any(|t| t.name == new_name) {
        new_name.push_str(".pc");
    }
    Ok(PerChannel {
        unit,
        weight: (w, s_w, values.len() / k),
        x1: (operand, shape, vals),
        new_name,
        sets,
    })
}

/// Smallest and largest of a non-empty list.
pub(super) fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_shift_keeps_the_largest_multiplier_in_int16() {
        for r in [1e-6, 0.003748971, 0.5, 1.0, 1.4443514, 300.0, 32767.0] {
            let t = common_shift(r).unwrap();
            let m = quantize(r, t);
            assert!(m <= 32767, "{r}: {m}");
            // One more bit would not fit (or the shift is at its limit).
            assert!(
                t == 63 || (r * 2f64.powi(t as i32 + 1)).round() > 32767.0,
                "{r}: t {t}"
            );
            assert!(m >= 16383, "{r}: a 15-bit mantissa, got {m}");
        }
        assert_eq!(common_shift(32767.4), Some(0));
        assert_eq!(common_shift(32767.5), None);
        assert_eq!(common_shift(0.0), None);
        assert_eq!(common_shift(f64::NAN), None);
        // Tiny ratios stop at the 6-bit register limit.
        assert_eq!(common_shift(1e-30), Some(63));
    }

    #[test]
    fn quantize_rounds_half_away_and_saturates() {
        assert_eq!(quantize(2.5, 0), 3);
        assert_eq!(quantize(-2.5, 0), -3);
        assert_eq!(quantize(0.75, 2), 3);
        assert_eq!(quantize(1e9, 0), 32767);
        assert_eq!(quantize(-1e9, 0), -32768);
    }

    #[test]
    fn alu_shift_is_the_smallest_that_fits_int16() {
        assert_eq!(alu_shift(0.0), 0);
        assert_eq!(alu_shift(32767.0), 0);
        assert_eq!(alu_shift(32768.0), 1);
        assert_eq!(alu_shift(40889.0), 1); // NVIDIA's ResNet-18 group0_block1_conv0 bias
        assert_eq!(alu_shift(1e6), 5);
    }

    #[test]
    fn intermediate_unit_is_a_power_of_two_below_the_feature_scale() {
        let s_out = 0.05;
        let u0 = s_out / 256.0;
        assert_eq!(intermediate_unit(s_out, None), u0);
        for s_b in [0.05, 0.0371, 1.7, 0.0001, 0.05 / 256.0] {
            let u = intermediate_unit(s_out, Some(s_b));
            let j = (s_b / u).log2();
            assert_eq!(j, j.round(), "{s_b}: shift {j} is whole");
            assert!(
                j >= 0.0 && u <= u0 && u > u0 / 2.0 || s_b <= u0 && u == s_b,
                "{s_b}: {u}"
            );
        }
    }

    #[test]
    fn channel_scales_per_kernel_and_zero_kernels() {
        assert_eq!(channel_scales(&[0.0; 4], 2), [1.0 / 127.0; 2]);
        let s = channel_scales(&[127.0, 1.0, 0.0, 0.0], 2);
        assert_eq!(s, [1.0, 1.0]);
    }
}
