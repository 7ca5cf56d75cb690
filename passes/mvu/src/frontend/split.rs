//! Splitting a layer that exceeds one MVU's RAMs into pieces, each a valid
//! MVU job family of its own.
//!
//! In: a [`Lowered`] layer and the RAM sizes. Out: its [`Piece`]s: output
//! channels in groups of whole 64-channel blocks whose weights fit the weight
//! RAM, and, per group, bands of output rows whose input rows (with the
//! kernel's halo, and the pool windows' conv rows) and output rows each fit
//! half of the data RAM (the program reads one half and writes the other).
//! A layer that fits is one piece, unchanged and under its own name.
//!
//! When one output row (all its columns) does not fit half the data RAM, the
//! layer is first split into bands of output columns, each reading its own
//! input columns (kernel and pool windows' overlap included); row bands are
//! then made per column band.
//!
//! A matmul or convolution one of whose 64-channel output blocks needs more
//! weight words than the RAM has is split over its input features/channels
//! instead, with the partial sums added by a later job ([`super::partial`],
//! [`super::conv_partial`]): exactly when the partials fit 16 signed bits,
//! else as windows within one output LSB when the output window allows.
//! What cannot be split: a convolution whose single input block with all
//! its taps exceeds the weight RAM ([`Error::BlockTooLarge`]); no exact
//! or windowed split ([`Error::PartialSumRange`]); one output pixel that
//! does not fit ([`Error::Capacity`]).
//!
//! ```
//! use onnc_mvu::frontend::{compile, CompileOptions};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{DType, Tensor};
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! // 256 -> 512 channels, 3x3, 8-bit: 4 * 9 * 8 = 288 weight words per 64-channel block, so one per piece.
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 256, 4, 4])],
//!     outputs: vec![vi("y", &[1, 512, 2, 2])],
//!     initializers: vec![("w".into(), Tensor::from_f32(vec![512, 256, 3, 3], vec![1.0; 512 * 256 * 9]).unwrap())],
//!     nodes: vec![Node::new("conv", "Conv", &["x", "w"], &["y"])],
//!     ..Graph::default()
//! };
//! let c = compile(&g, &CompileOptions { test_vectors: false, ..CompileOptions::default() }).unwrap();
//! assert_eq!(c.table().rows.len(), 8);
//! assert_eq!(c.table().rows[1].name, "conv.oc64_128");
//! ```

use std::ops::Range;

use super::conv_partial::{slice_inputs, slice_kernel_rows, split_conv_inputs};
use super::lower::Lowered;
use super::partial::{split_inputs, sum_weights};
use crate::error::{Error, Result};
use crate::layer::{ConvShape, Layer, LayerOp, MatMulShape};
use crate::limits::{MvuLimits, BLOCK};
use crate::registers::blocks;

/// One piece of a layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The piece as an MVU layer (its own shape, pads and name).
    pub layer: Layer,
    /// Output channels (features) of the whole layer this piece computes.
    pub channels: Range<u32>,
    /// Output rows (after pooling; matmul: input rows) this piece computes.
    pub rows: Range<u32>,
    /// Input rows the piece reads.
    pub in_rows: Range<u32>,
    /// Output columns (after pooling) this piece computes: all of them
    /// unless the layer is split into column bands (matmul: `0..1`).
    pub cols: Range<u32>,
    /// Input columns the piece reads (matmul: `0..1`).
    pub in_cols: Range<u32>,
    /// Kernel rows of the whole layer the piece applies: all of them, except
    /// for a [`PieceKind::Partial`] of a split over kernel rows (matmul: `0..1`).
    pub kernel_rows: Range<u32>,
    /// Input channels (features) of the whole layer the piece reads: all of
    /// them, except for a [`PieceKind::Partial`].
    pub inputs: Range<u32>,
    /// What the piece computes.
    pub kind: PieceKind,
    /// Whether this piece carries its channel group's weight image (the
    /// first row band of each group; the other bands reuse it).
    pub exports_weights: bool,
}

/// What a piece computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceKind {
    /// Outputs `channels` × `rows` of the layer, through its output pipeline.
    Output,
    /// The partial sum over `inputs` for `channels`: the accumulator's low 16
    /// bits, two's complement, no ReLU (see [`super::partial`]).
    Partial,
    /// Adds the `parts` partials of `channels` (16-bit signed activations,
    /// 1-bit identity weights) through the layer's output pipeline.
    Sum {
        /// Number of partials.
        parts: u32,
    },
}

