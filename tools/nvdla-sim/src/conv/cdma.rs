//! CDMA (feature input) and the CSC's view of it: the input cube converted
//! to the processing precision and surrounded by padding
//! (nvdla-arith.md §4.2–4.3).
//!
//! In: the source cube elements, the conversion parameters and the padding
//! geometry. Out: an [`Input`] — the values the MAC sees at every input
//! coordinate, padding included, in H-W-C order.

use super::cube::Precision;
use crate::num::{cvt, int};
use onnc_nvdla_loadable::desc::CvtParam;

/// The CDMA input converter (`CVT_EN`): for integer input,
/// sat(17)(RHAZ(((x − offset16) · scale16) >> truncate6)), then saturated to
/// the processing precision (INT8/INT16) or converted to fp16 (RNE). FP16
/// input bypasses the converter.
pub fn convert(x: i32, cvt_p: &CvtParam, inp: Precision, proc_: Precision) -> i32 {
    if inp == Precision::Fp16 {
        return x;
    }
    let offset = int::sext(cvt_p.offset as i64, 16);
    let prod = (x as i64 - offset) as i128 * cvt_p.scale as i128;
    let v = int::shr_rhaz_sat(prod, (cvt_p.truncate & 63) as u32, 17);
    match proc_ {
        Precision::Int8 => int::sat(v as i128, 8) as i32,
        Precision::Int16 => int::sat(v as i128, 16) as i32,
        Precision::Fp16 => cvt::int17_to_fp16(v) as i32,
    }
}

/// The `ZERO_PADDING_VALUE` register as the MAC sees it: INT8 uses the low
/// byte (signed), INT16 the 16 bits, FP16 the 16 bits as an fp16 pattern.
pub fn pad_value(pad_val: i16, proc_: Precision) -> i32 {
    match proc_ {
        Precision::Int8 => pad_val as i8 as i32,
        Precision::Int16 => pad_val as i32,
        Precision::Fp16 => pad_val as u16 as i32,
    }
}

/// The padded input: coordinates y in [y0, y0 + hp), x in [x0, x0 + wp);
/// positions outside the source cube hold the pad value.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// First row (−pad_top).
    pub y0: i64,
    /// First column (−pad_left).
    pub x0: i64,
    /// Rows.
    pub hp: usize,
    /// Columns.
    pub wp: usize,
    /// Channels.
    pub c: usize,
    /// Values, index `((y − y0)·wp + (x − x0))·c + ch`.
    pub data: Vec<i32>,
}

impl Input {
    /// Builds the padded input from C-H-W `chw` (already converted) of
    /// size `c`×`h`×`w`, covering rows [y0, y1] and columns [x0, x1].
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        chw: &[i32],
        c: usize,
        h: usize,
        w: usize,
        (y0, y1): (i64, i64),
        (x0, x1): (i64, i64),
        pad: i32,
    ) -> Input {
        let hp = (y1 - y0 + 1).max(0) as usize;
        let wp = (x1 - x0 + 1).max(0) as usize;
        let mut data = vec![pad; hp * wp * c];
        for ch in 0..c {
            for y in 0..h {
                let py = y as i64 - y0;
                if py < 0 || py >= hp as i64 {
                    continue;
                }
                for x in 0..w {
                    let px = x as i64 - x0;
                    if px < 0 || px >= wp as i64 {
                        continue;
                    }
                    data[((py as usize) * wp + px as usize) * c + ch] = chw[(ch * h + y) * w + x];
                }
            }
        }
        Input {
            y0,
            x0,
            hp,
            wp,
            c,
            data,
        }
    }

    /// The `c` channel values at (y, x) (inside the padded range).
    pub fn at(&self, y: i64, x: i64) -> &[i32] {
        let i = (((y - self.y0) as usize) * self.wp + (x - self.x0) as usize) * self.c;
        &self.data[i..i + self.c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cvt_int16_rhaz_and_saturation() {
        let p = CvtParam {
            scale: 3,
            truncate: 1,
            enable: 1,
            offset: 1,
        };
        // (4 − 1)·3 = 9 → 9/2 = 4.5 → 5
        assert_eq!(convert(4, &p, Precision::Int16, Precision::Int16), 5);
        // (−2 − 1)·3 = −9 → −4.5 → −5
        assert_eq!(convert(-2, &p, Precision::Int16, Precision::Int16), -5);
        let big = CvtParam {
            scale: 32767,
            truncate: 0,
            enable: 1,
            offset: 0,
        };
        assert_eq!(
            convert(32767, &big, Precision::Int16, Precision::Int16),
            32767
        );
        assert_eq!(convert(-100, &big, Precision::Int8, Precision::Int8), -128);
        // INT → FP16: 17-bit saturation first (65535), then fp16 max.
        assert_eq!(
            convert(32767, &big, Precision::Int16, Precision::Fp16),
            0x7BFF
        );
        // The offset register has 16 bits.
        let off = CvtParam {
            scale: 1,
            truncate: 0,
            enable: 1,
            offset: 0x1_0002,
        };
        assert_eq!(convert(5, &off, Precision::Int16, Precision::Int16), 3);
    }

    #[test]
    fn padding() {
        // 1 channel 2×2, pad 1 all round.
        let inp = Input::build(&[1, 2, 3, 4], 1, 2, 2, (-1, 2), (-1, 2), 9);
        assert_eq!(inp.at(-1, -1), &[9]);
        assert_eq!(inp.at(0, 0), &[1]);
        assert_eq!(inp.at(1, 1), &[4]);
        assert_eq!(inp.at(2, 0), &[9]);
        assert_eq!(pad_value(-2, Precision::Int8), -2);
        assert_eq!(pad_value(0x1FF, Precision::Int8), -1);
        assert_eq!(pad_value(-1, Precision::Fp16), 0xFFFF);
    }
}
