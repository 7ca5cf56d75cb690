//! `Split`: cuts a tensor along `axis` into parts whose extents come from
//! the `split` input (opset ≥ 13), the `split` attribute (older), or equal
//! parts — `num_outputs` (opset ≥ 18, last part smaller) or the node's
//! output count.
//!
//! In: `input` of any type, optional int64 `split`. Out: the parts.
//! Example: `Split{axis=0}([1, 2, 3, 4], split=[1, 3]) = [1], [2, 3, 4]`.

use crate::call::{out, Call};
use crate::layout::take_data;
use crate::Result;
use onnc_tensor::Tensor;

/// Most parts `num_outputs` may ask for.
pub(crate) const MAX_OUTPUTS: i64 = 1 << 16;

/// `Split`.
pub(crate) fn split(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    let r = x.rank();
    let axis = c.axis("axis", c.int("axis", 0)?, r)?;
    let dim = x.shape()[axis];
    let sizes: Vec<usize> = match c.ints_input_or_attr(1, "split")? {
        Some(s) => {
            if s.iter().any(|&v| v < 0)
                || s.iter().try_fold(0i64, |a, &v| a.checked_add(v)) != Some(dim as i64)
            {
                return Err(c.attr_err(
                    "split",
                    format!("{s:?} must be ≥ 0 and sum to the axis extent {dim}"),
                ));
            }
            s.iter().map(|&v| v as usize).collect()
        }
        None => {
            let n = match c.int("num_outputs", 0)? {
                n if n > 0 && n <= MAX_OUTPUTS => n as usize,
                n if n > 0 => {
                    return Err(c.attr_err("num_outputs", format!("at most {MAX_OUTPUTS}, got {n}")))
                }
                0 => c
                    .num_outputs
                    .ok_or_else(|| c.attr_err("num_outputs", "needed when `split` is absent"))?,
                n => return Err(c.attr_err("num_outputs", format!("must be ≥ 1, got {n}"))),
            };
            if n == 0 {
                return Err(c.attr_err("num_outputs", "must be ≥ 1"));
            }
            let part = dim.div_ceil(n);
            if c.has("num_outputs") {
                (0..n)
                    .map(|i| part.min(dim.saturating_sub(i * part)))
                    .collect()
            } else if dim % n != 0 {
                return Err(c.shape_err(
                    0,
                    format!("axis {axis} extent divisible by {n} outputs"),
                    x.shape(),
                ));
            } else {
                vec![dim / n; n]
            }
        }
    };
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let mut outs = Vec::with_capacity(sizes.len());
    let mut start = 0;
    for &len in &sizes {
        let mut idx = Vec::with_capacity(outer * len * inner);
        for o in 0..outer {
            let base = (o * dim + start) * inner;
            idx.extend(base..base + len * inner);
        }
        let mut shape = x.shape().to_vec();
        shape[axis] = len;
        outs.push(out(shape, take_data(x.data(), &idx))?);
        start += len;
    }
    Ok(outs)
}
