//! `load_nvidia_calibtable`: NVIDIA's per-tensor calibration JSON converted
//! to converter registers.
//!
//! In: a [`Program`] and NVIDIA's calibtable (as `nvdla_compiler
//! --calibtable` reads it, made from a TensorRT INT8 calibration cache):
//! `{"<tensor>": {"scale": f, "min": f, "max": f, "offset": i}, ...}`, keyed
//! by tensor names, `scale` **or** `min`/`max`. Out: the INT8 ops' converter
//! registers set, [`LoadStats`]; FP16 ops are left alone (counted in
//! [`LoadStats::layers`] only when changed).
//!
//! Formulas (real = q · scale, symmetric INT8):
//! * a tensor's scale `s` is `scale`, or `max(|min|, |max|) / 127`;
//! * a tensor not in the table inherits its scale through scale-preserving
//!   producers (PDP, reshape, slice, concat's first member, BDMA, RUBIK);
//! * SDP producing `t`: the accumulator unit is `s_in · s_w` after a fused
//!   conv (`s_w = max|w| / 127`, per-layer symmetric weights), else `s_in`;
//!   the ratio `M = acc_unit / s_t` becomes `out_cvt.scale = round(M · 2^n)`
//!   (a positive int16 mantissa, as large as fits) and `out_cvt.truncate = n`
//!   (0..=63), so `q_t = (acc · scale) >> n`; `out_cvt.offset = offset`;
//! * EMU producing `t`: `input_scale_factor = s_in`, `output_scale_factor = s_t`
//!   (the emulator computes `x = q · s_in` and `q_t = x / s_t`);
//! * weights are put in those units ([`super::units`]): a fused conv's
//!   weights are divided by `s_w` (conv `out_cvt.truncate` 0), an SDP add
//!   operand by the accumulator unit (with the `shift_value` that fits it).
//!   The program's weight values change, so load a calibtable once.
//!
//! ```
//! use onnc_nvdla::ctable::fixed_point;
//! assert_eq!(fixed_point(0.5), Some((16384, 15)));
//! let (m, n) = fixed_point(0.0123).unwrap();
//! assert!((m as f64 / 2f64.powi(n as i32) - 0.0123).abs() < 1e-6);
//! ```

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::error::CtableError;
use super::json::{clip, key_lines, shown};
use super::load::{parse, structure, LoadStats};
use super::names::nearest;
use crate::program::{Engine, Program, TensorId, TensorKind, Value};

/// `m · 2^-n ≈ ratio` with `m` the largest positive int16 mantissa and
/// `n` in 0..=63; `None` if the ratio is not positive or does not fit.
pub fn fixed_point(ratio: f64) -> Option<(i64, i64)> {
    if !(ratio.is_finite() && ratio > 0.0) {
        return None;
    }
    let mut best = None;
    for n in 0..=63 {
        let m = (ratio * 2f64.powi(n)).round();
        if m > i16::MAX as f64 {
            break;
        }
        best = Some((m as i64, n as i64));
    }
    best.filter(|(m, _)| *m > 0)
}

