//! Activations: `Relu`, `LeakyRelu`, `PRelu`, `Sigmoid`, `Tanh`, `Clip`,
//! `Elu`, `Selu`, `HardSigmoid`, `HardSwish`, `Softplus`, `Softsign`.
//!
//! In: `X` (f32, f64, f16; `Relu` and `Clip` also integers), plus `slope` for `PRelu`
//! (unidirectionally broadcast to `X`) and optional `min`/`max` inputs for
//! `Clip` (or the `min`/`max` attributes of opset < 11).
//! Out: `Y`, same shape. Example: `LeakyRelu{alpha=0.1}([-1, 2]) = [-0.1, 2]`.

use super::unary::map_float;
use crate::call::{out, Call};
use crate::elem::{map_numeric, Elem};
use crate::layout::{broadcasts_to, zip_broadcast};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Relu`.
pub(crate) fn relu(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    fn relu<T: Elem>(a: T) -> T {
        if a > T::default() {
            a
        } else {
            T::default()
        }
    }
    let data = map_numeric!(x.data(), v => super::par::map(v, |&a| relu(a)))
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `LeakyRelu` (`alpha` = 0.01).
pub(crate) fn leaky_relu(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 0.01)? as f64;
    map_float(c, |a| if a < 0.0 { alpha * a } else { a })
}

/// `Sigmoid`.
pub(crate) fn sigmoid(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, sigmoid_f64)
}

/// The logistic function, stable for large |x|.
pub(crate) fn sigmoid_f64(a: f64) -> f64 {
    if a >= 0.0 {
        1.0 / (1.0 + (-a).exp())
    } else {
        let e = a.exp();
        e / (1.0 + e)
    }
}

/// `Tanh`.
pub(crate) fn tanh(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, f64::tanh)
}

/// `Elu` (`alpha` = 1).
pub(crate) fn elu(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 1.0)? as f64;
    map_float(c, |a| if a < 0.0 { alpha * (a.exp() - 1.0) } else { a })
}

/// `Selu` (`alpha` ≈ 1.6733, `gamma` ≈ 1.0507).
pub(crate) fn selu(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 1.673_263_2)? as f64;
    let gamma = c.float("gamma", 1.050_701)? as f64;
    map_float(c, |a| {
        if a <= 0.0 {
            gamma * (alpha * a.exp() - alpha)
        } else {
            gamma * a
        }
    })
}

/// `HardSigmoid` (`alpha` = 0.2, `beta` = 0.5).
pub(crate) fn hard_sigmoid(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 0.2)? as f64;
    let beta = c.float("beta", 0.5)? as f64;
    map_float(c, |a| (alpha * a + beta).clamp(0.0, 1.0))
}

/// `HardSwish`.
pub(crate) fn hard_swish(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, |a| a * (a / 6.0 + 0.5).clamp(0.0, 1.0))
}

/// `Softplus`.
pub(crate) fn softplus(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, |a| if a > 20.0 { a } else { a.exp().ln_1p() })
}

/// `Softsign`.
pub(crate) fn softsign(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, |a| a / (1.0 + a.abs()))
}

/// `PRelu`: `slope` broadcasts to `X`.
pub(crate) fn prelu(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let x = c.input(0)?;
    let s = c.input(1)?;
    let xv = c.f32_input(0)?;
    let sv = c.f32_input(1)?;
    if !broadcasts_to(s.shape(), x.shape()) {
        return Err(c.shape_err(1, format!("broadcastable to {:?}", x.shape()), s.shape()));
    }
    let y = zip_broadcast(xv, x.shape(), sv, s.shape(), x.shape(), |a, k| {
        if a < 0.0 {
            k * a
        } else {
            a
        }
    });
    Ok(vec![out(x.shape().to_vec(), Data::F32(y))?])
}

/// `Clip`: bounds from inputs 1 and 2 (opset ≥ 11) or attributes `min`/`max`.
pub(crate) fn clip(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 3)?;
    let x = c.input(0)?;
    let lo = match c.scalar_input(1)? {
        Some(v) => Some(v),
        None if c.has("min") => Some(c.float("min", f32::MIN)? as f64),
        None => None,
    };
    let hi = match c.scalar_input(2)? {
        Some(v) => Some(v),
        None if c.has("max") => Some(c.float("max", f32::MAX)? as f64),
        None => None,
    };
    fn clip<T: Elem>(v: &[T], lo: Option<f64>, hi: Option<f64>) -> Vec<T> {
        let lo = lo.map(T::from_f64);
        let hi = hi.map(T::from_f64);
        v.iter()
            .map(|&a| {
                let mut y = a;
                if let Some(l) = lo {
                    if y < l {
                        y = l;
                    }
                }
                if let Some(h) = hi {
                    if y > h {
                        y = h;
                    }
                }
                y
            })
            .collect()
    }
    let data = map_numeric!(x.data(), v => clip(v, lo, hi))
        .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `Gelu` (`approximate` = `none` | `tanh`).
pub(crate) fn gelu(c: &Call) -> Result<Vec<Tensor>> {
    match c.string("approximate", "none")? {
        "none" => map_float(c, |a| {
            0.5 * a * (1.0 + libm::erf(a / std::f64::consts::SQRT_2))
        }),
        "tanh" => map_float(c, |a| {
            let k = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * a * (1.0 + (k * (a + 0.044715 * a * a * a)).tanh())
        }),
        other => Err(c.attr_err("approximate", format!("unknown value `{other}`"))),
    }
}

/// `Swish`: `x · sigmoid(alpha · x)` (`alpha` = 1).
pub(crate) fn swish(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 1.0)? as f64;
    map_float(c, |a| a * sigmoid_f64(alpha * a))
}

/// `Mish`: `x · tanh(softplus(x))`.
pub(crate) fn mish(c: &Call) -> Result<Vec<Tensor>> {
    map_float(c, |a| {
        a * (if a > 20.0 { a } else { a.exp().ln_1p() }).tanh()
    })
}

/// `Celu` (`alpha` = 1).
pub(crate) fn celu(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 1.0)? as f64;
    map_float(c, |a| {
        a.max(0.0) + (alpha * ((a / alpha).exp() - 1.0)).min(0.0)
    })
}

/// `Shrink` (`bias` = 0, `lambd` = 0.5).
pub(crate) fn shrink(c: &Call) -> Result<Vec<Tensor>> {
    let bias = c.float("bias", 0.0)? as f64;
    let lambd = c.float("lambd", 0.5)? as f64;
    let f = move |a: f64| {
        if a < -lambd {
            a + bias
        } else if a > lambd {
            a - bias
        } else {
            0.0
        }
    };
    let x = c.input(0)?;
    if x.dtype().is_float() {
        return map_float(c, f);
    }
    c.arity(1, 1)?;
    let data =
        map_numeric!(x.data(), v => v.iter().map(|&a| Elem::from_f64(f(a.to_f64()))).collect())
            .ok_or_else(|| c.type_err(0, "a numeric type", x.dtype()))?;
    Ok(vec![out(x.shape().to_vec(), data)?])
}

/// `ThresholdedRelu` (`alpha` = 1).
pub(crate) fn thresholded_relu(c: &Call) -> Result<Vec<Tensor>> {
    let alpha = c.float("alpha", 1.0)? as f64;
    map_float(c, |a| if a > alpha { a } else { 0.0 })
}

/// `SwiGLU`: `swish(A; alpha) · B` elementwise (same shapes; `alpha` = 1).
pub(crate) fn swiglu(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let (a, b) = (c.input(0)?, c.input(1)?);
    if a.shape() != b.shape() {
        return Err(c.shape_err(1, format!("{:?} (input 0's shape)", a.shape()), b.shape()));
    }
    if !a.dtype().is_float() || b.dtype() != a.dtype() {
        return Err(c.type_err(
            1,
            format!("{} like input 0 (a float type)", a.dtype()),
            b.dtype(),
        ));
    }
    let alpha = c.float("alpha", 1.0)? as f64;
    let (av, bv) = (a.data().to_f64_vec(), b.data().to_f64_vec());
    let y: Vec<f64> = av
        .iter()
        .zip(&bv)
        .map(|(&x, &g)| x * sigmoid_f64(alpha * x) * g)
        .collect();
    Ok(vec![out(
        a.shape().to_vec(),
        Data::from_f64s(a.dtype(), &y),
    )?])
}
