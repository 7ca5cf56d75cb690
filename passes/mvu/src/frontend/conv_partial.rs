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
//! split over channels: [`Error::BlockTooLarge`].

use std::ops::Range;

use super::lower::Lowered;
use super::partial::{
    act_max, block_sums, choose_parts, choose_parts_of, sum_groups, sum_weights, PARTIAL_BITS,
    PARTIAL_LIMIT,
};
use super::split::{split, Piece, PieceKind};
use super::weights::LayerWeights;
use crate::error::{Error, Result};
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
    let rows = values.chunks((in_channels * taps).max(1));
    let mut out = Vec::with_capacity(rows.len() * (b - a));
    for row in rows {
        out.extend_from_slice(&row[a..b]);
    }
    out
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

/// What the parts of a conv split divide.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Input channels, in whole 64-channel blocks.
    Channels,
    /// Kernel rows (every input channel), when one input block with all its
    /// taps exceeds the weight RAM.
    KernelRows,
}

/// `Σ |q|` of each output over each kernel row (all `in_channels` input
/// channels and kernel columns) of a conv weight `[out, in, kH, kW]`:
/// `[out][kH]`.
fn row_sums(values: &[i32], in_channels: usize, kh: usize, kw: usize) -> Vec<u64> {
    values
        .chunks((in_channels * kh * kw).max(1))
        .flat_map(|w| {
            let mut r = vec![0u64; kh];
            for (j, row) in w.chunks(kw.max(1)).enumerate() {
                r[j % kh.max(1)] += row.iter().map(|v| v.unsigned_abs() as u64).sum::<u64>();
            }
            r
        })
        .collect()
}

/// The input rows, top/bottom pads and kernel of the partial of kernel rows
/// `rows` of conv `c` whose output grid has `ch` rows: the conv with kernel
/// `[rows.len(), kW]` over the input rows it reaches, so that its output is
/// the grid's (row `y` reads input rows `y·sH + ky − pad_top`, `ky ∈ rows`).
fn kernel_row_span(c: &ConvShape, ch: u32, rows: &Range<u32>) -> (Range<u32>, [u32; 2]) {
    let pt = i64::from(c.pads[0]);
    let lo = i64::from(rows.start) - pt;
    let hi = (i64::from(ch) - 1) * i64::from(c.strides[0]) + i64::from(rows.end) - pt;
    let h = i64::from(c.in_height);
    let (r0, r1) = (lo.clamp(0, h), hi.clamp(0, h));
    (
        (r0 as u32)..(r1 as u32),
        [(r0 - lo) as u32, (hi - r1) as u32],
    )
}

