//! `Slice`: `starts`, `ends`, optional `axes` and `steps` as int64 inputs
//! (opset ≥ 10) or attributes (older). Negative indices count from the end;
//! indices clamp to `[0, dim]` for positive steps and `[-1, dim-1]` for
//! negative steps.
//!
//! In: `data` of any type. Out: the selected elements.
//! Example: `Slice([1, 2, 3, 4], starts=[-1], ends=[-5], steps=[-2]) = [4, 2]`.

use crate::call::{out, Call};
use crate::layout::{product_index, strides, take_data};
use crate::Result;
use onnc_tensor::Tensor;

/// `Slice`.
pub(crate) fn slice(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 5)?;
    let x = c.input(0)?;
    let r = x.rank();
    let starts = c
        .ints_input_or_attr(1, "starts")?
        .ok_or_else(|| c.attr_err("starts", "missing (input 1)"))?;
    let ends = c
        .ints_input_or_attr(2, "ends")?
        .ok_or_else(|| c.attr_err("ends", "missing (input 2)"))?;
    let axes = c
        .ints_input_or_attr(3, "axes")?
        .unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = c.ints_input(4)?.unwrap_or_else(|| vec![1; starts.len()]);
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err(c.attr_err(
            "starts",
            "starts, ends, axes and steps must have one length",
        ));
    }
    let mut coords: Vec<Vec<usize>> = x.shape().iter().map(|&d| (0..d).collect()).collect();
    let mut shape = x.shape().to_vec();
    let mut seen = vec![false; r];
    for i in 0..starts.len() {
        let a = c.axis("axes", axes[i], r)?;
        if seen[a] {
            return Err(c.attr_err("axes", format!("axis {} repeats", axes[i])));
        }
        seen[a] = true;
        let dim = x.shape()[a] as i64;
        let step = steps[i];
        if step == 0 {
            return Err(c.attr_err("steps", "a step is 0"));
        }
        let norm = |v: i64| if v < 0 { v.saturating_add(dim) } else { v };
        let (s, e) = if step > 0 {
            (norm(starts[i]).clamp(0, dim), norm(ends[i]).clamp(0, dim))
        } else {
            (
                norm(starts[i]).clamp(0, (dim - 1).max(0)),
                norm(ends[i]).clamp(-1, dim - 1),
            )
        };
        let mut v = Vec::new();
        let mut p = s;
        while (step > 0 && p < e) || (step < 0 && p > e) {
            v.push(p as usize);
            match p.checked_add(step) {
                Some(q) => p = q,
                None => break,
            }
        }
        if dim == 0 {
            v.clear();
        }
        shape[a] = v.len();
        coords[a] = v;
    }
    let idx = product_index(&coords, &strides(x.shape()));
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}
