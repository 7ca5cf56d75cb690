//! The CDP register values the firmware (`kmd/firmware/cdp.c`, LUT
//! programming in `common.c` `update_lut`) derives from the descriptors,
//! read back the way the C-model's integer datapath reads them.
//!
//! In: [`CdpOpDesc`], [`CdpSurfaceDesc`], the task's LUT list.
//! Out: [`Config`] (precision, window, converters, bypasses) and
//! [`LutRegs`] (tables, ranges, slopes, priorities).

use crate::error::{At, Error, Result};
use crate::num::int::sext;
use crate::pdp::config::Precision;
use onnc_nvdla_loadable::desc::{mem_type, CdpOpDesc, CdpSurfaceDesc, LutParam, Slope};

/// The LUT registers as the integer datapath uses them.
#[derive(Debug, Clone, PartialEq)]
pub struct LutRegs {
    /// Exponential/linear ("raw", LE) table, 65 entries.
    pub le: [i16; 65],
    /// Linear-only ("density", LO) table, 257 entries.
    pub lo: [i16; 257],
    /// LE is exponential (`LUT_LE_FUNCTION` 0) rather than linear (1).
    pub le_exponent: bool,
    /// Underflow of both: take LO (true) or LE.
    pub uflow_lo: bool,
    /// Overflow of both: take LO.
    pub oflow_lo: bool,
    /// Hit or miss in both: take LO.
    pub hybrid_lo: bool,
    /// `LUT_LE_INDEX_OFFSET` (exponential mode), signed 8 bits.
    pub le_index_offset: i8,
    /// `LUT_LE_INDEX_SELECT` register byte (linear mode).
    pub le_index_select: u8,
    /// `LUT_LO_INDEX_SELECT` register byte.
    pub lo_index_select: u8,
    /// LE start (38-bit signed).
    pub le_start: i64,
    /// LE end.
    pub le_end: i64,
    /// LO start.
    pub lo_start: i64,
    /// LO end.
    pub lo_end: i64,
    /// LE underflow slope (scale, 5-bit signed shift).
    pub le_uflow: (i16, i32),
    /// LE overflow slope.
    pub le_oflow: (i16, i32),
    /// LO underflow slope.
    pub lo_uflow: (i16, i32),
    /// LO overflow slope.
    pub lo_oflow: (i16, i32),
}

impl Default for LutRegs {
    /// The reset state (all zero).
    fn default() -> Self {
        LutRegs {
            le: [0; 65],
            lo: [0; 257],
            le_exponent: true,
            uflow_lo: false,
            oflow_lo: false,
            hybrid_lo: false,
            le_index_offset: 0,
            le_index_select: 0,
            lo_index_select: 0,
            le_start: 0,
            le_end: 0,
            lo_start: 0,
            lo_end: 0,
            le_uflow: (0, 0),
            le_oflow: (0, 0),
            lo_uflow: (0, 0),
            lo_oflow: (0, 0),
        }
    }
}

/// A 64-bit start/end as the 38-bit register pair holds it.
fn reg38(v: u64) -> i64 {
    sext((v & ((1 << 38) - 1)) as i64, 38)
}

fn slope(s: &Slope) -> (i16, i32) {
    (s.scale, sext(i64::from(s.shifter as u8 & 0x1f), 5) as i32)
}

