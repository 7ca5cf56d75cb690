//! The element arithmetic of the PDP datapath, per format and method
//! (`LineOperation`, `PoolingStage0Calc`, `PoolingStage1Calc` of
//! `NV_NVDLA_pdp.cpp`; `pdp_hls_wrapper.cpp` for FP16).
//!
//! In: raw element bits and the padding values to add. Out: accumulator
//! values (horizontal then vertical) and the output element bits.
//! * INT8: accumulators are `int16` and wrap; INT16: `int32`, wrapping.
//!   The average is RHAZ(sum · recip_w / 2^16), then RHAZ(· recip_h / 2^16),
//!   cast to the element type without saturation.
//! * FP16: max/min compare fp16 bit patterns (`FpMax`/`FpMin`); the average
//!   accumulates in fp17 (`FpAdd<6,10>`), multiplies by the fp17
//!   reciprocals (`FpMul<6,10>`) and narrows with `Fp17ToFp16`.

use super::config::{Config, Method, Precision};
use crate::num::{cvt, float};

/// fp17 values 0..=8 used to scale the vertical padding value by the kernel
/// width (`kernel_width_map`; the C-model table stops at 7, 8 is 8.0).
const KW_FP17: [u32; 9] = [
    0x0000, 0x7c00, 0x8000, 0x8200, 0x8400, 0x8500, 0x8600, 0x8700, 0x8800,
];

/// The arithmetic of one op.
#[derive(Debug, Clone, Copy)]
pub struct Arith {
    precision: Precision,
    method: Method,
    pads: [i32; 7],
    kernel_w: usize,
    recip_w: u32,
    recip_h: u32,
}

impl Arith {
    /// From the op's configuration.
    pub fn new(c: &Config) -> Arith {
        Arith {
            precision: c.precision,
            method: c.method,
            pads: c.pad_values,
            kernel_w: c.kernel_w,
            recip_w: c.recip_w,
            recip_h: c.recip_h,
        }
    }

    /// Padding value for `n` padded positions (0 → none).
    fn pad(&self, n: usize) -> i32 {
        if n == 0 {
            0
        } else {
            self.pads[(n - 1).min(6)]
        }
    }

    /// Wraps an integer accumulator to its C type (int16 for INT8, int32 for INT16).
    fn wrap(&self, v: i64) -> i32 {
        match self.precision {
            Precision::Int8 => v as i16 as i32,
            _ => v as i32,
        }
    }

    /// Sign-extends raw element bits.
    fn int_in(&self, x: u16) -> i32 {
        match self.precision {
            Precision::Int8 => i32::from(x as u8 as i8),
            _ => i32::from(x as i16),
        }
    }

    /// Horizontal step: the line-operation value after adding input `x`
    /// (`first`: starts a window) with `pl`/`pr` padded positions on the
    /// left/right (only one is non-zero).
    pub fn horizontal(&self, acc: u32, x: u16, first: bool, pl: usize, pr: usize) -> u32 {
        if self.precision == Precision::Fp16 {
            return self.fp_horizontal(acc, x, first, pl, pr);
        }
        let a = acc as i32;
        let x = self.int_in(x);
        let v = match self.method {
            _ if first && self.method != Method::Avg => x,
            Method::Max => a.max(x),
            Method::Min => a.min(x),
            Method::Avg => {
                let s = if first {
                    x
                } else {
                    self.wrap(i64::from(a) + i64::from(x))
                };
                let s = self.wrap(i64::from(s) + i64::from(self.pad(pl)));
                self.wrap(i64::from(s) + i64::from(self.pad(pr)))
            }
        };
        v as u32
    }

