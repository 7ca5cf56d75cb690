//! Symmetric weight quantization: float weights → integers at a given precision.
//!
//! In: float weights in ONNX layout (output channel = axis 0), a precision, a
//! signedness and a [`Granularity`]. Out: [`Quantized`] integers (same layout,
//! ready for [`crate::export_weights`]) and the scales, one per layer or per
//! output channel, with `w ≈ q · scale`.
//!
//! Rule (symmetric, zero point 0): `qmax = 2^(p−1) − 1` (signed) or `2^p − 1`
//! (unsigned); `scale = max|w| / qmax` over the layer or the channel (1.0 when
//! that maximum is 0); `q = clamp(round_half_away(w / scale), −qmax, qmax)`,
//! with the lower bound 0 when unsigned (negative weights clamp to 0).
//! Signed symmetric quantization needs at least 2 bits.
//!
//! ```
//! use onnc_mvu::{quantize_symmetric, Granularity};
//! // Two output channels of two weights, 4-bit signed: qmax = 7.
//! let q = quantize_symmetric("l", &[1.4, -0.4, 0.7, 0.1], 2, 4, true, Granularity::PerChannel).unwrap();
//! assert_eq!(q.values, vec![7, -2, 7, 1]);
//! assert!((q.scales[0] - 0.2).abs() < 1e-6 && (q.scales[1] - 0.1).abs() < 1e-6);
//! ```

use crate::error::{Error, Result};
use crate::layer::Layer;
use crate::limits::MAX_PREC;

/// One scale for the whole layer, or one per output channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    /// A single scale.
    PerLayer,
    /// One scale per output channel (axis 0).
    PerChannel,
}

/// Quantized weights and their scales.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized {
    /// Integers, same layout as the input.
    pub values: Vec<i32>,
    /// One scale ([`Granularity::PerLayer`]) or one per output channel.
    pub scales: Vec<f32>,
}

/// Quantizes `weights` (`channels` equal slices along axis 0) to `prec` bits.
pub fn quantize_symmetric(
    layer: &str,
    weights: &[f32],
    channels: usize,
    prec: u32,
    signed: bool,
    granularity: Granularity,
) -> Result<Quantized> {
    let min_prec = if signed { 2 } else { 1 };
    if !(min_prec..=MAX_PREC).contains(&prec) {
        return Err(Error::Precision {
            layer: layer.into(),
            field: "wprec",
            value: prec,
            min: min_prec,
            max: MAX_PREC,
        });
    }
    if weights.len().checked_rem(channels) != Some(0) {
        return Err(Error::WeightCount {
            layer: layer.into(),
            expected: channels.saturating_mul(weights.len().div_ceil(channels.max(1))),
            got: weights.len(),
            shape: vec![channels, weights.len().div_ceil(channels.max(1))],
        });
    }
    if let Some(index) = weights.iter().position(|w| !w.is_finite()) {
        return Err(Error::NonFiniteWeight {
            layer: layer.into(),
            index,
        });
    }
    let qmax = if signed {
        (1i64 << (prec - 1)) - 1
    } else {
        (1i64 << prec) - 1
    };
    let qmin = if signed { -qmax } else { 0 };
    let group = match granularity {
        Granularity::PerLayer => weights.len().max(1),
        Granularity::PerChannel => weights.len() / channels,
    };
    let mut values = Vec::with_capacity(weights.len());
    let mut scales = Vec::new();
    for chunk in weights.chunks(group.max(1)) {
        let amax = chunk.iter().fold(0f64, |m, &w| m.max(f64::from(w).abs()));
        let scale = if amax > 0.0 { amax / qmax as f64 } else { 1.0 };
        scales.push(scale as f32);
        values.extend(
            chunk
                .iter()
                .map(|&w| ((f64::from(w) / scale).round() as i64).clamp(qmin, qmax) as i32),
        );
    }
    if scales.is_empty() {
        scales.push(1.0);
    }
    Ok(Quantized { values, scales })
}

/// Quantizes a layer's float weights (ONNX layout) at its weight precision and
/// signedness, checking the element count against the layer's weight shape.
pub fn quantize_weights(
    layer: &Layer,
    weights: &[f32],
    granularity: Granularity,
) -> Result<Quantized> {
    let expected = layer.weight_count().unwrap_or(usize::MAX);
    if weights.len() != expected {
        return Err(Error::WeightCount {
            layer: layer.name.clone(),
            expected,
            got: weights.len(),
            shape: layer.weight_shape(),
        });
    }
    let p = &layer.precision;
    quantize_symmetric(
        &layer.name,
        weights,
        layer.out_channels() as usize,
        p.weight,
        p.weight_signed,
        granularity,
    )
}
