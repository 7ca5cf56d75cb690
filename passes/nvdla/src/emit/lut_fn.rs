//! The functions the SDP lookup table computes, and how an `nvdla.sdp` op
//! names one.
//!
//! In: the op attributes `lut_fn` (one of [`LutFn::NAMES`]), `lut_alpha`
//! and `lut_beta` (floats; what each means depends on the function), which
//! the lowering writes when `y_op.act = "lut"`. Out: a [`LutFn`] that
//! evaluates the exact function in `f64` ([`LutFn::value`]); the table that
//! approximates it is built by [`super::lut_fp16`].
//!
//! | `lut_fn`     | f(x)                              | from ONNX                          |
//! |--------------|-----------------------------------|------------------------------------|
//! | `sigmoid`    | 1 / (1 + e^(−x))                  | `Sigmoid`                          |
//! | `tanh`       | tanh x                            | `Tanh`                             |
//! | `swish`      | x · sigmoid(α·x)                  | `Swish`, `Mul(x, Sigmoid(x))` (SiLU, α = 1) |
//! | `hard_swish` | x · max(0, min(1, α·x + β))       | `HardSwish` (α = 1/6, β = 1/2), `Mul(x, HardSigmoid(x))` |
//! | `softplus`   | ln(1 + e^x)                       | `Softplus`                         |
//! | `mish`       | x · tanh(softplus(x))             | `Mish`, `Mul(x, Tanh(Softplus(x)))` |
//! | `erf`        | (2/√π) ∫₀ˣ e^(−t²) dt             | `Erf` (GELU's gate: `0.5 · x · (1 + erf(x/√2))`) |
//! | `rsqrt`      | 1/√x (x > 0; 1/√(2^-24) at and below 0) | `LayerNormalization`'s 1/√(var + ε), refined by Newton steps (`lower::tokens`) |
//!
//! ```
//! use onnc_nvdla::emit::lut_fn::LutFn;
//! let f = LutFn::parse("swish", 1.0, 0.0).unwrap();
//! assert!((f.value(2.0) - 2.0 / (1.0 + (-2.0f64).exp())).abs() < 1e-15);
//! assert_eq!(f.name(), "swish");
//! assert!(LutFn::parse("gelu", 0.0, 0.0).unwrap_err().contains("sigmoid"));
//! ```

/// One function the SDP LUT evaluates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LutFn {
    /// `1 / (1 + e^(−x))`.
    Sigmoid,
    /// `tanh x`.
    Tanh,
    /// `x · sigmoid(alpha · x)` (SiLU when alpha = 1).
    Swish {
        /// Slope inside the sigmoid.
        alpha: f64,
    },
    /// `x · clamp(alpha · x + beta, 0, 1)`.
    HardSwish {
        /// Slope of the hard sigmoid.
        alpha: f64,
        /// Offset of the hard sigmoid.
        beta: f64,
    },
    /// `ln(1 + e^x)`.
    Softplus,
    /// `x · tanh(ln(1 + e^x))`.
    Mish,
    /// The error function.
    Erf,
    /// `1/√x` for `x > 0`; at and below 0 the value at the smallest
    /// positive FP16 subnormal, 2^-24 (4096), so the table stays finite.
    Rsqrt,
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x + (-x).exp()
    } else {
        x.exp().ln_1p()
    }
}