/// The input rows (`axis` 0) or columns (`axis` 1) a conv band reads: for
/// final output indices `a..b` on that axis, the conv outputs (pool windows
/// included), then the input indices with the kernel's halo, clipped to the
/// input, and the padding left before and after.
fn conv_span(layer: &Layer, c: &ConvShape, axis: usize, a: u32, b: u32) -> (Range<u32>, [u32; 2]) {
    let (c0, c1) = match (&layer.pool, c.output_hw()) {
        (Some(p), Some(hw)) => (
            p.window(axis, a, hw[axis]).start,
            p.window(axis, b - 1, hw[axis]).end,
        ),
        _ => (a, b),
    };
    let extent = if axis == 0 { c.in_height } else { c.in_width };
    let s = i64::from(c.strides[axis]);
    let lo = i64::from(c0) * s - i64::from(c.pads[axis]);
    let hi = (i64::from(c1) - 1) * s - i64::from(c.pads[axis]) + i64::from(c.kernel[axis]);
    let r0 = lo.clamp(0, extent.into());
    let r1 = hi.clamp(0, extent.into());
    (
        (r0 as u32)..(r1 as u32),
        [(r0 - lo) as u32, (hi - r1) as u32],
    )
}

/// The input rows a conv band of output rows `a..b` reads, and its top and
/// bottom padding (see [`conv_span`]).
fn conv_band(layer: &Layer, c: &ConvShape, a: u32, b: u32) -> (Range<u32>, [u32; 2]) {
    conv_span(layer, c, 0, a, b)
}

/// A layer's kernel height (matmul: 1).
pub(super) fn kernel_height(layer: &Layer) -> u32 {
    match layer.op {
        LayerOp::Conv(c) => c.kernel[0],
        LayerOp::MatMul(_) => 1,
    }
}

/// A layer's output columns (after pooling) and input columns (matmul: 1, 1).
pub(super) fn whole_cols(layer: &Layer) -> (u32, u32) {
    match layer.op {
        LayerOp::Conv(c) => (layer.output_chw().map_or(0, |[_, _, w]| w), c.in_width),
        LayerOp::MatMul(_) => (1, 1),
    }
}

fn name(
    base: &str,
    channels: &Range<u32>,
    rows: &Range<u32>,
    split_c: bool,
    split_r: bool,
) -> String {
    let mut n = base.to_string();
    if split_c {
        n += &format!(".oc{}_{}", channels.start, channels.end);
    }
    if split_r {
        n += &format!(".r{}_{}", rows.start, rows.end);
    }
    n
}

