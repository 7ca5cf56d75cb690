//! `CumSum` and `CumProd` along the scalar `axis` input, with `exclusive`
//! and `reverse` (both 0 by default).
//!
//! In: a numeric tensor and an int64/int32 scalar axis. Out: the running
//! sums or products, same shape and type.
//! Example: `CumSum([1, 2, 3], axis=0) = [1, 3, 6]`; exclusive gives `[0, 1, 3]`.

use crate::call::{out, Call};
use crate::elem::{map_numeric, Elem};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `CumSum` (`product = false`) or `CumProd`.
pub(crate) fn cumulative(c: &Call, product: bool) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let a = c.ints_input(1)?.unwrap_or_default();
    if a.len() != 1 {
        return Err(c.shape_err(1, "a scalar axis", c.input(1)?.shape()));
    }
    if x.rank() == 0 {
        return Err(c.shape_err(0, "rank ≥ 1", x.shape()));
    }
    let axis = c.axis("axis", a[0], x.rank())?;
    let exclusive = c.int("exclusive", 0)? != 0;
    let reverse = c.int("reverse", 0)? != 0;
    let dim = x.shape()[axis];
    let inner: usize = x.shape()[axis + 1..].iter().product();
    let outer: usize = x.shape()[..axis].iter().product();
    fn scan<T: Elem>(
        v: &[T],
        outer: usize,
        dim: usize,
        inner: usize,
        product: bool,
        exclusive: bool,
        reverse: bool,
    ) -> Vec<T> {
        let mut y = vec![T::default(); v.len()];
        let one = T::from_f64(if product { 1.0 } else { 0.0 });
        for o in 0..outer {
            for i in 0..inner {
                let mut acc = one;
                for s in 0..dim {
                    let k = if reverse { dim - 1 - s } else { s };
                    let at = (o * dim + k) * inner + i;
                    let next = if product {
                        acc.mul(v[at])
                    } else {
                        acc.add(v[at])
                    };
                    y[at] = if exclusive { acc } else { next };
                    acc = next;
                }
            }
        }
        y
    }
    let data = map_numeric!(x.data(), v => scan(v, outer, dim, inner, product, exclusive, reverse))
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}
