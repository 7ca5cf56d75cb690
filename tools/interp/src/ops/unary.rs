//! Elementwise math on one tensor: `Neg`, `Abs`, `Sqrt`, `Exp`, `Log`,
//! `Reciprocal`, `Floor`, `Ceil`, `Round`, `Erf`, `Sign`, `Sin`, `Cos`, `Not`, …
//!
//! In: `X` (f32, f64 or f16, computed in f64 and rounded once; `Neg`,
//! `Abs`, `Sign` also take integers).
//! Out: `Y`, same shape. Example: `Sqrt([4, 9]) = [2, 3]`.

use crate::call::{out, Call};
use crate::elem::{map_numeric, Elem};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// A one-input float kernel: checks arity and applies `f` to every element
/// in `f64`, rounding the result once to the input's float type.
pub(crate) fn map_float(c: &Call, f: impl Fn(f64) -> f64) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let data = match x.data() {
        Data::F32(v) => Data::F32(v.iter().map(|&a| f(a as f64) as f32).collect()),
        Data::F64(v) => Data::F64(v.iter().map(|&a| f(a)).collect()),
        Data::F16(v) => Data::F16(
            v.iter()
                .map(|&a| half::f16::from_f64(f(a.to_f64())))
                .collect(),
        ),
        _ => return Err(c.type_err(0, "a float type", x.dtype())),
    };
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// Applies a generic numeric function to every element, keeping the type.
fn map_any<F: Fn(f64) -> f64>(c: &Call, g: F) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    if x.dtype().is_float() {
        return map_float(c, g);
    }
    fn gen<T: Elem>(v: &[T], g: &dyn Fn(f64) -> f64) -> Vec<T> {
        v.iter().map(|&a| T::from_f64(g(a.to_f64()))).collect()
    }
    let data = map_numeric!(x.data(), v => gen(v, &g))
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `Neg`.
pub(crate) fn neg(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let data = map_numeric!(x.data(), v => v.iter().map(|&a| a.neg()).collect())
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `Abs`.
pub(crate) fn abs(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    fn abs<T: Elem>(a: T) -> T {
        if a < T::default() {
            a.neg()
        } else {
            a
        }
    }
    let data = map_numeric!(x.data(), v => v.iter().map(|&a| abs(a)).collect())
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `Sign`.
pub(crate) fn sign(c: &Call) -> Result<Vec<Tensor>> {
    map_any(c, |a| {
        if a > 0.0 {
            1.0
        } else if a < 0.0 {
            -1.0
        } else {
            a
        }
    })
}

/// `Sqrt`.
pub(crate) fn sqrt(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::sqrt)
}
/// `Exp`.
pub(crate) fn exp(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::exp)
}
/// `Log`.
pub(crate) fn log(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::ln)
}
/// `Reciprocal`.
pub(crate) fn reciprocal(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, |a| 1.0 / a)
}
/// `Floor`.
pub(crate) fn floor(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::floor)
}
/// `Ceil`.
pub(crate) fn ceil(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::ceil)
}
/// `Round` (halves to even, as ONNX specifies).
pub(crate) fn round(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::round_ties_even)
}
/// `Erf`.
pub(crate) fn erf(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, libm::erf)
}
/// `Sin`.
pub(crate) fn sin(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::sin)
}
/// `Cos`.
pub(crate) fn cos(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::cos)
}

/// `Not` (bool).
pub(crate) fn not(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    match x.data() {
        Data::Bool(v) => Ok(vec![out(
            x.shape().to_vec(),
            Data::Bool(v.iter().map(|&a| 1 - (a != 0) as u8).collect()),
        )?]),
        _ => Err(c.type_err(0, "bool", x.dtype())),
    }
}

/// `Tan`.
pub(crate) fn tan(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::tan)
}
/// `Asin`.
pub(crate) fn asin(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::asin)
}
/// `Acos`.
pub(crate) fn acos(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::acos)
}
/// `Atan`.
pub(crate) fn atan(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::atan)
}
/// `Sinh`.
pub(crate) fn sinh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::sinh)
}
/// `Cosh`.
pub(crate) fn cosh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::cosh)
}
/// `Asinh`.
pub(crate) fn asinh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::asinh)
}
/// `Acosh`.
pub(crate) fn acosh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::acosh)
}
/// `Atanh`.
pub(crate) fn atanh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::atanh)
}

/// A float → bool predicate kernel.
fn test_float(c: &Call, p: impl Fn(f64) -> bool) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    let v = x
        .data()
        .to_f64_vec()
        .into_iter()
        .map(|a| u8::from(p(a)))
        .collect();
    Ok(vec![out(x.shape().to_vec(), Data::Bool(v))?])
}

/// `IsNaN`.
pub(crate) fn is_nan(c: &Call) -> Result<Vec<Tensor>> {
    test_float(c, f64::is_nan)
}

/// `IsInf` (`detect_negative` = 1, `detect_positive` = 1).
pub(crate) fn is_inf(c: &Call) -> Result<Vec<Tensor>> {
    let neg = c.int("detect_negative", 1)? != 0;
    let pos = c.int("detect_positive", 1)? != 0;
    test_float(c, |a| a.is_infinite() && (a > 0.0 && pos || a < 0.0 && neg))
}

/// `BitwiseNot` (integers).
pub(crate) fn bitwise_not(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let data = match x.data() {
        Data::I8(v) => Data::I8(v.iter().map(|a| !a).collect()),
        Data::U8(v) => Data::U8(v.iter().map(|a| !a).collect()),
        Data::I16(v) => Data::I16(v.iter().map(|a| !a).collect()),
        Data::U16(v) => Data::U16(v.iter().map(|a| !a).collect()),
        Data::I32(v) => Data::I32(v.iter().map(|a| !a).collect()),
        Data::U32(v) => Data::U32(v.iter().map(|a| !a).collect()),
        Data::I64(v) => Data::I64(v.iter().map(|a| !a).collect()),
        Data::U64(v) => Data::U64(v.iter().map(|a| !a).collect()),
        _ => return Err(c.type_err(0, "an integer type", x.dtype())),
    };
    Ok(vec![out(x.shape().to_vec(), data)?])
}
