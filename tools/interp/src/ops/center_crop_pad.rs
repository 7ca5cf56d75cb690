//! `CenterCropPad`: crops or zero-pads each listed axis (`axes`, default
//! all) around its center to the extents of the int64 `shape` input.
//!
//! In: any tensor and `shape`. Out: the cropped/padded tensor.
//! Example: `[1, 2, 3, 4]` to `[2]` gives `[2, 3]`; `[1, 2]` to `[4]` gives `[0, 1, 2, 0]`.

use crate::call::{out, Call};
use crate::layout::{product_index, strides, take_data_or, FILL};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `CenterCropPad`.
pub(crate) fn center_crop_pad(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let target = c.ints_input(1)?.unwrap_or_default();
    let r = x.rank();
    let axes: Vec<usize> = match c.ints("axes")? {
        None => (0..r).collect(),
        Some(a) => a
            .iter()
            .map(|&v| c.axis("axes", v, r))
            .collect::<Result<_>>()?,
    };
    if target.len() != axes.len()
        || target
            .iter()
            .any(|&t| t < 0 || t as usize > crate::call::MAX_ELEMENTS)
    {
        return Err(c.shape_err(
            1,
            format!("[{}] non-negative extents", axes.len()),
            c.input(1)?.shape(),
        ));
    }
    let mut coords: Vec<Vec<usize>> = x.shape().iter().map(|&d| (0..d).collect()).collect();
    for (&a, &t) in axes.iter().zip(&target) {
        let (n, t) = (x.shape()[a], t as usize);
        coords[a] = if t <= n {
            let s = (n - t) / 2;
            (s..s + t).collect()
        } else {
            let before = (t - n) / 2;
            (0..t)
                .map(|o| {
                    if o >= before && o < before + n {
                        o - before
                    } else {
                        FILL
                    }
                })
                .collect()
        };
    }
    let shape: Vec<usize> = coords.iter().map(Vec::len).collect();
    c.checked_numel(&shape, 1)?;
    let idx = product_index(&coords, &strides(x.shape()));
    let zero = Data::from_f64s(x.dtype(), &[0.0]);
    Ok(vec![out(shape, take_data_or(x.data(), &idx, &zero))?])
}
