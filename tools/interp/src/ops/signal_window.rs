//! Signal windows: `HannWindow`, `HammingWindow`, `BlackmanWindow`.
//!
//! In: a scalar integer `size`; `periodic` (1: period `size`, 0: symmetric,
//! period `size − 1`), `output_datatype` (default f32).
//! Out: `[size]` window values.
//! Example: `HannWindow{periodic=0}(3) = [0, 1, 0]`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};
use std::f64::consts::PI;

/// Which window.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Hann,
    Hamming,
    Blackman,
}

/// A window kernel.
pub(crate) fn window(c: &Call, kind: Kind) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let size = c.scalar_input(0)?.unwrap_or(0.0);
    if !(0.0..=crate::call::MAX_ELEMENTS as f64).contains(&size) {
        return Err(c.shape_err(0, "a size in 0..=2^28", c.input(0)?.shape()));
    }
    let n = size as usize;
    let code = c.int("output_datatype", 1)?;
    let dt = DType::from_onnx(code as i32).ok_or_else(|| {
        c.attr_err(
            "output_datatype",
            format!("type code {code} is not supported"),
        )
    })?;
    let period = if c.int("periodic", 1)? != 0 {
        n as f64
    } else {
        n as f64 - 1.0
    };
    let v: Vec<f64> = (0..n)
        .map(|i| {
            let x = i as f64 / period;
            match kind {
                Kind::Hann => (PI * x).sin().powi(2),
                Kind::Hamming => 25.0 / 46.0 - (21.0 / 46.0) * (2.0 * PI * x).cos(),
                Kind::Blackman => 0.42 - 0.5 * (2.0 * PI * x).cos() + 0.08 * (4.0 * PI * x).cos(),
            }
        })
        .collect();
    Ok(vec![out(vec![n], Data::from_f64s(dt, &v))?])
}
