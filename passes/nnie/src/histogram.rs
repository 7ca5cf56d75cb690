//! A growing histogram of `|x|` for percentile and MSE calibration.
//!
//! In: batches of `f32` activations. Out: counts in `bins` equal-width bins
//! over `[0, range]`, the exact running max-abs, and percentiles of `|x|`.
//!
//! The range starts at the first non-zero batch's max-abs; when a later batch
//! exceeds it, the range doubles as often as needed and adjacent bins merge
//! pairwise (the TensorRT-style scheme), so no sample is ever dropped and the
//! result depends only on the data and the order of batches.
//!
//! ```
//! use onnc_nnie::AbsHistogram;
//! let mut h = AbsHistogram::new(100).unwrap();
//! h.add(&[0.5, -1.0, 0.25]).unwrap();
//! h.add(&[3.0]).unwrap(); // range grows 1 -> 4
//! assert_eq!(h.count(), 4);
//! assert_eq!(h.max_abs(), 3.0);
//! assert_eq!(h.range(), 4.0);
//! assert!(h.percentile(50.0).unwrap() <= 1.0);
//! ```

use crate::error::{NnieError, Result};

/// Bins used by the calibrators unless told otherwise.
pub const DEFAULT_HISTOGRAM_BINS: usize = 2048;

/// Histogram of absolute values with a doubling range.
#[derive(Debug, Clone, PartialEq)]
pub struct AbsHistogram {
    bins: Vec<u64>,
    range: f64,
    count: u64,
    max_abs: f32,
}

impl AbsHistogram {
    /// An empty histogram with `bins` bins (an even number ≥ 2).
    pub fn new(bins: usize) -> Result<Self> {
        if bins < 2 || bins % 2 != 0 {
            return Err(NnieError::Calibration(format!(
                "histogram bins must be even and >= 2, got {bins}"
            )));
        }
        Ok(Self {
            bins: vec![0; bins],
            range: 0.0,
            count: 0,
            max_abs: 0.0,
        })
    }

    /// Add a batch. Non-finite values are rejected (a calibration range
    /// cannot be infinite); the histogram is unchanged on error.
    pub fn add(&mut self, xs: &[f32]) -> Result<()> {
        let batch_max = Self::check(xs)?;
        if batch_max > 0.0 {
            self.grow_to(f64::from(batch_max));
        }
        let n = self.bins.len();
        for &x in xs {
            let a = f64::from(x.abs());
            let i = if self.range > 0.0 {
                ((a / self.range) * n as f64) as usize
            } else {
                0
            };
            self.bins[i.min(n - 1)] += 1;
        }
        self.count += xs.len() as u64;
        self.max_abs = self.max_abs.max(batch_max);
        Ok(())
    }

    /// The max of `|x|` over a batch [`add`](Self::add) would accept, or the
    /// error it would give (the first NaN or infinite element).
    pub fn check(xs: &[f32]) -> Result<f32> {
        let mut batch_max = 0.0f32;
        for (index, &x) in xs.iter().enumerate() {
            if x.is_nan() {
                return Err(NnieError::NotANumber { index });
            }
            if x.is_infinite() {
                return Err(NnieError::Calibration(format!(
                    "element {index} is infinite"
                )));
            }
            batch_max = batch_max.max(x.abs());
        }
        Ok(batch_max)
    }

    fn grow_to(&mut self, needed: f64) {
        if self.range == 0.0 {
            // Only zeros so far: they all sit in bin 0 whatever the range.
            self.range = needed;
            return;
        }
        let mut factor = 1usize;
        while self.range * (factor as f64) < needed {
            factor *= 2;
            if factor >= self.bins.len() {
                break;
            }
        }
        if factor == 1 {
            return;
        }
        let mut range = self.range * factor as f64;
        while range < needed {
            range *= 2.0; // only for extreme jumps: everything old lands in bin 0
        }
        let ratio = range / self.range;
        let n = self.bins.len();
        let mut merged = vec![0u64; n];
        for (i, &c) in self.bins.iter().enumerate() {
            let j = ((i as f64) / ratio) as usize;
            merged[j.min(n - 1)] += c;
        }
        self.bins = merged;
        self.range = range;
    }

    /// Number of values seen.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Exact running max of `|x|`.
    pub fn max_abs(&self) -> f32 {
        self.max_abs
    }

    /// Upper edge of the last bin.
    pub fn range(&self) -> f64 {
        self.range
    }

    /// The bin counts.
    pub fn bins(&self) -> &[u64] {
        &self.bins
    }

    /// Width of one bin.
    pub fn bin_width(&self) -> f64 {
        self.range / self.bins.len() as f64
    }

    /// The `p`-th percentile of `|x|` (`0 < p ≤ 100`): the upper edge of the
    /// first bin at which the cumulative count reaches `p%` of all values,
    /// capped at the exact max-abs (so `p = 100` is the max-abs).
    pub fn percentile(&self, p: f64) -> Result<f32> {
        if !(p > 0.0 && p <= 100.0) {
            return Err(NnieError::Calibration(format!(
                "percentile must be in (0, 100], got {p}"
            )));
        }
        if self.count == 0 {
            return Err(NnieError::Calibration("no data observed".to_string()));
        }
        if p == 100.0 {
            return Ok(self.max_abs);
        }
        let target = ((p / 100.0) * self.count as f64).ceil().max(1.0) as u64;
        let mut cum = 0u64;
        for (i, &c) in self.bins.iter().enumerate() {
            cum += c;
            if cum >= target {
                let edge = (i + 1) as f64 * self.bin_width();
                return Ok((edge as f32).min(self.max_abs));
            }
        }
        Ok(self.max_abs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_keeps_every_sample() {
        let mut h = AbsHistogram::new(8).unwrap();
        h.add(&[0.0, 0.0]).unwrap();
        assert_eq!(h.range(), 0.0);
        h.add(&[1.0, 0.1]).unwrap();
        assert_eq!(h.range(), 1.0);
        h.add(&[-3.5]).unwrap();
        assert_eq!(h.range(), 4.0);
        h.add(&[1000.0]).unwrap();
        assert!(h.range() >= 1000.0);
        assert_eq!(h.bins().iter().sum::<u64>(), 6);
        assert_eq!(h.count(), 6);
        assert_eq!(h.max_abs(), 1000.0);
    }

    #[test]
    fn percentile_of_uniform_data() {
        let mut h = AbsHistogram::new(DEFAULT_HISTOGRAM_BINS).unwrap();
        let xs: Vec<f32> = (1..=10_000).map(|i| i as f32 / 10_000.0).collect();
        h.add(&xs).unwrap();
        let p99 = h.percentile(99.0).unwrap();
        assert!(
            (p99 - 0.99).abs() < 2.0 / DEFAULT_HISTOGRAM_BINS as f32,
            "{p99}"
        );
        assert_eq!(h.percentile(100.0).unwrap(), 1.0);
    }

    #[test]
    fn bad_input_is_rejected_without_change() {
        assert!(AbsHistogram::new(3).is_err());
        let mut h = AbsHistogram::new(4).unwrap();
        assert!(h.percentile(50.0).is_err());
        assert!(matches!(
            h.add(&[1.0, f32::NAN]),
            Err(NnieError::NotANumber { index: 1 })
        ));
        assert!(h.add(&[f32::INFINITY]).is_err());
        assert_eq!(h.count(), 0);
        h.add(&[1.0]).unwrap();
        assert!(h.percentile(0.0).is_err());
        assert!(h.percentile(101.0).is_err());
    }
}