/// Splits `l` so every piece fits `limits`; `check` false keeps it whole.
pub fn split(l: &Lowered, limits: &MvuLimits, check: bool) -> Result<Vec<Piece>> {
    let layer = &l.layer;
    let whole = |rows: u32, in_rows: u32| Piece {
        layer: layer.clone(),
        channels: 0..layer.out_channels(),
        rows: 0..rows,
        in_rows: 0..in_rows,
        cols: 0..whole_cols(layer).0,
        in_cols: 0..whole_cols(layer).1,
        kernel_rows: 0..kernel_height(layer),
        inputs: 0..layer.in_channels(),
        kind: PieceKind::Output,
        exports_weights: true,
    };
    let p = &layer.precision;
    let (ip, wp, op) = (u64::from(p.act), u64::from(p.weight), u64::from(p.out));
    let half = limits.data_ram_words / 2;
    let (in_blocks, taps, rows, in_rows) = match layer.op {
        LayerOp::Conv(c) => {
            let [_, h, _] = layer.output_chw().unwrap_or([0, 0, 0]);
            (
                blocks(c.in_channels.into()),
                u64::from(c.kernel[0]) * u64::from(c.kernel[1]),
                h,
                c.in_height,
            )
        }
        LayerOp::MatMul(m) => (blocks(m.in_features.into()), 1, m.rows, m.rows),
    };
    if !check {
        return Ok(vec![whole(rows, in_rows)]);
    }
    let out = layer.out_channels();
    // An empty layer (no output or input channels, a zero-size kernel)
    // has nothing to split; it is refused rather than divided by.
    for (field, value) in [
        ("output channels", u64::from(out)),
        ("input blocks × kernel taps", in_blocks * taps),
    ] {
        if value == 0 {
            return Err(Error::Shape {
                layer: layer.name.clone(),
                field,
                value,
                min: 1,
                max: u64::from(u32::MAX),
            });
        }
    }
    let per_block = in_blocks * taps * wp;
    if per_block > limits.weight_ram_words {
        return match layer.op {
            LayerOp::MatMul(m) => split_inputs(l, m, limits, per_block),
            LayerOp::Conv(c) => split_conv_inputs(l, c, limits, per_block),
        };
    }
    let group = (limits.weight_ram_words / per_block).min(blocks(out.into())) as u32 * BLOCK as u32;
    let groups: Vec<Range<u32>> = (0..out)
        .step_by(group as usize)
        .map(|a| a..(a + group).min(out))
        .collect();
    let width = match layer.op {
        LayerOp::Conv(_) => layer.output_chw().map_or(0, |[_, _, w]| w),
        LayerOp::MatMul(_) => 1,
    };
    let all_cols = 0..width;
    // The input columns of output columns `cols` and their left/right pads:
    // the whole input and the layer's pads for all columns (unchanged layers).
    let in_cols = |cols: &Range<u32>| -> (Range<u32>, [u32; 2]) {
        match layer.op {
            LayerOp::Conv(c) if *cols != all_cols => conv_span(layer, &c, 1, cols.start, cols.end),
            LayerOp::Conv(c) => (0..c.in_width, [c.pads[1], c.pads[3]]),
            LayerOp::MatMul(_) => (0..1, [0, 0]),
        }
    };
    // Words of input and output of output rows a..b, columns `cols`, of a group of `nb` blocks.
    let words = |a: u32, b: u32, cols: &Range<u32>, nb: u64| -> (u64, u64) {
        match layer.op {
            LayerOp::Conv(c) => {
                let (r, _) = conv_band(layer, &c, a, b);
                let (ic, _) = in_cols(cols);
                (
                    in_blocks * u64::from(r.len() as u32) * u64::from(ic.len() as u32) * ip,
                    nb * u64::from(b - a) * u64::from(cols.len() as u32) * op,
                )
            }
            LayerOp::MatMul(_) => (
                u64::from(b - a) * in_blocks * ip,
                u64::from(b - a) * nb * op,
            ),
        }
    };
    let nb = blocks(group.into());
    // The largest input and output of one output row of columns `cols`.
    let row_words = |cols: &Range<u32>| -> (u64, u64) {
        (0..rows).fold((0, 0), |(i, o), a| {
            let (i1, o1) = words(a, a + 1, cols, nb);
            (i.max(i1), o.max(o1))
        })
    };
    let fits = |(i, o): (u64, u64)| i <= half && o <= half;
    // Column bands, only when one whole output row does not fit half the
    // data RAM: the fewest equal bands of output columns one row of which
    // fits (each reads its own input columns, kernel overlap included).
    let col_bands: Vec<Range<u32>> = if width <= 1 || fits(row_words(&all_cols)) {
        vec![all_cols.clone()]
    } else {
        let cut = |n: u32| -> Vec<Range<u32>> {
            let per = width.div_ceil(n);
            (0..width)
                .step_by(per as usize)
                .map(|a| a..(a + per).min(width))
                .collect()
        };
        match (2..=width)
            .map(cut)
            .find(|bs| bs.iter().all(|b| fits(row_words(b))))
        {
            Some(bs) => bs,
            None => {
                let (i1, o1) = row_words(&(0..1));
                return Err(half_ram_exceeded(&layer.name, "pixel", i1, o1, half));
            }
        }
    };
    // Per column band, bands of output rows.
    let mut row_bands: Vec<Vec<Range<u32>>> = Vec::new();
    for cols in &col_bands {
        let mut bands: Vec<Range<u32>> = Vec::new();
        let mut a = 0;
        while a < rows {
            let (i1, o1) = words(a, a + 1, cols, nb);
            if i1 > half || o1 > half {
                return Err(half_ram_exceeded(&layer.name, "row", i1, o1, half));
            }
            let mut b = a + 1;
            while b < rows {
                let (i, o) = words(a, b + 1, cols, nb);
                if i > half || o > half {
                    break;
                }
                b += 1;
            }
            bands.push(a..b);
            a = b;
        }
        row_bands.push(bands);
    }
    let split_k = col_bands.len() > 1;
    if groups.len() == 1 && !split_k && row_bands[0].len() == 1 {
        return Ok(vec![whole(rows, in_rows)]);
    }
    let split_c = groups.len() > 1;
    let mut pieces = Vec::new();
    for ch in &groups {
        for (ci, (cols, bands)) in col_bands.iter().zip(&row_bands).enumerate() {
            let split_r = bands.len() > 1;
            let (ic, [pl, pr]) = in_cols(cols);
            for (k, band) in bands.iter().enumerate() {
                let mut n = name(&layer.name, ch, band, split_c, false);
                if split_k {
                    n += &format!(".c{}_{}", cols.start, cols.end);
                }
                if split_r {
                    n += &format!(".r{}_{}", band.start, band.end);
                }
                let (op_, in_band) = match layer.op {
                    LayerOp::Conv(c) => {
                        let (r, [pt, pb]) = conv_band(layer, &c, band.start, band.end);
                        let shape = ConvShape {
                            in_height: r.len() as u32,
                            in_width: ic.len() as u32,
                            out_channels: ch.len() as u32,
                            pads: [pt, pl, pb, pr],
                            ..c
                        };
                        (LayerOp::Conv(shape), r)
                    }
                    LayerOp::MatMul(m) => (
                        LayerOp::MatMul(MatMulShape {
                            rows: band.len() as u32,
                            out_features: ch.len() as u32,
                            ..m
                        }),
                        band.clone(),
                    ),
                };
                let base_weight = layer
                    .weight_name
                    .clone()
                    .unwrap_or_else(|| layer.name.clone());
                let weight_name = if split_c {
                    format!("{base_weight}.oc{}_{}", ch.start, ch.end)
                } else {
                    base_weight
                };
                pieces.push(Piece {
                    layer: Layer {
                        name: n,
                        op: op_,
                        weight_name: Some(weight_name),
                        ..layer.clone()
                    },
                    channels: ch.clone(),
                    rows: band.clone(),
                    in_rows: in_band,
                    cols: cols.clone(),
                    in_cols: ic.clone(),
                    kernel_rows: 0..kernel_height(layer),
                    inputs: 0..layer.in_channels(),
                    kind: PieceKind::Output,
                    exports_weights: ci == 0 && k == 0,
                });
            }
        }
    }
    Ok(pieces)
}

