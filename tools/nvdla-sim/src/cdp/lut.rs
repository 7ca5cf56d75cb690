//! The CDP lookup table on the square sum (`lookup_lut`,
//! `lookup_lut_int8` of `NV_NVDLA_cdp.cpp`; nvdla-arith.md §8 step 4).
//!
//! In: a square sum and the [`LutRegs`]. Out: the 16-bit LUT result.
//! Two tables are looked up: LE (exponential — index ⌊log2(x − start)⌋ −
//! offset — or linear — index (x − start) >> index_select, 65 entries) and
//! LO (linear, 257 entries). A hit interpolates between two entries with a
//! 16-bit fraction; an underflow or overflow extrapolates from the first or
//! last entry with the table's slope (scale, signed shift). The result is
//! chosen by the priorities. Shifts by out-of-range amounts behave as on
//! the x86 host the C-model ran on (count taken modulo the operand width).

use super::config::LutRegs;

/// Intermediate width of the interpolation (`INTERP_INTERMIDIATE_BITS`).
const INTERP_BITS: u32 = 56;

/// `convert`: `value / 2^shift` rounded half away from zero through a
/// double (as the C-model does), saturated to `bits` signed bits.
pub fn convert(value: i64, shift: i32, bits: u32) -> i64 {
    let mut f = value as f64;
    let positive = f > 0.0;
    f /= 2f64.powi(shift);
    let mut out = if positive {
        (f + 0.5) as i64
    } else {
        (f - 0.5) as i64
    };
    let exp = ((f.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if exp > 62 {
        out = if positive { i64::MAX } else { i64::MIN };
    }
    let max = (1i64 << (bits - 1)) - 1;
    out.clamp(-max - 1, max)
}

/// How one table answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Under,
    Over,
    Hit,
}

/// Linear interpolation between `r0` and `r1` at fraction `frac16` / 2^16.
fn interp(r0: i16, r1: i16, frac16: i64) -> i64 {
    let d = (i64::from(r1) - i64::from(r0)).wrapping_mul(frac16);
    convert(i64::from(r0) + convert(d, 16, INTERP_BITS), 0, 16)
}

/// Extrapolation from `base` with `(x · scale) / 2^shift`.
fn extrap(base: i16, x: i64, (scale, shift): (i16, i32)) -> i64 {
    let v = convert(x.wrapping_mul(i64::from(scale)), shift, INTERP_BITS);
    convert(i64::from(base) + v, 0, 16)
}

/// A linear table of `n` intervals: index (x − start) >> frac_bits.
fn linear(
    table: &[i16],
    x: i64,
    start: i64,
    end: i64,
    frac_bits: i32,
    uflow: (i16, i32),
    oflow: (i16, i32),
) -> (Outcome, i64) {
    let n = (table.len() - 1) as i64;
    let tmp = x.wrapping_sub(start);
    let index = if frac_bits < 0 {
        tmp.wrapping_shl(frac_bits.unsigned_abs())
    } else {
        tmp.wrapping_shr(frac_bits as u32)
    };
    if index < 0 || tmp <= 0 {
        (Outcome::Under, extrap(table[0], tmp, uflow))
    } else if index >= n {
        (
            Outcome::Over,
            extrap(table[n as usize], x.wrapping_sub(end), oflow),
        )
    } else {
        let frac = if frac_bits < 0 {
            0
        } else {
            // `raw_index_tmp % (1 << frac_bits)` with a 32-bit int shift.
            let m = i64::from(1i32.wrapping_shl(frac_bits as u32));
            let r = tmp % m;
            if frac_bits > 16 {
                r.wrapping_shr((frac_bits - 16) as u32)
            } else {
                r.wrapping_shl((16 - frac_bits) as u32)
            }
        };
        let i = index as usize;
        (Outcome::Hit, interp(table[i], table[i + 1], frac))
    }
}

/// The exponential LE table: index ⌊log2(x − start)⌋ − offset.
fn exponential(r: &LutRegs, x: i64) -> (Outcome, i64) {
    let tmp = x.wrapping_sub(r.le_start);
    let log = if tmp <= 0 {
        0
    } else {
        63 - i64::from(tmp.leading_zeros())
    };
    let off = i64::from(r.le_index_offset);
    let index = log - off;
    if index < 0 || tmp <= 0 {
        let uoff = if off < 0 {
            0
        } else {
            1i64.wrapping_shl(off as u32)
        };
        let v = tmp.wrapping_sub(uoff);
        (Outcome::Under, extrap(r.le[0], v, r.le_uflow))
    } else if index >= 64 {
        (
            Outcome::Over,
            extrap(r.le[64], x.wrapping_sub(r.le_end), r.le_oflow),
        )
    } else {
        // index + offset = log ≥ 0.
        let rem = tmp - (1i64 << log);
        let frac = if log > 16 {
            rem >> (log - 16)
        } else {
            rem << (16 - log)
        };
        let i = index as usize;
        (Outcome::Hit, interp(r.le[i], r.le[i + 1], frac))
    }
}

/// Sign extension of an index-select byte: from bit 6 for INT16 (the
/// `lookup_lut` path), from bit 5 for INT8 (`lookup_lut_int8`).
pub fn frac_bits(select: u8, int8: bool) -> i32 {
    let v = u32::from(select);
    let (bit, fill) = if int8 {
        (0x20, 0xFFFF_FFC0)
    } else {
        (0x40, 0xFFFF_FF80)
    };
    (if v & bit != 0 { v | fill } else { v }) as i32
}

/// The LUT result for square sum `x`.
pub fn lookup(r: &LutRegs, x: i64, int8: bool) -> i64 {
    let (le_hit, le) = if r.le_exponent {
        exponential(r, x)
    } else {
        linear(
            &r.le,
            x,
            r.le_start,
            r.le_end,
            frac_bits(r.le_index_select, int8),
            r.le_uflow,
            r.le_oflow,
        )
    };
    let (lo_hit, lo) = linear(
        &r.lo,
        x,
        r.lo_start,
        r.lo_end,
        frac_bits(r.lo_index_select, int8),
        r.lo_uflow,
        r.lo_oflow,
    );
    let lo_wins = match (le_hit, lo_hit) {
        (Outcome::Under, Outcome::Under) => r.uflow_lo,
        (Outcome::Over, Outcome::Over) => r.oflow_lo,
        (Outcome::Hit, h) if h != Outcome::Hit => false,
        (h, Outcome::Hit) if h != Outcome::Hit => true,
        _ => r.hybrid_lo,
    };
    if lo_wins {
        lo
    } else {
        le
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convert_rounds_half_away_and_saturates() {
        assert_eq!(convert(3, 1, 16), 2);
        assert_eq!(convert(-3, 1, 16), -2);
        assert_eq!(convert(5, 2, 16), 1);
        assert_eq!(convert(-6, 2, 16), -2);
        assert_eq!(convert(1 << 40, 0, 16), 32767);
        assert_eq!(convert(-(1 << 40), 0, 16), -32768);
        assert_eq!(convert(3, -2, 16), 12);
        assert_eq!(convert(0, 5, 16), 0);
    }

    #[test]
    fn frac_bits_sign_extension() {
        assert_eq!(frac_bits(0x3f, false), 63);
        assert_eq!(frac_bits(0x7f, false), -1);
        assert_eq!(frac_bits(0x80, false), 128);
        assert_eq!(frac_bits(0x1f, true), 31);
        assert_eq!(frac_bits(0x3f, true), -1);
    }
}
