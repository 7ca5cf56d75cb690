//! `ScatterND` and `ScatterElements` (with `reduction` none/add/mul/max/min),
//! and `GatherND` (with `batch_dims`).
//!
//! Scatter in: `data`, int64 `indices`, `updates` of `data`'s type. Out: a
//! copy of `data` with the updates written (or combined) in index order.
//! `GatherND` in: `data` and int64 `indices [..., q]`. Out:
//! `indices.shape[:-1] + data.shape[batch_dims + q:]`.
//! Example: `ScatterND([1, 2, 3], indices=[[2]], updates=[9]) = [1, 2, 9]`.

use crate::call::{out, Call};
use crate::elem::{map_data, map_numeric, Elem, Pick};
use crate::layout::{strides, take_data};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Normalizes index `i` against extent `dim`, naming input 1 on failure.
fn wrap(c: &Call, i: i64, dim: usize) -> Result<usize> {
    let d = dim as i64;
    if i < -d || i >= d {
        return Err(c.shape_err(
            1,
            format!("indices within [-{dim}, {dim}) (found {i})"),
            c.input(1)?.shape(),
        ));
    }
    Ok(if i < 0 { (i + d) as usize } else { i as usize })
}

/// Writes `updates[src]` into `data[dst]` for each pair, combining per `reduction`.
fn apply(c: &Call, data: &Tensor, updates: &Tensor, pairs: &[(usize, usize)]) -> Result<Tensor> {
    if updates.dtype() != data.dtype() {
        return Err(c.type_err(2, data.dtype().to_string(), updates.dtype()));
    }
    let red = c.string("reduction", "none")?;
    fn copy<T: Pick>(v: &[T], u: &Data, pairs: &[(usize, usize)]) -> Vec<T> {
        let u = T::pick(u).expect("dtypes checked");
        let mut y = v.to_vec();
        for &(d, s) in pairs {
            y[d] = u[s];
        }
        y
    }
    fn reduce<T: Elem + Pick>(v: &[T], u: &Data, pairs: &[(usize, usize)], red: &str) -> Vec<T> {
        let u = T::pick(u).expect("dtypes checked");
        let mut y = v.to_vec();
        for &(d, s) in pairs {
            let (a, b) = (y[d], u[s]);
            y[d] = match red {
                "add" => a.add(b),
                "mul" => a.mul(b),
                "max" => {
                    if b > a {
                        b
                    } else {
                        a
                    }
                }
                _ => {
                    if b < a {
                        b
                    } else {
                        a
                    }
                }
            };
        }
        y
    }
    let d = match red {
        "none" => map_data!(data.data(), v => copy(v, updates.data(), pairs)),
        "add" | "mul" | "max" | "min" => {
            map_numeric!(data.data(), v => reduce(v, updates.data(), pairs, red))
                .ok_or_else(|| c.type_err(0, "a numeric type", data.dtype()))?
        }
        other => return Err(c.attr_err("reduction", format!("unknown value `{other}`"))),
    };
    out(data.shape().to_vec(), d)
}

/// `ScatterND`.
pub(crate) fn scatter_nd(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let (x, ind, upd) = (c.input(0)?, c.input(1)?, c.input(2)?);
    let iv = c.ints_input(1)?.unwrap_or_default();
    let q = *ind
        .shape()
        .last()
        .ok_or_else(|| c.shape_err(1, "rank ≥ 1", ind.shape()))?;
    if q > x.rank() {
        return Err(c.shape_err(1, format!("last extent ≤ {}", x.rank()), ind.shape()));
    }
    let mut want = ind.shape()[..ind.rank() - 1].to_vec();
    want.extend(&x.shape()[q..]);
    if upd.shape() != want.as_slice() {
        return Err(c.shape_err(2, format!("{want:?}"), upd.shape()));
    }
    let st = strides(x.shape());
    let slice: usize = x.shape()[q..].iter().product();
    let mut pairs = Vec::with_capacity(upd.numel());
    for (p, tuple) in iv
        .chunks(q.max(1))
        .enumerate()
        .take(if q == 0 { 1 } else { usize::MAX })
    {
        let mut base = 0;
        for d in 0..q {
            base += wrap(c, tuple[d], x.shape()[d])? * st[d];
        }
        pairs.extend((0..slice).map(|s| (base + s, p * slice + s)));
    }
    Ok(vec![apply(c, x, upd, &pairs)?])
}

/// `ScatterElements` (and the deprecated `Scatter`).
pub(crate) fn scatter_elements(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let (x, ind, upd) = (c.input(0)?, c.input(1)?, c.input(2)?);
    let iv = c.ints_input(1)?.unwrap_or_default();
    let r = x.rank();
    if ind.rank() != r || r == 0 {
        return Err(c.shape_err(1, format!("rank {r}"), ind.shape()));
    }
    if upd.shape() != ind.shape() {
        return Err(c.shape_err(
            2,
            format!("{:?} (the indices' shape)", ind.shape()),
            upd.shape(),
        ));
    }
    let axis = c.axis("axis", c.int("axis", 0)?, r)?;
    let xs = strides(x.shape());
    let is = strides(ind.shape());
    let mut pairs = Vec::with_capacity(iv.len());
    for (f, &raw) in iv.iter().enumerate() {
        let mut dst = 0;
        for d in 0..r {
            let p = if d == axis {
                wrap(c, raw, x.shape()[d])?
            } else {
                (f / is[d]) % ind.shape()[d]
            };
            if p >= x.shape()[d] {
                return Err(c.shape_err(
                    1,
                    format!("extents ≤ {:?} off the axis", x.shape()),
                    ind.shape(),
                ));
            }
            dst += p * xs[d];
        }
        pairs.push((dst, f));
    }
    Ok(vec![apply(c, x, upd, &pairs)?])
}

/// `GatherND`.
pub(crate) fn gather_nd(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let (x, ind) = (c.input(0)?, c.input(1)?);
    let iv = c.ints_input(1)?.unwrap_or_default();
    let b = c.int("batch_dims", 0)?;
    let q = *ind
        .shape()
        .last()
        .ok_or_else(|| c.shape_err(1, "rank ≥ 1", ind.shape()))?;
    if b < 0
        || b as usize >= ind.rank()
        || b as usize + q > x.rank()
        || x.shape()[..b as usize] != ind.shape()[..b as usize]
    {
        return Err(c.shape_err(
            1,
            format!(
                "batch dims {b} shared with data {:?} and last extent ≤ rank − batch_dims",
                x.shape()
            ),
            ind.shape(),
        ));
    }
    let b = b as usize;
    let st = strides(x.shape());
    let slice: usize = x.shape()[b + q..].iter().product();
    let batch_stride: usize = x.shape()[b..].iter().product();
    let per_batch: usize = ind.shape()[b..ind.rank() - 1].iter().product();
    let mut idx = Vec::new();
    for (p, tuple) in iv.chunks(q.max(1)).enumerate() {
        let mut base = (p / per_batch.max(1)) * batch_stride;
        for d in 0..q {
            base += wrap(c, tuple[d], x.shape()[b + d])? * st[b + d];
        }
        idx.extend(base..base + slice);
    }
    if q == 0 {
        idx.clear();
        let n: usize = ind.shape()[..ind.rank() - 1].iter().product();
        for p in 0..n {
            let base = (p / per_batch.max(1)) * batch_stride;
            idx.extend(base..base + slice);
        }
    }
    let mut shape = ind.shape()[..ind.rank() - 1].to_vec();
    shape.extend(&x.shape()[b + q..]);
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}
