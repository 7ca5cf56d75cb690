//! `OneHot` and `EyeLike`.
//!
//! `OneHot` in: `indices` (numeric), scalar `depth`, `values = [off, on]`;
//! `axis` = −1. Out: `values`' type, `depth` inserted at `axis`; negative
//! indices count from `depth`, out-of-range ones give all-off rows.
//! `EyeLike` in: a 2-D tensor; `dtype` (default: the input's) and `k`.
//! Out: ones where `col − row = k`.
//! Example: `OneHot([1], depth=3, values=[0, 1]) = [[0, 1, 0]]`.

use crate::call::{out, Call};
use crate::layout::take_data;
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// `OneHot`.
pub(crate) fn one_hot(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let ind = c.input(0)?;
    let vals = c.input(2)?;
    if vals.numel() != 2 {
        return Err(c.shape_err(2, "[2] ([off, on])", vals.shape()));
    }
    let depth = c.scalar_input(1)?.unwrap_or(0.0);
    if !(depth >= 1.0 && depth <= crate::call::MAX_ELEMENTS as f64) {
        return Err(c.shape_err(1, "a depth ≥ 1", c.input(1)?.shape()));
    }
    let depth = depth as usize;
    let r = ind.rank();
    let a = c.int("axis", -1)?;
    let axis = c.axis("axis", a, r + 1)?;
    let iv = ind.data().to_f64_vec();
    let mut shape = ind.shape().to_vec();
    shape.insert(axis, depth);
    c.checked_numel(&shape, 0)?;
    let outer: usize = ind.shape()[..axis].iter().product();
    let inner: usize = ind.shape()[axis..].iter().product();
    let mut pick = vec![0usize; outer * depth * inner];
    for o in 0..outer {
        for i in 0..inner {
            let mut k = iv[o * inner + i].trunc() as i64;
            if k < 0 {
                k += depth as i64;
            }
            if (0..depth as i64).contains(&k) {
                pick[(o * depth + k as usize) * inner + i] = 1;
            }
        }
    }
    Ok(vec![out(shape, take_data(vals.data(), &pick))?])
}

/// `EyeLike`.
pub(crate) fn eye_like(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    if x.rank() != 2 {
        return Err(c.shape_err(0, "rank 2", x.shape()));
    }
    let code = c.int("dtype", x.dtype().onnx_code() as i64)?;
    let dt = DType::from_onnx(code as i32)
        .ok_or_else(|| c.attr_err("dtype", format!("type code {code} is not supported")))?;
    let k = c.int("k", 0)?;
    let (n, m) = (x.shape()[0], x.shape()[1]);
    let v: Vec<f64> = (0..n * m)
        .map(|f| f64::from(u8::from((f % m) as i64 - (f / m) as i64 == k)))
        .collect();
    Ok(vec![out(vec![n, m], Data::from_f64s(dt, &v))?])
}