/// Sets `p`'s converter registers from NVIDIA's calibtable `json`.
pub fn load_nvidia_calibtable(
    p: &mut Program,
    json: &str,
    file: &str,
) -> Result<LoadStats, CtableError> {
    let Json::Object(entries) = parse(json, file)? else {
        return Err(structure(
            file,
            "<top level>",
            "the calibtable must be a JSON object keyed by tensor names",
        ));
    };
    let lines = key_lines(json);
    let mut errors = Vec::new();
    let mut scales: BTreeMap<TensorId, (f64, i64)> = BTreeMap::new();
    for (name, body) in &entries {
        let line = lines.get(name).map_or(0, |p| p.0);
        let Some(id) = p.tensors.iter().position(|t| &t.name == name) else {
            let suggestions = nearest(name, p.tensors.iter().map(|t| t.name.as_str()));
            errors.push(CtableError::UnknownLayer {
                file: file.into(),
                key: clip(name),
                suggestions,
            });
            continue;
        };
        match entry_scale(body) {
            Ok(s) => {
                scales.insert(id, s);
            }
            Err(message) => errors.push(CtableError::Calibration {
                file: file.into(),
                tensor: clip(name),
                message: format!("{message} (line {line})"),
            }),
        }
    }
    CtableError::collect(file, errors)?;
    inherit_through_views(p, &mut scales);

    let mut sets: Vec<(usize, &'static str, Value)> = Vec::new();
    let mut divide: Vec<(TensorId, f64, usize)> = Vec::new();
    let mut errors = Vec::new();
    for (i, op) in p.ops.iter().enumerate() {
        let Some(&(s_out, offset)) = scales.get(&concat_root(p, op.output, &scales)) else {
            continue;
        };
        let int8 = |attr: &str| op.str(attr) == Some("int8");
        let input = op.inputs.first().copied().flatten();
        let mut fail = |message: String| {
            errors.push(CtableError::Calibration {
                file: file.into(),
                tensor: p.tensors[op.output].name.clone(),
                message,
            })
        };
        match op.engine {
            Engine::Sdp if int8("dst_precision") => {
                let unit = input
                    .ok_or_else(|| format!("layer '{}' has no input", op.hw_layer))
                    .and_then(|t| acc_unit(p, t, &scales));
                match unit.and_then(|u| {
                    fixed_point(u / s_out).map(|mn| (u, mn)).ok_or_else(|| {
                        format!(
                            "layer '{}': ratio {} does not fit an int16 scale and a 0..=63 shift",
                            op.hw_layer,
                            u / s_out
                        )
                    })
                }) {
                    Ok((u, (m, n))) => {
                        sets.push((i, "out_cvt.scale", Value::Int(m)));
                        sets.push((i, "out_cvt.truncate", Value::Int(n)));
                        sets.push((i, "out_cvt.offset", Value::Int(offset)));
                        match super::units::units(p, i, u, &|t| scale_of(p, t, &scales)) {
                            Ok(units) => {
                                sets.extend(units.sets);
                                divide.extend(units.divide);
                            }
                            Err(message) => fail(message),
                        }
                    }
                    Err(message) => fail(message),
                }
            }
            Engine::Emu if int8("precision") => match input
                .ok_or_else(|| format!("layer '{}' has no input", op.hw_layer))
                .and_then(|t| scale_of(p, t, &scales))
            {
                Ok(s_in) => {
                    sets.push((
                        i,
                        "input_scale_factor",
                        Value::Float(f64::from(s_in as f32)),
                    ));
                    sets.push((
                        i,
                        "output_scale_factor",
                        Value::Float(f64::from(s_out as f32)),
                    ));
                }
                Err(message) => fail(message),
            },
            _ => {}
        }
    }
    // A weight shared by layers of different units cannot hold both.
    let mut by_tensor: BTreeMap<TensorId, (f64, usize)> = BTreeMap::new();
    for &(t, d, n) in &divide {
        if by_tensor.insert(t, (d, n)).is_some_and(|old| old != (d, n)) {
            errors.push(CtableError::Calibration {
                file: file.into(),
                tensor: p.tensors[t].name.clone(),
                message:
                    "the weight is shared by INT8 layers whose accumulators have different units"
                        .into(),
            });
        }
    }
    CtableError::collect(file, errors)?;
    for (t, (d, n)) in by_tensor {
        if let TensorKind::Weight(v) = &mut p.tensors[t].kind {
            v[..n]
                .iter_mut()
                .for_each(|x| *x = (f64::from(*x) / d) as f32);
        }
    }

    let mut stats = LoadStats::default();
    let mut touched = std::collections::BTreeSet::new();
    for (i, name, value) in sets {
        let old = p.ops[i].attrs.insert(name.to_string(), value.clone());
        stats.registers += 1;
        stats.changed += usize::from(old.as_ref() != Some(&value));
        touched.insert(i);
    }
    stats.layers = touched.len();
    stats.tensor_entries = scales.len();
    Ok(stats)
}

/// `(scale, offset)` of one entry. Every field present must be valid, even
/// when another would do: a non-numeric `scale` is refused although
/// `min`/`max` are there, and `min > max` is refused.
fn entry_scale(body: &Json) -> Result<(f64, i64), String> {
    let Json::Object(_) = body else {
        return Err(format!(
            "expected an object with 'scale' or 'min'/'max', got {}",
            shown(body)
        ));
    };
    let num = |k: &str| -> Result<Option<f64>, String> {
        match body.get(k) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err(format!("'{k}' must be a finite number, got {}", shown(v))),
            },
        }
    };
    let offset = match body.get("offset") {
        None => 0,
        Some(v) => v
            .as_i64()
            .ok_or_else(|| format!("'offset' must be an integer, got {}", shown(v)))?,
    };
    let (scale, lo, hi) = (num("scale")?, num("min")?, num("max")?);
    if let (Some(lo), Some(hi)) = (lo, hi) {
        if lo > hi {
            return Err(format!("'min' {lo} is greater than 'max' {hi}; swap them"));
        }
    }
    let scale = match (scale, lo, hi) {
        (Some(s), _, _) => s,
        (None, Some(lo), Some(hi)) => lo.abs().max(hi.abs()) / 127.0,
        _ => {
            return Err(format!(
                "needs a numeric 'scale' or both 'min' and 'max', got {}",
                shown(body)
            ))
        }
    };
    if scale > 0.0 {
        Ok((scale, offset))
    } else {
        Err(format!("scale {scale} must be positive and finite"))
    }
}

