//! Correctly rounded powers `2^(n/16)` without `libm`.
//!
//! In: an integer `n`. Out: `2^(n/16)` as `f64` or `f32`, bit-identical on
//! every platform.
//!
//! `2^(n/16) = 2^(r/16) · 2^e` with `e = floor(n/16)`, `r = n mod 16`. The 16
//! mantissas `2^(r/16)` are stored as bit patterns, each correctly rounded
//! (computed once with 80-digit decimal arithmetic); scaling by `2^e` is exact
//! while the result stays a normal number, so the results are correctly
//! rounded too. Every decoded NNIE level and every clip value goes through
//! here, which makes the crate's outputs deterministic.
//!
//! ```text
//! // crate-private, tested in this file's unit tests:
//! assert_eq!(pow2_16ths_f64(16), 2.0);
//! assert_eq!(pow2_16ths_f32(8), std::f32::consts::SQRT_2);
//! ```

/// `(2^(r/16) as f64 bits, 2^(r/16) as f32 bits)` for `r = 0..16`.
const FRAC: [(u64, u32); 16] = [
    (0x3ff0000000000000, 0x3f800000), // 2^(0/16) = 1
    (0x3ff0b5586cf9890f, 0x3f85aac3), // 2^(1/16) = 1.04427378242741384032
    (0x3ff172b83c7d517b, 0x3f8b95c2), // 2^(2/16) = 1.09050773266525765920
    (0x3ff2387a6e756238, 0x3f91c3d3), // 2^(3/16) = 1.13878863475669165370
    (0x3ff306fe0a31b715, 0x3f9837f0), // 2^(4/16) = 1.18920711500272106671
    (0x3ff3dea64c123422, 0x3f9ef532), // 2^(5/16) = 1.24185781207348404859
    (0x3ff4bfdad5362a27, 0x3fa5fed7), // 2^(6/16) = 1.29683955465100966593
    (0x3ff5ab07dd485429, 0x3fad583f), // 2^(7/16) = 1.35425554693689272829
    (0x3ff6a09e667f3bcd, 0x3fb504f3), // 2^(8/16) = 1.41421356237309504880
    (0x3ff7a11473eb0187, 0x3fbd08a4), // 2^(9/16) = 1.47682614593949931138
    (0x3ff8ace5422aa0db, 0x3fc5672a), // 2^(10/16) = 1.54221082540794082361
    (0x3ff9c49182a3f090, 0x3fce248c), // 2^(11/16) = 1.61049033194925430817
    (0x3ffae89f995ad3ad, 0x3fd744fd), // 2^(12/16) = 1.68179283050742908606
    (0x3ffc199bdd85529c, 0x3fe0ccdf), // 2^(13/16) = 1.75625216037329948311
    (0x3ffd5818dcfba487, 0x3feac0c7), // 2^(14/16) = 1.83400808640934246348
    (0x3ffea4afa2a490da, 0x3ff5257d), // 2^(15/16) = 1.91520656139714729387
];

/// `2^e` as `f64` (exact for `-1022 ≤ e ≤ 1023`; `0`/`inf` beyond).
fn pow2i(e: i64) -> f64 {
    if e > 1023 {
        f64::INFINITY
    } else if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        // subnormal or zero; halve step by step (exact until underflow)
        let mut v = f64::from_bits(1u64 << 52); // 2^-1022
        let mut k = -1022;
        while k > e && v != 0.0 {
            v *= 0.5;
            k -= 1;
        }
        v
    }
}

/// `2^(n/16)`, correctly rounded to `f64` (for results in the normal range).
pub(crate) fn pow2_16ths_f64(n: i64) -> f64 {
    let (e, r) = (n.div_euclid(16), n.rem_euclid(16) as usize);
    f64::from_bits(FRAC[r].0) * pow2i(e)
}

/// `2^(n/16)`, correctly rounded to `f32` (for results in the normal `f32`
/// range, which every validated NNIE level is).
pub(crate) fn pow2_16ths_f32(n: i64) -> f32 {
    let (e, r) = (n.div_euclid(16), n.rem_euclid(16) as usize);
    (f64::from(f32::from_bits(FRAC[r].1)) * pow2i(e)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_libm_to_an_ulp() {
        for (r, &(b64, b32)) in FRAC.iter().enumerate() {
            let exact = (r as f64 / 16.0).exp2();
            let t = f64::from_bits(b64);
            assert!((t - exact).abs() <= f64::EPSILON * 2.0, "r = {r}");
            // the f32 entry is the f64 entry rounded (no double-rounding case here)
            assert_eq!(f32::from_bits(b32), t as f32, "r = {r}");
        }
    }

    #[test]
    fn integer_powers_are_exact() {
        assert_eq!(pow2_16ths_f64(0), 1.0);
        assert_eq!(pow2_16ths_f64(16), 2.0);
        assert_eq!(pow2_16ths_f64(-32), 0.25);
        assert_eq!(pow2_16ths_f32(-16 * 126), f32::MIN_POSITIVE);
        assert_eq!(pow2_16ths_f32(8), std::f32::consts::SQRT_2);
        assert_eq!(pow2_16ths_f64(-8), std::f64::consts::FRAC_1_SQRT_2);
        assert_eq!(pow2i(-1074), f64::from_bits(1));
        assert_eq!(pow2i(2000), f64::INFINITY);
    }

    #[test]
    fn negative_n_uses_euclidean_split() {
        // 2^(-1/16) = 2^(15/16) / 2
        assert_eq!(pow2_16ths_f64(-1), f64::from_bits(FRAC[15].0) / 2.0);
        assert_eq!(pow2_16ths_f32(-17), f32::from_bits(FRAC[15].1) / 4.0);
    }
}
