//! `ArgMax` and `ArgMin` along `axis` (default 0), `keepdims` (1),
//! `select_last_index` (0).
//!
//! In: a numeric tensor. Out: int64 indices.
//! Example: `ArgMax{axis=0, keepdims=0}([1, 3, 3]) = 1` (`2` with `select_last_index`).

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `ArgMax` (`max = true`) or `ArgMin`.
pub(crate) fn arg_extreme(c: &Call, max: bool) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    if matches!(x.dtype(), onnc_tensor::DType::F16) {
        return Err(c.type_err(0, "a numeric type", x.dtype()));
    }
    let r = x.rank();
    if r == 0 {
        return Err(c.shape_err(0, "rank ≥ 1", x.shape()));
    }
    let axis = c.axis("axis", c.int("axis", 0)?, r)?;
    let keep = c.int("keepdims", 1)? != 0;
    let last = c.int("select_last_index", 0)? != 0;
    let v = x.data().to_f64_vec();
    let dim = x.shape()[axis];
    if dim == 0 {
        return Err(c.shape_err(0, format!("a non-empty axis {axis}"), x.shape()));
    }
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let mut res = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| v[(o * dim + k) * inner + i];
            let mut best = 0;
            for k in 1..dim {
                let (a, b) = (at(k), at(best));
                let better = if max { a > b } else { a < b };
                if better || (last && a == b) {
                    best = k;
                }
            }
            res.push(best as i64);
        }
    }
    let mut shape = x.shape().to_vec();
    if keep {
        shape[axis] = 1;
    } else {
        shape.remove(axis);
    }
    Ok(vec![out(shape, Data::I64(res))?])
}