/// Splits conv `l` (shape `c`) over its input channels, or over its kernel
/// rows when one input block with all its taps does not fit (see the module
/// doc); `needed` is the weight words one whole output block would need.
pub fn split_conv_inputs(
    l: &Lowered,
    c: ConvShape,
    limits: &MvuLimits,
    needed: u64,
) -> Result<Vec<Piece>> {
    let layer = &l.layer;
    let p = layer.precision;
    let ram = limits.weight_ram_words;
    let [kh, kw] = c.kernel;
    let taps = u64::from(kh) * u64::from(kw);
    let ic = c.in_channels;
    let in_blocks = blocks(ic.into());
    let amax = act_max(&p);
    let wp = u64::from(p.weight);
    let per_in_block = taps * wp;
    let per_row = in_blocks * u64::from(kw) * wp;
    let msb = layer.quant_msb.unwrap_or(p.out.saturating_sub(1));
    let lsb = (msb + 1).saturating_sub(p.out);
    let cut = if per_in_block <= ram {
        Cut::Channels
    } else if per_row <= ram {
        Cut::KernelRows
    } else {
        return Err(Error::BlockTooLarge {
            layer: layer.name.clone(),
            needed,
            capacity: ram,
            per_input_block: per_row,
        });
    };
    let refuse = |parts: u64, bound: u64| Error::PartialSumRange {
        layer: layer.name.clone(),
        needed,
        capacity: ram,
        parts,
        bound,
        limit: PARTIAL_LIMIT,
        conv: true,
        parts_of: match cut {
            Cut::Channels => "input channels",
            Cut::KernelRows => "kernel rows",
        },
    };
    // The first partial adds the bias (bias.rs): its bound counts max |c|.
    let biased = super::bias::bias_bound(l);
    let (chosen, shift) = match cut {
        Cut::Channels => {
            let sums = block_sums(&l.weights.values, ic as usize, taps as usize);
            let k0 = in_blocks.div_ceil(ram / per_in_block).max(2);
            choose_parts(&sums, ic, amax, k0, lsb, biased)
        }
        Cut::KernelRows => {
            let per_out = row_sums(&l.weights.values, ic as usize, kh as usize, kw as usize);
            let k0 = u64::from(kh).div_ceil(ram / per_row).max(2);
            choose_parts_of(&per_out, kh, 1, amax, k0, lsb, biased)
        }
    }
    .map_err(|(k, b)| refuse(k, b))?;
    let k = chosen.len() as u64;
    if k > ram {
        return Err(refuse(k, 0));
    }
    let Some([ch, cw]) = c.output_hw() else {
        return Err(Error::Shape {
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
        let (tag, shape, values, row0, inputs, kernel_rows) = match cut {
            Cut::Channels => (
                format!(".in{}_{}", part.start, part.end),
                ConvShape {
                    in_channels: part.len() as u32,
                    ..c
                },
                slice_inputs(&l.weights.values, ic as usize, taps as usize, part),
                0,
                part.clone(),
                0..kh,
            ),
            Cut::KernelRows => {
                let (rows, [pt, pb]) = kernel_row_span(&c, ch, part);
                (
                    format!(".kr{}_{}", part.start, part.end),
                    ConvShape {
                        in_height: rows.len() as u32,
                        kernel: [part.len() as u32, kw],
                        pads: [pt, c.pads[1], pb, c.pads[3]],
                        ..c
                    },
                    slice_kernel_rows(&l.weights.values, kh as usize, kw as usize, part),
                    rows.start,
                    0..ic,
                    part.clone(),
                )
            }
        };
        let partial = Layer {
            name: format!("{}{tag}", layer.name),
            weight_name: Some(format!("{base_weight}{tag}")),
            op: LayerOp::Conv(shape),
            precision: Precision {
                out: PARTIAL_BITS,
                ..p
            },
            quant_msb: Some(PARTIAL_BITS - 1 + shift),
            relu: false,
            pool: None,
            bias_base: None,
        };
        let lp = sub(l, partial, values, l.weights.signed);
        for piece in split(&lp, limits, true)? {
            let in_rows = piece.in_rows.start + row0..piece.in_rows.end + row0;
            pieces.push(Piece {
                in_rows,
                inputs: inputs.clone(),
                kernel_rows: kernel_rows.clone(),
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
            bias_base: None,
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

/// The weights `[out, in, rows, kW]` of kernel rows `rows` of a conv weight
/// `[out, in, kH, kW]`.
pub(super) fn slice_kernel_rows(
    values: &[i32],
    kh: usize,
    kw: usize,
    rows: &Range<u32>,
) -> Vec<i32> {
    let (a, b) = (rows.start as usize * kw, rows.end as usize * kw);
    let planes = values.chunks((kh * kw).max(1));
    let mut out = Vec::with_capacity(planes.len() * (b - a));
    for plane in planes {
        out.extend_from_slice(&plane[a..b]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_row_sums_and_slices() {
        // 1 output, 2 inputs, 2x2 kernel: rows (0,1),(2,3) | (4,5),(6,7) negated.
        let w = [0, -1, 2, 3, -4, 5, 6, -7];
        assert_eq!(row_sums(&w, 2, 2, 2), [10, 18]);
        assert_eq!(slice_kernel_rows(&w, 2, 2, &(1..2)), [2, 3, 6, -7]);
    }

    #[test]
    fn a_kernel_row_part_reads_the_rows_its_taps_reach() {
        // AlexNet's stem: 224 rows, 11x11 / 4, pad 2: 55 output rows.
        let c = ConvShape::new(3, 224, 224, 64, [11, 11])
            .with_strides([4, 4])
            .with_pads([2, 2, 2, 2]);
        // Rows 0..4: from -2 (2 rows of padding) to 54*4 + 4 - 2 = 218.
        assert_eq!(kernel_row_span(&c, 55, &(0..4)), (0..218, [2, 0]));
        // Rows 8..11: from 6 to 54*4 + 11 - 2 = 225 (1 row of padding).
        assert_eq!(kernel_row_span(&c, 55, &(8..11)), (6..224, [0, 1]));
    }

    #[test]
    fn input_slices_keep_every_tap_of_the_channels() {
        // 2 outputs, 3 inputs, 2 taps.
        let w: Vec<i32> = (0..12).collect();
        assert_eq!(slice_inputs(&w, 3, 2, &(1..3)), [2, 3, 4, 5, 8, 9, 10, 11]);
    }
}
