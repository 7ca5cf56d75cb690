//! A functional model of the MVU jobs onnc emits, and the reference it is
//! checked against.
//!
//! In: a [`Compiled`] network and integer input codes. Out: the integer output
//! codes the MVUs produce, computed piece by piece as the table's rows
//! describe them (each piece's own shape, pads, input rows and columns, output
//! channels), through the MVU's output pipeline (`mvu.v` at `bfab134`):
//!
//! 1. accumulator: the integer dot product of the piece's weights and input
//!    codes (zero outside the input), 27 bits (`BACC`); a value outside
//!    −2^26..2^26 is reported, not wrapped silently;
//! 2. scaler: `acc · 1 + c`, `c` the piece's bias in accumulator units from
//!    the bias RAM (`super::bias`; 0 without a bias), 27 bits: a result
//!    outside −2^26..2^26 is reported;
//! 3. pooler: for a ReLU, cleared to 0 and `max`ed with each output; for a
//!    pooled layer, cleared to 0 and `max`ed over each window's conv outputs;
//! 4. quantizer: bits `msb .. msb − oprec + 1` of the result (`msb` =
//!    `quant_msb`, default `oprec − 1`), two's complement, no saturation.
//!
//! A matmul split over its input features runs as the MVU would: each
//! partial piece's 16-bit output codes are stored, and the sum piece reads
//! them back as 16-bit two's complement activations (`mvuprecision` bit 25).
//!
//! [`reference_graph`] is the same network for `onnc-interp`: the ONNX graph
//! with the integer weight codes, each layer's pipeline end followed by
//! `Floor(x / 2^(msb − oprec + 1))` taken modulo `2^oprec` (a global average
//! pooling first multiplied back by its pixel count and rounded to the
//! integer sum the MVU computes). The
//! model and the interpreter share nothing but the graph.
//!
//! ```
//! use onnc_mvu::frontend::{compile, random_codes, reference_graph, simulate, CompileOptions};
//! let m = onnc_onnx::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/plain/gap_net.onnx"),
//!                         &onnc_onnx::Options::default()).unwrap();
//! let opts = CompileOptions { aprec: 2, wprec: 2, oprec: 2, test_vectors: false, ..CompileOptions::default() };
//! let c = compile(&m.graph, &opts).unwrap();
//! let x = random_codes(3 * 12 * 12, 2, 1);
//! let mvu = simulate(&c, &x).unwrap();
//! let input = onnc_tensor::Tensor::from_f32(vec![1, 3, 12, 12], x).unwrap();
//! let r = onnc_interp::run_graph(&reference_graph(&m.graph, &c), &[("input".into(), input)]).unwrap();
//! assert_eq!(r[0].1.cast(onnc_tensor::DType::F32).data().to_f64_vec(), mvu.iter().map(|&v| v as f64).collect::<Vec<_>>());
//! ```

use std::borrow::Cow;

use onnc_onnx::{Graph, Node};
use onnc_tensor::Tensor;

use super::bias::{accumulator_bias, piece_bias};
use super::conv_sums::{conv_sums, ConvGeometry};
use super::lower::Lowered;
use super::run::Buffers;
use super::split::{piece_weights, Piece, PieceKind};
use super::vectors::fake_quantized;
use super::weights::LayerWeights;
use super::Compiled;
use crate::error::Error;
use crate::layer::{Layer, LayerOp};

const ACC_LIMIT: i64 = 1 << 26;

/// The quantizer: bits `msb .. msb − op + 1` of `p`, as an unsigned code.
pub(super) fn quantize(p: i64, msb: u32, op: u32) -> i64 {
    let shift = i64::from(msb) - i64::from(op) + 1;
    let v = if shift >= 0 { p >> shift } else { p << -shift };
    v & ((1i64 << op) - 1)
}

fn msb_of(layer: &Layer) -> u32 {
    layer
        .quant_msb
        .unwrap_or(layer.precision.out.saturating_sub(1))
}

