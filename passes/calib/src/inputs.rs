//! Checking a tensor read from a file against the model input it feeds.
//!
//! In: the file, the tensor, the graph input. Out: the tensor (reshaped when
//! allowed) or an error naming the file, what it holds, what the input
//! wants and how to fix it.

use std::path::Path;

use onnc_onnx::{Dim, TypeInfo, ValueInfo};
use onnc_tensor::Tensor;

use crate::error::{CalibError, Result};

fn shape_fits(dims: &[Dim], shape: &[usize]) -> bool {
    dims.len() == shape.len()
        && dims
            .iter()
            .zip(shape)
            .all(|(d, &n)| !matches!(d, Dim::Fixed(k) if *k != n))
}

/// `t` if it fits `input` (same element type; every fixed dimension
/// equal, symbolic ones free). With `drop_batch`, a tensor without the
/// input's leading batch dimension of 1 is accepted and given it.
pub fn fit(path: &Path, t: Tensor, input: &ValueInfo, drop_batch: bool) -> Result<Tensor> {
    let want = input.type_info();
    if t.dtype() != input.dtype {
        let fix = if input.dtype == onnc_tensor::DType::F32 {
            " (numpy: save arr.astype(np.float32))"
        } else {
            ""
        };
        return Err(CalibError::input(
            path,
            format!(
                "holds {} values, graph input `{}` is {want}{fix}",
                t.dtype().mlir_name(),
                input.name
            ),
        ));
    }
    if shape_fits(&input.dims, t.shape()) {
        return Ok(t);
    }
    if drop_batch
        && matches!(input.dims.first(), Some(Dim::Fixed(1)))
        && shape_fits(&input.dims[1..], t.shape())
    {
        let mut shape = vec![1];
        shape.extend_from_slice(t.shape());
        return t
            .reshape(shape)
            .map_err(|e| CalibError::input(path, e.to_string()));
    }
    Err(CalibError::input(
        path,
        format!(
            "holds {}, graph input `{}` is {want}",
            TypeInfo::of(&t),
            input.name
        ),
    ))
}
