//! Per-layer output windows (quantizer MSBs) chosen from calibration inputs.
//!
//! In: the lowered layers of a network and calibration input codes (the
//! graph input's NCHW order, `aprec`-bit codes). Out: each layer's
//! `quant_msb`, set in place; or the [`Error`] that stopped the model.
//!
//! The MVU's quantizer keeps bits `msb .. msb − oprec + 1` of the value after
//! the pooler, without rounding or saturation, so the useful window is the
//! lowest one that still holds the largest value a layer produces: layer by
//! layer, in graph order, the layer is run whole (the functional model of
//! [`super::simulate`], one unsplit piece) on the calibration inputs coded by
//! the layers before it, and its MSB is the top bit of the largest value
//! seen — `bitlen(max) − 1` after a ReLU (values ≥ 0), `bitlen(max |v|)`
//! without one (a sign bit) — but never below `oprec − 1` (the default window)
//! nor above 26 (the scaler's width). The codes that window produces feed
//! the next layer.
//!
//! A higher window is what lets a split whose partial sums exceed 16 signed
//! bits drop low bits within one output LSB ([`super::window`]): at 8 bits
//! the default window (`L = 0`) admits no such split, a calibrated one
//! usually does. Values above the calibration maximum wrap as with any fixed
//! window; the choice is as good as the calibration data.

use super::flow::Flow;
use super::lower::Lowered;
use super::run::Buffers;
use super::sim::{decode, input_dims, layer, quantize};
use super::split::split;
use crate::error::Error;
use crate::limits::{MvuLimits, MAX_QUANT_MSB};

/// Bits of the raw pipeline value the model keeps while calibrating: the
/// 27-bit scaler output, two's complement.
const RAW: u32 = MAX_QUANT_MSB + 1;

/// The quantizer MSB that holds `max` (the largest value, or largest
/// magnitude when `signed`) at `oprec` bits.
pub fn msb_for(max: u64, signed: bool, oprec: u32) -> u32 {
    let bits = u64::BITS - max.leading_zeros();
    let top = if signed { bits } else { bits.saturating_sub(1) };
    top.max(oprec.saturating_sub(1)).min(MAX_QUANT_MSB)
}

/// Runs `l` (set to output its raw value) whole on every input of `xs`
/// (shape `dims`); returns the signed raw values and the output shape.
fn run_raw(
    l: &Lowered,
    xs: &[Vec<i64>],
    dims: &[usize],
) -> Result<(Vec<Vec<i64>>, Vec<usize>), Error> {
    let pieces = split(l, &MvuLimits::default(), false).map_err(|e| Error::DataShape {
        layer: l.node.clone(),
        what: e.to_string(),
    })?;
    let mut values = Vec::with_capacity(xs.len());
    let mut out_dims = dims.to_vec();
    for x in xs {
        let (y, d) = layer(l, &pieces, x, dims)?;
        out_dims = d;
        values.push(y.into_iter().map(|v| decode(v, RAW, true)).collect());
    }
    Ok((values, out_dims))
}

/// Sets every layer's `quant_msb` from the calibration inputs (see the
/// module doc), the layers reading and writing the buffers of `flow`;
/// returns the MSBs chosen, one per layer.
///
/// The parts of one Concat buffer share one window, the largest any of them
/// needs: a consumer's weights multiply every part's codes alike, so the
/// parts' codes must count in the same units (`2^(msb − oprec + 1)` of their
/// accumulators). A part whose window rises changes what later layers read,
/// so the calibration runs again until no part's window rises (windows only
/// rise, at most to 26, so this ends).
pub fn calibrate(
    lowered: &mut [Lowered],
    flow: &Flow,
    inputs: &[Vec<i64>],
) -> Result<Vec<u32>, Error> {
    let mut floor = vec![0u32; lowered.len()];
    loop {
        let chosen = calibrate_once(lowered, flow, inputs, &floor)?;
        let mut raised = false;
        for buf in flow.buffers.iter().filter(|b| b.parts.len() > 1) {
            let top = buf.parts.iter().map(|p| chosen[p.layer]).max().unwrap_or(0);
            for p in &buf.parts {
                if chosen[p.layer] < top {
                    floor[p.layer] = top;
                    raised = true;
                }
            }
        }
        if !raised {
            return Ok(chosen);
        }
    }
}

/// One calibration pass, each layer's window at least `floor`.
fn calibrate_once(
    lowered: &mut [Lowered],
    flow: &Flow,
    inputs: &[Vec<i64>],
    floor: &[u32],
) -> Result<Vec<u32>, Error> {
    let dims = input_dims(lowered.first(), inputs.first().map_or(0, Vec::len));
    let mut bufs = Buffers::new(flow, inputs.to_vec(), dims);
    let mut chosen = Vec::with_capacity(lowered.len());
    for (i, l) in lowered.iter_mut().enumerate() {
        // The layer whole, keeping the raw 27-bit value (bits 26..0): its
        // output precision and window are set for the run, then chosen.
        let op = l.layer.precision.out;
        l.layer.precision.out = RAW;
        l.layer.quant_msb = Some(MAX_QUANT_MSB);
        let run = {
            let (xs, dims) = bufs.input(i);
            run_raw(l, xs, dims)
        };
        l.layer.precision.out = op;
        let (values, out_dims) = run?;
        let signed = !l.layer.relu && l.layer.pool.is_none();
        let max = values
            .iter()
            .flatten()
            .map(|&v| {
                if signed {
                    v.unsigned_abs()
                } else {
                    v.max(0) as u64
                }
            })
            .max()
            .unwrap_or(0);
        let msb = msb_for(max, signed, op).max(floor[i]);
        l.layer.quant_msb = Some(msb);
        chosen.push(msb);
        let codes = values
            .into_iter()
            .map(|v| v.into_iter().map(|p| quantize(p, msb, op)).collect())
            .collect();
        bufs.store(i, codes, &out_dims);
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_the_largest_value_and_no_less_than_the_default() {
        // 1000 needs bits 9..0; 8-bit output: bits 9..2.
        assert_eq!(msb_for(1000, false, 8), 9);
        assert_eq!(msb_for(1024, false, 8), 10);
        // A sign bit on top for signed values.
        assert_eq!(msb_for(1000, true, 8), 10);
        // Small values keep the default window, large ones stop at 26.
        assert_eq!(msb_for(3, false, 8), 7);
        assert_eq!(msb_for(0, false, 4), 3);
        assert_eq!(msb_for(1 << 40, false, 8), 26);
    }
}
