//! Integer and quantized linear operators: `MatMulInteger`, `ConvInteger`
//! (int32 accumulators), `QLinearMatMul`, `QLinearConv` (requantized 8-bit
//! outputs).
//!
//! In: 8-bit integer operands with zero points (scalar, or per row of A /
//! per output channel of W) and, for `QLinear*`, float scales.
//! Out: int32 accumulators, or `saturate(round_half_even(acc · sa·sb / sy) + zy)`
//! in the output zero point's type.
//! Products are computed exactly in f64 (|acc| < 2^53).
//! Example: `MatMulInteger([[2]], [[3]], a_zero_point=1) = [[3]]`.

use super::{conv, matmul};
use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// Input `i` minus its zero point (input `zi`), as f64; `per` selects how a
/// 1-D zero point applies: by the leading-dim index `(flat / inner) % len`.
fn centered(c: &Call, i: usize, zi: Option<usize>, inner: usize) -> Result<Vec<f64>> {
    let t = c.input(i)?;
    if t.dtype().is_float() || t.dtype() == DType::Bool {
        return Err(c.type_err(i, "an integer type", t.dtype()));
    }
    let v = t.data().to_f64_vec();
    let Some(z) = zi.and_then(|z| c.opt(z)) else {
        return Ok(v);
    };
    if z.dtype() != t.dtype() {
        return Err(c.type_err(zi.unwrap_or(0), t.dtype().to_string(), z.dtype()));
    }
    let zv = z.data().to_f64_vec();
    Ok(v.iter()
        .enumerate()
        .map(|(f, &x)| x - zv[(f / inner.max(1)) % zv.len().max(1)])
        .collect())
}

/// One float scale input (scalar or per channel).
fn scales(c: &Call, i: usize) -> Result<Vec<f64>> {
    let t = c.input(i)?;
    if !t.dtype().is_float() {
        return Err(c.type_err(i, "a float type", t.dtype()));
    }
    Ok(t.data().to_f64_vec())
}

/// Requantizes accumulators: `y = saturate(round(acc · s[ch]) + z)` in `z`'s type.
fn requantize(c: &Call, acc: &[f64], scale: &[f64], inner: usize, zi: usize) -> Result<Data> {
    let (dt, z) = match c.opt(zi) {
        Some(z) => (z.dtype(), z.data().to_f64_vec()[0]),
        None => (DType::U8, 0.0),
    };
    let (lo, hi) = match dt {
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        other => return Err(c.type_err(zi, "uint8 or int8", other)),
    };
    let y: Vec<f64> = acc
        .iter()
        .enumerate()
        .map(|(f, &a)| {
            let s = scale[(f / inner.max(1)) % scale.len().max(1)];
            ((a * s) as f32).round_ties_even() as f64 + z
        })
        .map(|v| v.clamp(lo, hi))
        .collect();
    Ok(Data::from_f64s(dt, &y))
}

/// `MatMulInteger(A, B, a_zero_point?, b_zero_point?)` → int32.
pub(crate) fn matmul_integer(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 4)?;
    let p = matmul::plan(c, 0, 1)?;
    let (a, b) = (c.input(0)?, c.input(1)?);
    // A's zero point is per row (its second-to-last dim), B's per column.
    let a_inner = *a.shape().last().unwrap_or(&1);
    let av = centered(c, 0, Some(2), a_inner)?;
    let bv = centered_cols(c, b)?;
    let y = matmul::compute(&av, &bv, &p);
    Ok(vec![out(
        p.shape,
        Data::I32(y.iter().map(|&v| v as i32).collect()),
    )?])
}

/// B minus its zero point, which is per column (the last dim) when 1-D.
fn centered_cols(c: &Call, b: &Tensor) -> Result<Vec<f64>> {
    let v = centered(c, 1, None, 1)?;
    let Some(z) = c.opt(3) else { return Ok(v) };
    if z.dtype() != b.dtype() {
        return Err(c.type_err(3, b.dtype().to_string(), z.dtype()));
    }
    let zv = z.data().to_f64_vec();
    let n = *b.shape().last().unwrap_or(&1);
    Ok(v.iter()
        .enumerate()
        .map(|(f, &x)| x - zv[(f % n.max(1)) % zv.len().max(1)])
        .collect())
}

/// `QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)`.
pub(crate) fn qlinear_matmul(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(8, 8)?;
    let p = matmul::plan(c, 0, 3)?;
    let a_inner = *c.input(0)?.shape().last().unwrap_or(&1);
    let av = centered(c, 0, Some(2), a_inner)?;
    let bv = centered(c, 3, Some(5), 1)?;
    let acc = matmul::compute(&av, &bv, &p);
    let (sa, sb, sy) = (scales(c, 1)?, scales(c, 4)?, scales(c, 6)?);
    let n = *p.shape.last().unwrap_or(&1);
    // Combined scale per output column (per-column b_scale when 1-D).
    let s: Vec<f64> = (0..sb.len())
        .map(|j| (sa[0] as f32 * sb[j] as f32 / sy[0] as f32) as f64)
        .collect();
    let col_scale: Vec<f64> = (0..acc.len())
        .map(|f| s[(f % n.max(1)) % s.len()])
        .collect();
    let data = requantize(c, &acc, &col_scale, 1, 7)?;
    Ok(vec![out(p.shape, data)?])
}

/// `ConvInteger(x, w, x_zero_point?, w_zero_point?)` → int32.
pub(crate) fn conv_integer(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 4)?;
    let p = conv::plan(c, 0, 1)?;
    let w = c.input(1)?;
    let xv = centered(c, 0, Some(2), c.input(0)?.numel())?;
    let per_m: usize = w.shape()[1..].iter().product();
    let wv = centered(c, 1, Some(3), per_m)?;
    let y = conv::conv_compute(&xv, &wv, None, &p);
    Ok(vec![out(
        p.out_shape(),
        Data::I32(y.iter().map(|&v| v as i32).collect()),
    )?])
}

/// `QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?)`.
pub(crate) fn qlinear_conv(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(8, 9)?;
    let p = conv::plan(c, 0, 3)?;
    let w = c.input(3)?;
    let xv = centered(c, 0, Some(2), c.input(0)?.numel())?;
    let per_m: usize = w.shape()[1..].iter().product();
    let wv = centered(c, 3, Some(5), per_m)?;
    let bias = match c.opt(8) {
        None => None,
        Some(b) if b.shape() == [p.m] && b.dtype() == DType::I32 => Some(b.data().to_f64_vec()),
        Some(b) => return Err(c.shape_err(8, format!("[{}] int32", p.m), b.shape())),
    };
    let acc = conv::conv_compute(&xv, &wv, bias.as_deref(), &p);
    let (sx, sw, sy) = (scales(c, 1)?, scales(c, 4)?, scales(c, 6)?);
    let s: Vec<f64> = sw
        .iter()
        .map(|&w| (sx[0] as f32 * w as f32 / sy[0] as f32) as f64)
        .collect();
    let o: usize = p.win.output.iter().product();
    let data = requantize(c, &acc, &s, o, 7)?;
    Ok(vec![out(p.out_shape(), data)?])
}
