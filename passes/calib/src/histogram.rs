//! The per-tensor histogram of `|x|`: exact, mergeable, order-independent.
//!
//! In: batches of `f32` values (one per calibration set and tensor), or
//! another histogram to merge. Out: [`FINE_BINS`] integer counts of equal
//! width over `[0, 2^k)`, where `2^k` is the smallest power of two above
//! every `|x|` seen, plus a coarse view of about 2048 bins for the entropy
//! and MSE searches ([`Histogram::coarse`]).
//!
//! **Why a power-of-two range.** A histogram needs its range before it can
//! bin, but calibration sees the data once. Here the range only ever grows
//! by doublings, and a value `a` falls in bin `⌊a·2^(n−k)⌋` (`n` =
//! log2 [`FINE_BINS`]): a multiplication by a power of two, exact in `f64`.
//! Growing from `2^k` to `2^K` maps bin `i` to `⌊i / 2^(K−k)⌋`, which is
//! exactly the bin the value would have had if it had been binned at `2^K`
//! from the start. So the final counts are those of binning all the data at
//! the final range directly, **whatever the order of the sets or how they
//! were split between threads** — no approximation, no dependence on the
//! first batch (unlike TensorRT's "grow by the first batch's width" scheme,
//! whose edges depend on which batch came first).
//!
//! The price is resolution: the data occupy between half and all of the
//! `2^16` bins, i.e. the bin width is at most `max|x| / 32768`, finer than
//! the 2048 bins over `[0, max|x|]` that TensorRT's entropy calibrator uses.
//!
//! ```
//! use onnc_calib::Histogram;
//! let mut a = Histogram::default();
//! a.add(&[0.5, -1.5]);
//! let mut b = Histogram::default();
//! b.add(&[3.0]);
//! let mut ab = a.clone();
//! ab.merge(&b);
//! let mut ba = b.clone();
//! ba.merge(&a);
//! assert_eq!(ab, ba);                 // order-independent
//! assert_eq!(ab.range(), 4.0);       // smallest power of two above 3
//! assert_eq!(ab.count(), 3);
//! ```

/// log2 of [`FINE_BINS`].
pub const FINE_BITS: u32 = 16;
/// Bins of the stored histogram (over `[0, 2^k)`).
pub const FINE_BINS: usize = 1 << FINE_BITS;
/// Bins of the coarse view the entropy and MSE searches work on (TensorRT's 2048).
pub const COARSE_BINS: usize = 2048;

/// A histogram of `|x|` over `[0, 2^k)` (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Histogram {
    /// `k`; `None` while every value seen was zero.
    exp: Option<i32>,
    /// [`FINE_BINS`] counts and [`SPILL`] scratch slots (always zero
    /// between calls), or empty before the first value.
    bins: Vec<u64>,
    count: u64,
}

/// Scratch slots after the bins: counts for bin 0 are spread over them
/// while binning, so that runs of zeros (ReLU outputs) do not serialise on
/// one counter; they are folded into bin 0 after every batch.
const SPILL: usize = 8;

/// The smallest `k` with `a < 2^k`, for a finite `a > 0`.
fn exp_above(a: f64) -> i32 {
    // a = m·2^e with m in [1, 2): a < 2^(e+1), a >= 2^e.
    let biased = ((a.to_bits() >> 52) & 0x7ff) as i32;
    biased - 1023 + 1
}

impl Histogram {
    /// Add values; the caller has checked they are finite (NaN would land
    /// in bin 0, an infinity would make the range infinite).
    pub fn add(&mut self, xs: &[f32]) {
        let peak = xs.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        self.add_with_peak(xs, peak);
    }

