//! Integer helpers of `nvdla_int.h`: RHAZ right shifts, saturating left
//! shifts and saturation to an n-bit two's-complement range.
//!
//! All functions take and return `i64` values; intermediate results are
//! computed in `i128`, so no input can overflow. Bit widths are 1..=64.

/// Clamps `x` to the signed `bits`-bit range [−2^(bits−1), 2^(bits−1) − 1]
/// (`IntSaturation`, `AC_SAT`).
pub fn sat(x: i128, bits: u32) -> i64 {
    let bits = bits.clamp(1, 64);
    let max = (1i128 << (bits - 1)) - 1;
    let min = -(1i128 << (bits - 1));
    x.clamp(min, max) as i64
}

/// `x / 2^s` rounded half away from zero (RHAZ, `AC_RND_INF`), exact for any
/// shift (a shift ≥ 127 gives 0).
pub fn rhaz(x: i128, s: u32) -> i128 {
    if s == 0 {
        return x;
    }
    if s >= 127 {
        return 0;
    }
    let half = 1i128 << (s - 1);
    if x >= 0 {
        (x + half) >> s
    } else {
        -((-x + half) >> s)
    }
}

/// `IntShiftRight`: sat(`bits`)(RHAZ(x / 2^s)).
pub fn shr_rhaz_sat(x: i128, s: u32, bits: u32) -> i64 {
    sat(rhaz(x, s), bits)
}

/// `IntShiftLeft`: sat(`bits`)(x · 2^s). Shifts beyond the range saturate.
pub fn shl_sat(x: i128, s: u32, bits: u32) -> i64 {
    if x == 0 {
        return 0;
    }
    if s >= 64 {
        return sat(if x > 0 { i128::MAX } else { i128::MIN }, bits);
    }
    sat(x << s, bits)
}

/// `IntSignedShiftRight`: a signed shift; `s ≥ 0` is [`shr_rhaz_sat`], a
/// negative `s` shifts left by −s with saturation.
pub fn shift_signed_sat(x: i128, s: i32, bits: u32) -> i64 {
    if s >= 0 {
        shr_rhaz_sat(x, s as u32, bits)
    } else {
        shl_sat(x, s.unsigned_abs(), bits)
    }
}

/// Sign-extends the low `bits` bits of `x` (the value of a `bits`-wide
/// register field read as signed).
pub fn sext(x: i64, bits: u32) -> i64 {
    let bits = bits.clamp(1, 64);
    let sh = 64 - bits;
    (x << sh) >> sh
}

/// Whether `x` fits in `bits` signed bits.
pub fn fits(x: i128, bits: u32) -> bool {
    sat(x, bits) as i128 == x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rhaz_ties_away() {
        assert_eq!(rhaz(5, 1), 3); // 2.5 → 3
        assert_eq!(rhaz(-5, 1), -3); // −2.5 → −3
        assert_eq!(rhaz(3, 1), 2); // 1.5 → 2
        assert_eq!(rhaz(-3, 1), -2);
        assert_eq!(rhaz(-9, 2), -2); // −2.25 → −2
        assert_eq!(rhaz(-10, 2), -3); // −2.5 → −3
        assert_eq!(rhaz(7, 0), 7);
        assert_eq!(rhaz(1, 200), 0);
    }

    #[test]
    fn saturation() {
        assert_eq!(sat(40000, 16), 32767);
        assert_eq!(sat(-40000, 16), -32768);
        assert_eq!(sat(1 << 40, 32), i32::MAX as i64);
        assert_eq!(shl_sat(3, 62, 32), i32::MAX as i64);
        assert_eq!(shl_sat(-3, 100, 32), i32::MIN as i64);
        assert_eq!(shr_rhaz_sat(-(1 << 40), 1, 32), i32::MIN as i64);
        assert_eq!(shift_signed_sat(3, -2, 8), 12);
        assert_eq!(shift_signed_sat(3, 1, 8), 2);
        assert_eq!(sext(0xFFFF, 16), -1);
        assert_eq!(sext(0x7FFF, 16), 32767);
    }
}
