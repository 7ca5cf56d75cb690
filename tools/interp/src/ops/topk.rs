//! `TopK`: the `K` largest (or smallest, `largest = 0`) elements along
//! `axis` (default −1), sorted; ties keep the lower index first.
//!
//! In: a numeric tensor and an int64 `K` of one element. Out: `Values`
//! (same type) and int64 `Indices`, the axis extent replaced by `K`.
//! Example: `TopK([1, 3, 2], K=[2]) = [3, 2], [1, 2]`.

use crate::call::{out, Call};
use crate::layout::take_data;
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// `TopK`.
pub(crate) fn topk(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    if x.rank() == 0 || matches!(x.dtype(), DType::Bool) {
        return Err(c.shape_err(0, "a numeric tensor of rank ≥ 1", x.shape()));
    }
    let k = c.ints_input(1)?.unwrap_or_default();
    let axis = c.axis("axis", c.int("axis", -1)?, x.rank())?;
    let dim = x.shape()[axis];
    let k = match k.as_slice() {
        [k] if *k >= 0 && *k as usize <= dim => *k as usize,
        _ => return Err(c.shape_err(1, format!("one value in 0..={dim}"), c.input(1)?.shape())),
    };
    let largest = c.int("largest", 1)? != 0;
    let v = x.data().to_f64_vec();
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let mut src = Vec::with_capacity(outer * k * inner);
    let mut ind = vec![0i64; outer * k * inner];
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * dim + j) * inner + i;
            let mut order: Vec<usize> = (0..dim).collect();
            order.sort_by(|&p, &q| {
                let (a, b) = (v[at(p)], v[at(q)]);
                let ord = if largest {
                    b.total_cmp(&a)
                } else {
                    a.total_cmp(&b)
                };
                ord.then(p.cmp(&q))
            });
            for (r, &j) in order[..k].iter().enumerate() {
                ind[(o * k + r) * inner + i] = j as i64;
            }
        }
    }
    for o in 0..outer {
        for r in 0..k {
            for i in 0..inner {
                src.push((o * dim + ind[(o * k + r) * inner + i] as usize) * inner + i);
            }
        }
    }
    let mut shape = x.shape().to_vec();
    shape[axis] = k;
    Ok(vec![
        out(shape.clone(), take_data(x.data(), &src))?,
        out(shape, Data::I64(ind))?,
    ])
}
