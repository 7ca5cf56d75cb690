//! From a layer's constant weights to the integers the MVU stores.
//!
//! In: the weights as floats in the layer's ONNX layout (conv `[O, I, kH, kW]`,
//! matmul `[out, in]`), optionally the integer codes and scales of a
//! `DequantizeLinear` that produced them, the weight precision and the scale
//! granularity. Out: [`LayerWeights`]: integers (same layout), their scales
//! (`w ≈ q · scale`), and whether they are signed.
//!
//! Rules, first that applies:
//! 1. `DequantizeLinear` codes (zero point removed) that fit `wprec` bits are
//!    taken as they are, with the operator's scales;
//! 2. float weights that are all integers and fit `wprec` bits (BARVINN's
//!    quantized models, e.g. SimpleConv's 0..3) are taken as they are, scale 1;
//! 3. otherwise symmetric quantization at `wprec` bits ([`crate::quantize_symmetric`]),
//!    per layer or per output channel.
//!
//! Weights are signed (two's complement) when any of them is negative.
//!
//! ```
//! use onnc_mvu::frontend::integer_weights;
//! let w = integer_weights("c", &[0.0, 3.0, 1.0, 2.0], None, 2, 2, false).unwrap();
//! assert_eq!((w.values, w.scales, w.signed), (vec![0, 3, 1, 2], vec![1.0], false));
//! let w = integer_weights("c", &[0.5, -1.0, 0.25, 1.0], None, 2, 2, false).unwrap();
//! assert_eq!((w.values, w.signed), (vec![1, -1, 0, 1], true));
//! ```

use crate::error::Error;
use crate::quant::{quantize_symmetric, Granularity};
use crate::weights::value_range;

/// Integer weights of one layer.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerWeights {
    /// Integers in the layer's ONNX layout.
    pub values: Vec<i32>,
    /// One scale, or one per output channel.
    pub scales: Vec<f32>,
    /// Two's complement weights.
    pub signed: bool,
}

impl LayerWeights {
    /// `q · scale` per element: the weights the MVU effectively multiplies by.
    pub fn dequantized(&self) -> Vec<f32> {
        let per = self.values.len() / self.scales.len().max(1);
        self.values
            .iter()
            .enumerate()
            .map(|(i, &q)| q as f32 * self.scales.get(i / per.max(1)).copied().unwrap_or(1.0))
            .collect()
    }
}

/// Whether every value fits `bits` bits (signed when any is negative).
fn fits(values: &[i64], bits: u32) -> Option<bool> {
    let signed = values.iter().any(|&v| v < 0);
    let (lo, hi) = value_range(bits, signed);
    values
        .iter()
        .all(|v| (lo..=hi).contains(v))
        .then_some(signed)
}

/// The integers for one layer (`channels` = output channels = axis 0).
pub fn integer_weights(
    layer: &str,
    floats: &[f32],
    codes: Option<(&[i64], &[f32])>,
    channels: usize,
    wprec: u32,
    per_channel: bool,
) -> Result<LayerWeights, Error> {
    if let Some((codes, scales)) = codes {
        if let Some(signed) = fits(codes, wprec) {
            return Ok(LayerWeights {
                values: codes.iter().map(|&v| v as i32).collect(),
                scales: scales.to_vec(),
                signed,
            });
        }
    }
    if floats
        .iter()
        .all(|w| w.is_finite() && w.fract() == 0.0 && w.abs() < 65536.0)
    {
        let ints: Vec<i64> = floats.iter().map(|&w| w as i64).collect();
        if let Some(signed) = fits(&ints, wprec) {
            return Ok(LayerWeights {
                values: ints.iter().map(|&v| v as i32).collect(),
                scales: vec![1.0],
                signed,
            });
        }
    }
    let signed = floats.iter().any(|&w| w < 0.0);
    let granularity = if per_channel {
        Granularity::PerChannel
    } else {
        Granularity::PerLayer
    };
    let q = quantize_symmetric(layer, floats, channels.max(1), wprec, signed, granularity)?;
    Ok(LayerWeights {
        values: q.values,
        scales: q.scales,
        signed,
    })
}
