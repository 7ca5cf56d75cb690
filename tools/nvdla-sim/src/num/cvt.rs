//! Format conversions of `nvdla_float.h` (bit patterns in, bit patterns out):
//! `Fp16ToFp32`, `Fp32ToFp16`, `Fp16ToFp17`, `Fp17ToFp16`, `Fp17ToFp32`,
//! `Fp32ToFp17`, `FpIntToFloat` (`Int17ToFp16`, `Int16ToFp16`) and
//! `FpFloatToInt` (`Fp16ToInt16`).
//!
//! Widening is exact for finite values (fp16 denormals are normalised),
//! ±Inf becomes ±largest finite, a NaN keeps its sign and its fraction bits
//! unshifted. Narrowing rounds to nearest-even, saturates to the largest
//! finite value, and flushes or denormalises small values as the C-model does.

use super::float::{mant_rne, Fmt, Parts, FP16, FP17, FP32};

/// `FpWidthInc`: widens `bits` from format `i` to the wider `o`.
/// `denorm`: whether denormal inputs are normalised (`DENORM_YES`); without
/// it a denormal keeps its fraction and gets exponent = bias difference.
pub fn widen(i: Fmt, o: Fmt, bits: u32, denorm: bool) -> u32 {
    let p = i.split(bits);
    let sh = o.man - i.man;
    let delta = o.bias() - i.bias();
    let nan = p.exp == i.exp_max() && p.man != 0;
    if nan {
        return o.join(Parts {
            sign: p.sign,
            exp: o.exp_max(),
            man: p.man,
        });
    }
    if p.exp == i.exp_max() {
        return o.max_finite(p.sign);
    }
    if p.exp == 0 && p.man == 0 {
        return o.join(Parts {
            sign: p.sign,
            exp: 0,
            man: 0,
        });
    }
    let man = p.man << sh;
    if p.exp == 0 && denorm {
        // Normalise: leading zeros of the fraction in its o.man-bit field.
        let lz = (man as u128).leading_zeros() - (128 - o.man);
        let m = (man << (lz + 1)) & ((1u64 << o.man) - 1);
        return o.join(Parts {
            sign: p.sign,
            exp: delta - lz,
            man: m,
        });
    }
    o.join(Parts {
        sign: p.sign,
        exp: p.exp + delta,
        man,
    })
}

/// `FpMantDecShiftRight`: the (1.fraction) of width `iw`+1 shifted right by
/// `shift` ≥ 1 and rounded nearest-even to `ow` bits. Returns the `ow`-bit
/// fraction and whether rounding reached 2^ow (the value became normal).
fn dec_shift_right(man: u64, iw: u32, shift: u32, ow: u32) -> (u64, bool) {
    let x = (man as u128) | (1u128 << iw);
    let d = iw - ow;
    let g = d + shift - 1;
    let guard = (x >> g) & 1 == 1;
    let sticky = x & ((1u128 << g) - 1) != 0;
    let least = (x >> (g + 1)) & 1 == 1;
    let carry = guard && (sticky || least);
    let top = ((x >> shift) >> d) & ((1u128 << (ow + 1)) - 1);
    let sum = top + carry as u128;
    ((sum & ((1u128 << ow) - 1)) as u64, (sum >> ow) & 1 == 1)
}

/// `FpWidthDec`: narrows `bits` from format `i` to `o` (exponent and/or
/// fraction), rounding nearest-even. `denorm`: whether tiny results become
/// denormals (`DENORM_YES`) or zero.
pub fn narrow(i: Fmt, o: Fmt, bits: u32, denorm: bool) -> u32 {
    let p = i.split(bits);
    let delta = i.bias() - o.bias();
    let sign = p.sign;
    if p.exp == i.exp_max() && p.man != 0 {
        return o.join(Parts {
            sign,
            exp: o.exp_max(),
            man: p.man,
        });
    }
    let zero = o.join(Parts {
        sign,
        exp: 0,
        man: 0,
    });
    if p.exp >= o.exp_max() + delta {
        return o.max_finite(sign);
    }
    if p.exp + o.man < delta {
        return zero;
    }
    if p.exp <= delta {
        let (m, ovf) = dec_shift_right(p.man, i.man, delta - p.exp + 1, o.man);
        if ovf {
            return o.join(Parts {
                sign,
                exp: 1,
                man: m,
            });
        }
        if !denorm {
            return zero;
        }
        return o.join(Parts {
            sign,
            exp: 0,
            man: m,
        });
    }
    let mut exp = p.exp - delta;
    let (m1, ovf) = mant_rne((p.man as u128) | (1u128 << i.man), i.man + 1, o.man + 1);
    if ovf {
        exp += 1;
        if exp == o.exp_max() {
            return o.max_finite(sign);
        }
    }
    o.join(Parts {
        sign,
        exp,
        man: m1 & ((1u64 << o.man) - 1),
    })
}