/// One conv piece: `x` is the whole `[C, H, W]` input, of which the piece
/// reads channels from `ch0` on (a partial's first input channel); returns
/// the piece's output codes `[channels, rows, cols]`.
fn conv_piece(
    p: &Piece,
    bias: Option<&[i64]>,
    w: &[i32],
    x: &[i64],
    in_hw: [usize; 2],
    ch0: usize,
) -> Result<Vec<i64>, Error> {
    let LayerOp::Conv(c) = p.layer.op else {
        unreachable!("conv_piece takes conv pieces")
    };
    let [ih, iw] = in_hw;
    let (ci, co) = (c.in_channels as usize, c.out_channels as usize);
    let [kh, kw] = c.kernel.map(|v| v as usize);
    let [sh, sw] = c.strides.map(|v| v as usize);
    let [pt, pl, _, _] = c.pads.map(|v| v as usize);
    let Some([oh, ow]) = c.output_hw().map(|hw| hw.map(|v| v as usize)) else {
        return Err(Error::DataShape {
            layer: p.layer.name.clone(),
            what: "degenerate conv".into(),
        });
    };
    let g = ConvGeometry {
        ci,
        co,
        kernel: [kh, kw],
        strides: [sh, sw],
        pad: [pt, pl],
        out: [oh, ow],
        origin: [p.in_rows.start as usize, p.in_cols.start as usize],
        extent: [c.in_height as usize, c.in_width as usize],
        map: [ih, iw],
        ch0,
    };
    let mut acc = conv_sums(&g, w, x);
    // The scaler in output order: the first value out of range is reported.
    for (o, plane) in acc.chunks_mut((oh * ow).max(1)).enumerate() {
        let b = bias.map_or(0, |b| b[o]);
        for v in plane {
            *v = scaled(p, *v, b)?;
        }
    }
    let (msb, op) = (msb_of(&p.layer), p.layer.precision.out);
    let Some(pool) = p.layer.pool else {
        return Ok(acc
            .into_iter()
            .map(|v| quantize(if p.layer.relu { v.max(0) } else { v }, msb, op))
            .collect());
    };
    let Some([ph, pw]) = pool.output_hw([oh as u32, ow as u32]) else {
        return Err(Error::DataShape {
            layer: p.layer.name.clone(),
            what: "pool does not fit".into(),
        });
    };
    let mut out = Vec::with_capacity(co * ph as usize * pw as usize);
    for o in 0..co {
        for py in 0..ph {
            for px in 0..pw {
                // The pooler is cleared to 0; a 1x1 window without ReLU
                // bypasses it (Row::uses_pooler).
                let mut m = if p.layer.relu || pool.kernel != [1, 1] {
                    0
                } else {
                    i64::MIN
                };
                for y in pool.window(0, py, oh as u32) {
                    for xx in pool.window(1, px, ow as u32) {
                        m = m.max(acc[(o * oh + y as usize) * ow + xx as usize]);
                    }
                }
                out.push(quantize(m, msb, op));
            }
        }
    }
    Ok(out)
}

/// The scaler's output for accumulator `acc` and bias `c` (`acc · 1 + c`);
/// an accumulator or result outside the 27 bits is an error.
fn scaled(p: &Piece, acc: i64, c: i64) -> Result<i64, Error> {
    for value in [acc, acc + c] {
        if value.abs() >= ACC_LIMIT {
            return Err(Error::AccumulatorOverflow {
                layer: p.layer.name.clone(),
                value,
            });
        }
    }
    Ok(acc + c)
}

