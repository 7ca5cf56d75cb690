//! The FP16 CDP datapath (`HLS_CDP_lookup_fp16`, `HLS_CDP_lookup_lut` of
//! `cmod/hls_wrapper/cdp_hls_wrapper.cpp`), transcribed from source; no
//! golden covers it.
//!
//! In: the 9 converted elements of a channel window ([`convert`]; outside
//! channels are fp16 0) and the [`Config`]. Out: the fp16 output bits.
//! * The input converter only widens to fp17 (offset and scale are unused);
//!   squares and the square sum are fp32 (`FpMul`/`FpAdd<8,23>`), summed as
//!   ((c−1 + c+1) + c) + (c−2 + c+2) + (c−3 + c+3) + (c−4 + c+4).
//! * The LUT registers hold fp32 bit patterns (start, end: low 32 bits),
//!   fp16 table entries and fp16 slopes; index selects are signed bytes.
//!   Interpolation: L0 + fp17(L1 − L0) · fraction, in fp17; extrapolation:
//!   L + fp17(x − start or end) · slope.
//! * Output: the fp17 product with the centre element (unless bypassed),
//!   narrowed to fp16 (offset and scale are unused).

use super::config::{Config, LutRegs};
use super::lrn::Conv;
use crate::num::float::{self, FP17, FP32};
use crate::num::{cvt, float::mant_rne};

/// `FpFractionToFloat<16,6,10>`: the 16-bit fraction `f` / 2^16 as fp17,
/// rounded to 11 significant bits, nearest-even.
pub fn fraction_to_fp17(f: u16) -> u32 {
    if f == 0 {
        return 0;
    }
    let zc = f.leading_zeros();
    // The leading one moves to bit 16 of a 17-bit field.
    let shifted = (u128::from(f) << (zc + 1)) & 0x1_FFFF;
    let shifted = shifted | (1 << 16);
    let (m, carry) = mant_rne(shifted, 17, 11);
    let bias = 31u32;
    let (exp, man) = if carry {
        (bias - zc, 0)
    } else {
        (bias - (zc + 1), (m as u32) & 0x3FF)
    };
    (exp << 10) | man
}

/// How one table answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Under,
    Over,
    Hit,
}

/// One table of `HLS_CDP_lookup_lut`.
struct Table<'a> {
    lut: &'a [i16],
    exp_mode: bool,
    start: u32,
    end: u32,
    uscale: i16,
    oscale: i16,
    index_offset: i32,
    index_select: i32,
}

impl Table<'_> {
    fn upper(&self) -> usize {
        self.lut.len() - 1
    }

    fn lookup(&self, sum: u32) -> (Outcome, u32) {
        let sub = float::sub(FP32, sum, self.start);
        let subf = f32::from_bits(sub);
        let mut under = subf <= 0.0 || subf.is_nan();
        let mut over = false;
        let mut index = 0usize;
        let mut offset = 0u16;
        if !under {
            if self.exp_mode {
                let exp = ((sub >> 23) & 0xff) as i32 - 127;
                let i = exp - self.index_offset;
                offset = ((sub >> 7) & 0xffff) as u16;
                if i < 0 {
                    under = true;
                } else if i as usize >= self.upper() {
                    over = true;
                } else {
                    index = i as usize;
                }
            } else {
                let s = self.index_select;
                let shifted = if s >= 0 {
                    (f64::from(subf) / 2f64.powi(s)) as f32
                } else {
                    (f64::from(subf) * 2f64.powi(-s)) as f32
                };
                over = shifted >= self.upper() as f32;
                if !over {
                    let i = shifted as i32;
                    index = i as usize;
                    offset = ((shifted - i as f32) * 65536.0) as u16;
                }
            }
        }
        let fp16 = |v: i16| cvt::fp16_to_fp17(v as u16);
        if under {
            let d = if self.exp_mode {
                let off = if self.index_offset <= -127 {
                    0.0f32
                } else {
                    2f64.powi(self.index_offset) as f32
                };
                let adj = float::add(FP32, self.start, off.to_bits());
                float::sub(FP32, sum, adj)
            } else {
                sub
            };
            let m = float::mul(FP17, cvt::fp32_to_fp17(d), fp16(self.uscale));
            (Outcome::Under, float::add(FP17, m, fp16(self.lut[0])))
        } else if over {
            let d = float::sub(FP32, sum, self.end);
            let m = float::mul(FP17, cvt::fp32_to_fp17(d), fp16(self.oscale));
            (
                Outcome::Over,
                float::add(FP17, m, fp16(self.lut[self.upper()])),
            )
        } else {
            let (r0, r1) = (self.lut[index] as u16, self.lut[index + 1] as u16);
            let diff = float::sub(FP32, cvt::fp16_to_fp32(r1), cvt::fp16_to_fp32(r0));
            let m = float::mul(FP17, cvt::fp32_to_fp17(diff), fraction_to_fp17(offset));
            (Outcome::Hit, float::add(FP17, m, cvt::fp16_to_fp17(r0)))
        }
    }
}

