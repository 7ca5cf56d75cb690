//! One CDP output element (nvdla-arith.md §8 steps 2–5): input converter,
//! square sum over the channel window, LUT, multiplication by the centre
//! element, output converter.
//!
//! In: the input elements of channels c − 4 ..= c + 4 at one pixel, each
//! converted once by [`convert`] (channels outside the cube hold the
//! converted raw fill value), and the [`Config`]. Out: the raw output element bits. FP16 is delegated to
//! [`super::fp16`].
//! * INT16 (`lookup_lut`, HLS converters): d = sat17(RHAZ((x − off16)·scale
//!   / 2^shift)), 38-bit square sum; out = sat16(RHAZ((v − off32)·scale /
//!   2^shift)).
//! * INT8 (`lookup_lut_int8`): the converter offsets are cut to 8 and 25
//!   bits, d is 9 bits, the square sum 22 bits, the output 8 bits.

use super::config::Config;
use super::lut;
use crate::num::int::{sext, shr_rhaz_sat};
use crate::pdp::config::Precision;

/// The raw value that fills channels outside the cube (`cdp_datin_offset_`
/// cut to the element width).
pub fn fill(c: &Config) -> u16 {
    match c.precision {
        Precision::Int8 => u16::from(c.in_offset as u8),
        Precision::Int16 => c.in_offset as u16,
        Precision::Fp16 => 0,
    }
}

/// The input converter on raw element bits.
pub fn in_cvt(c: &Config, x: u16) -> i64 {
    if c.precision == Precision::Int8 {
        let x = i64::from(x as u8 as i8);
        let off = sext(i64::from(c.in_offset), 8);
        let v = (x - off) * i64::from(c.in_scale);
        shr_rhaz_sat(i128::from(v), c.in_shift, 9)
    } else {
        let x = i64::from(x as i16);
        let off = sext(i64::from(c.in_offset), 16);
        let v = (x - off) * i64::from(c.in_scale);
        shr_rhaz_sat(i128::from(v), c.in_shift, 17)
    }
}

/// The output converter; returns raw output bits.
pub fn out_cvt(c: &Config, v: i64) -> u16 {
    if c.precision == Precision::Int8 {
        let off = sext(i64::from(c.out_offset), 25);
        let m = (v - off) * i64::from(c.out_scale);
        u16::from(shr_rhaz_sat(i128::from(m), c.out_shift, 8) as i8 as u8)
    } else {
        let m = (v - i64::from(c.out_offset)) * i64::from(c.out_scale);
        shr_rhaz_sat(i128::from(m), c.out_shift, 16) as i16 as u16
    }
}

/// An input element after the input converter: `d` (INT: the converted
/// integer; FP16: the fp17 bits) and its square (INT: exact; FP16: the fp32
/// product bits). Computed once per element, shared by the 9 windows that
/// contain it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Conv {
    /// Converted value.
    pub d: i64,
    /// Its square.
    pub sq: i64,
}

/// Converts one raw input element.
pub fn convert(c: &Config, x: u16) -> Conv {
    if c.precision == Precision::Fp16 {
        return super::fp16::convert(x);
    }
    let d = in_cvt(c, x);
    Conv { d, sq: d * d }
}

/// The output for the centre of `window` (9 converted elements, centre at 4).
pub fn element(c: &Config, window: &[Conv; 9]) -> u16 {
    if c.precision == Precision::Fp16 {
        return super::fp16::element(c, window);
    }
    let int8 = c.precision == Precision::Int8;
    let centre = window[4].d;
    let sqsum = if c.sqsum_bypass {
        centre
    } else {
        let n = c.normalz_len + 1;
        window[4 - n..=4 + n].iter().map(|v| v.sq).sum()
    };
    let l = lut::lookup(&c.lut, sqsum, int8);
    let v = if c.mul_bypass { l } else { l * centre };
    out_cvt(c, v)
}
