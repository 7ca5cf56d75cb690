//! Splitting a convolution over its input channels, with the partial sums
//! added by a later MVU job that carries the layer's ReLU and pooling.
//!
//! In: a lowered convolution one of whose 64-channel output blocks needs more
//! weight-RAM words than there are (`iC_blocks · fH · fW · wprec > 512`:
//! VGG's 512→512 3×3 convolutions at 8 bits need 576), the RAM limits and the
//! weight codes. Out: its [`Piece`]s, or why it cannot be split.
//!
//! The same arithmetic as the matmul split ([`super::partial`]), on the
//! conv's output grid:
//!
//! 1. **partials** `<node>.in<a>_<b>`: part `k` (whole 64-channel input
//!    blocks) is a convolution of input channels `a..b` with the layer's
//!    kernel, strides and pads, over the whole conv output grid (not pooled),
//!    written at `oprec = 16` with quantizer MSB `15 + s`, no ReLU. It is
//!    itself split like any layer ([`super::split::split`]): output-channel
//!    groups, row bands and column bands;
//! 2. **sum** `<node>.sum`: a 1×1 convolution over the conv grid reading the
//!    `K` partials of its output channels, part after part, as 16-bit signed
//!    activations, with 1-bit identity weights (`[n, K·n]`, `K·n²` words for
//!    `n` output blocks, so a sum covers at most `⌊√(512/K)⌋` blocks), the
//!    layer's ReLU, **pooling** (its windows over the conv grid, as the
//!    unsplit layer's) and output precision; quantizer MSB the layer's minus
//!    `s`. Its row and column bands are those of a pooled 1×1 conv.
//!
//! `s = 0` (exact, bit for bit the unsplit layer) when every partial fits 16
//! signed bits: `Σ_{i∈part, taps} |q[o, i, ·, ·]| · amax ≤ 32767` for every
//! output channel `o` (padding only removes terms). Otherwise the fewest
//! parts with a window `s` ([`super::window::window_shift`]): the output is
//! the unsplit layer's or one LSB below (the proof in `frontend/window.rs`
//! covers the pooling: a maximum of values each at most `R < 2^L` lower is at
//! most `R` lower). A single input block whose taps alone exceed the weight
//! RAM (AlexNet's 11×11 stem at 8 bits: 968 words for 3 channels) cannot be
//! split over channels: [`MvuError::BlockTooLarge`].

use std::ops::Range;

use super::lower::Lowered;
use super::partial::{
    act_max, block_sums, choose_parts, sum_groups, sum_weights, PARTIAL_BITS, PARTIAL_LIMIT,
};
use super::split::{split, Piece, PieceKind};
use super::weights::LayerWeights;
use crate::error::{MvuError, Result};
use crate::layer::{ConvShape, Layer, LayerOp, Precision};
use crate::limits::MvuLimits;
use crate::registers::blocks;

/// The weights `[out, a..b, kH, kW]` of input channels `inputs` of a conv
/// weight `[out, in, kH, kW]` with `taps = kH·kW`.
pub(super) fn slice_inputs(
    values: &[i32],
    in_channels: usize,
    taps: usize,
    inputs: &Range<u32>,
) -> Vec<i32> {
    let (a, b) = (inputs.start as usize * taps, inputs.end as usize * taps);
    values
        .chunks((in_channels * taps).max(1))
        .flat_map(|row| row[a..b].to_vec())
        .collect()
}

/// A lowered layer of its own for `layer` with weight codes `values`.
fn sub(l: &Lowered, layer: Layer, values: Vec<i32>, signed: bool) -> Lowered {
    Lowered {
        node: l.node.clone(),
        op: l.op.clone(),
        layer,
        weights: LayerWeights {
            values,
            scales: vec![1.0],
            signed,
        },
        bias: None,
        relu: false,
        layout: l.layout,
        end: l.end.clone(),
        sum_of: None,
    }
}

