//! MSE calibration: the clip that minimises the squared error of symmetric
//! INT8 fake quantization over the observed distribution.
//!
//! In: the coarse histogram of `|x|` (`crate::Histogram::coarse`). Out: the
//! threshold `amax`.
//!
//! As NVIDIA's pytorch-quantization does it (facts: `research/nvdla-int8.md`
//! §6.3; our own code): every bin is represented by its centre `c_j`; the
//! candidates are the centres from bin [`START_BIN`] to the last; for a
//! candidate `a` with `s = a/127`, the error is
//! `Σ count_j · (s·min(round(c_j/s), 127) − c_j)²`; the **first** (smallest)
//! candidate with the least error wins.
//!
//! ```
//! use onnc_calib::{method::mse, Coarse};
//! let mut bins = vec![100_000u64; 256];
//! bins.extend(std::iter::repeat(0).take(1791));
//! bins.push(1); // one outlier at the top
//! let amax = mse::threshold(&Coarse { bins, width: 1.0 });
//! assert!(amax < 300.0, "{amax}");
//! ```

use crate::histogram::Coarse;

/// The first candidate bin (as in the entropy search).
pub const START_BIN: usize = 128;

/// The MSE threshold of a coarse histogram (see the module doc).
pub fn threshold(c: &Coarse) -> f64 {
    let n = c.bins.len();
    let centre = |j: usize| (j as f64 + 0.5) * c.width;
    if n <= START_BIN {
        return n as f64 * c.width;
    }
    let counts: Vec<f64> = c.bins.iter().map(|&b| b as f64).collect();
    // Suffix sums of count, count·c, count·c² for the clipped part.
    let mut s0 = vec![0.0f64; n + 1];
    let mut s1 = vec![0.0f64; n + 1];
    let mut s2 = vec![0.0f64; n + 1];
    for j in (0..n).rev() {
        let x = centre(j);
        s0[j] = s0[j + 1] + counts[j];
        s1[j] = s1[j + 1] + counts[j] * x;
        s2[j] = s2[j + 1] + counts[j] * x * x;
    }
    let mut best = (f64::INFINITY, centre(n - 1));
    for i in START_BIN..n {
        let a = centre(i);
        let (s, inv) = (a / 127.0, 127.0 / a);
        // Centres below the clip round to a level; x >= 0, so
        // floor(x/s + 0.5) is round-half-away.
        let mut err = 0.0f64;
        let mut j = 0;
        while j < n {
            let x = centre(j);
            let q = (x * inv + 0.5).floor();
            if q >= 127.0 {
                break;
            }
            let d = q * s - x;
            err += counts[j] * d * d;
            j += 1;
        }
        // Every centre from j up quantizes to a: Σ n (x − a)².
        err += s2[j] - 2.0 * a * s1[j] + a * a * s0[j];
        if err < best.0 {
            best = (err, a);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_far_outlier_is_clipped() {
        let mut bins = vec![0u64; 2048];
        bins[..512].iter_mut().for_each(|b| *b = 100_000);
        bins[2047] = 1;
        let t = threshold(&Coarse { bins, width: 1.0 });
        assert!((300.0..700.0).contains(&t), "{t}");
    }

    #[test]
    fn the_search_starts_at_bin_128() {
        let mut bins = vec![0u64; 2048];
        bins[0] = 1_000_000; // only near-zero values: smallest candidate wins
        bins[2047] = 1;
        let t = threshold(&Coarse { bins, width: 1.0 });
        assert!(t >= 128.0, "{t}");
    }
}
