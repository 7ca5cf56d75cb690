//! BARVINN's MVU job formulas: the five-level address-generator registers
//! (`ilength`, `ijump`, `wlength`, `wjump`) and the countdowns of one layer.
//!
//! In: a validated [`ConvShape`] / [`MatMulShape`] and [`Precision`]. Out:
//! [`RawSchedule`], unchecked `i128` values (the caller range-checks them, see
//! [`crate::verify`]). Arrays are `[x0, x1, x2, x3, x4]`, loop 3 innermost in
//! practice (loop 4 has length 0). Lengths hold *count - 1*.
//!
//! The formulas themselves are written once, in `onnc_mvu_hw::formulas`
//! (`dialects/mvu-hw`), which the `mvu` dialect's verifier checks an op's
//! attributes against; this module clamps a layer's fields, computes
//! `iC = ceil(C_in/64)`, `fC = ceil(C_out/64)` and the output columns, and adds
//! BARVINN's `total_layer_countdown = countdown · ceil((iW + pads[0] + pads[1]) / strides[1])`.
//!
//! ```
//! use onnc_mvu::{conv_schedule, ConvShape, Precision};
//! let s = conv_schedule(&ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1), &Precision::new(2, 2, 2), 30);
//! assert_eq!(s.ijump, [-132, -132, 60, 2, 0]);
//! assert_eq!((s.countdown, s.total_rows, s.total_layer_countdown), (1080, 34, 36720));
//! ```

use crate::error::{Error, Result};
use crate::layer::{ConvShape, MatMulShape, Precision};
use crate::limits::{BLOCK, MAX_CHANNELS, MAX_PREC, MAX_SPATIAL};
pub use onnc_mvu_hw::blocks;
use onnc_mvu_hw::formulas::{self, ConvJob};

/// `v` clamped into `lo..=hi`, widened. Validated inputs are never changed; the
/// clamp only keeps the `i128` arithmetic below from overflowing on raw input.
fn c(v: u64, lo: u64, hi: u64) -> i128 {
    i128::from(v.clamp(lo, hi))
}

/// How to treat a non-integral `(iW − fW + 1) / sW` (BARVINN used Python true
/// division there and would print a fractional countdown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FractionalColumns {
    /// Refuse the layer with [`Error::FractionalColumns`].
    #[default]
    Reject,
    /// Round the column count up (`ceil`), i.e. `floor((iW − fW)/sW) + 1`
    /// windows, the number a strided valid convolution actually has.
    RoundUp,
}

/// One layer's schedule, before range checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawSchedule {
    /// `[iC, iH, iW]` (conv; `iC` in 64-channel blocks) or `[1, rows, in]` (matmul).
    pub i_shape: [u64; 3],
    /// `[fC, fH, fW]` (conv; `fC` in 64-channel blocks) or `[ceil(out/64), out, in]` (matmul).
    pub f_shape: [u64; 3],
    /// Input length registers.
    pub ilength: [i128; 5],
    /// Input jump registers.
    pub ijump: [i128; 5],
    /// Weight length registers.
    pub wlength: [i128; 5],
    /// Weight jump registers.
    pub wjump: [i128; 5],
    /// Clock cycles of one MVU job.
    pub countdown: i128,
    /// BARVINN's multiplier from `countdown` to `total_layer_countdown`:
    /// `ceil((iW + pads[0] + pads[1]) / strides[1])` for conv, 1 for matmul.
    pub total_rows: i128,
    /// BARVINN's total layer countdown.
    pub total_layer_countdown: i128,
}

/// A formula's values; an overflow (impossible on clamped fields) becomes
/// `i128::MAX`, outside every register's range, so [`crate::check_registers`]
/// refuses it.
fn known(a: formulas::Array) -> [i128; 5] {
    a.map(|v| v.unwrap_or(i128::MAX))
}