    /// [`Histogram::add`] when the caller already knows `peak = max|x|`.
    pub(crate) fn add_with_peak(&mut self, xs: &[f32], peak: f32) {
        if xs.is_empty() {
            return;
        }
        if self.bins.is_empty() {
            self.bins = vec![0; FINE_BINS + SPILL];
        }
        if peak > 0.0 {
            let k = exp_above(f64::from(peak));
            if self.exp.is_none_or(|e| e < k) {
                self.grow(k);
            }
        }
        match self.exp {
            None => self.bins[0] += xs.len() as u64,
            Some(k) => {
                let m = FINE_BITS as i32 - k;
                if (-126..=127).contains(&m) {
                    // x·2^m is exact in f32 wherever it is >= 1 (a power-of-two
                    // scaling of a normal result); below 1 the bin is 0 anyway.
                    let mul = f32::from_bits(((m + 127) as u32) << 23);
                    self.bin_all(xs, |x| (x.abs() * mul) as usize);
                } else {
                    let mul = 2f64.powi(m);
                    self.bin_all(xs, |x| (f64::from(x.abs()) * mul) as usize);
                }
            }
        }
        self.count += xs.len() as u64;
    }

    /// Count every value in the bin `index(x)` gives (clamped to the last).
    fn bin_all(&mut self, xs: &[f32], index: impl Fn(f32) -> usize) {
        let bins = &mut self.bins;
        for (j, &x) in xs.iter().enumerate() {
            let i = index(x).min(FINE_BINS - 1);
            // Bin 0 goes to spill slot FINE_BINS + j % SPILL (branch-free).
            let zero = usize::from(i == 0);
            bins[i + zero * (FINE_BINS + (j % SPILL))] += 1;
        }
        let spilled: u64 = bins[FINE_BINS..].iter().sum();
        bins[FINE_BINS..].fill(0);
        bins[0] += spilled;
    }

    /// Widen the range to `2^k` (`k` above the current exponent), merging
    /// bins exactly.
    fn grow(&mut self, k: i32) {
        let Some(old) = self.exp else {
            self.exp = Some(k); // only zeros so far: they stay in bin 0
            return;
        };
        let shift = (k - old) as u32;
        if shift >= FINE_BITS {
            let total = self.bins.iter().sum();
            self.bins.fill(0);
            self.bins[0] = total;
        } else {
            let mut merged = vec![0u64; FINE_BINS + SPILL];
            for (i, &c) in self.bins[..FINE_BINS].iter().enumerate() {
                merged[i >> shift] += c;
            }
            self.bins = merged;
        }
        self.exp = Some(k);
    }

    /// Add another histogram's counts (exact; commutative and associative).
    pub fn merge(&mut self, other: &Histogram) {
        if other.bins.is_empty() {
            return;
        }
        if self.bins.is_empty() {
            *self = other.clone();
            return;
        }
        let mut other = other.clone();
        match (self.exp, other.exp) {
            (Some(a), Some(b)) if a < b => self.grow(b),
            (Some(a), Some(b)) if b < a => other.grow(a),
            (None, Some(b)) => self.grow(b),
            (Some(a), None) => other.grow(a),
            _ => {}
        }
        for (c, o) in self.bins.iter_mut().zip(&other.bins) {
            *c += o;
        }
        self.count += other.count;
    }

    /// Number of values seen.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// `2^k`, the upper end of the last bin; 0 while only zeros were seen.
    pub fn range(&self) -> f64 {
        self.exp.map_or(0.0, |k| 2f64.powi(k))
    }

    /// Width of one fine bin (0 while only zeros were seen).
    pub fn bin_width(&self) -> f64 {
        self.range() / FINE_BINS as f64
    }

    /// The fine counts ([`FINE_BINS`] of them, or none before any value).
    pub fn bins(&self) -> &[u64] {
        &self.bins[..self.bins.len().min(FINE_BINS)]
    }

    /// The `p`-th percentile of `|x|` for `0 < p < 100`: the upper edge of
    /// the first fine bin at which the cumulative count reaches `⌈p%·count⌉`.
    /// `None` before any value.
    pub fn percentile_edge(&self, p: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let target = ((p / 100.0) * self.count as f64).ceil().max(1.0) as u64;
        let mut cum = 0u64;
        for (i, &c) in self.bins().iter().enumerate() {
            cum += c;
            if cum >= target {
                return Some((i + 1) as f64 * self.bin_width());
            }
        }
        Some(self.range())
    }