/// One matmul piece over the `[rows, in]` input.
fn matmul_piece(
    p: &Piece,
    bias: Option<&[i64]>,
    w: &[i32],
    x: &[i64],
    features: usize,
) -> Result<Vec<i64>, Error> {
    let LayerOp::MatMul(m) = p.layer.op else {
        unreachable!("matmul_piece takes matmul pieces")
    };
    let (msb, op) = (msb_of(&p.layer), p.layer.precision.out);
    let mut out = Vec::new();
    for r in p.rows.clone() {
        for o in 0..m.out_features as usize {
            let sum: i64 = (0..features)
                .map(|i| i64::from(w[o * features + i]) * x[r as usize * features + i])
                .sum();
            let sum = scaled(p, sum, bias.map_or(0, |b| b[o]))?;
            out.push(quantize(
                if p.layer.relu { sum.max(0) } else { sum },
                msb,
                op,
            ));
        }
    }
    Ok(out)
}

/// Two's complement value of a `bits`-bit code when `signed`.
pub(super) fn decode(code: i64, bits: u32, signed: bool) -> i64 {
    if signed && code >= 1 << (bits - 1) {
        code - (1 << bits)
    } else {
        code
    }
}

/// What a matmul piece reads, as `[rows, features]`, and its feature count:
/// the layer input (all features, or a partial's slice of them), or for a
/// sum the stored partial codes of its channels, part after part, decoded
/// at the sum's activation precision.
fn piece_input<'a>(
    p: &Piece,
    x: &'a [i64],
    features: usize,
    rows: usize,
    partials: &[(u32, Vec<i64>)],
) -> (Cow<'a, [i64]>, usize) {
    match p.kind {
        PieceKind::Output => (Cow::Borrowed(x), features),
        PieceKind::Partial => {
            let (a, b) = (p.inputs.start as usize, p.inputs.end as usize);
            let mut v = Vec::with_capacity(rows * (b - a));
            for r in x.chunks(features.max(1)) {
                v.extend_from_slice(&r[a..b]);
            }
            (Cow::Owned(v), b - a)
        }
        PieceKind::Sum { .. } => {
            let prec = p.layer.precision;
            let out_f = partials.first().map_or(0, |(_, v)| v.len() / rows.max(1));
            let ch = p.channels.start as usize..p.channels.end as usize;
            let mut v = Vec::with_capacity(rows * partials.len() * ch.len());
            for r in 0..rows {
                for (_, codes) in partials {
                    v.extend(
                        codes[r * out_f + ch.start..r * out_f + ch.end]
                            .iter()
                            .map(|&c| decode(c, prec.act, prec.act_signed)),
                    );
                }
            }
            (Cow::Owned(v), partials.len() * ch.len())
        }
    }
}

/// Writes a conv piece's `[channels, rows, cols]` codes `part` into the
/// layer-wide `[C, H, W]` map `target` of `[H, W] = hw`.
fn place(target: &mut [i64], hw: [usize; 2], p: &Piece, part: &[i64]) -> Result<(), String> {
    let [th, tw] = hw;
    let (rows, cols) = (p.rows.len(), p.cols.len());
    if part.len() != p.channels.len() * rows * cols
        || p.rows.end as usize > th
        || p.cols.end as usize > tw
    {
        return Err(format!(
            "piece '{}' computes {} outputs, not {} channels x {rows} rows x {cols} columns of {th} x {tw}",
            p.layer.name,
            part.len(),
            p.channels.len()
        ));
    }
    for (k, ch) in p.channels.clone().enumerate() {
        for (j, row) in p.rows.clone().enumerate() {
            let src = (k * rows + j) * cols;
            let dst = (ch as usize * th + row as usize) * tw + p.cols.start as usize;
            target[dst..dst + cols].copy_from_slice(&part[src..src + cols]);
        }
    }
    Ok(())
}