/// `FpExpoWidthDec` (used by `Fp17ToFp16`): narrows only the exponent. A
/// denormal result is rounded nearest-even; an input with a zero exponent
/// (zero or fp17 denormal) becomes a signed zero.
pub fn narrow_exp(i: Fmt, o: Fmt, bits: u32) -> u32 {
    // Same fraction width: `narrow` with equal fraction widths behaves
    // identically except for the zero threshold, which uses the fraction
    // width of the output in both functions.
    narrow(i, o, bits, true)
}

/// `Fp16ToFp32` (exact for finite values).
pub fn fp16_to_fp32(h: u16) -> u32 {
    widen(FP16, FP32, h as u32, true)
}

/// `Fp32ToFp16` (RNE, denormals, saturating).
pub fn fp32_to_fp16(x: u32) -> u16 {
    narrow(FP32, FP16, x, true) as u16
}

/// `Fp16ToFp17` (exact; denormals normalised).
pub fn fp16_to_fp17(h: u16) -> u32 {
    widen(FP16, FP17, h as u32, true)
}

/// `Fp17ToFp16`.
pub fn fp17_to_fp16(x: u32) -> u16 {
    narrow_exp(FP17, FP16, x) as u16
}

/// `Fp17ToFp32` (`DENORM_NO`).
pub fn fp17_to_fp32(x: u32) -> u32 {
    widen(FP17, FP32, x, false)
}

/// `Fp32ToFp17` (`DENORM_NO`: tiny values flush to zero unless rounding
/// makes them normal).
pub fn fp32_to_fp17(x: u32) -> u32 {
    narrow(FP32, FP17, x, false)
}

/// `FpIntToFloat<iw,E,M>`: the signed `iw`-bit integer `v` to format `o`,
/// nearest-even; magnitudes beyond the format saturate to the largest
/// finite value. `Int17ToFp16` is `int_to_float(v, 17, FP16)`.
pub fn int_to_float(v: i64, iw: u32, o: Fmt) -> u32 {
    if v == 0 {
        return 0;
    }
    let sign = u32::from(v < 0);
    let abs = v.unsigned_abs() as u128 & ((1u128 << iw) - 1);
    let lz = abs.leading_zeros() - (128 - iw);
    let norm = abs << lz;
    let mut exp = iw - 1 - lz + o.bias();
    let (m1, ovf) = mant_rne(norm, iw, o.man + 1);
    let mut inf = false;
    if exp >= o.exp_max() {
        inf = true;
    } else if ovf {
        if exp < o.exp_max() - 1 {
            exp += 1;
        } else {
            inf = true;
        }
    }
    if inf {
        return o.max_finite(sign);
    }
    o.join(Parts {
        sign,
        exp,
        man: m1 & ((1u64 << o.man) - 1),
    })
}

/// `Int17ToFp16`: a 17-bit signed integer to fp16 bits.
pub fn int17_to_fp16(v: i64) -> u16 {
    int_to_float(super::int::sat(v as i128, 17), 17, FP16) as u16
}

/// `FpFloatToInt<IntWidth,E,M>`: rounds (RHAZ) the value of `bits` to an
/// integer and saturates to `iw` bits; NaN gives the minimum value. Note the
/// C-model always adds the implied 1, so ±0 reads as 2^−(bias+M) → 0.
pub fn float_to_int(f: Fmt, bits: u32, iw: u32) -> i64 {
    let p = f.split(bits);
    let min = -(1i64 << (iw - 1));
    let max = (1i64 << (iw - 1)) - 1;
    if p.exp == f.exp_max() && p.man != 0 {
        return min;
    }
    let m1 = (p.man | (1u64 << f.man)) as i128;
    let shift = f.man as i32 - (p.exp as i32 - f.bias() as i32);
    let mag = super::int::shift_signed_sat(m1, shift, 64) as i128;
    if mag > max as i128 {
        return if p.sign == 1 { min } else { max };
    }
    if p.sign == 1 {
        -(mag as i64)
    } else {
        mag as i64
    }
}

