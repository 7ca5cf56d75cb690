//! NNIE `Slice`: the ONNX slices a Caffe `Slice` layer computes exactly —
//! one window `[start, end)` with step 1 of one non-batch axis of a 4-D
//! tensor, constant bounds (Caffe cuts the axis at `slice_point`s and the
//! unused pieces are extra tops). Several axes are first split into one
//! Slice per axis (`rules::nnie`).
//!
//! In: the e-node, its input shape `x` and output shape `out`. Out: `Ok(())`
//! or what the slice would have to be.
//!
//! ```
//! use onnc_legalize::targets::nnie_slice::window;
//! // x[:, 2:5] of 8 channels.
//! assert_eq!(window(2, 5, 1, 8), Ok((2, 5)));
//! // x[:, :, ::2] is strided: no Caffe Slice does that.
//! assert!(window(0, i64::MAX, 2, 8).is_err());
//! ```

use super::slice_args::{const_slice, SliceArgs};
use crate::analysis::Graph;
use crate::lang::ENode;

/// The normalized window `[start, end)` of an axis of length `len` for ONNX
/// `starts`/`ends`/`steps` entries, when the step is 1 and the window is not
/// empty.
pub fn window(start: i64, end: i64, step: i64, len: usize) -> Result<(usize, usize), String> {
    if step != 1 {
        return Err(format!(
            "a step of 1 (got {step}; a strided slice has no Caffe Slice form)"
        ));
    }
    let n = len as i64;
    let norm = |v: i64| if v < 0 { v + n } else { v }.clamp(0, n);
    let (a, b) = (norm(start), norm(end));
    if a >= b {
        return Err(format!("a non-empty window (got [{a}, {b}) of {len})"));
    }
    Ok((a as usize, b as usize))
}

/// The `(axis, start, end)` of a one-axis, step-1 Slice of a 4-D tensor with
/// constant bounds, or what it would have to be.
pub fn single_axis(eg: &Graph, node: &ENode, x: &[usize]) -> Result<(usize, usize, usize), String> {
    if x.len() != 4 {
        return Err(format!("a slice of a 4-D tensor (got {}-D)", x.len()));
    }
    let SliceArgs {
        starts,
        ends,
        axes,
        steps,
    } = const_slice(eg, node)?;
    if starts.len() != 1 || ends.len() != 1 || axes.len() != 1 || steps.len() != 1 {
        return Err(format!(
            "a slice of one axis (got {} axes that were not split)",
            starts.len()
        ));
    }
    let axis = if axes[0] < 0 { axes[0] + 4 } else { axes[0] };
    if !(1..4).contains(&axis) {
        return Err(format!(
            "a slice of channels, rows or columns (got axis {})",
            axes[0]
        ));
    }
    let (a, b) = window(starts[0], ends[0], steps[0], x[axis as usize])?;
    Ok((axis as usize, a, b))
}

/// Whether `Slice` of `x` to `out` is a Caffe Slice (see the module doc).
pub fn check(eg: &Graph, node: &ENode, x: &[usize], out: &[usize]) -> Result<(), String> {
    let (axis, a, b) = single_axis(eg, node, x)?;
    if out.len() != 4 || out[axis] != b - a {
        return Err(format!(
            "a window of {} on axis {axis} (got {out:?})",
            b - a
        ));
    }
    Ok(())
}
