//! Tensor sources: `Constant` (from `value` or `value_float(s)` /
//! `value_int(s)`), `ConstantOfShape`, `Shape` (`start`/`end`), `Size`, `Range`.
//!
//! In: attributes (and for `ConstantOfShape` an int64 shape, for `Shape`
//! and `Size` any tensor, for `Range` three scalars). Out: one tensor.
//! Example: `Shape([2, 3] tensor) = [2, 3]` (int64);
//! `Range(1, 6, 2) = [1, 3, 5]`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// `Constant`.
pub(crate) fn constant(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(0, 0)?;
    if let Some(t) = c.tensor("value")? {
        return Ok(vec![t.clone()]);
    }
    if c.has("value_float") {
        return Ok(vec![out(
            vec![],
            Data::F32(vec![c.float("value_float", 0.0)?]),
        )?]);
    }
    if let Some(v) = c.floats("value_floats")? {
        return Ok(vec![out(vec![v.len()], Data::F32(v.to_vec()))?]);
    }
    if c.has("value_int") {
        return Ok(vec![out(vec![], Data::I64(vec![c.int("value_int", 0)?]))?]);
    }
    if let Some(v) = c.ints("value_ints")? {
        return Ok(vec![out(vec![v.len()], Data::I64(v.to_vec()))?]);
    }
    for name in ["sparse_value", "value_string", "value_strings"] {
        if c.has(name) {
            return Err(c.unsupported(format!("attribute `{name}`")));
        }
    }
    Err(c.attr_err("value", "no value attribute given"))
}

/// `ConstantOfShape` (`value` defaults to f32 0).
pub(crate) fn constant_of_shape(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let spec = c.ints_input(0)?.unwrap_or_default();
    if spec.iter().any(|&d| d < 0) {
        return Err(c.shape_err(0, "non-negative extents", &[spec.len()]));
    }
    let shape: Vec<usize> = spec.iter().map(|&d| d as usize).collect();
    let n = c.checked_numel(&shape, 0)?;
    let value = match c.tensor("value")? {
        Some(t) if t.numel() == 1 => t.clone(),
        Some(t) => {
            return Err(c.attr_err(
                "value",
                format!("must hold one element, holds {}", t.numel()),
            ))
        }
        None => Tensor::full(DType::F32, vec![1], 0.0),
    };
    let data = crate::layout::take_data(value.data(), &vec![0; n]);
    Ok(vec![out(shape, data)?])
}

/// `Shape` (with opset-15 `start`/`end`, clamped).
pub(crate) fn shape(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let r = x.rank() as i64;
    let norm = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
    let s = norm(c.int("start", 0)?);
    let e = norm(c.int("end", r)?);
    let dims: Vec<i64> = x.shape()[s..e.max(s)].iter().map(|&d| d as i64).collect();
    Ok(vec![out(vec![dims.len()], Data::I64(dims))?])
}

/// `Size`.
pub(crate) fn size(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    Ok(vec![out(
        vec![],
        Data::I64(vec![c.input(0)?.numel() as i64]),
    )?])
}

/// Most elements `Range` may produce (guards against absurd scalars).
pub(crate) const MAX_RANGE_LEN: f64 = crate::call::MAX_ELEMENTS as f64;

/// `Range`: `start, start+delta, …` while below `limit` (above, for negative delta).
pub(crate) fn range(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let t = c.input(0)?;
    for i in 0..3 {
        let u = c.input(i)?;
        if u.numel() != 1 {
            return Err(c.shape_err(i, "a scalar", u.shape()));
        }
        if u.dtype() != t.dtype() {
            return Err(c.type_err(i, t.dtype().to_string(), u.dtype()));
        }
    }
    let get = |i| c.scalar_input(i).map(|v| v.unwrap_or(0.0));
    let (start, limit, delta) = (get(0)?, get(1)?, get(2)?);
    if delta == 0.0 {
        return Err(c.shape_err(2, "a non-zero delta", &[]));
    }
    let n = ((limit - start) / delta).ceil().max(0.0);
    if n > MAX_RANGE_LEN || n.is_nan() {
        return Err(c.shape_err(1, format!("at most {MAX_RANGE_LEN} elements"), &[]));
    }
    let n = n as usize;
    let data = match t.data() {
        Data::F32(_) => {
            let (s, d) = (start as f32, delta as f32);
            Data::F32((0..n).map(|i| s + i as f32 * d).collect())
        }
        Data::I64(v) => {
            let d = c.input(2)?.as_i64().map(|x| x[0]).unwrap_or(1);
            Data::I64(
                (0..n as i64)
                    .map(|i| v[0].wrapping_add(i.wrapping_mul(d)))
                    .collect(),
            )
        }
        _ => Data::from_f64s(
            t.dtype(),
            &(0..n).map(|i| start + i as f64 * delta).collect::<Vec<_>>(),
        ),
    };
    Ok(vec![out(vec![n], data)?])
}