/// `Fp16ToInt16`.
pub fn fp16_to_int16(h: u16) -> i16 {
    float_to_int(FP16, h as u32, 16) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp16_fp32_round_trip_all_finite() {
        for h in 0..=u16::MAX {
            let e = (h >> 10) & 0x1F;
            if e == 0x1F {
                continue;
            }
            let x = fp16_to_fp32(h);
            assert_eq!(
                f32::from_bits(x),
                half::f16::from_bits(h).to_f32(),
                "{h:#x}"
            );
            assert_eq!(fp32_to_fp16(x), h, "{h:#x}");
        }
    }

    #[test]
    fn fp16_specials() {
        assert_eq!(fp16_to_fp32(0x7C00), f32::MAX.to_bits());
        assert_eq!(fp16_to_fp32(0xFC00), (-f32::MAX).to_bits());
        assert_eq!(fp32_to_fp16(f32::INFINITY.to_bits()), 0x7BFF);
        assert_eq!(fp32_to_fp16(70000f32.to_bits()), 0x7BFF);
        assert_eq!(fp32_to_fp16(65519.0f32.to_bits()), 0x7BFF);
        assert_eq!(fp32_to_fp16((-1e-10f32).to_bits()), 0x8000);
        // 2^-25 is a tie between 0 and the smallest denormal: even → 0.
        assert_eq!(fp32_to_fp16(2f32.powi(-25).to_bits()), 0);
        assert_eq!(fp32_to_fp16((1.5 * 2f32.powi(-25)).to_bits()), 1);
    }

    #[test]
    fn fp32_to_fp16_matches_rne_crate() {
        let mut x: u32 = 0x1234_5678;
        for _ in 0..200_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = f32::from_bits(x);
            if !v.is_finite() || v.abs() >= 65504.0 {
                continue;
            }
            assert_eq!(fp32_to_fp16(x), half::f16::from_f32(v).to_bits(), "{v}");
        }
    }

    #[test]
    fn fp17() {
        assert_eq!(fp16_to_fp17(0x3C00), 0x7C00);
        assert_eq!(fp17_to_fp16(0x7C00), 0x3C00);
        assert_eq!(fp17_to_fp32(0x7C00), 1f32.to_bits());
        assert_eq!(fp32_to_fp17(1f32.to_bits()), 0x7C00);
        // Every fp16 survives fp16 → fp17 → fp16.
        for h in 0..0x7C00u16 {
            assert_eq!(fp17_to_fp16(fp16_to_fp17(h)), h, "{h:#x}");
            assert_eq!(fp17_to_fp16(fp16_to_fp17(h | 0x8000)), h | 0x8000);
        }
    }

    #[test]
    fn ints() {
        assert_eq!(int17_to_fp16(0), 0);
        assert_eq!(int17_to_fp16(1), 0x3C00);
        assert_eq!(int17_to_fp16(-2), 0xC000);
        assert_eq!(int17_to_fp16(2049), 0x6800); // tie → even (2048)
        assert_eq!(int17_to_fp16(2051), 0x6802); // tie → even (2052)
        assert_eq!(int17_to_fp16(65535), 0x7BFF);
        assert_eq!(int17_to_fp16(-65536), 0xFBFF);
        assert_eq!(fp16_to_int16(0x3E00), 2); // 1.5 → 2 (RHAZ)
        assert_eq!(fp16_to_int16(0xBE00), -2);
        assert_eq!(fp16_to_int16(0x3800), 1); // 0.5 → 1
        assert_eq!(fp16_to_int16(0x0000), 0);
        assert_eq!(fp16_to_int16(0x7BFF), 32767);
        assert_eq!(fp16_to_int16(0xFBFF), -32768);
    }
}