    /// Vertical step: the line-buffer value after adding the row value `row`
    /// with `pt`/`pb` padded rows above/below.
    pub fn vertical(&self, acc: u32, row: u32, first: bool, pt: usize, pb: usize) -> u32 {
        if self.precision == Precision::Fp16 {
            return self.fp_vertical(acc, row, first, pt, pb);
        }
        let (a, r) = (acc as i32, row as i32);
        let v = match self.method {
            _ if first && self.method != Method::Avg => r,
            Method::Max => a.max(r),
            Method::Min => a.min(r),
            Method::Avg => {
                let kw = self.kernel_w as i64;
                let top = self.wrap(i64::from(self.pad(pt)) * kw);
                let bottom = self.wrap(i64::from(self.pad(pb)) * kw);
                let s = if first {
                    r
                } else {
                    self.wrap(i64::from(a) + i64::from(r))
                };
                let s = self.wrap(i64::from(s) + i64::from(top));
                self.wrap(i64::from(s) + i64::from(bottom))
            }
        };
        v as u32
    }

    /// Stage 1: the output element bits of a finished window.
    pub fn finish(&self, acc: u32) -> u16 {
        if self.precision == Precision::Fp16 {
            if self.method != Method::Avg {
                return acc as u16;
            }
            let o1 = float::mul(float::FP17, acc, self.recip_w);
            let o2 = float::mul(float::FP17, o1, self.recip_h);
            return cvt::fp17_to_fp16(o2);
        }
        let v = acc as i32;
        let out = match self.method {
            Method::Max | Method::Min => v,
            Method::Avg => {
                let a = rhaz16(i64::from(v) * i64::from(self.recip_w));
                rhaz16(i64::from(a) * i64::from(self.recip_h))
            }
        };
        match self.precision {
            Precision::Int8 => u16::from(out as i8 as u8),
            _ => out as i16 as u16,
        }
    }

    fn fp_horizontal(&self, acc: u32, x: u16, first: bool, pl: usize, pr: usize) -> u32 {
        let x16 = u32::from(x);
        match self.method {
            _ if first && self.method != Method::Avg => x16,
            Method::Max => float::max(float::FP16, acc, x16),
            Method::Min => float::min(float::FP16, acc, x16),
            Method::Avg => {
                let b = cvt::fp16_to_fp17(x);
                let (pl, pr) = (fp17_pad(self.pad(pl)), fp17_pad(self.pad(pr)));
                let s = if first {
                    b
                } else {
                    float::add(float::FP17, acc, b)
                };
                let s = float::add(float::FP17, s, pl);
                float::add(float::FP17, s, pr)
            }
        }
    }

    fn fp_vertical(&self, acc: u32, row: u32, first: bool, pt: usize, pb: usize) -> u32 {
        match self.method {
            _ if first && self.method != Method::Avg => row,
            // a = the new row value, b = the line buffer.
            Method::Max => float::max(float::FP16, row, acc),
            Method::Min => float::min(float::FP16, row, acc),
            Method::Avg => {
                let kw = KW_FP17[self.kernel_w.min(8)];
                let top = float::mul(float::FP17, fp17_pad(self.pad(pt)), kw);
                let bottom = float::mul(float::FP17, fp17_pad(self.pad(pb)), kw);
                let s = if first {
                    row
                } else {
                    float::add(float::FP17, row, acc)
                };
                let s = float::add(float::FP17, s, top);
                float::add(float::FP17, s, bottom)
            }
        }
    }
}

/// The low 17 bits of a padding register, as fp17.
fn fp17_pad(v: i32) -> u32 {
    (v as u32) & 0x1_FFFF
}

/// `x / 2^16` rounded half away from zero, as the C-model's
/// `(int32_t)(x / 65536.0 ± 0.5)` (exact in double for these magnitudes).
fn rhaz16(x: i64) -> i32 {
    crate::num::int::rhaz(i128::from(x), 16) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rhaz16_matches_double_rounding() {
        for x in [-196608i64, -98304, -32768, -1, 0, 1, 32767, 32768, 98304] {
            let d = x as f64 / 65536.0;
            let want = if d > 0.0 {
                (d + 0.5) as i32
            } else {
                (d - 0.5) as i32
            };
            assert_eq!(rhaz16(x), want, "{x}");
        }
    }
}
