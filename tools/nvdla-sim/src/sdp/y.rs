//! The Y unit (EW): operand converter → MUL → ALU (cmod
//! `hls/sdp/sdp_y*.cpp`, nvdla-arith.md §6.3). The LUT stage that follows
//! is in [`super::lut`].
//!
//! In: one 32-bit datapath value (int32, or fp32 bits for FP16
//! processing), the [`Unit`] and the element's memory operands (16 bits).
//! Out: the 32-bit value passed to the LUT (or on, when it is bypassed).

use super::config::{algo, Unit};
use super::x::fp_alu;
use crate::num::{cvt, float, int};
use onnc_nvdla_loadable::desc::CvtParam;

/// The EW operand converter for an INT memory operand:
/// sat32(RHAZ(((op − offset32)·scale16) >> truncate6)); bypassed: the
/// sign-extended operand.
pub fn operand_int(op: i16, c: Option<&CvtParam>) -> i64 {
    match c {
        None => op as i64,
        Some(c) => {
            let v = (op as i128 - c.offset as i128) * c.scale as i128;
            int::shr_rhaz_sat(v, (c.truncate & 63) as u32, 32)
        }
    }
}

/// INT processing: MUL = sat32(RHAZ((x·op) >> EW_TRUNCATE)) (PReLU passes
/// x ≥ 0 unchanged), then ALU MAX / MIN / SUM / EQL (0 if equal, else 1),
/// sat32.
pub fn int(x: i32, u: &Unit, alu_mem: Option<i16>, mul_mem: Option<i16>) -> i32 {
    let x = x as i64;
    let m = if u.mul_bypass || (u.prelu && x >= 0) {
        x
    } else {
        let op = mul_mem.map_or(u.mul_reg as i64, |v| operand_int(v, u.mul_cvt.as_ref()));
        int::shr_rhaz_sat((x * op) as i128, u.mul_shift, 32)
    };
    let a = if u.alu_bypass {
        m
    } else {
        let op = alu_mem.map_or(u.alu_reg as i64, |v| operand_int(v, u.alu_cvt.as_ref()));
        let v = match u.alu_algo {
            algo::MAX => m.max(op),
            algo::MIN => m.min(op),
            algo::EQL => i64::from(m != op),
            _ => m + op,
        };
        int::sat(v as i128, 32)
    };
    a as i32
}

/// FP16 processing on fp32 bits: memory operands are fp16 widened with
/// `Fp16ToFp32` (the converter is not used), register operands are fp32
/// bits; MUL = `FpMul` (PReLU passes a clear sign bit), ALU = `FpAlu`.
pub fn fp(x: u32, u: &Unit, alu_mem: Option<i16>, mul_mem: Option<i16>) -> u32 {
    let m = if u.mul_bypass || (u.prelu && x >> 31 == 0) {
        x
    } else {
        let op = mul_mem.map_or(u.mul_reg as u32, |v| cvt::fp16_to_fp32(v as u16));
        float::mul(float::FP32, x, op)
    };
    if u.alu_bypass {
        m
    } else {
        let op = alu_mem.map_or(u.alu_reg as u32, |v| cvt::fp16_to_fp32(v as u16));
        fp_alu(u.alu_algo, m, op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_then_alu() {
        let u = Unit {
            enabled: true,
            alu_algo: algo::SUM,
            alu_reg: 7,
            mul_reg: 3,
            mul_shift: 1,
            relu_bypass: true,
            lut_bypass: true,
            ..Unit::default()
        };
        // (5·3)/2 = 7.5 → 8, + 7 = 15.
        assert_eq!(int(5, &u, None, None), 15);
        let eql = Unit {
            alu_algo: algo::EQL,
            alu_reg: 8,
            ..u.clone()
        };
        assert_eq!(int(5, &eql, None, None), 0);
        assert_eq!(int(6, &eql, None, None), 1);
        // Memory operand through the converter: (4 − 1)·2 >> 1 = 3.
        let c = CvtParam {
            scale: 2,
            truncate: 1,
            enable: 1,
            offset: 1,
        };
        let conv = Unit {
            mul_bypass: true,
            alu_cvt: Some(c),
            ..u.clone()
        };
        assert_eq!(int(10, &conv, Some(4), None), 13);
        // Saturation after the ALU.
        let sat = Unit {
            mul_bypass: true,
            alu_reg: i32::MAX,
            ..u
        };
        assert_eq!(int(10, &sat, None, None), i32::MAX);
    }
}
