//! NVDLA data movement that the lowering runs as 0/1 selection convolutions
//! or surface views: `Slice` (channel windows, and strided spatial windows)
//! and zero `Pad` (channels and borders).
//!
//! In: the e-node's operand shapes and constant operands. Out: `Ok(())`
//! when the lowering maps the op exactly, or the reason it cannot.
//!
//! A spatial slice with start `a` and step `s` is a convolution whose
//! kernel is `a + 1` taps long with a single 1 at tap `a`, stride `s`: it
//! yields `⌊(len − a − 1)/s⌋ + 1` positions, which is the slice's length
//! unless the slice also cuts the end (refused). A zero pad is a 1×1
//! convolution whose padding is the spatial pad and whose weight rows for
//! the padded channels are zero.
//!
//! ```
//! use onnc_legalize::targets::nvdla_moves::spatial_start;
//! // x[:, :, 1::2] over 7 rows: start 1, 3 rows, a 2-tap kernel at stride 2.
//! assert_eq!(spatial_start(1, 2, 7, 3), Ok(1));
//! // x[:, :, :4] over 7 rows cuts the end: not a convolution.
//! assert!(spatial_start(0, 1, 7, 4).is_err());
//! ```

use super::slice_args::{const_slice, ints, SliceArgs};
use crate::analysis::{const_value, Graph};
use crate::cond;
use crate::lang::{ENode, OpKey};
use onnc_tensor::DType;

/// The largest conv kernel a spatial slice may need (start + 1).
pub const MAX_SLICE_TAPS: i64 = 8;

/// The normalized start of a spatial slice (`start`, `step` as given; `len`
/// the input length; `out` the inferred output length), when the slice is a
/// strided convolution: a positive step, and the last kept position is the
/// last that the step reaches in the input.
pub fn spatial_start(start: i64, step: i64, len: usize, out: usize) -> Result<i64, String> {
    let len = len as i64;
    if step <= 0 {
        return Err(format!("a step of {step} (only positive steps)"));
    }
    let a = if start < 0 { start + len } else { start }.clamp(0, len);
    if a >= len || (len - a - 1) / step + 1 != out as i64 {
        return Err(format!("a window that stops before the end of an axis of {len} (start {a}, step {step}, {out} kept)"));
    }
    if a + 1 > MAX_SLICE_TAPS {
        return Err(format!("a start of {a} (at most {})", MAX_SLICE_TAPS - 1));
    }
    Ok(a)
}

/// Whether `Slice` of `x` to `out` is a channel window and/or strided
/// spatial window of a 4-D tensor with constant bounds.
pub fn slice(eg: &Graph, node: &ENode, x: &[usize], out: &[usize]) -> Result<(), String> {
    if x.len() != 4 || out.len() != 4 || x[0] != out[0] {
        return Err("a slice of a 4-D tensor that keeps the batch".into());
    }
    let SliceArgs {
        starts,
        axes,
        steps,
        ..
    } = const_slice(eg, node)?;
    for a in 1..4 {
        let k = axes
            .iter()
            .position(|&v| v == a as i64 || v + 4 == a as i64);
        let (start, step) = k.map_or((0, 1), |k| {
            (
                starts.get(k).copied().unwrap_or(0),
                steps.get(k).copied().unwrap_or(1),
            )
        });
        if a == 1 {
            if step != 1 {
                return Err(format!("a channel step of {step} (only 1)"));
            }
        } else if x[a] != out[a] || step != 1 {
            spatial_start(start, step, x[a], out[a])?;
        }
    }
    Ok(())
}

/// Whether `Pad` is a constant zero pad of channels and borders of a 4-D
/// tensor within the conv's padding limit `pad_max`.
pub fn pad(
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    x: &[usize],
    pad_max: usize,
) -> Result<(), String> {
    if key.string("mode").is_some_and(|m| m != "constant") {
        return Err("a constant-mode pad".into());
    }
    if x.len() != 4 || cond::operand_present(eg, node, 3) {
        return Err("a pad of all four axes of a 4-D tensor (no axes operand)".into());
    }
    if cond::operand_present(eg, node, 2) {
        let v = node
            .children
            .get(2)
            .and_then(|&c| const_value(eg, c))
            .ok_or("a constant pad value")?;
        if v.cast(DType::F32)
            .as_f32()
            .map_or(true, |v| v.iter().any(|&f| f != 0.0))
        {
            return Err("a pad value of 0".into());
        }
    }
    let p = ints(eg, node, 1).ok_or("constant pads")?;
    if p.len() != 8 || p.iter().any(|&v| v < 0) || p[0] != 0 || p[4] != 0 {
        return Err(format!(
            "non-negative pads that leave the batch alone (got {p:?})"
        ));
    }
    if [p[2], p[3], p[6], p[7]]
        .iter()
        .any(|&v| v as usize > pad_max)
    {
        return Err(format!("spatial pads of at most {pad_max} (got {p:?})"));
    }
    Ok(())
}