/// Output columns one conv job produces: `(iW − fW + 1) / sW` under `policy`.
pub fn output_columns(layer: &str, c: &ConvShape, policy: FractionalColumns) -> Result<u64> {
    let (iw, fw, sw) = (
        u64::from(c.in_width),
        u64::from(c.kernel[1]),
        u64::from(c.strides[1]),
    );
    if sw == 0 {
        return Err(Error::Shape {
            layer: layer.into(),
            field: "stride_w",
            value: 0,
            min: 1,
            max: MAX_SPATIAL,
        });
    }
    if fw > iw {
        return Err(Error::KernelTooWide {
            layer: layer.into(),
            kernel: c.kernel[1],
            width: c.in_width,
        });
    }
    let numerator = iw - fw + 1;
    if numerator % sw != 0 && policy == FractionalColumns::Reject {
        return Err(Error::FractionalColumns {
            layer: layer.into(),
            numerator,
            stride: c.strides[1],
        });
    }
    Ok(numerator.div_ceil(sw))
}

/// Conv registers (formulas in the module docs); `columns` comes from [`output_columns`].
///
/// `sW` is the horizontal stride `strides[1]` (BARVINN read `strides[0]`; equal
/// for the square strides it was used with). The total uses BARVINN's operands
/// verbatim: `iW + pads[0] + pads[1]` (top + left) over `strides[1]`.
///
/// Fields outside [`crate::check_layer`]'s ranges are clamped into them first
/// (so nothing overflows or divides by zero); run the verifier before trusting
/// the result.
pub fn conv_schedule(shape: &ConvShape, p: &Precision, columns: u64) -> RawSchedule {
    let s = shape;
    let ic = c(blocks(s.in_channels.into()), 1, MAX_CHANNELS / BLOCK);
    let fc = c(blocks(s.out_channels.into()), 1, MAX_CHANNELS / BLOCK);
    let (ih, iw) = (
        c(s.in_height.into(), 1, MAX_SPATIAL),
        c(s.in_width.into(), 1, MAX_SPATIAL),
    );
    let (fh, fw) = (
        c(s.kernel[0].into(), 1, MAX_SPATIAL),
        c(s.kernel[1].into(), 1, MAX_SPATIAL),
    );
    let sw = c(s.strides[1].into(), 1, MAX_SPATIAL);
    let prec = |v: u32| c(v.into(), 1, MAX_PREC.into());
    let (ip, wp) = (prec(p.act), prec(p.weight));
    let columns = c(columns, 0, MAX_SPATIAL);

    let job = ConvJob {
        ip,
        wp,
        ic,
        fc,
        fh,
        fw,
        iw,
        sw,
    };
    let regs = formulas::conv_registers(&job);
    let countdown = formulas::conv_countdown(&job, columns).unwrap_or(i128::MAX);
    let span = iw + c(s.pads[0].into(), 0, MAX_SPATIAL) + c(s.pads[1].into(), 0, MAX_SPATIAL);
    let total_rows = (span + sw - 1) / sw;
    RawSchedule {
        i_shape: [ic as u64, ih as u64, iw as u64],
        f_shape: [fc as u64, fh as u64, fw as u64],
        ilength: known(regs.ilength),
        ijump: known(regs.ijump),
        wlength: known(regs.wlength),
        wjump: known(regs.wjump),
        countdown,
        total_rows,
        total_layer_countdown: countdown.saturating_mul(total_rows),
    }
}

/// Matmul registers (`onnc_mvu_hw::matmul_registers`, with
/// `m_h = ceil(out/64)`, `m_w = ceil(in/64)`).
///
/// `countdown = total_layer_countdown = m_w·m_h·ip·wp` (BARVINN counts one job
/// in the total, although a program kicks one job per input row).
///
/// Out-of-range fields are clamped as in [`conv_schedule`].
pub fn matmul_schedule(m: &MatMulShape, p: &Precision) -> RawSchedule {
    let mh = c(blocks(m.out_features.into()), 1, MAX_CHANNELS / BLOCK);
    let mw = c(blocks(m.in_features.into()), 1, MAX_CHANNELS / BLOCK);
    let prec = |v: u32| c(v.into(), 1, MAX_PREC.into());
    let (ip, wp) = (prec(p.act), prec(p.weight));
    let (regs, countdown) = formulas::matmul_registers(ip, wp, mh, mw);
    let countdown = countdown.unwrap_or(i128::MAX);
    RawSchedule {
        i_shape: [1, m.rows.into(), m.in_features.into()],
        f_shape: [mh as u64, m.out_features.into(), m.in_features.into()],
        ilength: known(regs.ilength),
        ijump: known(regs.ijump),
        wlength: known(regs.wlength),
        wjump: known(regs.wjump),
        countdown,
        total_rows: 1,
        total_layer_countdown: countdown,
    }
}