fn tables(r: &LutRegs) -> (Table<'_>, Table<'_>) {
    let le = Table {
        lut: &r.le,
        exp_mode: r.le_exponent,
        start: r.le_start as u32,
        end: r.le_end as u32,
        uscale: r.le_uflow.0,
        oscale: r.le_oflow.0,
        index_offset: i32::from(r.le_index_offset),
        index_select: i32::from(r.le_index_select as i8),
    };
    let lo = Table {
        lut: &r.lo,
        exp_mode: false,
        start: r.lo_start as u32,
        end: r.lo_end as u32,
        uscale: r.lo_uflow.0,
        oscale: r.lo_oflow.0,
        index_offset: 0,
        index_select: i32::from(r.lo_index_select as i8),
    };
    (le, lo)
}

/// The input converter (fp16 → fp17) and the fp32 square of one element.
pub fn convert(x: u16) -> Conv {
    let d = cvt::fp16_to_fp17(x);
    let f = cvt::fp17_to_fp32(d);
    Conv {
        d: i64::from(d),
        sq: i64::from(float::mul(FP32, f, f)),
    }
}

/// The output for the centre of `window` (9 converted elements, centre at 4).
pub fn element(c: &Config, window: &[Conv; 9]) -> u16 {
    let centre17 = window[4].d as u32;
    let centre32 = cvt::fp17_to_fp32(centre17);
    let sum = if c.sqsum_bypass {
        centre32
    } else {
        let sq = |i: usize| window[i].sq as u32;
        let add = |a, b| float::add(FP32, a, b);
        let mut s = add(add(sq(3), sq(5)), sq(4));
        for k in 2..=c.normalz_len + 1 {
            s = add(s, add(sq(4 - k), sq(4 + k)));
        }
        s
    };
    let (le, lo) = tables(&c.lut);
    let (le_hit, le_v) = le.lookup(sum);
    let (lo_hit, lo_v) = lo.lookup(sum);
    let r = &c.lut;
    let lo_wins = match (le_hit, lo_hit) {
        (Outcome::Under, Outcome::Under) => r.uflow_lo,
        (Outcome::Over, Outcome::Over) => r.oflow_lo,
        (Outcome::Hit, h) if h != Outcome::Hit => false,
        (h, Outcome::Hit) if h != Outcome::Hit => true,
        _ => r.hybrid_lo,
    };
    let result = if lo_wins { lo_v } else { le_v };
    let out = if c.mul_bypass {
        if f32::from_bits(centre32).is_nan() {
            centre17
        } else {
            result
        }
    } else {
        float::mul(FP17, centre17, result)
    };
    cvt::fp17_to_fp16(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_to_fp17() {
        assert_eq!(fraction_to_fp17(0x8000), 0x7800); // 0.5
        assert_eq!(fraction_to_fp17(0x4000), 0x7400); // 0.25
        assert_eq!(fraction_to_fp17(0xC000), 0x7A00); // 0.75
        assert_eq!(fraction_to_fp17(1), (31 - 16) << 10); // 2^-16
                                                          // 0xFFFF rounds up to 1.0.
        assert_eq!(fraction_to_fp17(0xFFFF), 0x7C00);
    }
}