/// What a conv sum piece reads: the stored partial codes of its channels,
/// part after part (`[K·n, H, W]` planes of `plane` pixels), decoded at the
/// sum's activation precision (16-bit two's complement).
fn sum_planes<K>(p: &Piece, partials: &[(K, Vec<i64>)], plane: usize) -> Vec<i64> {
    let prec = p.layer.precision;
    let mut v = Vec::with_capacity(partials.len() * p.channels.len() * plane);
    for (_, codes) in partials {
        for ch in p.channels.clone() {
            let a = ch as usize * plane;
            v.extend(
                codes[a..a + plane]
                    .iter()
                    .map(|&c| decode(c, prec.act, prec.act_signed)),
            );
        }
    }
    v
}

/// Runs one layer's `pieces` on its input `x` of shape `dims`; returns the
/// output codes and their shape.
pub(super) fn layer(
    l: &Lowered,
    pieces: &[Piece],
    x: &[i64],
    dims: &[usize],
) -> Result<(Vec<i64>, Vec<usize>), Error> {
    let bad = |what: String| Error::DataShape {
        layer: l.node.clone(),
        what,
    };
    match l.layer.op {
        LayerOp::Conv(c) => {
            let [_, h, w] = dims else {
                return Err(bad(format!("input {dims:?} is not C x H x W")));
            };
            if c.in_channels as usize * h * w != x.len() {
                return Err(bad(format!("input {dims:?} does not match the conv")));
            }
            let [oc, oh, ow] = l
                .layer
                .output_chw()
                .unwrap_or([0, 0, 0])
                .map(|v| v as usize);
            let [hc, wc] = c.output_hw().unwrap_or([0, 0]).map(|v| v as usize);
            let mut out = vec![0i64; oc * oh * ow];
            // Partial output codes, per part (by its first input channel and
            // kernel row): [oc, hc, wc].
            let mut partials: Vec<((u32, u32), Vec<i64>)> = Vec::new();
            for p in pieces {
                let wt = piece_weights(l, p);
                let pb = piece_bias(l, p);
                let b = pb.as_deref();
                let (part, target, tw) = match p.kind {
                    PieceKind::Output => (conv_piece(p, b, &wt, x, [*h, *w], 0)?, &mut out, ow),
                    PieceKind::Partial => {
                        let part = conv_piece(p, b, &wt, x, [*h, *w], p.inputs.start as usize)?;
                        let key = (p.inputs.start, p.kernel_rows.start);
                        if !partials.iter().any(|(a, _)| *a == key) {
                            partials.push((key, vec![0i64; oc * hc * wc]));
                        }
                        partials.sort_by_key(|(a, _)| *a);
                        let at = partials.iter().position(|(a, _)| *a == key);
                        (part, &mut partials[at.expect("just inserted")].1, wc)
                    }
                    PieceKind::Sum { .. } => {
                        let input = sum_planes(p, &partials, hc * wc);
                        (conv_piece(p, b, &wt, &input, [hc, wc], 0)?, &mut out, ow)
                    }
                };
                let th = target.len() / (oc * tw).max(1);
                place(target, [th, tw], p, &part).map_err(bad)?;
            }
            Ok((out, vec![oc, oh, ow]))
        }
        LayerOp::MatMul(m) => {
            let (rows, features) = (m.rows as usize, m.in_features as usize);
            if rows * features != x.len() {
                return Err(bad(format!(
                    "input {dims:?} does not flatten to {rows} x {features}"
                )));
            }
            let out_f = m.out_features as usize;
            let mut out = vec![0i64; rows * out_f];
            // Partial output codes, per part (by its first input feature): [rows, out_f].
            let mut partials: Vec<(u32, Vec<i64>)> = Vec::new();
            for p in pieces {
                let (input, feats) = piece_input(p, x, features, rows, &partials);
                let pb = piece_bias(l, p);
                let part = matmul_piece(p, pb.as_deref(), &piece_weights(l, p), &input, feats)?;
                let n = p.channels.len();
                let target = match p.kind {
                    PieceKind::Partial => {
                        if !partials.iter().any(|(a, _)| *a == p.inputs.start) {
                            partials.push((p.inputs.start, vec![0i64; rows * out_f]));
                        }
                        partials.sort_by_key(|(a, _)| *a);
                        let at = partials.iter().position(|(a, _)| *a == p.inputs.start);
                        &mut partials[at.expect("just inserted")].1
                    }
                    _ => &mut out,
                };
                for (j, r) in p.rows.clone().enumerate() {
                    let dst = r as usize * out_f + p.channels.start as usize;
                    target[dst..dst + n].copy_from_slice(&part[j * n..(j + 1) * n]);
                }
            }
            Ok((out, vec![rows, out_f]))
        }
    }
}

