//! The X units (X1 = BS, X2 = BN): ALU → MUL → truncate → ReLU
//! (cmod `hls/sdp/sdp_x.cpp`, nvdla-arith.md §6.2).
//!
//! In: one 32-bit datapath value (an int32, or fp32 bits for FP16
//! processing), the unit's [`Unit`] configuration and the element's memory
//! operands (16 bits). Out: the 32-bit value passed on.

use super::config::{algo, Unit};
use crate::num::{cvt, float, int};

/// INT8/INT16 processing. The ALU operand is sat32(op << shift); SUM and EQL
/// add (33 bits); MAX/MIN compare; the multiplier makes 49 bits; the
/// truncation is sat32(RHAZ(v >> mul_shift)) — skipped (the value wraps to
/// 32 bits) when PReLU passes a non-negative value; then ReLU.
pub fn int(x: i32, u: &Unit, alu_mem: Option<i16>, mul_mem: Option<i16>) -> i32 {
    let x = x as i64;
    let a = if u.alu_bypass {
        x
    } else {
        let op16 = alu_mem.map_or(u.alu_reg, i32::from);
        let op = int::shl_sat(op16 as i128, u.alu_shift, 32);
        match u.alu_algo {
            algo::MAX => x.max(op),
            algo::MIN => x.min(op),
            _ => x + op,
        }
    };
    let t = if u.mul_bypass {
        int::shr_rhaz_sat(a as i128, u.mul_shift, 32)
    } else if u.prelu && a >= 0 {
        a as i32 as i64 // TRT bypassed: the 33-bit value is cut to 32 bits
    } else {
        let op = mul_mem.map_or(u.mul_reg, i32::from) as i64;
        int::shr_rhaz_sat((a * op) as i128, u.mul_shift, 32)
    };
    let r = if !u.relu_bypass && t < 0 { 0 } else { t };
    r as i32
}

/// `FpAlu` on fp32 bits: SUM = `FpAdd`, MAX/MIN = `FpCmp`, EQL = 1 when the
/// bit patterns differ else 0.
pub fn fp_alu(algo_: u8, a: u32, b: u32) -> u32 {
    match algo_ {
        algo::SUM => float::add(float::FP32, a, b),
        algo::MAX => float::max(float::FP32, a, b),
        algo::EQL => float::neq_bits(float::FP32, a, b),
        _ => float::min(float::FP32, a, b),
    }
}

/// FP16 processing on fp32 bits: operands are fp16 (register low 16 bits or
/// memory) widened with `Fp16ToFp32`; ALU = [`fp_alu`], MUL = `FpMul`
/// (PReLU passes values with a clear sign bit), no truncation, ReLU =
/// `FpRelu`.
pub fn fp(x: u32, u: &Unit, alu_mem: Option<i16>, mul_mem: Option<i16>) -> u32 {
    let a = if u.alu_bypass {
        x
    } else {
        let op = alu_mem.map_or(u.alu_reg as u16, |v| v as u16);
        fp_alu(u.alu_algo, x, cvt::fp16_to_fp32(op))
    };
    let m = if u.mul_bypass || (u.prelu && a >> 31 == 0) {
        a
    } else {
        let op = mul_mem.map_or(u.mul_reg as u16, |v| v as u16);
        float::mul(float::FP32, a, cvt::fp16_to_fp32(op))
    };
    if u.relu_bypass {
        m
    } else {
        float::relu(float::FP32, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Unit {
        Unit {
            enabled: true,
            alu_bypass: true,
            mul_bypass: true,
            relu_bypass: true,
            lut_bypass: true,
            ..Unit::default()
        }
    }

    #[test]
    fn relu_bias_scale_shift() {
        let u = Unit {
            relu_bypass: false,
            ..unit()
        };
        assert_eq!(int(-5, &u, None, None), 0);
        assert_eq!(int(7, &u, None, None), 7);
        // bias 3 << 2 = 12, ×5, >> 3 with RHAZ: (−20 + 12)·5 = −40 → −5.
        let u = Unit {
            alu_bypass: false,
            alu_algo: algo::SUM,
            alu_reg: 3,
            alu_shift: 2,
            mul_bypass: false,
            mul_reg: 5,
            mul_shift: 3,
            ..unit()
        };
        assert_eq!(int(-20, &u, None, None), -5);
        assert_eq!(int(-19, &u, None, None), -4); // −35/8 = −4.375
        assert_eq!(int(-21, &u, None, None), -6); // −45/8 = −5.625
        assert_eq!(int(-18, &u, None, None), -4); // −30/8 = −3.75
        assert_eq!(int(-22, &u, None, None), -6); // −50/8 = −6.25
                                                  // Memory operands override the registers.
        assert_eq!(int(0, &u, Some(1), Some(8)), 4); // (0 + 4)·8 >> 3
                                                     // The truncation applies even when the multiplier is bypassed.
        let u = Unit {
            mul_shift: 1,
            ..unit()
        };
        assert_eq!(int(3, &u, None, None), 2);
        assert_eq!(int(-3, &u, None, None), -2);
        // Saturation to 32 bits.
        let u = Unit {
            mul_bypass: false,
            mul_reg: 4,
            ..unit()
        };
        assert_eq!(int(i32::MAX, &u, None, None), i32::MAX);
        assert_eq!(int(i32::MIN, &u, None, None), i32::MIN);
    }

    #[test]
    fn max_min_prelu() {
        let u = Unit {
            alu_bypass: false,
            alu_algo: algo::MAX,
            alu_reg: 10,
            ..unit()
        };
        assert_eq!(int(3, &u, None, None), 10);
        let u = Unit {
            alu_algo: algo::MIN,
            ..u.clone()
        };
        assert_eq!(int(3, &u, None, None), 3);
        let u = Unit {
            mul_bypass: false,
            prelu: true,
            mul_reg: 3,
            mul_shift: 1,
            ..unit()
        };
        assert_eq!(int(5, &u, None, None), 5); // positive: no multiply, no shift
        assert_eq!(int(-5, &u, None, None), -8); // −15/2 = −7.5 → −8
    }

    #[test]
    fn fp16_bias_and_relu() {
        let one = 1f32.to_bits();
        // + 0.5 (fp16 0x3800), then ReLU.
        let u = Unit {
            alu_bypass: false,
            alu_algo: algo::SUM,
            alu_reg: 0x3800,
            ..unit()
        };
        assert_eq!(f32::from_bits(fp(one, &u, None, None)), 1.5);
        assert_eq!(
            f32::from_bits(fp((-2f32).to_bits(), &u, None, Some(0))),
            -1.5
        );
        let u = Unit {
            relu_bypass: false,
            ..u
        };
        assert_eq!(fp((-2f32).to_bits(), &u, None, None), 0);
        // × 2 from memory.
        let u = Unit {
            mul_bypass: false,
            ..unit()
        };
        assert_eq!(f32::from_bits(fp(one, &u, None, Some(0x4000))), 2.0);
    }
}
