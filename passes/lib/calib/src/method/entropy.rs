//! TensorRT's entropy calibration: the clip whose 128-level quantization
//! loses the least information, measured by KL divergence.
//!
//! In: the coarse histogram of `|x|` (about 2048 bins ending at `max|x|`,
//! `crate::Histogram::coarse`). Out: the threshold `amax`.
//!
//! The algorithm, as NVIDIA describes it (Migacz, "8-bit Inference with
//! TensorRT", GTC 2017) and as NVIDIA's open pytorch-quantization
//! reimplements it (facts: `research/nvdla-int8.md` §6.2; the code here is
//! our own):
//!
//! 1. The first bin (the spike of exact zeros after a ReLU) is replaced by
//!    the second bin's count.
//! 2. For every candidate `i` from [`START_BIN`] to the number of bins:
//!    * **P** = bins `0..i`, with everything above (the outliers) added to
//!      bin `i−1`;
//!    * **Q** = bins `0..i` (without the outliers) merged into
//!      [`LEVELS`] groups (bin `j` is in group `⌊128·j/i⌋`), each group's
//!      total spread evenly over its non-empty bins (empty bins stay 0);
//!    * `KL(P‖Q) = Σ p·ln(p/q)` over normalised P and Q; infinite where
//!      `q = 0 < p`.
//! 3. The candidate with the smallest divergence wins; on a tie, the
//!    **largest** `i` (pytorch-quantization's `last_argmin`).
//! 4. `amax = i · bin width`, the upper edge of the last bin P keeps
//!    (pytorch-quantization's `bin_edges[i]`; the GTC slides add half a
//!    bin — the difference is under 0.05% of `max|x|`).
//!
//! ```
//! use onnc_calib::{method::entropy, Coarse};
//! // A half-Gaussian of |x| (σ = 100 bins) and one far outlier in the last bin.
//! let mut bins: Vec<u64> = (0..2048)
//!     .map(|j| (1e6 * (-0.5 * (j as f64 / 100.0).powi(2)).exp()) as u64)
//!     .collect();
//! bins[2047] = 1;
//! let amax = entropy::threshold(&Coarse { bins, width: 1.0 });
//! assert!((200.0..600.0).contains(&amax), "{amax}"); // 2σ..6σ, far below 2048
//! ```

use crate::histogram::Coarse;

/// Quantized levels of the positive half of INT8 (`2^(8−1)`).
pub const LEVELS: usize = 128;
/// The first candidate: as many bins as levels.
pub const START_BIN: usize = 128;

/// The entropy threshold of a coarse histogram (see the module doc).
pub fn threshold(c: &Coarse) -> f64 {
    let mut bins: Vec<f64> = c.bins.iter().map(|&b| b as f64).collect();
    let n = bins.len();
    if n <= START_BIN {
        return n as f64 * c.width;
    }
    bins[0] = bins[1];
    // tail[i] = Σ bins[i..]
    let mut tail = vec![0.0f64; n + 1];
    for i in (0..n).rev() {
        tail[i] = tail[i + 1] + bins[i];
    }
    let total = tail[0];
    if total == 0.0 {
        return n as f64 * c.width;
    }
    let mut best = (f64::INFINITY, n);
    let mut group_sum = [0.0f64; LEVELS];
    let mut group_nonzero = [0u32; LEVELS];
    for i in START_BIN..=n {
        group_sum.fill(0.0);
        group_nonzero.fill(0);
        for (j, &b) in bins[..i].iter().enumerate() {
            if b > 0.0 {
                let g = j * LEVELS / i;
                group_sum[g] += b;
                group_nonzero[g] += 1;
            }
        }
        let q_total = total - tail[i];
        let kl = divergence(
            &bins[..i],
            tail[i],
            total,
            q_total,
            &group_sum,
            &group_nonzero,
        );
        if kl <= best.0 {
            best = (kl, i);
        }
    }
    best.1 as f64 * c.width
}

/// `KL(P‖Q)` for candidate `i = bins.len()` (see the module doc).
fn divergence(
    bins: &[f64],
    outliers: f64,
    p_total: f64,
    q_total: f64,
    group_sum: &[f64; LEVELS],
    group_nonzero: &[u32; LEVELS],
) -> f64 {
    let i = bins.len();
    if q_total == 0.0 {
        return f64::INFINITY;
    }
    let mut kl = 0.0f64;
    for (j, &b) in bins.iter().enumerate() {
        let p = if j + 1 == i { b + outliers } else { b };
        if p == 0.0 {
            continue;
        }
        if b == 0.0 {
            return f64::INFINITY; // q = 0 < p: only the outlier bin can get here
        }
        let g = j * LEVELS / i;
        let q = group_sum[g] / f64::from(group_nonzero[g]);
        let (p, q) = (p / p_total, q / q_total);
        kl += p * (p / q).ln();
    }
    kl
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniform_histogram_keeps_its_whole_range() {
        // Every candidate below the top loses mass into the outlier bin;
        // the full range quantizes 2048 -> 128 levels with no loss (Q = P).
        let c = Coarse {
            bins: vec![10; 2048],
            width: 1.0,
        };
        assert_eq!(threshold(&c), 2048.0);
    }

    #[test]
    fn outliers_over_an_empty_last_bin_are_infinitely_bad() {
        let mut bins = vec![5.0f64; 129];
        bins[128] = 0.0;
        let mut sum = [0.0; LEVELS];
        let mut nz = [0u32; LEVELS];
        for (j, &b) in bins.iter().enumerate() {
            if b > 0.0 {
                sum[j * LEVELS / 129] += b;
                nz[j * LEVELS / 129] += 1;
            }
        }
        let q_total = 5.0 * 128.0;
        assert_eq!(
            divergence(&bins, 10.0, q_total + 10.0, q_total, &sum, &nz),
            f64::INFINITY
        );
        // Without outliers the empty bin is skipped and Q = P within groups.
        let kl = divergence(&bins, 0.0, q_total, q_total, &sum, &nz);
        assert!(kl.is_finite() && kl >= 0.0, "{kl}");
    }
}