/// The input shape of the first layer `first` (`[C, H, W]` or `[rows,
/// features]`); `[len]` without layers.
pub(super) fn input_dims(first: Option<&Lowered>, len: usize) -> Vec<usize> {
    match first.map(|l| l.layer.op) {
        Some(LayerOp::Conv(cv)) => vec![
            cv.in_channels as usize,
            cv.in_height as usize,
            cv.in_width as usize,
        ],
        Some(LayerOp::MatMul(m)) => vec![m.rows as usize, m.in_features as usize],
        None => vec![len],
    }
}

/// Runs the compiled network on `input` (integer codes, the graph input's
/// NCHW order); returns the output codes in ONNX order. Each layer reads
/// its input buffer and writes its output buffer as the flow places them
/// ([`Compiled::flow`]: Concat parts side by side, gap channels 0).
pub fn simulate(c: &Compiled, input: &[f32]) -> Result<Vec<i64>, Error> {
    let x: Vec<i64> = input.iter().map(|&v| v as i64).collect();
    let dims = input_dims(c.lowered().first(), x.len());
    let mut bufs = Buffers::new(c.flow(), vec![x], dims);
    for (i, (l, pieces)) in c.lowered().iter().zip(c.pieces()).enumerate() {
        let (y, d) = {
            let (xs, dims) = bufs.input(i);
            layer(l, pieces, xs.first().map_or(&[][..], Vec::as_slice), dims)?
        };
        bufs.store(i, vec![y], &d);
    }
    Ok(bufs.output().into_iter().next().unwrap_or_default())
}

/// What [`simulate`] must return for the input codes `x`: the interpreter's
/// output codes on [`reference_graph`]. In: the ONNX graph, its compile and
/// the input codes (flat, in the shape of the graph's first input). Out: the
/// first output's codes, or what stopped the interpreter.
pub fn reference_codes(graph: &Graph, c: &Compiled, x: &[f32]) -> Result<Vec<i64>, String> {
    let input = graph.inputs.first().ok_or("the graph has no input")?;
    let shape = input
        .type_info()
        .static_shape()
        .ok_or_else(|| format!("input '{}' has no static shape", input.name))?;
    let t = Tensor::from_f32(shape, x.to_vec()).map_err(|e| e.to_string())?;
    let out = onnc_interp::run_graph(&reference_graph(graph, c), &[(input.name.clone(), t)])
        .map_err(|e| format!("interpreter: {e}"))?;
    let (_, y) = out.first().ok_or("the reference graph has no output")?;
    Ok(y.cast(onnc_tensor::DType::F32)
        .data()
        .to_f64_vec()
        .iter()
        .map(|&v| v as i64)
        .collect())
}

