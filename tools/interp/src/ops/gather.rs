//! `Gather` (numpy `take` along `axis`) and `GatherElements`.
//!
//! In: `data` of any type, int64/int32 `indices` (negative counts from the end).
//! Out (`Gather`): `data.shape[:axis] + indices.shape + data.shape[axis+1:]`;
//! (`GatherElements`): `indices.shape`.
//! Example: `Gather{axis=0}([[1, 2], [3, 4]], [1]) = [[3, 4]]`.

use crate::call::{out, Call};
use crate::layout::{strides, take_data};
use crate::Result;
use onnc_tensor::Tensor;

/// Normalizes one index against `dim`, naming input 1 on failure.
fn index(c: &Call, i: i64, dim: usize, shape: &[usize]) -> Result<usize> {
    let d = dim as i64;
    if i < -d || i >= d {
        return Err(c.shape_err(
            1,
            format!("indices within [-{dim}, {dim}) (found {i})"),
            shape,
        ));
    }
    Ok(if i < 0 { (i + d) as usize } else { i as usize })
}

/// `Gather`.
pub(crate) fn gather(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let ind = c.input(1)?;
    let iv = c.ints_input(1)?.unwrap_or_default();
    if x.rank() == 0 {
        return Err(c.shape_err(0, "rank ≥ 1", x.shape()));
    }
    let axis = c.axis("axis", c.int("axis", 0)?, x.rank())?;
    let dim = x.shape()[axis];
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let norm: Vec<usize> = iv
        .iter()
        .map(|&i| index(c, i, dim, ind.shape()))
        .collect::<Result<_>>()?;
    let mut idx = Vec::with_capacity(outer * norm.len() * inner);
    for o in 0..outer {
        for &j in &norm {
            let base = (o * dim + j) * inner;
            idx.extend(base..base + inner);
        }
    }
    let mut shape = x.shape()[..axis].to_vec();
    shape.extend(ind.shape());
    shape.extend(&x.shape()[axis + 1..]);
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}

/// `GatherElements`.
pub(crate) fn gather_elements(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let ind = c.input(1)?;
    let iv = c.ints_input(1)?.unwrap_or_default();
    let r = x.rank();
    if ind.rank() != r || r == 0 {
        return Err(c.shape_err(1, format!("rank {r}"), ind.shape()));
    }
    let axis = c.axis("axis", c.int("axis", 0)?, r)?;
    let xs = strides(x.shape());
    let is = strides(ind.shape());
    let mut idx = Vec::with_capacity(iv.len());
    for (flat, &raw) in iv.iter().enumerate() {
        let mut src = 0;
        for d in 0..r {
            let p = (flat / is[d]) % ind.shape()[d];
            let p = if d == axis {
                index(c, raw, x.shape()[d], ind.shape())?
            } else {
                p
            };
            if p >= x.shape()[d] {
                return Err(c.shape_err(
                    1,
                    format!("extents ≤ {:?} off the axis", x.shape()),
                    ind.shape(),
                ));
            }
            src += p * xs[d];
        }
        idx.push(src);
    }
    Ok(vec![out(ind.shape().to_vec(), take_data(x.data(), &idx))?])
}