impl LutRegs {
    /// The registers `update_lut` programs from `lut`. For FP16 the
    /// slope scales are fp16 bits and start/end fp32 bits (low 32 bits).
    pub fn from_lut(lut: &LutParam, at: &At) -> Result<LutRegs> {
        let bit = |what: &str, v: u8| match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::Rejected(format!(
                "{at}: LUT {what} {v} is outside 0..1"
            ))),
        };
        let le_exponent = !bit("method", lut.method)?;
        let le_byte = lut.linear_exp_offset as u8;
        Ok(LutRegs {
            le: lut.linear_exp_table,
            lo: lut.linear_only_table,
            le_exponent,
            uflow_lo: bit("underflow_priority", lut.underflow_priority)?,
            oflow_lo: bit("overflow_priority", lut.overflow_priority)?,
            hybrid_lo: bit("hybrid_priority", lut.hybrid_priority)?,
            le_index_offset: if le_exponent { le_byte as i8 } else { 0 },
            le_index_select: if le_exponent { 0 } else { le_byte },
            lo_index_select: lut.linear_only_offset as u8,
            le_start: reg38(lut.linear_exp_start),
            le_end: reg38(lut.linear_exp_end),
            lo_start: reg38(lut.linear_only_start),
            lo_end: reg38(lut.linear_only_end),
            le_uflow: slope(&lut.linear_exp_underflow_slope),
            le_oflow: slope(&lut.linear_exp_overflow_slope),
            lo_uflow: slope(&lut.linear_only_underflow_slope),
            lo_oflow: slope(&lut.linear_only_overflow_slope),
        })
    }
}

/// The CDP configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Element format.
    pub precision: Precision,
    /// `NORMALZ_LEN`: the square sum covers 2·(n+1)+1 channels.
    pub normalz_len: usize,
    /// Input converter offset (`DATIN_OFFSET`, 16-bit register).
    pub in_offset: i32,
    /// Input converter scale.
    pub in_scale: i16,
    /// Input converter shift (5 bits).
    pub in_shift: u32,
    /// Output converter offset (32 bits).
    pub out_offset: i32,
    /// Output converter scale.
    pub out_scale: i16,
    /// Output converter shift (6 bits).
    pub out_shift: u32,
    /// `SQSUM_BYPASS`: the LUT sees the converted centre element.
    pub sqsum_bypass: bool,
    /// `MUL_BYPASS`: the output is the LUT value itself.
    pub mul_bypass: bool,
    /// LUT registers.
    pub lut: LutRegs,
}

impl Config {
    /// Checks the descriptors as the firmware does and derives the registers.
    pub fn new(
        op: &CdpOpDesc,
        surf: &CdpSurfaceDesc,
        luts: &[LutParam],
        at: &At,
    ) -> Result<Config> {
        let reject = |what: String| Error::Rejected(format!("{at}: {what}"));
        if surf.src_data.mem_type >= mem_type::HW || surf.dst_data.mem_type >= mem_type::HW {
            return Err(reject(
                "CDP source and destination must be MC or CV (not HW)".into(),
            ));
        }
        if op.in_precision != op.out_precision {
            return Err(reject("CDP does not support precision conversion".into()));
        }
        let precision = Precision::from_desc(op.in_precision)
            .ok_or_else(|| reject(format!("CDP precision {} is invalid", op.in_precision)))?;
        let src = &surf.src_data;
        if src.width == 0 || src.height == 0 || src.channel == 0 {
            return Err(Error::Unsupported {
                at: at.clone(),
                what: "CDP source cube has a zero dimension".into(),
            });
        }
        let lut = if op.lut_index >= 0 {
            let l = luts.get(op.lut_index as usize).ok_or_else(|| {
                reject(format!(
                    "CDP lut_index {} is outside the task's {} LUTs",
                    op.lut_index,
                    luts.len()
                ))
            })?;
            LutRegs::from_lut(l, at)?
        } else {
            LutRegs::default()
        };
        // map_local_size: ((local_size − 1) / 2) − 1 into a 2-bit field.
        let normalz_len = ((((i32::from(op.local_size) - 1) / 2) - 1) & 3) as usize;
        Ok(Config {
            precision,
            normalz_len,
            in_offset: op.in_cvt.offset & 0xffff,
            in_scale: op.in_cvt.scale,
            in_shift: u32::from(op.in_cvt.truncate & 0x1f),
            out_offset: op.out_cvt.offset,
            out_scale: op.out_cvt.scale,
            out_shift: u32::from(op.out_cvt.truncate & 0x3f),
            sqsum_bypass: op.bypass_sqsum != 0,
            mul_bypass: op.bypass_out_mul != 0,
            lut,
        })
    }
}
