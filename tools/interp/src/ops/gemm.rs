//! `Gemm`: `Y = alpha·A'·B' + beta·C` with `A' = transA ? Aᵀ : A` (likewise B),
//! on [`super::mm::product`] (faer's gemm, parallel over output tiles,
//! deterministic).
//!
//! In: `A [M, K]` (or `[K, M]`), `B [K, N]` (or `[N, K]`), optional `C`
//! unidirectionally broadcast to `[M, N]` (f32). Out: `Y [M, N]`.
//! Example: `Gemm([[1, 2]], [[3], [4]]) = [[11]]`.

use super::mm;
use crate::call::{out_f32, Call};
use crate::layout::{broadcast_index, broadcasts_to};
use crate::Result;
use onnc_tensor::Tensor;

/// `Gemm`.
pub(crate) fn gemm(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let (a, b) = (c.input(0)?, c.input(1)?);
    let (av, bv) = (c.f32_input(0)?, c.f32_input(1)?);
    let alpha = c.float("alpha", 1.0)?;
    let beta = c.float("beta", 1.0)?;
    let ta = c.int("transA", 0)? != 0;
    let tb = c.int("transB", 0)? != 0;
    if a.rank() != 2 {
        return Err(c.shape_err(0, "rank 2", a.shape()));
    }
    if b.rank() != 2 {
        return Err(c.shape_err(1, "rank 2", b.shape()));
    }
    let (m, k) = if ta {
        (a.shape()[1], a.shape()[0])
    } else {
        (a.shape()[0], a.shape()[1])
    };
    let (kb, n) = if tb {
        (b.shape()[1], b.shape()[0])
    } else {
        (b.shape()[0], b.shape()[1])
    };
    if kb != k {
        let want = if tb {
            format!("[N, {k}]")
        } else {
            format!("[{k}, N]")
        };
        return Err(c.shape_err(1, want, b.shape()));
    }
    c.checked_numel(&[m, n], 1)?;
    let mut y = vec![0f32; m * n];
    let mut accumulate = false;
    if let Some(ct) = c.opt(2) {
        let cv = c.f32_input(2)?;
        if !broadcasts_to(ct.shape(), &[m, n]) {
            return Err(c.shape_err(2, format!("broadcastable to [{m}, {n}]"), ct.shape()));
        }
        for (dst, i) in y.iter_mut().zip(broadcast_index(ct.shape(), &[m, n])) {
            *dst = beta * cv[i];
        }
        accumulate = true;
    }
    let am = mm::rows(av, a.shape()[0], a.shape()[1]);
    let bm = mm::rows(bv, b.shape()[0], b.shape()[1]);
    let am = if ta { am.transpose() } else { am };
    let bm = if tb { bm.transpose() } else { bm };
    mm::product(&mut y, am, bm, alpha, accumulate);
    Ok(vec![out_f32(vec![m, n], y)?])
}
