//! How far simulated values are from the reference, relative to the
//! reference's size.
//!
//! In: the reference values and the simulated ones (same length). Out: the
//! error, the reference's magnitude, their ratio, and the words the report
//! uses for them.
//!
//! * [`Metric::MaxAbs`] (FP16): the largest `|r − s|` over the largest
//!   `|r|`. FP16 rounds every value by at most half an ULP per layer, so a
//!   single element far off is a wrong computation.
//! * [`Metric::Rms`] (INT8): `‖r − s‖₂ / ‖r‖₂`, the inverse of the
//!   signal-to-quantization-noise amplitude ratio. A clipping calibration
//!   (entropy, percentile, MSE) saturates the largest values of a tensor on
//!   purpose, so the largest error of an INT8 surface is the clipped
//!   fraction of its maximum, whatever the registers; the RMS error stays
//!   small when the registers are right (a few steps of 1/127 of the range)
//!   and is of the order of the signal when a scale is wrong.
//!
//! ```text
//! MaxAbs: r = [1, −2], s = [1, −1.5] → 0.5 / 2 = 0.25
//! Rms:    r = [3, 4],  s = [3, 3]    → √(1/2) / √(25/2) = 0.2
//! ```

/// See the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Largest absolute error over the largest reference magnitude.
    MaxAbs,
    /// Root-mean-square error over the reference's root mean square.
    Rms,
}

impl Metric {
    /// `(error, reference magnitude)`.
    pub fn measure(self, r: &[f32], s: &[f32]) -> (f64, f64) {
        let pairs = r.iter().zip(s).map(|(a, b)| (f64::from(*a), f64::from(*b)));
        match self {
            Metric::MaxAbs => pairs.fold((0f64, 0f64), |(e, m), (a, b)| {
                (e.max((a - b).abs()), m.max(a.abs()))
            }),
            Metric::Rms => {
                let n = r.len().max(1) as f64;
                let (e, m) = pairs.fold((0f64, 0f64), |(e, m), (a, b)| {
                    (e + (a - b) * (a - b), m + a * a)
                });
                ((e / n).sqrt(), (m / n).sqrt())
            }
        }
    }

    /// The error over the reference magnitude (the error itself when the
    /// reference is all zero).
    pub fn ratio(self, r: &[f32], s: &[f32]) -> f64 {
        let (e, m) = self.measure(r, s);
        if m > 0.0 {
            e / m
        } else {
            e
        }
    }

    /// `(error, magnitude)` as the output lines say them.
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            Metric::MaxAbs => ("max abs error", "max |reference|"),
            Metric::Rms => ("rms error", "rms reference"),
        }
    }

    /// The per-layer table's two columns.
    pub fn columns(self) -> (&'static str, &'static str) {
        match self {
            Metric::MaxAbs => ("max abs err", "/ max|ref|"),
            Metric::Rms => ("rms err", "/ rms ref"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Metric;

    #[test]
    fn the_module_doc_examples() {
        assert_eq!(Metric::MaxAbs.ratio(&[1.0, -2.0], &[1.0, -1.5]), 0.25);
        assert!((Metric::Rms.ratio(&[3.0, 4.0], &[3.0, 3.0]) - 0.2).abs() < 1e-12);
        // An all-zero reference: the error itself.
        assert_eq!(Metric::Rms.ratio(&[0.0, 0.0], &[0.0, 2.0]), 2f64.sqrt());
    }
}
