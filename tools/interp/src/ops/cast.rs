//! `Cast` (to the ONNX type code in `to`) and `CastLike`.
//!
//! In: a numeric or bool tensor. Out: the same values converted — floats
//! to integers truncate toward zero, anything to bool is `x != 0`.
//! Example: `Cast{to=7}([1.7, -1.7]) = [1, -1]` (int64).

use crate::call::Call;
use crate::Result;
use onnc_tensor::{DType, Tensor};

/// `Cast`.
pub(crate) fn cast(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let to = c.int("to", 0)?;
    let dt = DType::from_onnx(to as i32)
        .ok_or_else(|| c.attr_err("to", format!("type code {to} is not supported")))?;
    Ok(vec![c.input(0)?.cast(dt)])
}

/// `CastLike`.
pub(crate) fn cast_like(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    Ok(vec![c.input(0)?.cast(c.input(1)?.dtype())])
}

/// `BitCast`: reinterprets the bytes of each element as type `to` of the
/// same size (different sizes are not supported).
pub(crate) fn bit_cast(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let to = c.int("to", 0)?;
    let dt = DType::from_onnx(to as i32)
        .ok_or_else(|| c.attr_err("to", format!("type code {to} is not supported")))?;
    if dt.size() != x.dtype().size() {
        return Err(c.unsupported(format!(
            "bit-casting {} to {dt} (different sizes)",
            x.dtype()
        )));
    }
    Ok(vec![Tensor::from_le_bytes(
        dt,
        x.shape().to_vec(),
        &x.to_le_bytes(),
    )?])
}
