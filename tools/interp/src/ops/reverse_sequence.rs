//! `ReverseSequence`: reverses the first `sequence_lens[b]` steps of each
//! batch entry along `time_axis` (default 0); `batch_axis` defaults to 1.
//!
//! In: a tensor of rank ≥ 2 and int64 `sequence_lens [batch]`. Out: same shape.
//! Example: time-major `[[1], [2], [3]]` with lengths `[2]` gives `[[2], [1], [3]]`.

use crate::call::{out, Call};
use crate::layout::{strides, take_data};
use crate::Result;
use onnc_tensor::Tensor;

/// `ReverseSequence`.
pub(crate) fn reverse_sequence(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let lens = c.ints_input(1)?.unwrap_or_default();
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2", x.shape()));
    }
    let ta = c.axis("time_axis", c.int("time_axis", 0)?, 2)?;
    let ba = c.axis("batch_axis", c.int("batch_axis", 1)?, 2)?;
    if ta == ba {
        return Err(c.attr_err("batch_axis", "must differ from time_axis"));
    }
    let (steps, batch) = (x.shape()[ta], x.shape()[ba]);
    if lens.len() != batch || lens.iter().any(|&l| l < 0 || l as usize > steps) {
        return Err(c.shape_err(
            1,
            format!("[{batch}] lengths in 0..={steps}"),
            c.input(1)?.shape(),
        ));
    }
    let st = strides(x.shape());
    let idx: Vec<usize> = (0..x.numel())
        .map(|f| {
            let t = (f / st[ta]) % steps;
            let b = (f / st[ba]) % batch;
            let l = lens[b] as usize;
            if t < l {
                f - t * st[ta] + (l - 1 - t) * st[ta]
            } else {
                f
            }
        })
        .collect();
    Ok(vec![out(x.shape().to_vec(), take_data(x.data(), &idx))?])
}