/// Splits conv `l` (shape `c`) over its input channels (see the module doc);
/// `needed` is the weight words one whole output block would need.
pub fn split_conv_inputs(
    l: &Lowered,
    c: ConvShape,
    limits: &MvuLimits,
    needed: u64,
) -> Result<Vec<Piece>> {
    let layer = &l.layer;
    let p = layer.precision;
    let ram = limits.weight_ram_words;
    let taps = u64::from(c.kernel[0]) * u64::from(c.kernel[1]);
    let ic = c.in_channels;
    let in_blocks = blocks(ic.into());
    let amax = act_max(&p);
    let per_in_block = taps * u64::from(p.weight);
    let sums = block_sums(&l.weights.values, ic as usize, taps as usize);
    if per_in_block > ram {
        // One input block with all its taps does not fit: no channel split.
        return Err(MvuError::BlockTooLarge {
            layer: layer.name.clone(),
            needed,
            capacity: ram,
            per_input_block: per_in_block,
        });
    }
    let k0 = in_blocks.div_ceil(ram / per_in_block).max(2);
    let msb = layer.quant_msb.unwrap_or(p.out.saturating_sub(1));
    let lsb = (msb + 1).saturating_sub(p.out);
    let refuse = |parts: u64, bound: u64| MvuError::PartialSumRange {
        layer: layer.name.clone(),
        needed,
        capacity: ram,
        parts,
        bound,
        limit: PARTIAL_LIMIT,
        conv: true,
    };
    let (chosen, shift) = choose_parts(&sums, ic, amax, k0, lsb).map_err(|(k, b)| refuse(k, b))?;
    let k = chosen.len() as u64;
    if k > ram {
        return Err(refuse(k, 0));
    }
    let Some([ch, cw]) = c.output_hw() else {
        return Err(MvuError::Shape {
            layer: layer.name.clone(),
            field: "conv output",
            value: 0,
            min: 1,
            max: u64::from(u32::MAX),
        });
    };
    let base_weight = layer
        .weight_name
        .clone()
        .unwrap_or_else(|| layer.name.clone());
    let mut pieces = Vec::new();
    for part in &chosen {
        let tag = format!(".in{}_{}", part.start, part.end);
        let partial = Layer {
            name: format!("{}{tag}", layer.name),
            weight_name: Some(format!("{base_weight}{tag}")),
            op: LayerOp::Conv(ConvShape {
                in_channels: part.len() as u32,
                ..c
            }),
            precision: Precision {
                out: PARTIAL_BITS,
                ..p
            },
            quant_msb: Some(PARTIAL_BITS - 1 + shift),
            relu: false,
            pool: None,
        };
        let values = slice_inputs(&l.weights.values, ic as usize, taps as usize, part);
        let lp = sub(l, partial, values, l.weights.signed);
        for piece in split(&lp, limits, true)? {
            pieces.push(Piece {
                inputs: part.clone(),
                kind: PieceKind::Partial,
                ..piece
            });
        }
    }
    let groups = sum_groups(layer.out_channels(), k, ram);
    for g in &groups {
        let n = g.len() as u32;
        let tag = if groups.len() > 1 {
            format!(".sum.oc{}_{}", g.start, g.end)
        } else {
            ".sum".to_string()
        };
        let sum = Layer {
            name: format!("{}{tag}", layer.name),
            weight_name: Some(format!("{base_weight}{tag}")),
            op: LayerOp::Conv(ConvShape::new(k as u32 * n, ch, cw, n, [1, 1])),
            precision: Precision::new(PARTIAL_BITS, 1, p.out).with_signed_acts(true),
            // The partials dropped `shift` low bits: the sum's window sits
            // that much lower (`msb − shift ≥ oprec − 1`).
            quant_msb: if shift == 0 {
                layer.quant_msb
            } else {
                Some(msb - shift)
            },
            relu: layer.relu,
            pool: layer.pool,
        };
        let ls = sub(l, sum, sum_weights(n as usize, k as usize), false);
        for piece in split(&ls, limits, true)? {
            let channels = g.start + piece.channels.start..g.start + piece.channels.end;
            pieces.push(Piece {
                channels,
                inputs: 0..ic,
                kind: PieceKind::Sum { parts: k as u32 },
                ..piece
            });
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_slices_keep_every_tap_of_the_channels() {
        // 2 outputs, 3 inputs, 2 taps.
        let w: Vec<i32> = (0..12).collect();
        assert_eq!(slice_inputs(&w, 3, 2, &(1..3)), [2, 3, 4, 5, 8, 9, 10, 11]);
    }
}
