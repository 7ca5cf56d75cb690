//! `QuantizeLinear`, `DequantizeLinear` and `DynamicQuantizeLinear`: per-tensor, per-axis (`axis`,
//! default 1) or blocked (`block_size`) affine quantization.
//!
//! `QuantizeLinear` in: `x` (float), `y_scale`, optional `y_zero_point`.
//! Out: `saturate(round_half_even(x / scale) + zero_point)` in the zero
//! point's type, else `output_dtype`, else uint8 (8/16/32-bit integers).
//! `DequantizeLinear` in: integer `x`, `x_scale`, optional `x_zero_point`.
//! Out: `(x − zero_point) · scale` in the scale's float type.
//! Example: `QuantizeLinear([1.0, -1.0], 0.5, 128u8) = [130, 126]`.

use crate::call::{out, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// For each element of `x`, the index of its scale / zero point.
fn param_index(c: &Call, x: &Tensor, scale: &Tensor) -> Result<Vec<usize>> {
    let n = x.numel();
    if scale.numel() == 1 {
        return Ok(vec![0; n]);
    }
    let r = x.rank();
    let axis = c.axis("axis", c.int("axis", 1)?, r)?;
    let block = c.int("block_size", 0)?;
    let xs = strides(x.shape());
    if block <= 0 {
        if scale.shape() != [x.shape()[axis]] {
            return Err(c.shape_err(
                1,
                format!("a scalar or [{}] (axis {axis})", x.shape()[axis]),
                scale.shape(),
            ));
        }
        return Ok((0..n).map(|f| (f / xs[axis]) % x.shape()[axis]).collect());
    }
    let block = block as usize;
    let mut want = x.shape().to_vec();
    want[axis] = want[axis].div_ceil(block);
    if scale.shape() != want.as_slice() {
        return Err(c.shape_err(
            1,
            format!("{want:?} (blocks of {block} on axis {axis})"),
            scale.shape(),
        ));
    }
    let ss = strides(&want);
    Ok((0..n)
        .map(|f| {
            (0..r)
                .map(|d| {
                    let p = (f / xs[d]) % x.shape()[d];
                    (if d == axis { p / block } else { p }) * ss[d]
                })
                .sum()
        })
        .collect())
}

/// Checks that the zero point (input 2), when given, matches the scale's shape.
fn zero_point<'a>(c: &Call<'a>, scale: &Tensor) -> Result<Option<&'a Tensor>> {
    match c.opt(2) {
        Some(z) if z.shape() != scale.shape() && z.numel() != scale.numel() => Err(c.shape_err(
            2,
            format!("{:?} (the scale's shape)", scale.shape()),
            z.shape(),
        )),
        other => Ok(other),
    }
}

/// `QuantizeLinear`.
pub(crate) fn quantize(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let (x, s) = (c.input(0)?, c.input(1)?);
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    if !s.dtype().is_float() {
        return Err(c.type_err(1, "a float type", s.dtype()));
    }
    let z = zero_point(c, s)?;
    let dt = match z {
        Some(z) => z.dtype(),
        None => match c.int("output_dtype", 0)? {
            0 => DType::U8,
            code => DType::from_onnx(code as i32).ok_or_else(|| {
                c.attr_err("output_dtype", format!("type code {code} is not supported"))
            })?,
        },
    };
    let (lo, hi) = match dt {
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        DType::U16 => (0.0, 65535.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::I32 => (i32::MIN as f64, i32::MAX as f64),
        DType::U32 => (0.0, u32::MAX as f64),
        other => return Err(c.unsupported(format!("quantizing to {other}"))),
    };
    let idx = param_index(c, x, s)?;
    let (xv, sv) = (x.data().to_f64_vec(), s.data().to_f64_vec());
    let zv = z
        .map(|z| z.data().to_f64_vec())
        .unwrap_or_else(|| vec![0.0; sv.len()]);
    let y: Vec<f64> = xv
        .iter()
        .zip(&idx)
        .map(|(&v, &k)| {
            // x / scale in the input's precision, as the reference computes it.
            let q = if x.dtype() == DType::F32 {
                (v as f32 / sv[k] as f32) as f64
            } else {
                v / sv[k]
            };
            (q.round_ties_even() + zv[k]).clamp(lo, hi)
        })
        .collect();
    Ok(vec![out(x.shape().to_vec(), Data::from_f64s(dt, &y))?])
}

/// `DequantizeLinear`.
pub(crate) fn dequantize(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let (x, s) = (c.input(0)?, c.input(1)?);
    if x.dtype().is_float() || x.dtype() == DType::Bool {
        return Err(c.type_err(0, "an integer type", x.dtype()));
    }
    if !s.dtype().is_float() {
        return Err(c.type_err(1, "a float type", s.dtype()));
    }
    let z = zero_point(c, s)?;
    if let Some(z) = z {
        if z.dtype() != x.dtype() {
            return Err(c.type_err(2, x.dtype().to_string(), z.dtype()));
        }
    }
    let idx = param_index(c, x, s)?;
    let (xv, sv) = (x.data().to_f64_vec(), s.data().to_f64_vec());
    let zv = z
        .map(|z| z.data().to_f64_vec())
        .unwrap_or_else(|| vec![0.0; sv.len()]);
    let dt = s.dtype();
    let y: Vec<f64> = xv
        .iter()
        .zip(&idx)
        .map(|(&v, &k)| {
            if dt == DType::F32 {
                ((v - zv[k]) as f32 * sv[k] as f32) as f64
            } else {
                (v - zv[k]) * sv[k]
            }
        })
        .collect();
    Ok(vec![out(x.shape().to_vec(), Data::from_f64s(dt, &y))?])
}

/// `DynamicQuantizeLinear`: uint8 quantization with the scale and zero
/// point derived from the data range (always including 0).
/// Out: `y` (uint8), `y_scale` (f32 scalar), `y_zero_point` (uint8 scalar).
pub(crate) fn dynamic_quantize(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let xv = c.f32_input(0)?;
    let lo = xv.iter().copied().fold(0f32, f32::min);
    let hi = xv.iter().copied().fold(0f32, f32::max);
    let scale = (hi - lo) / 255.0;
    let q = |v: f32| {
        if scale == 0.0 {
            0.0
        } else {
            (v / scale).round_ties_even()
        }
    };
    let zp = (-q(lo)).clamp(0.0, 255.0);
    let y: Vec<u8> = xv
        .iter()
        .map(|&v| (q(v) + zp).clamp(0.0, 255.0) as u8)
        .collect();
    Ok(vec![
        out(x.shape().to_vec(), Data::U8(y))?,
        out(vec![], Data::F32(vec![scale]))?,
        out(vec![], Data::U8(vec![zp as u8]))?,
    ])
}
