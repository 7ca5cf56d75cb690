//! The CDP (LRN) lookup table, `dla_lut_param`.
//!
//! In: a CDP op's `alpha`, `beta`, `bias`, `local_size`, `in_precision` and
//! its `lut_param.*` registers. Out: a [`LutParam`].
//!
//! The CDP computes `y = x · f(s)` with `s = Σ x²` over `local_size`
//! channels and, as ONNX LRN defines it,
//! `f(s) = (bias + alpha / local_size · s) ^ (−beta)`. The LUT samples `f`:
//! * X table (`linear_exp_table`, 65 entries, exponential, the raw table):
//!   `X[i] = f(2^(e + i))`, `e = lut_param.linear_exp_offset.exp_offset`;
//!   start 0, end `2^(e + 64)` (saturated to the 38-bit register).
//! * Y table (`linear_only_table`, 257 entries, linear, the density table):
//!   `Y[i] = f(a + i · (b − a) / 256)`, `a = lut_param.linear_only_start`,
//!   `b = lut_param.linear_only_end`.
//! * Entries: FP16 bit patterns for an fp16 pipeline; otherwise
//!   `round(f · 2^q)` saturated to int16, `q = lut_param.linear_only_offset.frac_bits`.
//! * Priorities: the density (Y) table wins inside its range; under- and
//!   overflow use the raw (X) table. Out-of-range slopes are 0 (flat).
//!
//! ```
//! use onnc_nvdla::emit::lut::{lrn_value, lrn_lut};
//! assert_eq!(lrn_value(0.0, 1e-4, 0.75, 1.0, 5), 1.0);
//! let l = lrn_lut(1e-4, 0.75, 1.0, 5, onnc_nvdla::Precision::Fp16, 0, 0, 0, 1 << 20);
//! assert_eq!(l.linear_only_table[0], 0x3c00); // f(0) = 1.0 in fp16
//! ```

use onnc_nvdla_loadable::desc::LutParam;

use crate::program::Precision;

/// `LUT_PRI_LINEAR_EXP`.
const PRI_LINEAR_EXP: u8 = 0;
/// `LUT_PRI_LINEAR_ONLY`.
const PRI_LINEAR_ONLY: u8 = 1;
/// Largest start/end register value (38 bits).
const MAX_RANGE: u64 = (1 << 38) - 1;

/// `f(s) = (bias + alpha / n · s)^(−beta)`.
pub fn lrn_value(s: f64, alpha: f64, beta: f64, bias: f64, n: i64) -> f64 {
    (bias + alpha / n.max(1) as f64 * s).powf(-beta)
}

fn entry(v: f64, p: Precision, frac_bits: i64) -> i16 {
    match p {
        Precision::Fp16 => half::f16::from_f64(v).to_bits() as i16,
        _ => {
            let q = (v * 2f64.powi(frac_bits as i32)).round();
            if q.is_nan() {
                0
            } else {
                q.clamp(i16::MIN.into(), i16::MAX.into()) as i16
            }
        }
    }
}

/// Builds the LRN LUT (see the module doc for the formula).
#[allow(clippy::too_many_arguments)]
pub fn lrn_lut(
    alpha: f64,
    beta: f64,
    bias: f64,
    local_size: i64,
    p: Precision,
    exp_offset: i64,
    frac_bits: i64,
    start: u64,
    end: u64,
) -> LutParam {
    let f = |s: f64| lrn_value(s, alpha, beta, bias, local_size);
    let mut l = LutParam::default();
    for (i, e) in l.linear_exp_table.iter_mut().enumerate() {
        *e = entry(f(2f64.powi(exp_offset as i32 + i as i32)), p, frac_bits);
    }
    let step = (end.saturating_sub(start)) as f64 / 256.0;
    for (i, e) in l.linear_only_table.iter_mut().enumerate() {
        *e = entry(f(start as f64 + step * i as f64), p, frac_bits);
    }
    l.linear_exp_offset = u16::from(exp_offset as i8 as u8);
    l.linear_only_offset = u16::from(frac_bits as i8 as u8);
    l.linear_exp_start = 0;
    let e = exp_offset + 64;
    l.linear_exp_end = if e >= 38 {
        MAX_RANGE
    } else if e < 0 {
        0
    } else {
        1u64 << e
    };
    l.linear_only_start = start.min(MAX_RANGE);
    l.linear_only_end = end.min(MAX_RANGE);
    l.hybrid_priority = PRI_LINEAR_ONLY;
    l.underflow_priority = PRI_LINEAR_EXP;
    l.overflow_priority = PRI_LINEAR_EXP;
    l.method = 0;
    l
}
