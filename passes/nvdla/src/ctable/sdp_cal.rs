//! Calibration of one INT8 SDP op: its output converter, the integer units
//! of its operands, per-channel or per-tensor weights of its fused conv,
//! and its quantization record.
//!
//! In: the program, the SDP's index, its output scale and offset, the
//! record fields common to the table (method, format) and a function giving
//! a tensor's scale. Out: an [`SdpCal`]: registers to set, weights to
//! divide, the X1 operand to write (per-channel layers). Nothing is changed
//! here; `apply_scales` applies all layers' results together.
//!
//! * No fused conv: the input counts `s_in`; `out_cvt ≈ s_in / s_out`. An
//!   activation operand whose scale is not a power of two times `s_in` has
//!   the input moved to its unit by X1 first ([`super::standalone`]).
//! * Fused conv, per channel ([`super::perchan`]): X1 rescales each
//!   channel to a common unit `U`; `out_cvt ≈ U / s_out`.
//! * Fused conv, per tensor (fallback; the record's note says why): the
//!   accumulator counts `s_in · s_w`, `s_w = max|w| / 127`;
//!   `out_cvt ≈ s_in · s_w / s_out`.
//! * A MUL by an activation `b` (squeeze-excitation, HardSwish's gate) in
//!   any sub-unit multiplies the unit by `s_b` ([`units::Units::unit`]);
//!   `out_cvt` maps that product unit.
//!
//! `out_cvt = fixed_point(ratio)`: the largest positive int16 mantissa `m`
//! and shift `n` ∈ 0..=63 with `m = round(ratio · 2^n)`; the hardware
//! computes `sat8(round_half_away((x − offset) · m >> n))`.

use super::apply::{fixed_point, ApplyOptions};
use super::perchan::{self, min_max};
use super::standalone;
use super::units::{self, weight_scale, Divide};
use crate::program::{Program, TensorId, TensorKind, Value};
use crate::qrecord::{QuantRecord, WeightMode};

/// The X1 operand a per-channel layer writes: an existing tensor
/// (rewritten) or a new one named `name`, with its shape and values.
#[derive(Debug)]
pub(super) struct X1Write {
    pub(super) sdp: usize,
    pub(super) tensor: Option<TensorId>,
    pub(super) name: String,
    pub(super) shape: Vec<usize>,
    pub(super) values: Vec<f32>,
}

/// What calibrating one SDP changes.
#[derive(Debug, Default)]
pub(super) struct SdpCal {
    pub(super) sets: Vec<(usize, &'static str, Value)>,
    pub(super) divide: Vec<Divide>,
    pub(super) x1: Option<X1Write>,
}

/// The feature (activation) operand an X2 or Y ALU adds, if any.
fn feature_operand(p: &Program, sdp: usize) -> Option<TensorId> {
    let op = &p.ops[sdp];
    [("x2_op.type", 2), ("y_op.type", 3)]
        .into_iter()
        .filter(|(ty, _)| op.str(ty) == Some("add"))
        .filter_map(|(_, slot)| op.inputs.get(slot).copied().flatten())
        .find(|&b| !p.tensors[b].is_weight())
}

/// Calibrates SDP `i` (see the module doc).
pub(super) fn calibrate_sdp(
    p: &Program,
    i: usize,
    (s_out, offset): (f64, i64),
    base: &QuantRecord,
    options: &ApplyOptions,
    scale_of: &dyn Fn(TensorId) -> Result<f64, String>,
) -> Result<SdpCal, String> {
    let op = &p.ops[i];
    let input = op
        .inputs
        .first()
        .copied()
        .flatten()
        .ok_or_else(|| format!("layer '{}' has no input", op.hw_layer))?;
    let mut rec = QuantRecord {
        calibrated: true,
        output_scale: Some(s_out),
        ..base.clone()
    };
    let mut out = SdpCal::default();
    let conv = (p.tensors[input].kind == TensorKind::Fused)
        .then(|| p.producer(input))
        .flatten();
    let (unit, per_channel) = match conv {
        None => {
            let s_in = scale_of(input)?;
            rec.input_scale = Some(s_in);
            let feature = feature_operand(p, i).map(scale_of).transpose()?;
            match standalone::plan(p, i, s_in, s_out, feature)? {
                None => (s_in, false),
                Some(r) => {
                    out.sets.extend(r.sets);
                    out.divide.extend(r.divide);
                    // X1 is set here; the other units follow its unit.
                    (r.unit, true)
                }
            }
        }
        Some(c) => {
            let conv_op = &p.ops[c];
            let (Some(x), Some(w)) = (
                conv_op.inputs.first().copied().flatten(),
                conv_op.inputs.get(1).copied().flatten(),
            ) else {
                return Err(format!(
                    "conv '{}' lacks its input or weight",
                    conv_op.hw_layer
                ));
            };
            let TensorKind::Weight(values) = &p.tensors[w].kind else {
                return Err(format!(
                    "conv '{}' weight '{}' is not a constant",
                    conv_op.hw_layer, p.tensors[w].name
                ));
            };
            let s_in = scale_of(x)?;
            rec.input_scale = Some(s_in);
            let feature = feature_operand(p, i).map(scale_of).transpose()?;
            let plan = if options.per_channel {
                perchan::plan(p, i, c, s_in, s_out, feature)
            } else {
                Err("per-tensor weights were asked for".to_string())
            };
            match plan {
                Ok(pc) => {
                    rec.weight_mode = Some(WeightMode::PerChannel);
                    rec.weight_scales = Some(min_max(&pc.weight.1));
                    out.divide.push(Divide {
                        tensor: pc.weight.0,
                        divisors: pc.weight.1,
                        block: pc.weight.2,
                    });
                    out.sets.extend(pc.sets.into_iter().map(|(k, v)| (i, k, v)));
                    out.x1 = Some(X1Write {
                        sdp: i,
                        tensor: pc.x1.0,
                        name: pc.new_name,
                        shape: pc.x1.1,
                        values: pc.x1.2,
                    });
                    (pc.unit, true)
                }
                Err(note) => {
                    let s_w = weight_scale(values.values());
                    rec.weight_mode = Some(WeightMode::PerTensor);
                    rec.weight_scales = Some((s_w, s_w));
                    rec.note = Some(note);
                    (s_in * s_w, false)
                }
            }
        }
    };
    // The sub-units' operands; a product by an activation changes the
    // unit the converter reads.
    let u = units::units(p, i, unit, per_channel, s_out, scale_of)?;
    let (m, n) = fixed_point(u.unit / s_out).ok_or_else(|| {
        format!(
            "layer '{}': ratio {} does not fit an int16 scale and a 0..=63 shift",
            op.hw_layer,
            u.unit / s_out
        )
    })?;
    out.sets.push((i, "out_cvt.scale", Value::Int(m)));
    out.sets.push((i, "out_cvt.truncate", Value::Int(n)));
    out.sets.push((i, "out_cvt.offset", Value::Int(offset)));
    out.sets.extend(u.sets);
    out.divide.extend(u.divide);
    out.sets
        .extend(rec.to_attrs().into_iter().map(|(k, v)| (i, k, v)));
    Ok(out)
}