/// The tensor whose scale `t` must be written in: a Concat member shares
/// its Concat's memory and so its unit (the outermost Concat with a table
/// entry); any other tensor is its own.
fn concat_root(p: &Program, t: TensorId, scales: &BTreeMap<TensorId, (f64, i64)>) -> TensorId {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        let outer = p
            .ops
            .iter()
            .find(|o| o.engine == Engine::Concat && o.inputs.contains(&Some(cur)));
        match outer {
            Some(o)
                if scales.contains_key(&o.output)
                    || p.ops.iter().any(|c| {
                        c.engine == Engine::Concat && c.inputs.contains(&Some(o.output))
                    }) =>
            {
                cur = o.output
            }
            _ => break,
        }
    }
    if scales.contains_key(&cur) {
        cur
    } else {
        t
    }
}

/// A table entry on the output of a scale-preserving op (PDP, view, BDMA,
/// RUBIK) cannot change that op's scale, but when the op's input has no
/// entry of its own it says what the input's scale is (a per-layer table
/// keyed by ONNX nodes names the Gemm, whose output here is a view of the
/// SDP's): the input inherits it, back to the converter that writes it.
fn inherit_through_views(p: &Program, scales: &mut BTreeMap<TensorId, (f64, i64)>) {
    for _ in 0..=p.ops.len() {
        let mut changed = false;
        for op in &p.ops {
            let preserving = matches!(
                op.engine,
                Engine::Pdp | Engine::Reshape | Engine::Slice | Engine::Bdma | Engine::Rubik
            );
            let Some(input) = op.inputs.first().copied().flatten() else {
                continue;
            };
            if preserving && !scales.contains_key(&input) {
                if let Some(&s) = scales.get(&op.output) {
                    scales.insert(input, s);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The scale of tensor `t`: through scale-preserving producers (PDP,
/// views, BDMA, RUBIK: they have no converter, so a table entry for their
/// output, as a TensorRT cache has for every tensor, cannot apply), then
/// from the table.
fn scale_of(
    p: &Program,
    t: TensorId,
    scales: &BTreeMap<TensorId, (f64, i64)>,
) -> Result<f64, String> {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        let producer = p.producer(cur).map(|i| &p.ops[i]);
        match producer {
            // Its members are written in its unit (`concat_root`).
            Some(op) if op.engine == Engine::Concat && scales.contains_key(&cur) => break,
            Some(op)
                if matches!(
                    op.engine,
                    Engine::Pdp
                        | Engine::Reshape
                        | Engine::Slice
                        | Engine::Concat
                        | Engine::Bdma
                        | Engine::Rubik
                ) =>
            {
                match op.inputs.first().copied().flatten() {
                    Some(next) => cur = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    if let Some(&(s, _)) = scales.get(&cur) {
        return Ok(s);
    }
    Err(format!(
        "needs the scale of tensor '{}' and the calibtable has none",
        p.tensors[t].name
    ))
}

/// The unit of the SDP input `t`: `s_in · s_w` for a fused conv accumulator, else `s_in`.
fn acc_unit(
    p: &Program,
    t: TensorId,
    scales: &BTreeMap<TensorId, (f64, i64)>,
) -> Result<f64, String> {
    if p.tensors[t].kind != TensorKind::Fused {
        return scale_of(p, t, scales);
    }
    let conv = p
        .producer(t)
        .map(|i| &p.ops[i])
        .ok_or_else(|| format!("fused tensor '{}' has no conv", p.tensors[t].name))?;
    let (Some(x), Some(w)) = (
        conv.inputs.first().copied().flatten(),
        conv.inputs.get(1).copied().flatten(),
    ) else {
        return Err(format!(
            "conv '{}' lacks its input or weight",
            conv.hw_layer
        ));
    };
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        return Err(format!(
            "conv '{}' weight '{}' is not a constant",
            conv.hw_layer, p.tensors[w].name
        ));
    };
    Ok(scale_of(p, x, scales)? * super::units::weight_scale(values))
}
