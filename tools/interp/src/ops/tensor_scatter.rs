//! `TensorScatter`: writes `update` into a copy of `past_cache` along `axis`
//! (default −2) starting at the per-batch `write_indices` (default 0);
//! `mode` = `linear` or `circular` (positions wrap around the axis).
//!
//! In: `past_cache`, `update` (same shape except a shorter or equal axis),
//! optional int64 `write_indices [batch]`. Out: `present_cache`.
//! Example: cache `[[0, 0, 0]]` (axis 1), update `[[7]]`, index 2 → `[[0, 0, 7]]`.

use crate::call::{out, Call};
use crate::elem::{map_data, Pick};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `TensorScatter`.
pub(crate) fn tensor_scatter(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let (cache, upd) = (c.input(0)?, c.input(1)?);
    let r = cache.rank();
    if r < 2 {
        return Err(c.shape_err(0, "rank ≥ 2", cache.shape()));
    }
    let axis = c.axis("axis", c.int("axis", -2)?, r)?;
    let fits = upd.rank() == r
        && (0..r).all(|d| {
            if d == axis {
                upd.shape()[d] <= cache.shape()[d]
            } else {
                upd.shape()[d] == cache.shape()[d]
            }
        });
    if !fits || axis == 0 {
        return Err(c.shape_err(
            1,
            format!("{:?} with a shorter axis {axis} (> 0)", cache.shape()),
            upd.shape(),
        ));
    }
    if upd.dtype() != cache.dtype() {
        return Err(c.type_err(1, cache.dtype().to_string(), upd.dtype()));
    }
    let nb = cache.shape()[0];
    let starts = c.ints_input(2)?.unwrap_or_else(|| vec![0; nb]);
    if starts.len() != nb {
        return Err(c.shape_err(2, format!("[{nb}]"), c.input(2)?.shape()));
    }
    let circular = match c.string("mode", "linear")? {
        "linear" => false,
        "circular" => true,
        m => return Err(c.attr_err("mode", format!("expected linear or circular, got `{m}`"))),
    };
    let (cs, us) = (strides(cache.shape()), strides(upd.shape()));
    let max = cache.shape()[axis] as i64;
    let mut pairs = Vec::with_capacity(upd.numel());
    for f in 0..upd.numel() {
        let mut dst = 0usize;
        for d in 0..r {
            let p = (f / us[d]) % upd.shape()[d];
            let p = if d == axis {
                let b = (f / us[0]) % nb;
                let q = starts[b] + p as i64;
                let q = if circular { q.rem_euclid(max) } else { q };
                if !(0..max).contains(&q) {
                    return Err(c.shape_err(
                        2,
                        format!("write positions within 0..{max}"),
                        c.input(2)?.shape(),
                    ));
                }
                q as usize
            } else {
                p
            };
            dst += p * cs[d];
        }
        pairs.push((dst, f));
    }
    fn go<T: Pick>(v: &[T], u: &Data, pairs: &[(usize, usize)]) -> Vec<T> {
        let u = T::pick(u).expect("dtypes checked");
        let mut y = v.to_vec();
        for &(d, s) in pairs {
            y[d] = u[s];
        }
        y
    }
    let data = map_data!(cache.data(), v => go(v, upd.data(), &pairs));
    Ok(vec![out(cache.shape().to_vec(), data)?])
}
