//! `LRN`: local response normalization across channels,
//! `Y = X / (bias + alpha/size · Σ X²)^beta` over channels
//! `c − ⌊(size−1)/2⌋ … c + ⌈(size−1)/2⌉`.
//!
//! In: `X [N, C, …]` (f32); `size` required, `alpha` = 1e-4, `beta` = 0.75,
//! `bias` = 1. Out: `Y` like `X`.
//! Example: `size=1, alpha=1, beta=1, bias=0` maps 2 to 2 / 4 = 0.5.

use crate::call::{out_f32, Call};
use crate::Result;
use onnc_tensor::Tensor;

/// `LRN`.
pub(crate) fn lrn(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let xv = c.f32_input(0)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let size = c.int("size", 0)?;
    if size < 1 {
        return Err(c.attr_err("size", format!("required and ≥ 1, got {size}")));
    }
    let alpha = c.float("alpha", 1e-4)? as f64;
    let beta = c.float("beta", 0.75)? as f64;
    let bias = c.float("bias", 1.0)? as f64;
    let (n, ch) = (x.shape()[0], x.shape()[1]);
    let inner: usize = x.shape()[2..].iter().product();
    let lo = ((size - 1) / 2) as usize;
    let hi = (size as usize - 1).div_ceil(2);
    let mut y = vec![0f32; xv.len()];
    for b in 0..n {
        for k in 0..ch {
            let from = k.saturating_sub(lo);
            let to = (k + hi).min(ch - 1);
            for i in 0..inner {
                let mut s = 0f64;
                for j in from..=to {
                    let v = xv[(b * ch + j) * inner + i] as f64;
                    s += v * v;
                }
                let at = (b * ch + k) * inner + i;
                y[at] = (xv[at] as f64 / (bias + alpha / size as f64 * s).powf(beta)) as f32;
            }
        }
    }
    Ok(vec![out_f32(x.shape().to_vec(), y)?])
}
