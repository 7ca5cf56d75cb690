//! Plain IEEE fp16 helpers for host-side code (the UMD test app, the EMU
//! ops, DIMG output), as opposed to the engine conversions of
//! [`super::cvt`].

/// The exact f32 value of fp16 bits (IEEE: Inf stays Inf, NaN stays NaN).
pub fn fp16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// f32 → fp16 the way `half.h` does with `HALF_ROUND_STYLE 1` and
/// `HALF_ROUND_TIES_TO_EVEN 0`: round to nearest, **ties away from zero**;
/// overflow gives ±Inf; NaN gives a quiet NaN with the sign kept.
pub fn f32_to_fp16_ties_away(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = (b >> 23) & 0xFF;
    let f = b & 0x7F_FFFF;
    if e == 0xFF {
        return if f == 0 {
            sign | 0x7C00
        } else {
            sign | 0x7E00 | ((f >> 13) as u16 & 0x1FF)
        };
    }
    if e == 0 {
        return sign; // f32 denormals are far below the fp16 range
    }
    let m = (f | 0x80_0000) as u64;
    // Quantum exponent of the fp16 result: normal 2^(e−127−10), else 2^−24.
    let (qexp, normal) = if e >= 113 {
        (e as i32 - 137, true)
    } else {
        (-24, false)
    };
    let s = qexp - (e as i32 - 150); // right shift of m, ≥ 13
    let n = if s >= 40 {
        0
    } else {
        (m + (1u64 << (s - 1))) >> s
    };
    let bits = if normal {
        (((e - 112) as u64) << 10) + (n - 1024)
    } else {
        n
    };
    if bits >= 0x7C00 {
        sign | 0x7C00
    } else {
        sign | bits as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_away_from_zero() {
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        assert_eq!(f32_to_fp16_ties_away(1.0 + 2f32.powi(-11)), 0x3C01);
        assert_eq!(f32_to_fp16_ties_away(-(1.0 + 2f32.powi(-11))), 0xBC01);
        assert_eq!(f32_to_fp16_ties_away(2f32.powi(-25)), 0x0001);
        assert_eq!(f32_to_fp16_ties_away(65520.0), 0x7C00);
        assert_eq!(f32_to_fp16_ties_away(65519.0), 0x7BFF);
        assert_eq!(f32_to_fp16_ties_away(-0.0), 0x8000);
    }

    #[test]
    fn non_ties_match_rne() {
        let mut x: u32 = 99;
        for _ in 0..100_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = f32::from_bits(x);
            if !v.is_finite() {
                continue;
            }
            let h = f32_to_fp16_ties_away(v);
            let r = half::f16::from_f32(v);
            // Differences only on exact ties.
            if h != r.to_bits() {
                let lo = fp16_to_f32(h.min(r.to_bits())) as f64;
                let hi = fp16_to_f32(h.max(r.to_bits())) as f64;
                assert_eq!((lo + hi) / 2.0, v as f64, "{v}");
            }
        }
    }
}
