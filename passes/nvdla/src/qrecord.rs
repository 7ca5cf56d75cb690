//! The quantization record of an INT8 layer: the `quant.*` attributes.
//!
//! In: an [`Op`] (its attributes). Out: a [`QuantRecord`], or the
//! attributes to set for one. Written by calibration
//! ([`crate::ctable::apply_scales`]) on every SDP and EMU op whose output
//! converter it derives; read by the per-layer report. They are not
//! registers: the emitter ignores them, `ctable::gen` does not write them,
//! and an op without them (FP16, or INT8 compiled uncalibrated) is valid.
//!
//! | attribute | kind | meaning |
//! |---|---|---|
//! | `quant.calibrated` | int 1 | the converter registers come from scales |
//! | `quant.input_scale` | f32 | real value of one INT8 step of the input (`real = q · s`) |
//! | `quant.output_scale` | f32 | the same for the output |
//! | `quant.weight_scale_mode` | `"per_channel"` \| `"per_tensor"` | how the fused conv's weights were quantized |
//! | `quant.weight_scale_min`, `quant.weight_scale_max` | f32 | smallest and largest weight scale (`max\|w\| / 127`; equal per tensor) |
//! | `quant.weight_scale_note` | string | why a conv is per tensor (absent when per channel) |
//! | `quant.method` | string | calibration method, when the table says (`entropy`, `max`, ...) |
//! | `quant.format` | string | the table's format (`calibtable`, `trt-cache`, `amct`, ...) |
//!
//! ```
//! use onnc_nvdla::qrecord::QuantRecord;
//! let r = QuantRecord { input_scale: Some(0.5), calibrated: true, ..Default::default() };
//! let attrs = r.to_attrs();
//! assert_eq!(attrs[0].0, "quant.calibrated");
//! assert!(onnc_nvdla::qrecord::is_quant_attr("quant.input_scale"));
//! ```

use crate::program::{Op, Value};

/// Prefix of every quantization-record attribute.
pub const PREFIX: &str = "quant.";

/// The record's attribute names and whether each is a float (`f`), an
/// integer (`i`) or a string (`s`).
pub const ATTRS: [(&str, char); 9] = [
    ("quant.calibrated", 'i'),
    ("quant.input_scale", 'f'),
    ("quant.output_scale", 'f'),
    ("quant.weight_scale_mode", 's'),
    ("quant.weight_scale_min", 'f'),
    ("quant.weight_scale_max", 'f'),
    ("quant.weight_scale_note", 's'),
    ("quant.method", 's'),
    ("quant.format", 's'),
];

/// Whether `name` is one of [`ATTRS`].
pub fn is_quant_attr(name: &str) -> bool {
    ATTRS.iter().any(|(n, _)| *n == name)
}

/// `Ok` when `v` has the kind attribute `name` needs, else what is wrong.
pub fn check(name: &str, v: &Value) -> Result<(), String> {
    let Some(&(_, kind)) = ATTRS.iter().find(|(n, _)| *n == name) else {
        return Err(format!("'{name}' is not a quantization-record attribute"));
    };
    let ok = match (kind, v) {
        ('i', Value::Int(0 | 1)) => true,
        ('f', Value::Float(f)) => f.is_finite() && *f > 0.0,
        ('s', Value::Str(s)) if name == "quant.weight_scale_mode" => {
            s == "per_channel" || s == "per_tensor"
        }
        ('s', Value::Str(_)) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        let want = match kind {
            'i' => "0 or 1",
            'f' => "a finite positive f32",
            _ if name == "quant.weight_scale_mode" => "\"per_channel\" or \"per_tensor\"",
            _ => "a string",
        };
        Err(format!("'{name}' is {v}; expected {want}"))
    }
}

/// Weight-scale mode of a conv's weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightMode {
    /// One scale per output channel, rescaled by the SDP X1 multiplier.
    PerChannel,
    /// One scale for the whole weight tensor.
    PerTensor,
}