/// The graph `onnc-interp` runs to check [`simulate`]: integer weight codes
/// and each layer's quantizer written out in ONNX ops.
pub fn reference_graph(graph: &Graph, c: &Compiled) -> Graph {
    let codes: Vec<Lowered> = c
        .lowered()
        .iter()
        .map(|l| Lowered {
            weights: LayerWeights {
                scales: vec![1.0],
                ..l.weights.clone()
            },
            ..l.clone()
        })
        .collect();
    let mut g = fake_quantized(graph, &codes, c.flow());
    // Each bias in accumulator units, as the bias RAM holds it.
    for (l, orig) in codes.iter().zip(c.lowered()) {
        let Some(b) = &l.bias else { continue };
        let acc = accumulator_bias(orig).unwrap_or_else(|| vec![0; b.len()]);
        let name = format!("{}__mvu_bias", l.node);
        let t = Tensor::from_f32(vec![acc.len()], acc.iter().map(|&v| v as f32).collect())
            .expect("a vector");
        g.initializers.push((name.clone(), t));
        if let Some(n) = g.nodes.iter_mut().find(|n| n.name == l.node) {
            if n.inputs.len() > 2 {
                n.inputs[2] = Some(name);
            }
            if n.op_type == "Gemm" {
                n.attrs.insert("beta".into(), onnc_tensor::Attr::Float(1.0));
            }
        }
    }
    let scalar = |g: &mut Graph, name: String, v: f32| {
        g.initializers.push((
            name.clone(),
            Tensor::from_f32(vec![], vec![v]).expect("a scalar"),
        ));
        name
    };
    for l in &codes {
        let Some(at) = g
            .nodes
            .iter()
            .position(|n| n.outputs.first() == Some(&l.end))
        else {
            continue;
        };
        let raw = format!("{}__mvu_raw", l.end);
        g.nodes[at].outputs[0] = raw.clone();
        let shift = i64::from(msb_of(&l.layer)) - i64::from(l.layer.precision.out) + 1;
        let tag = l.end.clone();
        let n = scalar(
            &mut g,
            format!("{tag}__mvu_n"),
            l.sum_of.map_or(1.0, |n| n as f32),
        );
        let d = scalar(&mut g, format!("{tag}__mvu_div"), (2f32).powi(shift as i32));
        let m = scalar(
            &mut g,
            format!("{tag}__mvu_mod"),
            (1u64 << l.layer.precision.out) as f32,
        );
        let nodes = [
            Node::new(
                &format!("{tag}__mvu_sum"),
                "Mul",
                &[&raw, &n],
                &[&format!("{tag}__mvu_s0")],
            ),
            // The sum is an integer; the f32 mean times n may miss it by an
            // ulp (a 13x13 map: 507/169*169 = 506.99997), which Floor would
            // turn into one code less.
            Node::new(
                &format!("{tag}__mvu_round"),
                "Round",
                &[&format!("{tag}__mvu_s0")],
                &[&format!("{tag}__mvu_s")],
            ),
            Node::new(
                &format!("{tag}__mvu_shift"),
                "Div",
                &[&format!("{tag}__mvu_s"), &d],
                &[&format!("{tag}__mvu_d")],
            ),
            Node::new(
                &format!("{tag}__mvu_floor"),
                "Floor",
                &[&format!("{tag}__mvu_d")],
                &[&format!("{tag}__mvu_f")],
            ),
            // f mod 2^op, two's complement bits: f - 2^op * floor(f / 2^op).
            Node::new(
                &format!("{tag}__mvu_q"),
                "Div",
                &[&format!("{tag}__mvu_f"), &m],
                &[&format!("{tag}__mvu_qd")],
            ),
            Node::new(
                &format!("{tag}__mvu_qf"),
                "Floor",
                &[&format!("{tag}__mvu_qd")],
                &[&format!("{tag}__mvu_qfl")],
            ),
            Node::new(
                &format!("{tag}__mvu_qm"),
                "Mul",
                &[&format!("{tag}__mvu_qfl"), &m],
                &[&format!("{tag}__mvu_qml")],
            ),
            Node::new(
                &format!("{tag}__mvu_wrap"),
                "Sub",
                &[&format!("{tag}__mvu_f"), &format!("{tag}__mvu_qml")],
                &[&l.end],
            ),
        ];
        for (k, node) in nodes.into_iter().enumerate() {
            g.nodes.insert(at + 1 + k, node);
        }
    }
    g
}