    /// The coarse view for the entropy and MSE searches: groups of `f`
    /// adjacent fine bins, `f = ⌈used / 2048⌉` where `used` is the number of
    /// fine bins up to the last non-empty one, so the view has between 1928
    /// and 2048 bins and its last bin holds `max|x|` — TensorRT's "2048 bins
    /// over `[0, max|x|]`" up to a bin width at most 6% wider. `None` while
    /// only zeros were seen.
    pub fn coarse(&self) -> Option<Coarse> {
        self.exp?;
        let used = self.bins().iter().rposition(|&c| c > 0)? + 1;
        let f = used.div_ceil(COARSE_BINS);
        let bins: Vec<u64> = self.bins[..used]
            .chunks(f)
            .map(|c| c.iter().sum())
            .collect();
        Some(Coarse {
            bins,
            width: self.bin_width() * f as f64,
        })
    }
}

/// Equal-width counts over `[0, bins.len()·width)`; the last bin is non-empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Coarse {
    /// The counts.
    pub bins: Vec<u64>,
    /// Width of one bin.
    pub width: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_is_the_power_of_two_above_the_peak() {
        assert_eq!(exp_above(1.0), 1);
        assert_eq!(exp_above(0.999), 0);
        assert_eq!(exp_above(3.0), 2);
        assert_eq!(exp_above(4.0), 3);
        assert_eq!(exp_above(1e-40), -132);
        let mut h = Histogram::default();
        h.add(&[0.0, 0.0]);
        assert_eq!((h.range(), h.count(), h.bins()[0]), (0.0, 2, 2));
        h.add(&[-1.0]);
        assert_eq!(h.range(), 2.0);
        // 1.0 at range 2: bin 2^16 / 2
        assert_eq!(h.bins()[FINE_BINS / 2], 1);
        assert_eq!(h.bins()[0], 2);
    }

    #[test]
    fn growing_equals_binning_at_the_final_range() {
        let xs: Vec<f32> = (0..5000)
            .map(|i| ((i * 7919) % 1000) as f32 / 37.0)
            .collect();
        let mut once = Histogram::default();
        once.add(&xs);
        let mut pieces = Histogram::default();
        let mut sorted = xs.clone();
        sorted.sort_by(f32::total_cmp);
        for c in sorted.chunks(300) {
            pieces.add(c); // ascending: the range grows many times
        }
        assert_eq!(once, pieces);
        let mut merged = Histogram::default();
        for c in xs.chunks(700).rev() {
            let mut h = Histogram::default();
            h.add(c);
            merged.merge(&h);
        }
        assert_eq!(once, merged);
    }

    #[test]
    fn a_huge_jump_keeps_every_count() {
        let mut h = Histogram::default();
        h.add(&[1e-20, 2e-20]);
        h.add(&[1e20]);
        assert_eq!(h.bins().iter().sum::<u64>(), 3);
        assert_eq!(h.bins()[0], 2);
    }

    #[test]
    fn the_coarse_view_ends_at_the_peak() {
        let mut h = Histogram::default();
        let xs: Vec<f32> = (0..10_000).map(|i| i as f32 / 10_000.0 * 5.0).collect();
        h.add(&xs);
        let c = h.coarse().unwrap();
        assert!((1928..=2048).contains(&c.bins.len()), "{}", c.bins.len());
        assert!(*c.bins.last().unwrap() > 0);
        let top = c.bins.len() as f64 * c.width;
        assert!((5.0..5.0 * 1.07).contains(&top), "{top}");
        assert_eq!(c.bins.iter().sum::<u64>(), 10_000);
        assert!(Histogram::default().coarse().is_none());
    }

    #[test]
    fn percentiles_of_uniform_data() {
        let mut h = Histogram::default();
        let xs: Vec<f32> = (1..=100_000).map(|i| i as f32 / 100_000.0).collect();
        h.add(&xs);
        let p = h.percentile_edge(99.0).unwrap();
        assert!((p - 0.99).abs() < 1e-4, "{p}");
        assert!(Histogram::default().percentile_edge(50.0).is_none());
    }
}
