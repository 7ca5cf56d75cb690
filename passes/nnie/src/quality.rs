//! Quantization quality metrics between a reference and a quantized tensor.
//!
//! In: two flat `f32` tensors of equal length (float reference, quantized or
//! simulated result). Out: [`Quality`] — cosine similarity, max absolute and
//! max relative error, RMSE — serializable into `quant_report.json` via
//! [`QuantReport`].
//!
//! Definitions (all accumulated in `f64`, in element order):
//! * `cosine = Σ r·a / (‖r‖·‖a‖)`; `1` when both tensors are all-zero, `0`
//!   when exactly one is.
//! * `max_abs_err = max |a − r|`.
//! * `max_rel_err = max |a − r| / |r|` over elements with `r ≠ 0`
//!   (elements with `r = 0` only count in `max_abs_err`; `0` if none).
//! * `rmse = sqrt(mean (a − r)²)`.
//!
//! NaN or infinite elements and length mismatches are errors; empty tensors
//! are an error too (no metric is defined).
//!
//! ```
//! use onnc_nnie::{compare, QuantReport};
//! let q = compare(&[1.0, 2.0, 0.0], &[1.0, 2.5, 0.1]).unwrap();
//! assert_eq!(q.max_abs_err, 0.5);
//! assert_eq!(q.max_rel_err, 0.25);
//! assert!(q.cosine > 0.98);
//! let mut report = QuantReport::default();
//! report.push("conv1", q);
//! assert!(report.to_json().contains("\"conv1\""));
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{NnieError, Result};

/// Metrics of one tensor pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// Number of elements compared.
    pub elements: usize,
    /// Cosine similarity in `[-1, 1]`.
    pub cosine: f64,
    /// Largest absolute error.
    pub max_abs_err: f64,
    /// Largest relative error over non-zero reference elements.
    pub max_rel_err: f64,
    /// Root-mean-square error.
    pub rmse: f64,
}

/// Compare a quantized tensor `actual` against its float `reference`.
pub fn compare(reference: &[f32], actual: &[f32]) -> Result<Quality> {
    let mut acc = Accumulator::default();
    acc.add(reference, actual)?;
    acc.quality()
}

/// [`compare`] over several tensor pairs, one pair at a time: the metrics
/// of all pairs concatenated, without keeping them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Accumulator {
    elements: usize,
    dot: f64,
    rr: f64,
    aa: f64,
    sq: f64,
    max_abs: f64,
    max_rel: f64,
}

impl Accumulator {
    /// Adds one pair (same errors as [`compare`]; nothing is added on error).
    pub fn add(&mut self, reference: &[f32], actual: &[f32]) -> Result<()> {
        Self::check(reference, actual)?;
        let mut next = *self;
        for (&r, &a) in reference.iter().zip(actual) {
            let (r, a) = (f64::from(r), f64::from(a));
            next.dot += r * a;
            next.rr += r * r;
            next.aa += a * a;
            let d = (a - r).abs();
            next.sq += d * d;
            next.max_abs = next.max_abs.max(d);
            if r != 0.0 {
                next.max_rel = next.max_rel.max(d / r.abs());
            }
        }
        next.elements += reference.len();
        *self = next;
        Ok(())
    }

    /// The error [`add`](Self::add) would give for this pair, if any:
    /// different lengths, or the first NaN or infinite element.
    pub fn check(reference: &[f32], actual: &[f32]) -> Result<()> {
        if reference.len() != actual.len() {
            return Err(NnieError::LengthMismatch {
                left: reference.len(),
                right: actual.len(),
            });
        }
        for (index, (&r, &a)) in reference.iter().zip(actual).enumerate() {
            if r.is_nan() || a.is_nan() {
                return Err(NnieError::NotANumber { index });
            }
            if r.is_infinite() || a.is_infinite() {
                return Err(NnieError::Calibration(format!(
                    "element {index} is infinite"
                )));
            }
        }
        Ok(())
    }

    /// The metrics of everything added; an error when nothing was.
    pub fn quality(&self) -> Result<Quality> {
        if self.elements == 0 {
            return Err(NnieError::Calibration(
                "cannot compare empty tensors".to_string(),
            ));
        }
        let cosine = match (self.rr == 0.0, self.aa == 0.0) {
            (true, true) => 1.0,
            (true, false) | (false, true) => 0.0,
            (false, false) => (self.dot / (self.rr.sqrt() * self.aa.sqrt())).clamp(-1.0, 1.0),
        };
        Ok(Quality {
            elements: self.elements,
            cosine,
            max_abs_err: self.max_abs,
            max_rel_err: self.max_rel,
            rmse: (self.sq / self.elements as f64).sqrt(),
        })
    }
}

