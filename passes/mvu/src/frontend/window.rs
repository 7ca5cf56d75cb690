//! Windowed partial sums: splitting a matmul over its input features (a
//! convolution over its input channels) when no exact split exists, with the result at most one output LSB below the
//! unsplit layer's.
//!
//! In: the largest `|partial sum|` of a split into `K` parts (`bound`), `K`,
//! and the layer's output LSB `L = msb − oprec + 1` (`msb` the quantizer MSB,
//! default `oprec − 1`, so `L = 0` unless `--quant-msb` raises it). Out: the
//! number of low bits `s` each partial drops ([`window_shift`]), or `None`
//! when no `s` keeps the bound below.
//!
//! **Scheme.** Partial `k` is written at `oprec = 16` with quantizer MSB
//! `15 + s`: the code is bits `15 + s .. s` of its accumulator `S_k`. The sum
//! job reads the `K` codes as 16-bit signed activations, adds them with 1-bit
//! identity weights and puts the total `T` through the layer's ReLU and a
//! quantizer with MSB `msb − s`, i.e. output LSB `L − s`.
//!
//! A layer's bias is added by the first partial (`frontend/bias.rs`), so
//! `S_0` includes it and `bound` counts its largest magnitude.
//!
//! **Bound.** If `bound < 2^(15+s)`, `s ≤ L` and `K · (2^s − 1) < 2^L`, then
//! for every input the split's output, before the final modulo `2^oprec`,
//! equals the unsplit layer's or is exactly one less: the codes are equal or
//! the split's is one LSB below (modulo `2^oprec`). Never above.
//!
//! *Proof.* Let `S = Σ_k S_k` be the unsplit accumulator and
//! `q_k = ⌊S_k / 2^s⌋`, so `S_k = 2^s · q_k + r_k` with `0 ≤ r_k ≤ 2^s − 1`.
//! `|S_k| ≤ bound < 2^(15+s)` gives `−2^15 ≤ q_k ≤ 2^15 − 1`: the 16-bit
//! code decodes to `q_k` exactly (no wrap). The sum's accumulator is
//! `T = Σ q_k = (S − R) / 2^s` with `R = Σ r_k ∈ [0, K · (2^s − 1)]`
//! (`|T| < K · 2^15 ≤ 2^24`, inside the 27-bit accumulator). ReLU commutes
//! with the positive factor: `max(T, 0) = max(S − R, 0) / 2^s`, an integer;
//! its quantizer takes `⌊max(T, 0) / 2^(L−s)⌋ = ⌊max(S − R, 0) / 2^L⌋`
//! (`L − s ≥ 0`). The unsplit layer takes `⌊max(S, 0) / 2^L⌋`. As `max(·, 0)`
//! is monotone and 1-Lipschitz, `0 ≤ max(S, 0) − max(S − R, 0) ≤ R < 2^L`,
//! and two reals less than `2^L` apart, the smaller one not above the larger,
//! have floors after division by `2^L` that are equal or one apart, the
//! split's being the smaller. ∎
//!
//! *Pooling* (a convolution's sum job carries the layer's max pooling, see
//! `frontend/conv_partial.rs`): the pooler takes `M = max(0, max_j S_j)` over
//! a window's conv outputs `j` unsplit and `M' = max(0, max_j (S_j − R_j))`
//! split, each `R_j ∈ [0, K · (2^s − 1)]`. The maximum is monotone and
//! 1-Lipschitz in the largest coordinate, so `0 ≤ M − M' ≤ max_j R_j < 2^L`,
//! and the same floor argument gives the same bound.
//!
//! The difference is one exactly when `max(S, 0) mod 2^L < R'` for the
//! dropped `R' = max(S,0) − max(S−R,0) ≤ R`, so for evenly spread low bits it
//! happens for about `E[R] / 2^L ≤ K · 2^(s−1) / 2^L` of the outputs: the
//! larger `L` is compared with `s`, the rarer.

use crate::limits::MAX_QUANT_MSB;

/// Bits a partial keeps: its code is 16 bits, two's complement.
const KEPT: u32 = 15;

/// The fewest low bits `s` each of `parts` partials may drop so that a
/// partial of `|value| ≤ bound` fits 16 signed bits and the sum is within one
/// output LSB of the unsplit layer (see the module doc), for output LSB
/// `lsb`; `None` when no such `s` exists (or the partial's quantizer MSB
/// `15 + s` would exceed the MVU's 26). `Some(0)` is an exact split.
pub fn window_shift(bound: u64, parts: u64, lsb: u32) -> Option<u32> {
    let s = (0..=MAX_QUANT_MSB - KEPT).find(|&s| bound < 1u64 << (KEPT + s))?;
    let dropped = parts.checked_mul((1u64 << s) - 1)?;
    (s <= lsb && dropped < 1u64 << lsb).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_partials_drop_nothing() {
        assert_eq!(window_shift(32767, 7, 0), Some(0));
        assert_eq!(window_shift(0, 1, 0), Some(0));
    }

    #[test]
    fn the_output_lsb_must_cover_the_dropped_bits_of_every_part() {
        // 2^20 needs s = 6; 3 parts drop at most 3·63 = 189 < 2^8.
        assert_eq!(window_shift(1 << 20, 3, 8), Some(6));
        // 5 parts drop up to 315 ≥ 256: refused.
        assert_eq!(window_shift(1 << 20, 5, 8), None);
        // The default quantizer (L = 0) admits only exact splits.
        assert_eq!(window_shift(32768, 1, 0), None);
        // A partial beyond 2^41 would need a quantizer MSB above 26.
        assert_eq!(window_shift(1 << 42, 1, 40), None);
    }

    /// The bound itself, checked by brute force on small numbers: every
    /// split of every accumulator into parts lands within one LSB below.
    #[test]
    fn brute_force_split_is_the_unsplit_value_or_one_below() {
        let (s, lsb) = (2u32, 4u32);
        let parts = [-40i64, 13, -3, 37];
        for base in -300i64..300 {
            let ps: Vec<i64> = parts.iter().map(|p| p + base / 4).collect();
            let total: i64 = ps.iter().sum();
            let t: i64 = ps.iter().map(|p| p >> s).sum();
            let split = t.max(0) >> (lsb - s);
            let whole = total.max(0) >> lsb;
            assert!(split == whole || split + 1 == whole, "{ps:?}");
        }
        assert!(4 * ((1 << s) - 1) < 1 << lsb);
    }

    /// A bias added by the first partial before it drops its low bits:
    /// the partials still add up to the biased accumulator, so the result is
    /// the unsplit `max(S + c, 0)` or one LSB below, with `K` parts as
    /// before (`bias.rs`; the partial bound counts `|c|`).
    #[test]
    fn a_bias_in_the_first_partial_keeps_the_bound() {
        let (s, lsb) = (2u32, 4u32);
        let parts = [-40i64, 13, 37];
        assert!(parts.len() as i64 * ((1 << s) - 1) < 1 << lsb);
        for c in -70i64..70 {
            for base in -200i64..200 {
                let mut ps: Vec<i64> = parts.iter().map(|p| p + base / 3).collect();
                let total: i64 = ps.iter().sum::<i64>() + c;
                ps[0] += c;
                let t: i64 = ps.iter().map(|p| p >> s).sum();
                let split = t.max(0) >> (lsb - s);
                let whole = total.max(0) >> lsb;
                assert!(split == whole || split + 1 == whole, "{ps:?} + {c}");
            }
        }
    }
}
