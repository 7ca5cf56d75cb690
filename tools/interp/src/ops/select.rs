//! Data-dependent selection: `NonZero` and `Compress`.
//!
//! `NonZero` in: any numeric or bool tensor. Out: int64 `[rank, count]`
//! coordinates of the non-zero elements, row-major order.
//! `Compress` in: `input` and a 1-D bool `condition`; optional `axis`
//! (absent: the flattened input). Out: the slices where `condition` is true.
//! Example: `NonZero([[1, 0], [0, 1]]) = [[0, 1], [0, 1]]`.

use crate::call::{out, Call};
use crate::layout::{strides, take_data};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `NonZero`.
pub(crate) fn non_zero(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let v = x.data().to_f64_vec();
    let r = x.rank();
    let st = strides(x.shape());
    let hits: Vec<usize> = (0..v.len()).filter(|&i| v[i] != 0.0).collect();
    let mut coords = vec![0i64; r * hits.len()];
    for (j, &f) in hits.iter().enumerate() {
        for d in 0..r {
            coords[d * hits.len() + j] = ((f / st[d]) % x.shape()[d]) as i64;
        }
    }
    Ok(vec![out(vec![r, hits.len()], Data::I64(coords))?])
}

/// `Compress`.
pub(crate) fn compress(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let cond = c.input(1)?;
    let Data::Bool(cv) = cond.data() else {
        return Err(c.type_err(1, "bool", cond.dtype()));
    };
    if cond.rank() != 1 {
        return Err(c.shape_err(1, "rank 1", cond.shape()));
    }
    let (shape, axis) = match c.has("axis") {
        true => (
            x.shape().to_vec(),
            c.axis("axis", c.int("axis", 0)?, x.rank())?,
        ),
        false => (vec![x.numel()], 0),
    };
    let dim = shape[axis];
    if cv.len() > dim {
        return Err(c.shape_err(1, format!("at most {dim} elements"), cond.shape()));
    }
    let keep: Vec<usize> = (0..cv.len()).filter(|&i| cv[i] != 0).collect();
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let mut idx = Vec::with_capacity(outer * keep.len() * inner);
    for o in 0..outer {
        for &k in &keep {
            let base = (o * dim + k) * inner;
            idx.extend(base..base + inner);
        }
    }
    let mut out_shape = shape;
    out_shape[axis] = keep.len();
    Ok(vec![out(out_shape, take_data(x.data(), &idx))?])
}
