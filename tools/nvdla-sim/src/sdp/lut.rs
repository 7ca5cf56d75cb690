//! The Y-unit lookup table (cmod `hls/sdp/sdp_y_idx.cpp`,
//! `sdp_y_inp.cpp`, `hls_wrapper/sdp_hls_wrapper.cpp`; registers from
//! `kmd/firmware/common.c` `update_lut`).
//!
//! Two tables: LE (65 entries, exponential or linear index) and LO (257
//! entries, linear index). For each input both indices are computed; a hit
//! interpolates between two entries (`y0 + (y1 − y0)·frac`, the fraction on
//! 35 bits); an underflow or overflow extrapolates from the first or last
//! entry with the table's slope: `y + (x − (start|end) [− 2^index_offset])
//! · scale >> shift`. The priorities choose which table answers.
//!
//! In: the datapath value after the Y ALU (int32 or fp32 bits) and the
//! [`Lut`] registers. Out: the 32-bit value for the output converter.

use crate::num::{cvt, float, int};
use onnc_nvdla_loadable::desc::LutParam;

/// Entries of the LE table.
pub const LE_DEPTH: usize = 65;
/// Entries of the LO table.
pub const LO_DEPTH: usize = 257;
/// Fraction bits of the interpolation.
const FRAC: u32 = 35;

/// A table's out-of-range slope: `scale` (int16, or fp16 bits for FP16)
/// and `shift` (signed 5 bits; INT only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Slope {
    /// Scale.
    pub scale: i16,
    /// Shift (right if positive).
    pub shift: i32,
}

/// The SDP LUT registers.
#[derive(Debug, Clone, PartialEq)]
pub struct Lut {
    /// LE table.
    pub le: [i16; LE_DEPTH],
    /// LO table.
    pub lo: Vec<i16>,
    /// LE function: exponential (`true`) or linear.
    pub le_exp: bool,
    /// `LE_INDEX_OFFSET` (exponential mode).
    pub le_index_offset: i32,
    /// `LE_INDEX_SELECT` (linear mode).
    pub le_index_select: i32,
    /// `LO_INDEX_SELECT`.
    pub lo_index_select: i32,
    /// LE start / end (int32, or fp32 bits).
    pub le_start: i32,
    /// LE end.
    pub le_end: i32,
    /// LO start.
    pub lo_start: i32,
    /// LO end.
    pub lo_end: i32,
    /// LE underflow / overflow slopes.
    pub le_uflow: Slope,
    /// LE overflow slope.
    pub le_oflow: Slope,
    /// LO underflow slope.
    pub lo_uflow: Slope,
    /// LO overflow slope.
    pub lo_oflow: Slope,
    /// Priorities: `true` = LO answers.
    pub hybrid_lo: bool,
    /// Underflow priority.
    pub uflow_lo: bool,
    /// Overflow priority.
    pub oflow_lo: bool,
}

impl Lut {
    /// The registers the firmware programs from `p`: SDP start/end
    /// registers keep the low 32 bits; in exponential mode the LE index
    /// offset is the low byte of `linear_exp_offset` and the LE index select
    /// keeps its reset value 0; in linear mode the reverse.
    pub fn from_param(p: &LutParam) -> Lut {
        let le_exp = p.method == 0;
        let low = |v: u16| (v & 0xFF) as u8 as i8 as i32;
        let slope = |s: &onnc_nvdla_loadable::desc::Slope| Slope {
            scale: s.scale,
            shift: int::sext(s.shifter as i64, 5) as i32,
        };
        Lut {
            le: p.linear_exp_table,
            lo: p.linear_only_table.to_vec(),
            le_exp,
            le_index_offset: if le_exp { low(p.linear_exp_offset) } else { 0 },
            le_index_select: if le_exp { 0 } else { low(p.linear_exp_offset) },
            lo_index_select: low(p.linear_only_offset),
            le_start: p.linear_exp_start as u32 as i32,
            le_end: p.linear_exp_end as u32 as i32,
            lo_start: p.linear_only_start as u32 as i32,
            lo_end: p.linear_only_end as u32 as i32,
            le_uflow: slope(&p.linear_exp_underflow_slope),
            le_oflow: slope(&p.linear_exp_overflow_slope),
            lo_uflow: slope(&p.linear_only_underflow_slope),
            lo_oflow: slope(&p.linear_only_overflow_slope),
            hybrid_lo: p.hybrid_priority == 1,
            uflow_lo: p.underflow_priority == 1,
            oflow_lo: p.overflow_priority == 1,
        }
    }
}

