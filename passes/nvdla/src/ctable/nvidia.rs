//! NVIDIA's per-tensor calibtable JSON: read into [`TensorScales`], written
//! from them, and `load_nvidia_calibtable` (read, then
//! [`apply_scales`](super::apply_scales)).
//!
//! The format (as `nvdla_compiler --calibtable` reads it, made from a
//! TensorRT INT8 calibration cache):
//! `{"<tensor>": {"scale": f, "min": f, "max": f, "offset": i}, ...}`, keyed
//! by tensor names, `scale` **or** `min`/`max` (then `scale =
//! max(|min|, |max|) / 127`). Every field present must be valid, even when
//! another would do; a key given twice is refused with both places.
//!
//! ```
//! use onnc_nvdla::ctable::{parse_nvidia_calibtable, write_nvidia_calibtable};
//! let t = parse_nvidia_calibtable(r#"{"x": {"min": -1.27, "max": 0.5}}"#, "c.json").unwrap();
//! assert_eq!(t.entries["x"].scale, 0.01);
//! let again = parse_nvidia_calibtable(&write_nvidia_calibtable(&t), "d.json").unwrap();
//! let (a, b) = (&again.entries["x"], &t.entries["x"]);
//! assert_eq!((a.scale, a.min, a.max, a.offset), (b.scale, b.min, b.max, b.offset));
//! ```

use serde_json::Value as Json;

use super::apply::apply_scales;
use super::json::{clip, key_lines, shown};
use super::load::{parse, structure, LoadStats};
use super::scales::{TensorScale, TensorScales};
use crate::program::Program;
use crate::Error;

/// Reads NVIDIA's calibtable `json` (named `file` in messages).
pub fn parse_nvidia_calibtable(json: &str, file: &str) -> Result<TensorScales, Error> {
    let Json::Object(entries) = parse(json, file)? else {
        return Err(structure(
            file,
            "<top level>",
            "the calibtable must be a JSON object keyed by tensor names",
        ));
    };
    let lines = key_lines(json);
    let mut errors = Vec::new();
    let mut out = TensorScales::new(file, "calibtable");
    for (name, body) in &entries {
        let line = lines.get(name).map_or(0, |p| p.0);
        match entry_scale(body) {
            Ok(s) => out
                .insert(name, s, &format!("line {line}"))
                .unwrap_or_else(|e| errors.push(e)),
            Err(message) => errors.push(Error::Calibration {
                file: file.into(),
                tensor: clip(name),
                message: format!("{message} (line {line})"),
            }),
        }
    }
    Error::collect(file, errors)?;
    Ok(out)
}

/// Sets `p`'s converter registers from NVIDIA's calibtable `json`
/// ([`parse_nvidia_calibtable`], then [`apply_scales`]).
pub fn load_nvidia_calibtable(p: &mut Program, json: &str, file: &str) -> Result<LoadStats, Error> {
    apply_scales(p, &parse_nvidia_calibtable(json, file)?)
}

/// NVIDIA's calibtable JSON for `t`: one entry per tensor in name order,
/// `scale` (shortest `f32` text), `min`/`max` when known, `offset`.
pub fn write_nvidia_calibtable(t: &TensorScales) -> String {
    let mut s = String::from("{");
    for (i, (name, e)) in t.entries.iter().enumerate() {
        let key = serde_json::to_string(name).unwrap_or_else(|_| "\"\"".into());
        s += if i == 0 { "\n" } else { ",\n" };
        s += &format!("  {key}: {{\"scale\": {}", e.scale);
        if let (Some(lo), Some(hi)) = (e.min, e.max) {
            s += &format!(", \"min\": {lo}, \"max\": {hi}");
        }
        s += &format!(", \"offset\": {}}}", e.offset);
    }
    s += "\n}\n";
    s
}

/// One entry. Every field present must be valid, even when another would
/// do: a non-numeric `scale` is refused although `min`/`max` are there, and
/// `min > max` is refused.
fn entry_scale(body: &Json) -> Result<TensorScale, String> {
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
            .and_then(|o| i32::try_from(o).ok())
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
    let scale32 = scale as f32;
    if !(scale32.is_finite() && scale32 > 0.0) {
        return Err(format!("scale {scale} must be positive and finite"));
    }
    let mut out = TensorScale::new(scale32);
    out.offset = offset;
    out.min = lo.map(|x| x as f32);
    out.max = hi.map(|x| x as f32);
    Ok(out)
}
