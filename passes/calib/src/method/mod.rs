//! Calibration methods: how a tensor's threshold (`amax`) follows from its
//! statistics. The INT8 scale is then `amax / 127` (symmetric).
//!
//! | method | threshold | reference |
//! |---|---|---|
//! | `max` | `max|x|` over every set | TensorRT's MinMax calibrator |
//! | `percentile[:P]` | the `P`-th percentile of `|x|`, default [`DEFAULT_PERCENTILE`] | pytorch-quantization's default |
//! | `entropy` | the clip minimising KL(P‖Q) of 128 quantized levels | TensorRT's entropy calibrator (module [`entropy`]) |
//! | `mse` | the clip minimising the histogram-weighted squared error of INT8 fake quantization | pytorch-quantization's `mse` (module [`mse`]) |
//!
//! Percentile, entropy and MSE read the histogram (`crate::Histogram`); no
//! threshold exceeds `max|x|`. Names parse case-insensitively.
//!
//! ```
//! use onnc_calib::Method;
//! assert_eq!("entropy".parse::<Method>().unwrap(), Method::Entropy);
//! assert_eq!("percentile".parse::<Method>().unwrap(), Method::Percentile(99.99));
//! assert_eq!("percentile:99.9".parse::<Method>().unwrap().to_string(), "percentile:99.9");
//! assert!("kl".parse::<Method>().is_err());
//! ```

pub mod entropy;
pub mod mse;

use std::fmt;
use std::str::FromStr;

use crate::error::{CalibError, Result};
use crate::stats::TensorStats;

/// The default percentile: 99.99, as NVIDIA's pytorch-quantization uses.
/// It drops the top 0.01% of `|x|` — one value in 10 000, which for a
/// ResNet-50 layer of 800 000 values over 64 sets is the few thousand most
/// extreme outliers.
pub const DEFAULT_PERCENTILE: f64 = 99.99;

/// A calibration method (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// `max |x|`.
    Max,
    /// The `p`-th percentile of `|x|`, `0 < p ≤ 100`.
    Percentile(f64),
    /// TensorRT's entropy (KL divergence) search.
    Entropy,
    /// Minimum squared quantization error.
    Mse,
}

impl Default for Method {
    /// [`Method::Entropy`]: what TensorRT requires for DLA (EntropyCalibrator2).
    fn default() -> Self {
        Method::Entropy
    }
}

/// The accepted spellings, for error messages and `--help`.
pub const METHOD_NAMES: &str = "max, percentile[:P] (0 < P <= 100, default 99.99), entropy, mse";

impl FromStr for Method {
    type Err = CalibError;
    fn from_str(s: &str) -> Result<Method> {
        let lower = s.trim().to_ascii_lowercase();
        let (name, arg) = match lower.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (lower.as_str(), None),
        };
        let bad = || {
            CalibError::option(
                "calibration method",
                format!("'{s}' is not one of: {METHOD_NAMES}"),
            )
        };
        match (name, arg) {
            ("max" | "minmax", None) => Ok(Method::Max),
            ("entropy", None) => Ok(Method::Entropy),
            ("mse", None) => Ok(Method::Mse),
            ("percentile", None) => Ok(Method::Percentile(DEFAULT_PERCENTILE)),
            ("percentile", Some(p)) => {
                let v: f64 = p.parse().map_err(|_| bad())?;
                Method::Percentile(v).validated()
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Max => f.write_str("max"),
            Method::Percentile(p) => write!(f, "percentile:{p}"),
            Method::Entropy => f.write_str("entropy"),
            Method::Mse => f.write_str("mse"),
        }
    }
}

impl Method {
    /// The method, or an error if its parameter is out of range.
    pub fn validated(self) -> Result<Method> {
        match self {
            Method::Percentile(p) if !(p > 0.0 && p <= 100.0) => Err(CalibError::option(
                "percentile",
                format!("{p} is outside (0, 100]; e.g. percentile:99.99"),
            )),
            m => Ok(m),
        }
    }

    /// The algorithm name TensorRT writes in a calibration cache header
    /// (`TRT-<version>-<name>`) for the closest TensorRT calibrator.
    pub fn trt_algorithm(self) -> &'static str {
        match self {
            Method::Max => "MinMaxCalibration",
            Method::Entropy => "EntropyCalibration2",
            // TensorRT has no percentile or MSE calibrator; their caches
            // are written as legacy (explicit) calibration.
            Method::Percentile(_) | Method::Mse => "LegacyCalibration",
        }
    }

    /// The threshold `amax` of one tensor; `None` when the tensor holds no
    /// value or only zeros.
    pub fn threshold(self, stats: &TensorStats) -> Option<f32> {
        let max = stats.max_abs();
        if stats.count() == 0 || max == 0.0 {
            return None;
        }
        let t = match self {
            Method::Max => max,
            Method::Percentile(p) if p >= 100.0 => max,
            Method::Percentile(p) => stats.histogram().percentile_edge(p)? as f32,
            Method::Entropy => entropy::threshold(&stats.histogram().coarse()?) as f32,
            Method::Mse => mse::threshold(&stats.histogram().coarse()?) as f32,
        };
        Some(if t > 0.0 { t.min(max) } else { max })
    }
}