/// The weights piece `p` of layer `l` multiplies by, in the piece's own
/// `[out, in, ...]` layout: its output channels' slice, restricted to its
/// input features for a partial; the stacked identities for a sum.
pub fn piece_weights(l: &Lowered, p: &Piece) -> Vec<i32> {
    match p.kind {
        PieceKind::Output => slice_weights(l, &p.channels),
        PieceKind::Sum { parts } => sum_weights(p.channels.len(), parts as usize),
        PieceKind::Partial => {
            let (kh, kw) = match l.layer.op {
                LayerOp::Conv(c) => (c.kernel[0] as usize, c.kernel[1] as usize),
                LayerOp::MatMul(_) => (1, 1),
            };
            let w = slice_inputs(
                &slice_weights(l, &p.channels),
                l.layer.in_channels() as usize,
                kh * kw,
                &p.inputs,
            );
            if p.kernel_rows == (0..kh as u32) {
                w
            } else {
                slice_kernel_rows(&w, kh, kw, &p.kernel_rows)
            }
        }
    }
}

/// The weights of output channels `channels` of a layer (ONNX layout, output
/// channels outermost).
pub fn slice_weights(l: &Lowered, channels: &Range<u32>) -> Vec<i32> {
    let out = l.layer.out_channels() as usize;
    let per = l.weights.values.len() / out.max(1);
    l.weights.values[channels.start as usize * per..channels.end as usize * per].to_vec()
}

/// The capacity error of a layer whose one output `unit` ("pixel", "row")
/// reads `input` or writes `output` words, more than `half` the data RAM
/// (the input side named when it is the one over).
fn half_ram_exceeded(layer: &str, unit: &str, input: u64, output: u64, half: u64) -> Error {
    let (memory, needed) = match (input > half, unit) {
        (true, "pixel") => (
            "input activations of one output pixel (half the data RAM)",
            input,
        ),
        (false, "pixel") => (
            "output activations of one output pixel (half the data RAM)",
            output,
        ),
        (true, _) => (
            "input activations of one output row (half the data RAM)",
            input,
        ),
        (false, _) => (
            "output activations of one output row (half the data RAM)",
            output,
        ),
    };
    Error::Capacity {
        layer: layer.to_string(),
        memory,
        needed,
        capacity: half,
    }
}
