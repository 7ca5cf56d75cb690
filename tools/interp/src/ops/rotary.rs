//! `RotaryEmbedding`: rotates the first `rotary_embedding_dim` features of
//! each head by position-dependent angles (`cos_cache`, `sin_cache`),
//! pairing halves (default) or adjacent elements (`interleaved`).
//!
//! In: `input [B, H, S, D]` or `[B, S, hidden]` (`num_heads` splits it),
//! `cos_cache`/`sin_cache` `[max_pos, R/2]` indexed by int64
//! `position_ids [B, S]`, or `[B, S, R/2]` without them. Out: like `input`.
//! Example: cos = 1, sin = 0 leaves the input unchanged.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `RotaryEmbedding`.
pub(crate) fn rotary_embedding(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 4)?;
    let x = c.input(0)?;
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    // Element (b, s, h, d) of the input, as [B, S, H, D].
    let (b_n, s_n, h_n, d_n, four) = match x.rank() {
        4 => (x.shape()[0], x.shape()[2], x.shape()[1], x.shape()[3], true),
        3 => {
            let h = c.int("num_heads", 0)?;
            if h < 1 || x.shape()[2] % h as usize != 0 {
                return Err(c.attr_err(
                    "num_heads",
                    format!("must divide the hidden size {}, got {h}", x.shape()[2]),
                ));
            }
            (
                x.shape()[0],
                x.shape()[1],
                h as usize,
                x.shape()[2] / h as usize,
                false,
            )
        }
        _ => return Err(c.shape_err(0, "rank 3 or 4", x.shape())),
    };
    let flat = |b: usize, s: usize, h: usize, d: usize| {
        if four {
            ((b * h_n + h) * s_n + s) * d_n + d
        } else {
            ((b * s_n + s) * h_n + h) * d_n + d
        }
    };
    let rd = match c.int("rotary_embedding_dim", 0)? {
        0 => d_n,
        r if r > 0 && r as usize <= d_n && r % 2 == 0 => r as usize,
        r => {
            return Err(c.attr_err(
                "rotary_embedding_dim",
                format!("must be even and ≤ {d_n}, got {r}"),
            ))
        }
    };
    let half = rd / 2;
    let (cos, sin) = (c.input(1)?, c.input(2)?);
    let (cv, sv) = (cos.data().to_f64_vec(), sin.data().to_f64_vec());
    let pos = c.ints_input(3)?;
    if cos.shape().last() != Some(&half) || sin.shape() != cos.shape() {
        return Err(c.shape_err(1, format!("[…, {half}] (and sin_cache alike)"), cos.shape()));
    }
    let rows = cv.len() / half.max(1);
    let row_of = |b: usize, s: usize| -> Result<usize> {
        let r = match &pos {
            Some(p) if p.len() == b_n * s_n => p[b * s_n + s],
            Some(_) => return Err(c.shape_err(3, format!("[{b_n}, {s_n}]"), c.input(3)?.shape())),
            None => (b * s_n + s) as i64,
        };
        if r < 0 || r as usize >= rows {
            return Err(c.shape_err(1, format!("a row for position {r}"), cos.shape()));
        }
        Ok(r as usize)
    };
    let interleaved = c.int("interleaved", 0)? != 0;
    let xv = x.data().to_f64_vec();
    let mut y = xv.clone();
    for b in 0..b_n {
        for s in 0..s_n {
            let r = row_of(b, s)?;
            for h in 0..h_n {
                for k in 0..half {
                    let (i1, i2) = if interleaved {
                        (2 * k, 2 * k + 1)
                    } else {
                        (k, k + half)
                    };
                    let (x1, x2) = (xv[flat(b, s, h, i1)], xv[flat(b, s, h, i2)]);
                    let (co, si) = (cv[r * half + k], sv[r * half + k]);
                    y[flat(b, s, h, i1)] = co * x1 - si * x2;
                    y[flat(b, s, h, i2)] = si * x1 + co * x2;
                }
            }
        }
    }
    Ok(vec![out(
        x.shape().to_vec(),
        Data::from_f64s(x.dtype(), &y),
    )?])
}
