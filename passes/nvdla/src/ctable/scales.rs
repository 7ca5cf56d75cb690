//! [`TensorScales`]: the one in-memory currency of per-tensor calibration.
//!
//! Every per-tensor calibration format (NVIDIA's calibtable JSON, TensorRT's
//! calibration cache, Ascend AMCT's records) is read into a [`TensorScales`]
//! and written from one; [`super::apply_scales`] turns it into the converter
//! registers of a [`Program`](crate::Program).
//!
//! In: entries added one at a time ([`TensorScales::insert`]), which refuses
//! a second entry for the same key (naming both places) and any scale that
//! is not finite and positive. Out: the entries in name order.
//!
//! Units: `real = scale · (q − offset)`, `q` an INT8 code; symmetric tables
//! have `offset` 0 and `scale = amax / 127`. Scales are `f32`, as every
//! format stores them.
//!
//! Keys are ONNX tensor names ([`TensorScales::entries`]), except for
//! formats keyed by layer (AMCT): those go to [`TensorScales::layer_inputs`]
//! and are resolved against the program when applied (a layer's data scale
//! is the scale of its input).
//!
//! ```
//! use onnc_nvdla::ctable::{TensorScale, TensorScales};
//! let mut t = TensorScales::new("a.cache", "trt-cache");
//! t.insert("data", TensorScale::new(0.5), "line 2").unwrap();
//! let err = t.insert("data", TensorScale::new(0.25), "line 3").unwrap_err();
//! assert_eq!(err.to_string(), "a.cache: line 3: 'data' is given twice (first at line 2); keep one");
//! assert!(t.insert("x", TensorScale::new(-1.0), "line 4").is_err());
//! t.insert_layer("conv1", TensorScale::new(0.5), "record 1").unwrap();
//! assert_eq!(t.layer_inputs["conv1"].place, "record 1");
//! ```

use std::collections::BTreeMap;

use super::json::clip;
use crate::Error;

/// The calibration of one tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorScale {
    /// `real = scale · (q − offset)`; finite and positive.
    pub scale: f32,
    /// Zero point in INT8 codes (0 for symmetric tables).
    pub offset: i32,
    /// Observed minimum, when the format records it.
    pub min: Option<f32>,
    /// Observed maximum, when the format records it.
    pub max: Option<f32>,
    /// Per-output-channel (or one) weight scales of the layer, when the
    /// format records them (AMCT `scale_w`); registers are derived from
    /// the weight values, these are kept for writing back.
    pub weight_scales: Vec<f32>,
    /// Where in the file the entry is (`line 3`, `record 2`), for messages.
    pub place: String,
}

impl TensorScale {
    /// A symmetric tensor scale (offset 0, no min/max).
    pub fn new(scale: f32) -> TensorScale {
        TensorScale {
            scale,
            offset: 0,
            min: None,
            max: None,
            weight_scales: Vec::new(),
            place: String::new(),
        }
    }
}

/// Per-tensor scales read from (or to be written to) one file.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorScales {
    /// The entries, by ONNX tensor name.
    pub entries: BTreeMap<String, TensorScale>,
    /// Entries keyed by layer (ONNX node) name: the scale of that layer's
    /// data input (AMCT's records), resolved when applied.
    pub layer_inputs: BTreeMap<String, TensorScale>,
    /// The file they came from (for messages).
    pub file: String,
    /// The format they came from (`calibtable`, `trt-cache`, `amct`, ...).
    pub format: String,
    /// A TensorRT cache's header line (`TRT-8601-EntropyCalibration2`),
    /// kept so a cache read and written again keeps it.
    pub header: Option<String>,
    /// The calibration method that produced the scales (`entropy`, `max`,
    /// `percentile:99.99`, ...) when its producer says so; it overrides what
    /// a TensorRT header implies. Recorded as `quant.method`.
    pub method: Option<String>,
    /// What the reader kept but cannot use (AMCT prune records, cluster
    /// centres, INT4 layers, ...): one line each, to print as a note.
    pub notes: Vec<String>,
}

impl TensorScales {
    /// An empty table for `file` in `format`.
    pub fn new(file: &str, format: &str) -> TensorScales {
        TensorScales {
            entries: BTreeMap::new(),
            layer_inputs: BTreeMap::new(),
            file: file.to_string(),
            format: format.to_string(),
            header: None,
            method: None,
            notes: Vec::new(),
        }
    }

    /// Adds `name` at `place` (`line 3`); refuses a second entry for the
    /// same name, and a scale that is not finite and positive.
    pub fn insert(&mut self, name: &str, scale: TensorScale, place: &str) -> Result<(), Error> {
        let file = self.file.clone();
        put(&mut self.entries, &file, name, scale, place)
    }

    /// Adds the data-input scale of layer `name`, as [`TensorScales::insert`].
    pub fn insert_layer(
        &mut self,
        name: &str,
        scale: TensorScale,
        place: &str,
    ) -> Result<(), Error> {
        let file = self.file.clone();
        put(&mut self.layer_inputs, &file, name, scale, place)
    }
}

/// Adds `name` to `map`, refusing a repeat and a bad scale.
fn put(
    map: &mut BTreeMap<String, TensorScale>,
    file: &str,
    name: &str,
    mut scale: TensorScale,
    place: &str,
) -> Result<(), Error> {
    {
        if let Some(first) = map.get(name) {
            return Err(Error::Entry {
                file: file.to_string(),
                place: place.to_string(),
                message: format!(
                    "'{}' is given twice (first at {}); keep one",
                    clip(name),
                    first.place
                ),
            });
        }
        check_scale(scale.scale).map_err(|m| Error::Entry {
            file: file.to_string(),
            place: place.to_string(),
            message: format!("'{}': {m}", clip(name)),
        })?;
        scale.place = place.to_string();
        map.insert(name.to_string(), scale);
        Ok(())
    }
}

/// `Ok` for a finite positive scale, else what is wrong and what would fix it.
pub(crate) fn check_scale(s: f32) -> Result<(), String> {
    if s.is_finite() && s > 0.0 {
        Ok(())
    } else {
        Err(format!(
            "scale {s} must be finite and positive (amax / 127 for a symmetric INT8 tensor)"
        ))
    }
}