/// One named entry of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayerQuality {
    /// Layer or tensor name.
    pub name: String,
    /// Its metrics.
    #[serde(flatten)]
    pub quality: Quality,
}

/// The content of `quant_report.json`: `{"outputs": {"<graph output>":
/// {metrics}}, "layers": [...]}` — outputs sorted by name, per-layer entries
/// (optional, omitted when empty) in insertion order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QuantReport {
    /// Per network output: simulated quantized network against float.
    pub outputs: std::collections::BTreeMap<String, Quality>,
    /// Entries in insertion order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerQuality>,
    /// Top-1 over labelled evaluation data (`--eval DIR` with `test_x.npy`,
    /// `test_y.npy`): `{"samples", "float_correct", "nnie_correct", "agree"}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<crate::frontend::Accuracy>,
}

impl QuantReport {
    /// Set the metrics of a network output.
    pub fn set_output(&mut self, name: &str, quality: Quality) {
        self.outputs.insert(name.to_string(), quality);
    }

    /// Append an entry.
    pub fn push(&mut self, name: &str, quality: Quality) {
        self.layers.push(LayerQuality {
            name: name.to_string(),
            quality,
        });
    }

    /// The entry with the lowest cosine similarity (the first on ties).
    pub fn worst(&self) -> Option<&LayerQuality> {
        self.layers
            .iter()
            .fold(None, |w: Option<&LayerQuality>, l| match w {
                Some(w) if w.quality.cosine <= l.quality.cosine => Some(w),
                _ => Some(l),
            })
    }

    /// Pretty JSON (2-space indent, trailing newline); deterministic.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self)
            .map(|s| s + "\n")
            .unwrap_or_default()
    }

    /// Reads what [`QuantReport::to_json`] wrote (exact: floats come back
    /// bit for bit); Err names what does not parse.
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|e| NnieError::Data(format!("quality report: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_tensors() {
        let x = [1.0f32, -2.0, 3.5];
        let q = compare(&x, &x).unwrap();
        assert_eq!((q.max_abs_err, q.max_rel_err, q.rmse), (0.0, 0.0, 0.0));
        assert!((q.cosine - 1.0).abs() < 1e-15);
    }

    #[test]
    fn zero_vectors_and_opposites() {
        assert_eq!(compare(&[0.0, 0.0], &[0.0, 0.0]).unwrap().cosine, 1.0);
        assert_eq!(compare(&[0.0, 0.0], &[1.0, 0.0]).unwrap().cosine, 0.0);
        assert!((compare(&[1.0, 2.0], &[-1.0, -2.0]).unwrap().cosine + 1.0).abs() < 1e-15);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            compare(&[1.0], &[1.0, 2.0]),
            Err(NnieError::LengthMismatch { left: 1, right: 2 })
        ));
        assert!(compare(&[], &[]).is_err());
        assert!(matches!(
            compare(&[1.0, f32::NAN], &[1.0, 1.0]),
            Err(NnieError::NotANumber { index: 1 })
        ));
        assert!(compare(&[f32::INFINITY], &[1.0]).is_err());
    }

    #[test]
    fn report_json_and_worst() {
        let mut r = QuantReport::default();
        r.push("a", compare(&[1.0, 1.0], &[1.0, 1.0]).unwrap());
        r.push("b", compare(&[1.0, 0.0], &[1.0, 1.0]).unwrap());
        assert_eq!(r.worst().unwrap().name, "b");
        let j = r.to_json();
        assert!(
            j.starts_with(
                "{\n  \"outputs\": {},\n  \"layers\": [\n    {\n      \"name\": \"a\",\n      \"elements\": 2,"
            ),
            "{j}"
        );
        assert_eq!(j, r.to_json());
        let mut o = QuantReport::default();
        o.set_output("y", compare(&[1.0, 0.0], &[1.0, 0.0]).unwrap());
        assert!(
            o.to_json().starts_with(
                "{\n  \"outputs\": {\n    \"y\": {\n      \"elements\": 2,\n      \"cosine\": 1.0,"
            ),
            "{}",
            o.to_json()
        );
        assert!(!o.to_json().contains("layers"));
    }
}