impl WeightMode {
    /// The attribute spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            WeightMode::PerChannel => "per_channel",
            WeightMode::PerTensor => "per_tensor",
        }
    }
}

/// What calibration recorded on one op.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QuantRecord {
    /// The registers come from scales.
    pub calibrated: bool,
    /// Input scale.
    pub input_scale: Option<f64>,
    /// Output scale.
    pub output_scale: Option<f64>,
    /// Weight mode, when the op rescales a fused conv.
    pub weight_mode: Option<WeightMode>,
    /// Smallest and largest weight scale.
    pub weight_scales: Option<(f64, f64)>,
    /// Why per tensor.
    pub note: Option<String>,
    /// Calibration method, when known.
    pub method: Option<String>,
    /// Table format.
    pub format: Option<String>,
}

impl QuantRecord {
    /// The record of `op` (all `None`/false when it has none).
    pub fn from_op(op: &Op) -> QuantRecord {
        let f = |n: &str| op.float(n);
        let s = |n: &str| op.str(n).map(str::to_string);
        QuantRecord {
            calibrated: op.int("quant.calibrated") == Some(1),
            input_scale: f("quant.input_scale"),
            output_scale: f("quant.output_scale"),
            weight_mode: match op.str("quant.weight_scale_mode") {
                Some("per_channel") => Some(WeightMode::PerChannel),
                Some("per_tensor") => Some(WeightMode::PerTensor),
                _ => None,
            },
            weight_scales: f("quant.weight_scale_min").zip(f("quant.weight_scale_max")),
            note: s("quant.weight_scale_note"),
            method: s("quant.method"),
            format: s("quant.format"),
        }
    }

    /// The attributes to set, in [`ATTRS`] order; floats rounded to `f32`
    /// (what the IR stores), absent fields omitted.
    pub fn to_attrs(&self) -> Vec<(&'static str, Value)> {
        let f = |v: f64| Value::Float(f64::from(v as f32));
        let mut out = Vec::new();
        if self.calibrated {
            out.push(("quant.calibrated", Value::Int(1)));
        }
        if let Some(v) = self.input_scale {
            out.push(("quant.input_scale", f(v)));
        }
        if let Some(v) = self.output_scale {
            out.push(("quant.output_scale", f(v)));
        }
        if let Some(m) = self.weight_mode {
            out.push(("quant.weight_scale_mode", Value::Str(m.as_str().into())));
        }
        if let Some((lo, hi)) = self.weight_scales {
            out.push(("quant.weight_scale_min", f(lo)));
            out.push(("quant.weight_scale_max", f(hi)));
        }
        if let Some(n) = &self.note {
            out.push(("quant.weight_scale_note", Value::Str(n.clone())));
        }
        if let Some(m) = &self.method {
            out.push(("quant.method", Value::Str(m.clone())));
        }
        if let Some(m) = &self.format {
            out.push(("quant.format", Value::Str(m.clone())));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Engine;

    #[test]
    fn a_record_round_trips_through_attributes() {
        let r = QuantRecord {
            calibrated: true,
            input_scale: Some(0.5),
            output_scale: Some(0.25),
            weight_mode: Some(WeightMode::PerTensor),
            weight_scales: Some((0.125, 0.125)),
            note: Some("why".into()),
            method: Some("entropy".into()),
            format: Some("trt-cache".into()),
        };
        let op = Op {
            engine: Engine::Sdp,
            hw_layer: "l".into(),
            attrs: r
                .to_attrs()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            inputs: vec![],
            output: 0,
            onnx_nodes: vec![],
        };
        assert_eq!(QuantRecord::from_op(&op), r);
        for (k, v) in &op.attrs {
            check(k, v).unwrap();
        }
    }

    #[test]
    fn bad_kinds_are_refused() {
        assert!(check("quant.input_scale", &Value::Float(0.0)).is_err());
        assert!(check("quant.weight_scale_mode", &Value::Str("per_row".into())).is_err());
        assert!(check("quant.calibrated", &Value::Int(2)).is_err());
        assert!(check("quant.other", &Value::Int(1)).is_err());
    }
}