/// erf x to about 1e-15: its Taylor series below |x| = 3, else
/// `1 − erfc x` with erfc's continued fraction (Lentz's method).
fn erf(x: f64) -> f64 {
    let a = x.abs();
    let r = if a < 3.0 {
        // erf x = 2/√π · Σ (−1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum, x2) = (a, a, a * a);
        for n in 1..200 {
            term *= -x2 / n as f64;
            let t = term / (2 * n + 1) as f64;
            sum += t;
            if t.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if a > 27.0 {
        1.0
    } else {
        // erfc a = e^(−a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …))))
        let tiny = 1e-300;
        let (mut f, mut c, mut d) = (a, a, 0.0f64);
        for n in 1..500 {
            let an = n as f64 / 2.0;
            d = a + an * d;
            d = if d.abs() < tiny { tiny } else { d };
            c = a + an / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-a * a).exp() / (std::f64::consts::PI.sqrt() * f)
    };
    r.copysign(x)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl LutFn {
    /// The `lut_fn` names, in a fixed order.
    pub const NAMES: [&'static str; 8] = [
        "sigmoid",
        "tanh",
        "swish",
        "hard_swish",
        "softplus",
        "mish",
        "erf",
        "rsqrt",
    ];

    /// The function named `name` with parameters `alpha`, `beta` (ignored
    /// by the functions that take none); an error naming the valid names,
    /// or the parameter that is not finite.
    pub fn parse(name: &str, alpha: f64, beta: f64) -> Result<LutFn, String> {
        if !alpha.is_finite() || !beta.is_finite() {
            return Err(format!(
                "lut_alpha = {alpha} and lut_beta = {beta} must be finite"
            ));
        }
        Ok(match name {
            "sigmoid" => LutFn::Sigmoid,
            "tanh" => LutFn::Tanh,
            "swish" => LutFn::Swish { alpha },
            "hard_swish" => LutFn::HardSwish { alpha, beta },
            "softplus" => LutFn::Softplus,
            "mish" => LutFn::Mish,
            "erf" => LutFn::Erf,
            "rsqrt" => LutFn::Rsqrt,
            _ => {
                return Err(format!(
                    "lut_fn = \"{name}\" is not one of {}",
                    LutFn::NAMES.join(" | ")
                ))
            }
        })
    }

    /// The `lut_fn` attribute value.
    pub fn name(&self) -> &'static str {
        match self {
            LutFn::Sigmoid => "sigmoid",
            LutFn::Tanh => "tanh",
            LutFn::Swish { .. } => "swish",
            LutFn::HardSwish { .. } => "hard_swish",
            LutFn::Softplus => "softplus",
            LutFn::Mish => "mish",
            LutFn::Erf => "erf",
            LutFn::Rsqrt => "rsqrt",
        }
    }

    /// The `lut_alpha` attribute value (0 when the function has none).
    pub fn alpha(&self) -> f64 {
        match *self {
            LutFn::Swish { alpha } | LutFn::HardSwish { alpha, .. } => alpha,
            _ => 0.0,
        }
    }

    /// The `lut_beta` attribute value (0 when the function has none).
    pub fn beta(&self) -> f64 {
        match *self {
            LutFn::HardSwish { beta, .. } => beta,
            _ => 0.0,
        }
    }

    /// The exact value at `x`.
    pub fn value(&self, x: f64) -> f64 {
        match *self {
            LutFn::Sigmoid => sigmoid(x),
            LutFn::Tanh => x.tanh(),
            LutFn::Swish { alpha } => x * sigmoid(alpha * x),
            LutFn::HardSwish { alpha, beta } => x * (alpha * x + beta).clamp(0.0, 1.0),
            LutFn::Softplus => softplus(x),
            LutFn::Mish => x * softplus(x).tanh(),
            LutFn::Erf => erf(x),
            LutFn::Rsqrt => 1.0 / x.max(2f64.powi(-24)).sqrt(),
        }
    }

    /// The slope of the function far from the origin: `(x → −∞, x → +∞)`.
    /// The table extrapolates with it beyond its ends.
    pub fn tail_slopes(&self) -> (f64, f64) {
        match *self {
            LutFn::Sigmoid | LutFn::Tanh | LutFn::Erf | LutFn::Rsqrt => (0.0, 0.0),
            LutFn::Swish { alpha } if alpha > 0.0 => (0.0, 1.0),
            LutFn::Swish { alpha } if alpha < 0.0 => (1.0, 0.0),
            LutFn::Swish { .. } => (0.5, 0.5),
            LutFn::HardSwish { alpha, .. } if alpha > 0.0 => (0.0, 1.0),
            LutFn::HardSwish { alpha, .. } if alpha < 0.0 => (1.0, 0.0),
            LutFn::HardSwish { beta, .. } => {
                let b = beta.clamp(0.0, 1.0);
                (b, b)
            }
            LutFn::Softplus | LutFn::Mish => (0.0, 1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_match_the_onnx_definitions() {
        assert_eq!(LutFn::Sigmoid.value(0.0), 0.5);
        assert!((LutFn::Tanh.value(1.0) - 0.761_594_155_955_764_9).abs() < 1e-15);
        let hs = LutFn::HardSwish {
            alpha: 1.0 / 6.0,
            beta: 0.5,
        };
        assert_eq!(hs.value(-3.0), 0.0);
        assert_eq!(hs.value(3.0), 3.0);
        assert!((hs.value(1.0) - 1.0 * (1.0 / 6.0 + 0.5)).abs() < 1e-15);
        assert!((LutFn::Softplus.value(0.0) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(LutFn::Softplus.value(1000.0), 1000.0);
        assert!((LutFn::Mish.value(1.0) - 0.865_098_388_267_310_3).abs() < 1e-12);
        assert_eq!(LutFn::Mish.value(-1000.0), -0.0);
        // erf at 0.5, 1, 2.5 (series) and 3.5, 5 (continued fraction).
        for (x, e) in [
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.5, 0.999_593_047_982_555),
            (3.5, 0.999_999_256_901_627_7),
            (5.0, 0.999_999_999_998_462_5),
        ] {
            assert!((LutFn::Erf.value(x) - e).abs() < 1e-14, "erf {x}");
            assert!((LutFn::Erf.value(-x) + e).abs() < 1e-14, "erf -{x}");
        }
    }

    #[test]
    fn names_round_trip_and_bad_parameters_are_errors() {
        for n in LutFn::NAMES {
            let f = LutFn::parse(n, 0.25, 0.5).unwrap();
            assert_eq!(f.name(), n);
            assert_eq!(LutFn::parse(n, f.alpha(), f.beta()).unwrap(), f);
        }
        let e = LutFn::parse("swish", f64::NAN, 0.0).unwrap_err();
        assert!(e.contains("lut_alpha"), "{e}");
    }

    #[test]
    fn tail_slopes_follow_the_function() {
        for f in [
            LutFn::Sigmoid,
            LutFn::Tanh,
            LutFn::Swish { alpha: 1.0 },
            LutFn::Swish { alpha: -2.0 },
            LutFn::HardSwish {
                alpha: 0.2,
                beta: 0.5,
            },
            LutFn::Softplus,
            LutFn::Mish,
            LutFn::Erf,
        ] {
            let (l, r) = f.tail_slopes();
            let d = |x: f64| f.value(x + 1.0) - f.value(x);
            assert!((d(-60.0) - l).abs() < 1e-6, "{f:?} left");
            assert!((d(60.0) - r).abs() < 1e-6, "{f:?} right");
        }
    }
}
