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
///
/// Cost: `O(bins²)` multiply-adds and `O(128·bins)` logarithms — the
/// logarithm of every bin is taken once, and `ln(p/q)` is evaluated as
/// `ln b − ln T − ln q̄ + ln T_Q`.
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
    let ln_bins: Vec<f64> = bins
        .iter()
        .map(|&b| if b > 0.0 { b.ln() } else { 0.0 })
        .collect();
    let mut best = (f64::INFINITY, n);
    for i in START_BIN..=n {
        let kl = divergence(&bins[..i], &ln_bins[..i], tail[i], total);
        if kl <= best.0 {
            best = (kl, i);
        }
    }
    best.1 as f64 * c.width
}

/// The bins `j` of group `g` for candidate `i`: `⌊128·j/i⌋ = g`.
fn group(g: usize, i: usize) -> std::ops::Range<usize> {
    (g * i).div_ceil(LEVELS)..((g + 1) * i).div_ceil(LEVELS)
}

/// `KL(P‖Q)` for candidate `i = bins.len()` (see the module doc);
/// `ln_bins[j] = ln bins[j]` where `bins[j] > 0`.
fn divergence(bins: &[f64], ln_bins: &[f64], outliers: f64, p_total: f64) -> f64 {
    let i = bins.len();
    let q_total = p_total - outliers;
    if q_total <= 0.0 || (bins[i - 1] == 0.0 && outliers > 0.0) {
        return f64::INFINITY; // q = 0 < p in the outlier bin
    }
    let shift = q_total.ln() - p_total.ln();
    let mut kl = 0.0f64;
    for g in 0..LEVELS {
        let range = group(g, i);
        let (mut sum, mut nonzero) = (0.0f64, 0u32);
        for &b in &bins[range.clone()] {
            if b > 0.0 {
                sum += b;
                nonzero += 1;
            }
        }
        if nonzero == 0 {
            continue;
        }
        // ln(p/q) = ln b − ln T − ln(sum/nonzero) + ln T_Q
        let offset = shift - (sum / f64::from(nonzero)).ln();
        let end = range.end;
        for j in range {
            let b = bins[j];
            if b > 0.0 && j + 1 != i {
                kl += b * (ln_bins[j] + offset);
            }
        }
        let p = bins[i - 1] + outliers;
        if end == i && p > 0.0 {
            kl += p * (p.ln() + offset);
        }
    }
    kl / p_total
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
        let ln: Vec<f64> = bins
            .iter()
            .map(|&b| if b > 0.0 { b.ln() } else { 0.0 })
            .collect();
        let total = 5.0 * 128.0;
        assert_eq!(divergence(&bins, &ln, 10.0, total + 10.0), f64::INFINITY);
        // Without outliers the empty bin is skipped and Q = P within groups.
        let kl = divergence(&bins, &ln, 0.0, total);
        assert!(kl.abs() < 1e-12, "{kl}");
    }

    #[test]
    fn groups_tile_the_candidate() {
        for i in [128, 129, 200, 1000, 2048] {
            let mut next = 0;
            for g in 0..LEVELS {
                let r = group(g, i);
                assert_eq!(r.start, next);
                for j in r.clone() {
                    assert_eq!(j * LEVELS / i, g);
                }
                next = r.end;
            }
            assert_eq!(next, i);
        }
    }

    /// The direct formula: P and Q built bin by bin, KL summed term by term.
    fn reference(bins: &[f64], i: usize) -> f64 {
        let total: f64 = bins.iter().sum();
        let outliers: f64 = bins[i..].iter().sum();
        let mut p: Vec<f64> = bins[..i].to_vec();
        p[i - 1] += outliers;
        let mut q = vec![0.0; i];
        for g in 0..LEVELS {
            let r = group(g, i);
            let nz = bins[r.clone()].iter().filter(|&&b| b > 0.0).count();
            let s: f64 = bins[r.clone()].iter().sum();
            for j in r {
                if bins[j] > 0.0 {
                    q[j] = s / nz as f64;
                }
            }
        }
        let qt: f64 = q.iter().sum();
        let mut kl = 0.0;
        for j in 0..i {
            if p[j] > 0.0 {
                if q[j] == 0.0 {
                    return f64::INFINITY;
                }
                kl += p[j] / total * ((p[j] / total) / (q[j] / qt)).ln();
            }
        }
        kl
    }

    #[test]
    fn the_fast_divergence_equals_the_direct_formula() {
        let bins: Vec<f64> = (0..600u64)
            .map(|j| ((j * 7919) % 97 + (j % 5) * 3) as f64)
            .collect();
        let ln: Vec<f64> = bins
            .iter()
            .map(|&b| if b > 0.0 { b.ln() } else { 0.0 })
            .collect();
        let total: f64 = bins.iter().sum();
        for i in [128, 131, 300, 599, 600] {
            let tail: f64 = bins[i..].iter().sum();
            let fast = divergence(&bins[..i], &ln[..i], tail, total);
            let slow = reference(&bins, i);
            assert!(
                (fast - slow).abs() <= 1e-12 * slow.abs().max(1.0),
                "i = {i}: {fast} vs {slow}"
            );
        }
    }
}
