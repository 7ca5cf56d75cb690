//! `BatchNormalization` in inference mode:
//! `Y = scale · (X − mean) / sqrt(var + epsilon) + B` per channel.
//!
//! In: `X [N, C, …]`, `scale`, `B`, `input_mean`, `input_var` (each `[C]`, f32).
//! Out: `Y` like `X`. `training_mode = 1` is rejected (not an inference op).
//! Example: with scale 2, B 1, mean 0, var 1 and epsilon 0, `X = 3` gives `7`.

use crate::call::{out_f32, Call};
use crate::Result;
use onnc_tensor::Tensor;
use rayon::prelude::*;

/// `BatchNormalization`.
pub(crate) fn batch_norm(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(5, 5)?;
    let x = c.input(0)?;
    let xv = c.f32_input(0)?;
    if c.int("training_mode", 0)? != 0 {
        return Err(c.unsupported("training_mode = 1"));
    }
    let eps = c.float("epsilon", 1e-5)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let ch = x.shape()[1];
    let mut params = Vec::with_capacity(4);
    for i in 1..5 {
        let t = c.input(i)?;
        if t.shape() != [ch] {
            return Err(c.shape_err(i, format!("[{ch}]"), t.shape()));
        }
        params.push(c.f32_input(i)?);
    }
    let (scale, bias, mean, var) = (params[0], params[1], params[2], params[3]);
    let inner: usize = x.shape()[2..].iter().product::<usize>().max(1);
    // Per channel `y = a·x + b`; planes in parallel (each element alone).
    let mut y = vec![0f32; xv.len()];
    y.par_chunks_mut(inner)
        .zip(xv.par_chunks(inner))
        .enumerate()
        .with_min_len((super::par::MIN_LEN / inner).max(1))
        .for_each(|(i, (yc, xc))| {
            let k = i % ch;
            let a = scale[k] / (var[k] + eps).sqrt();
            let b = bias[k] - mean[k] * a;
            for (yo, &xi) in yc.iter_mut().zip(xc) {
                *yo = xi * a + b;
            }
        });
    Ok(vec![out_f32(x.shape().to_vec(), y)?])
}
