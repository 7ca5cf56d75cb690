//! The output converter C (cmod `hls/sdp/sdp_c.cpp`, nvdla-arith.md §6.4).
//!
//! In: the 32-bit datapath value. Out: the output element — an INT8/INT16
//! value, or fp16 bits.
//! * INT processing: t = sat17(RHAZ(((x − offset32)·scale16) >> shift6));
//!   INT8 = sat8(t), INT16 = sat16(t), FP16 = `Int17ToFp16(t)`.
//! * FP16 processing: `Fp32ToFp16(x)` (RNE, saturating); INT16 output
//!   rounds that with `Fp16ToInt16`. The offset/scale/shift are unused.

use super::config::Config;
use crate::conv::cube::Precision;
use crate::num::{cvt, int};

/// Converts one value for output.
pub fn convert(x: i32, cfg: &Config) -> i32 {
    if cfg.proc_ == Precision::Fp16 {
        let h = cvt::fp32_to_fp16(x as u32);
        return match cfg.dst {
            Precision::Int16 => cvt::fp16_to_int16(h) as i32,
            _ => h as i32,
        };
    }
    let v = (x as i128 - cfg.cvt_offset as i128) * cfg.cvt_scale as i128;
    let t = int::shr_rhaz_sat(v, cfg.cvt_shift, 17);
    match cfg.dst {
        Precision::Int8 => int::sat(t as i128, 8) as i32,
        Precision::Int16 => int::sat(t as i128, 16) as i32,
        Precision::Fp16 => cvt::int17_to_fp16(t) as i32,
    }
}