/// Result of one table's index computation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Index {
    /// Entry.
    pub index: usize,
    /// 35-bit fraction between `index` and `index + 1`.
    pub frac: u64,
    /// Below the table.
    pub uflow: bool,
    /// Above the table.
    pub oflow: bool,
}

impl Index {
    fn hit(&self) -> bool {
        !self.uflow && !self.oflow
    }
}

/// Linear index of an INT value: (x − start) >> select (a negative select
/// shifts left, saturating at 511), fraction = the dropped bits on 35 bits.
fn linear_int(x: i32, start: i32, select: i32, depth: usize) -> Index {
    if x <= start {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let u = (x as i64 - start as i64) as u64; // < 2^32
    let s = if select >= 0 {
        if select >= 64 {
            0
        } else {
            u >> select
        }
    } else {
        let l = select.unsigned_abs();
        if l >= 32 {
            511
        } else {
            (u << l).min(511)
        }
    }
    .min(511) as usize;
    if s >= depth - 1 {
        return Index {
            index: depth - 1,
            oflow: true,
            ..Index::default()
        };
    }
    let frac = if select >= 1 {
        let f = if select >= 64 {
            u
        } else {
            u & ((1u64 << select) - 1)
        };
        if select <= FRAC as i32 {
            (f << (FRAC as i32 - select)) & ((1 << FRAC) - 1)
        } else if select - FRAC as i32 >= 64 {
            0
        } else {
            f >> (select - FRAC as i32)
        }
    } else {
        0
    };
    Index {
        index: s,
        frac,
        ..Index::default()
    }
}

/// Exponential LE index of an INT value: ⌊log2(x − start)⌋ − offset,
/// fraction = the bits below the leading one on 35 bits.
fn exp_int(x: i32, start: i32, offset: i32) -> Index {
    if x <= start {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let sub = (x as i64 - start as i64) as u64;
    let idx = 63 - sub.leading_zeros() as i32;
    let fra = sub & ((1u64 << idx) - 1);
    if idx < offset {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let s = (idx - offset) as usize;
    if s >= LE_DEPTH - 1 {
        return Index {
            index: LE_DEPTH - 1,
            oflow: true,
            ..Index::default()
        };
    }
    Index {
        index: s,
        frac: fra << (FRAC as i32 - idx),
        ..Index::default()
    }
}

/// `FpFloatToIntFrac<8,23,8,9,35>`: the integer (saturated at 511) and 35
/// fraction bits of the fp32 value `d` divided by 2^select.
fn float_int_frac(d: u32, select: i32) -> (usize, u64) {
    let e = ((d >> 23) & 0xFF) as i32;
    let m1 = ((d & 0x7F_FFFF) | 0x80_0000) as u64;
    let l = (e - 127) - select - 23;
    let int = if l >= 0 {
        if l > 40 {
            511
        } else {
            (m1 << l).min(511)
        }
    } else if -l >= 64 {
        0
    } else {
        m1 >> (-l)
    };
    let frac = if l >= 0 {
        0
    } else {
        let sh = FRAC as i32 + l;
        if sh >= 0 {
            (m1 << sh) & ((1 << FRAC) - 1)
        } else if -sh >= 64 {
            0
        } else {
            m1 >> (-sh)
        }
    };
    (int.min(511) as usize, frac)
}

/// Whether fp32 bits are negative, zero or NaN (a table underflow).
fn fp_under(d: u32) -> bool {
    let f = float::FP32;
    d >> 31 == 1 || f.is_zero(d) || f.is_nan(d)
}

fn linear_fp(x: u32, start: i32, select: i32, depth: usize) -> Index {
    let d = float::sub(float::FP32, x, start as u32);
    if fp_under(d) {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let (i, frac) = float_int_frac(d, select);
    if i >= depth - 1 {
        return Index {
            index: depth - 1,
            oflow: true,
            ..Index::default()
        };
    }
    Index {
        index: i,
        frac,
        ..Index::default()
    }
}

fn exp_fp(x: u32, start: i32, offset: i32) -> Index {
    let d = float::sub(float::FP32, x, start as u32);
    if fp_under(d) {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let e = ((d >> 23) & 0xFF) as i32 - 127;
    if e < offset {
        return Index {
            uflow: true,
            ..Index::default()
        };
    }
    let s = (e - offset) as usize;
    if s >= LE_DEPTH - 1 {
        return Index {
            index: LE_DEPTH - 1,
            oflow: true,
            ..Index::default()
        };
    }
    Index {
        index: s,
        frac: ((d & 0x7F_FFFF) as u64) << (FRAC - 23),
        ..Index::default()
    }
}

/// Chooses the answering table: `(lo, index)`.
fn select(le: Index, lo: Index, l: &Lut) -> (bool, Index) {
    let pick = |use_lo: bool| if use_lo { (true, lo) } else { (false, le) };
    if le.uflow && lo.uflow {
        pick(l.uflow_lo)
    } else if le.oflow && lo.oflow {
        pick(l.oflow_lo)
    } else if le.hit() == lo.hit() {
        pick(l.hybrid_lo)
    } else if le.hit() {
        (false, le)
    } else {
        (true, lo)
    }
}

/// Entry `i` of a table, 0 beyond its end.
fn entry(t: &[i16], i: usize) -> i16 {
    t.get(i).copied().unwrap_or(0)
}

/// The lookup for INT processing (int32 in, int32 out).
pub fn int(x: i32, l: &Lut) -> i32 {
    let le = if l.le_exp {
        exp_int(x, l.le_start, l.le_index_offset)
    } else {
        linear_int(x, l.le_start, l.le_index_select, LE_DEPTH)
    };
    let lo = linear_int(x, l.lo_start, l.lo_index_select, LO_DEPTH);
    let (is_lo, ix) = select(le, lo, l);
    let table: &[i16] = if is_lo { &l.lo } else { &l.le };
    let y0 = entry(table, ix.index) as i128;
    if ix.uflow || ix.oflow {
        // The cmod's `(uint32_t)1 << offset` (shift count taken modulo 32,
        // as on the x86 host that ran it), an unsigned 32-bit value.
        let bias: i64 = if !is_lo && l.le_exp && !ix.oflow && l.le_index_offset > 0 {
            1u32.wrapping_shl(l.le_index_offset as u32) as i64
        } else {
            0
        };
        let (slope, off) = match (is_lo, ix.oflow) {
            (false, false) => (l.le_uflow, l.le_start),
            (false, true) => (l.le_oflow, l.le_end),
            (true, false) => (l.lo_uflow, l.lo_start),
            (true, true) => (l.lo_oflow, l.lo_end),
        };
        let a = x as i128 - (bias as i128 + off as i128);
        let c = int::shift_signed_sat(a * slope.scale as i128, slope.shift, 32);
        return int::sat(y0 + c as i128, 32) as i32;
    }
    let y1 = entry(table, ix.index + 1) as i128;
    let f = ix.frac as i128;
    let o = y0 * ((1i128 << FRAC) - f) + y1 * f;
    int::shr_rhaz_sat(o, FRAC, 32) as i32
}

/// `FpFractionToFloat<35,6,10>`: `frac / 2^35` as fp17 bits.
fn fraction_to_fp17(frac: u64) -> u32 {
    if frac == 0 {
        return 0;
    }
    let zc = frac.leading_zeros() - (64 - FRAC);
    let shifted = ((frac as u128) << (zc + 1)) & ((1u128 << (FRAC + 1)) - 1);
    let (m1, ovf) = float::mant_rne(shifted, FRAC + 1, 11);
    let bias = 31u32;
    if ovf {
        if bias < zc {
            return 0;
        }
        return ((bias - zc) << 10) | ((m1 >> 1) as u32 & 0x3FF);
    }
    if bias <= zc + 1 {
        return 0;
    }
    ((bias - zc - 1) << 10) | (m1 as u32 & 0x3FF)
}

/// The lookup for FP16 processing (fp32 bits in and out; the interpolation
/// runs in fp17).
pub fn fp(x: u32, l: &Lut) -> u32 {
    let le = if l.le_exp {
        exp_fp(x, l.le_start, l.le_index_offset)
    } else {
        linear_fp(x, l.le_start, l.le_index_select, LE_DEPTH)
    };
    let lo = linear_fp(x, l.lo_start, l.lo_index_select, LO_DEPTH);
    let (is_lo, ix) = select(le, lo, l);
    let table: &[i16] = if is_lo { &l.lo } else { &l.le };
    let y0 = cvt::fp16_to_fp17(entry(table, ix.index) as u16);
    let f17 = float::FP17;
    let out = if ix.uflow || ix.oflow {
        let bias = if !is_lo && l.le_exp && !ix.oflow {
            (2f32).powi(l.le_index_offset).to_bits()
        } else {
            0
        };
        let (slope, off) = match (is_lo, ix.oflow) {
            (false, false) => (l.le_uflow, l.le_start),
            (false, true) => (l.le_oflow, l.le_end),
            (true, false) => (l.lo_uflow, l.lo_start),
            (true, true) => (l.lo_oflow, l.lo_end),
        };
        let ob = float::add(float::FP32, off as u32, bias);
        let xob = float::sub(float::FP32, x, ob);
        let a = cvt::fp32_to_fp17(xob);
        let b = float::mul(f17, a, cvt::fp16_to_fp17(slope.scale as u16));
        float::add(f17, y0, b)
    } else {
        let y1 = cvt::fp16_to_fp17(entry(table, ix.index + 1) as u16);
        let a0 = if ix.frac == 0 {
            0x7C00
        } else {
            fraction_to_fp17((1 << FRAC) - ix.frac)
        };
        let a1 = fraction_to_fp17(ix.frac);
        float::add(f17, float::mul(f17, a0, y0), float::mul(f17, a1, y1))
    };
    cvt::fp17_to_fp32(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lut() -> Lut {
        let mut le = [0i16; LE_DEPTH];
        for (i, v) in le.iter_mut().enumerate() {
            *v = (i * 100) as i16;
        }
        Lut {
            le,
            lo: (0..LO_DEPTH).map(|i| (i * 10) as i16).collect(),
            le_exp: false,
            le_index_offset: 0,
            le_index_select: 2,
            lo_index_select: 0,
            le_start: 0,
            le_end: 256,
            lo_start: 0,
            lo_end: 256,
            le_uflow: Slope { scale: 3, shift: 1 },
            le_oflow: Slope { scale: 5, shift: 0 },
            lo_uflow: Slope { scale: 1, shift: 0 },
            lo_oflow: Slope { scale: 1, shift: 0 },
            hybrid_lo: false,
            uflow_lo: false,
            oflow_lo: false,
        }
    }

    #[test]
    fn linear_hit_interpolates() {
        let l = lut();
        // (x − 0) >> 2: x = 6 → entry 1, fraction 2/4: 100 + 0.5·100.
        assert_eq!(int(6, &l), 150);
        // x = 5 → 1 + 1/4 → 125.
        assert_eq!(int(5, &l), 125);
        // x = 4 → exactly entry 1.
        assert_eq!(int(4, &l), 100);
    }

    #[test]
    fn linear_underflow_and_overflow() {
        let l = lut();
        // Underflow of both tables (x ≤ start), LE priority:
        // LE[0] + RHAZ((x − start)·3 >> 1) = (−5·3)/2 = −7.5 → −8.
        assert_eq!(int(-5, &l), -8);
        // x = 300: LE index 75 ≥ 64 overflows, LO index 300 ≥ 256 too:
        // LE[64] + (300 − 256)·5 = 6400 + 220.
        assert_eq!(int(300, &l), 6620);
        // One table hits, the other misses: that table answers.
        let l2 = Lut {
            le_index_select: 0,
            ..lut()
        };
        // x = 100: LE index 100 ≥ 64 → overflow; LO index 100 hits.
        assert_eq!(int(100, &l2), 1000);
    }

    #[test]
    fn exponential_index() {
        let l = Lut {
            le_exp: true,
            le_index_offset: 1,
            ..lut()
        };
        // x = 12: log2 = 3 (8..16), index 3 − 1 = 2, fraction 4/8:
        // 200 + 0.5·100 = 250 — but LO (index 12) also hits and the hybrid
        // priority is LE.
        assert_eq!(int(12, &l), 250);
        // x = 1: log2 = 0 < offset 1 → LE underflow; LO hits (index 1): LO.
        assert_eq!(int(1, &l), 10);
        // Both underflow (x ≤ 0): LE[0] + (x − start − 2^1)·3 >> 1.
        assert_eq!(int(0, &l), -3);
    }

    #[test]
    fn fp_linear_hit_and_fraction_floats() {
        assert_eq!(fraction_to_fp17(1 << 34), 0x7800); // 0.5
        assert_eq!(fraction_to_fp17(3 << 33), 0x7A00); // 0.75
        let mut l = lut();
        // fp16 table values: LE[i] = i as fp16.
        for (i, v) in l.le.iter_mut().enumerate() {
            *v = half::f16::from_f32(i as f32).to_bits() as i16;
        }
        l.le_index_select = 0;
        l.lo_index_select = 0;
        l.lo = vec![0; LO_DEPTH];
        l.le_start = 0f32.to_bits() as i32;
        l.lo_start = 1000f32.to_bits() as i32; // LO always underflows
                                               // x = 2.5 → LE entry 2, fraction 0.5: 2.5.
        assert_eq!(f32::from_bits(fp(2.5f32.to_bits(), &l)), 2.5);
        assert_eq!(f32::from_bits(fp(7f32.to_bits(), &l)), 7.0);
    }

    #[test]
    fn fp_exponential_hit_and_underflow() {
        let mut l = lut();
        for (i, v) in l.le.iter_mut().enumerate() {
            *v = half::f16::from_f32(i as f32).to_bits() as i16;
        }
        l.le_exp = true;
        l.le_index_offset = 0;
        l.le_start = 0f32.to_bits() as i32;
        l.lo_start = 1.0e6f32.to_bits() as i32; // LO always underflows
        l.le_uflow = Slope {
            scale: half::f16::from_f32(0.5).to_bits() as i16,
            shift: 0,
        };
        // 6 = 1.5·2^2: entry 2, fraction 0.5 → 2.5.
        assert_eq!(f32::from_bits(fp(6f32.to_bits(), &l)), 2.5);
        // −3: both underflow, LE answers: LE[0] + (−3 − (0 + 2^0))·0.5 = −2.
        assert_eq!(f32::from_bits(fp((-3f32).to_bits(), &l)), -2.0);
    }

    #[test]
    fn int_exponential_underflow_bias_is_unsigned_32_bit() {
        // index offset 31: the bias 2^31 as an unsigned value.
        let l = Lut {
            le_exp: true,
            le_index_offset: 31,
            lo_start: i32::MAX,
            ..lut()
        };
        // x = 0 ≤ start: LE[0] + (0 − (2^31 + 0))·3 >> 1 → saturates at −2^31.
        assert_eq!(int(0, &l), i32::MIN);
    }
}
