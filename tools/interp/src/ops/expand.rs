//! `Expand` (bidirectional broadcast to a shape) and `Tile` (repeat along
//! each axis).
//!
//! In: `input` of any type and an int64 `shape` / `repeats`.
//! Out: the broadcast or tiled tensor.
//! Example: `Expand([1, 2], shape=[2, 1]) = [[1, 2], [1, 2]]`;
//! `Tile([1, 2], repeats=[2]) = [1, 2, 1, 2]`.

use crate::call::{out, Call};
use crate::layout::{broadcast_index, product_index, strides, take_data};
use crate::Result;
use onnc_tensor::Tensor;

/// `Expand`.
pub(crate) fn expand(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let spec = c
        .ints_input(1)?
        .ok_or_else(|| c.attr_err("shape", "missing (input 1)"))?;
    if spec.iter().any(|&d| d < 0) {
        return Err(c.attr_err("shape", format!("negative extent in {spec:?}")));
    }
    let spec: Vec<usize> = spec.iter().map(|&d| d as usize).collect();
    let shape = c.broadcast(&spec, x.shape(), 0)?;
    let idx = broadcast_index(x.shape(), &shape);
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}

/// `Tile`.
pub(crate) fn tile(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let reps = c
        .ints_input(1)?
        .ok_or_else(|| c.attr_err("repeats", "missing (input 1)"))?;
    if reps.len() != x.rank() || reps.iter().any(|&v| v < 0) {
        return Err(c.attr_err(
            "repeats",
            format!("expected {} values ≥ 0, got {reps:?}", x.rank()),
        ));
    }
    let tiled: Vec<usize> = x
        .shape()
        .iter()
        .zip(&reps)
        .map(|(&n, &k)| n.saturating_mul(k as usize))
        .collect();
    c.checked_numel(&tiled, 1)?;
    let coords: Vec<Vec<usize>> = x
        .shape()
        .iter()
        .zip(&reps)
        .map(|(&n, &k)| (0..n * k as usize).map(|i| i % n).collect())
        .collect();
    let shape = coords.iter().map(Vec::len).collect();
    let idx = product_index(&coords, &strides(x.shape()));
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}
