//! What the MVU's output pipeline does after a layer, and global average
//! pooling as a layer of its own.
//!
//! In: an ONNX node (`MaxPool`, `Clip`, `GlobalAveragePool`) and the lowered
//! layer it follows. Out: the layer's [`Pool`], the verdict that a `Clip` is a
//! ReLU, or a new summing layer; else a [`Problem`] naming the node, what the
//! hardware cannot do and what would fix it.
//!
//! The pipeline after the accumulator is fixed (`obilaniu/MVU` `mvu.v` at
//! `bfab134`): scaler `(acc · b + c)` → pooler (`maxpool.v`: cleared to 0, then
//! `max(register, value)` per output lane) → quantizer (`quantser.v`: bits
//! `msb .. msb − oprec + 1`, no saturation). Hence:
//!
//! | ONNX | on the MVU |
//! |---|---|
//! | `MaxPool` after Conv (+ `Relu`) | the pooler over each window's conv outputs, one job per pooled pixel and 64-channel block; exact because the ReLU makes every value ≥ 0 and the pooler starts from 0 |
//! | `MaxPool` without a `Relu` | refused: the pooler computes `max(0, window)` |
//! | `GlobalAveragePool` | a layer: an identity convolution whose kernel covers the map (1-bit weights) sums each channel; the mean is that sum / (H·W), a factor for the consumer's scale |
//! | `Clip(0, M)` (ReLU6) | a ReLU when the layer's outputs cannot exceed `M` for any `aprec`-bit input; otherwise refused (no upper clamp: the quantizer wraps) |
//!
//! ```
//! use onnc_mvu::frontend::{compile, CompileOptions};
//! let m = onnc_onnx::load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/plain/vgg_pool.onnx"),
//!                         &onnc_onnx::Options::default()).unwrap();
//! let c = compile(&m.graph, &CompileOptions { aprec: 2, wprec: 2, oprec: 2, ..CompileOptions::default() }).unwrap();
//! let r = &c.table().rows[0];
//! assert!(r.relu && r.pool.is_some());
//! assert_eq!(r.jobs, 8 * 8); // one job per pooled pixel (16 channels: one block)
//! ```

use onnc_onnx::Node;
use onnc_tensor::Attr;

use super::lower::{int_attr, ints_attr, Cx, Lowered, WeightLayout};
use super::problem::Problem;
use super::weights::LayerWeights;
use super::CompileOptions;
use crate::layer::{ConvShape, Layer, LayerOp, Pool, Precision};

/// The [`Pool`] of a `MaxPool` that follows the conv layer `from`.
pub fn max_pool(node: &Node, from: Option<&Lowered>) -> Result<Pool, Problem> {
    let bad = |what: String, fix: &str| Problem::node(&node.name, "MaxPool", what, fix);
    let Some(layer) = from else {
        return Err(bad(
            "does not follow a Conv: the MVU max-pools in a convolution's output pipeline".into(),
            "pool right after a Conv (+ Relu), or run the pooling on the host",
        ));
    };
    if !matches!(layer.layer.op, LayerOp::Conv(_)) {
        return Err(bad(
            format!(
                "follows '{}' ({}), not a Conv: the MVU pools a convolution's output grid",
                layer.node, layer.op
            ),
            "pool right after a Conv (+ Relu)",
        ));
    }
    if layer.layer.pool.is_some() || layer.sum_of.is_some() {
        return Err(bad(
            format!(
                "is the second pooling after '{}': the MVU pools once per layer",
                layer.node
            ),
            "merge the two poolings into one window, or run one on the host",
        ));
    }
    window(node)
}

/// The window of a `MaxPool` node: kernel, strides, pads and `ceil_mode`;
/// a problem for an `Indices` output, `auto_pad`, dilation or a window that
/// is not 2-D.
pub(super) fn window(node: &Node) -> Result<Pool, Problem> {
    let bad = |what: String, fix: &str| Problem::node(&node.name, "MaxPool", what, fix);
    if node.outputs.iter().skip(1).any(|o| !o.is_empty()) {
        return Err(bad(
            "asks for the Indices output, which the MVU's pooler does not produce".into(),
            "drop the Indices output",
        ));
    }
    let auto = node
        .attrs
        .get("auto_pad")
        .and_then(Attr::as_str)
        .unwrap_or("NOTSET");
    if auto != "NOTSET" && auto != "VALID" {
        return Err(bad(
            format!("auto_pad = {auto}"),
            "give explicit pads (onnx-simplify does this for static shapes)",
        ));
    }
    let kernel = ints_attr(node, "kernel_shape").unwrap_or_default();
    let strides = ints_attr(node, "strides").unwrap_or_else(|| vec![1; kernel.len()]);
    let pads = ints_attr(node, "pads").unwrap_or_else(|| vec![0; 2 * kernel.len()]);
    let dil = ints_attr(node, "dilations").unwrap_or_else(|| vec![1; kernel.len()]);
    if dil.iter().any(|&d| d != 1) {
        return Err(bad(
            format!("dilations = {dil:?}"),
            "the pooler takes consecutive conv outputs; use an undilated window",
        ));
    }
    let u = |v: &[i64]| -> Option<Vec<u32>> { v.iter().map(|&x| u32::try_from(x).ok()).collect() };
    match (u(&kernel), u(&strides), u(&pads)) {
        (Some(k), Some(s), Some(p))
            if k.len() == 2
                && s.len() == 2
                && p.len() == 4
                && k.iter().chain(&s).all(|&v| v > 0) =>
        {
            Ok(Pool {
                kernel: [k[0], k[1]],
                strides: [s[0], s[1]],
                pads: [p[0], p[1], p[2], p[3]],
                ceil_mode: int_attr(node, "ceil_mode", 0) != 0,
            })
        }
        _ => Err(bad(
            format!("kernel {kernel:?}, strides {strides:?}, pads {pads:?} are not a 2-D window"),
            "the MVU pools 2-D conv outputs",
        )),
    }
}

/// A `GlobalAveragePool` as a summing layer: an identity convolution whose
/// kernel is the whole `H × W` map, 1-bit unsigned weights.
pub(super) fn global_average(
    cx: &Cx<'_>,
    node: &Node,
    opts: &CompileOptions,
) -> Result<Lowered, Problem> {
    let x = node.input(0).unwrap_or_default();
    let shape = cx.shape(x).unwrap_or_default();
    let [1, c, h, w] = shape[..] else {
        return Err(Problem::node(
            &node.name,
            "GlobalAveragePool",
            format!("input '{x}' has shape {shape:?}, not a static 1 x C x H x W"),
            "give the graph input a static shape with batch 1 (--input-shape)",
        ));
    };
    let (Ok(c32), Ok(h32), Ok(w32)) = (u32::try_from(c), u32::try_from(h), u32::try_from(w)) else {
        return Err(Problem::node(
            &node.name,
            "GlobalAveragePool",
            format!("shape {shape:?} is too large"),
            "use a smaller input",
        ));
    };
    let mut values = vec![0i32; c * c * h * w];
    for ch in 0..c {
        values[(ch * c + ch) * h * w..(ch * c + ch + 1) * h * w].fill(1);
    }
    let layer = Layer::conv(
        &node.name,
        ConvShape::new(c32, h32, w32, c32, [h32, w32]),
        Precision::new(opts.aprec, 1, opts.oprec),
    )
    .with_weight_name(format!("{}.sum", node.name));
    let layer = match opts.quant_msb {
        Some(m) => layer.with_quant_msb(m),
        None => layer,
    };
    Ok(Lowered {
        node: node.name.clone(),
        op: "GlobalAveragePool".into(),
        layer,
        weights: LayerWeights {
            values,
            scales: vec![1.0],
            signed: false,
        },
        bias: None,
        relu: false,
        layout: WeightLayout::AsLayer,
        end: node.outputs[0].clone(),
        sum_of: Some(h32 * w32),
    })
}

/// The largest value `layer` can output for `aprec`-bit input codes, in the
/// graph's units (integer weights times their scales, plus the bias: the
/// graph's, or the bias RAM's rounded one, whichever is larger).
pub fn output_bound(layer: &Lowered, aprec: u32) -> f64 {
    let top = f64::from((1u32 << aprec.min(16)) - 1);
    let out = layer.layer.out_channels() as usize;
    let per = layer.weights.values.len() / out.max(1);
    let scales = &layer.weights.scales;
    let acc_bias = super::bias::accumulator_bias(layer);
    (0..out)
        .map(|o| {
            let scale = f64::from(if scales.len() == out {
                scales[o]
            } else {
                scales[0]
            });
            let pos: i64 = layer.weights.values[o * per..(o + 1) * per]
                .iter()
                .map(|&q| i64::from(q.max(0)))
                .sum();
            // The graph's bias, or what the bias RAM adds (`c · scale`, `c`
            // rounded to accumulator units), whichever is larger.
            let bias = layer
                .bias
                .as_ref()
                .and_then(|b| b.get(o))
                .map_or(0.0, |&b| f64::from(b));
            let board = acc_bias
                .as_ref()
                .and_then(|c| c.get(o))
                .map_or(0.0, |&c| c as f64 * scale);
            pos as f64 * top * scale + bias.max(board)
        })
        .fold(0.0, f64::max)
}

/// Accepts `Clip(0, M)` after `from` as that layer's ReLU when the layer
/// cannot output more than `M`.
pub(super) fn clip_as_relu(
    cx: &Cx<'_>,
    node: &Node,
    from: Option<&Lowered>,
    opts: &CompileOptions,
) -> Result<(), Problem> {
    let bad = |what: String, fix: &str| Problem::node(&node.name, "Clip", what, fix);
    let bound = |i: usize, attr: &str| -> Option<f64> {
        match node.input(i) {
            Some(v) => cx
                .constant(v)
                .and_then(|t| t.data().to_f64_vec().first().copied()),
            None => node.attrs.get(attr).and_then(Attr::as_float).map(f64::from),
        }
    };
    let (lo, hi) = (bound(1, "min"), bound(2, "max"));
    let Some(layer) = from else {
        return Err(bad(
            "does not follow a Conv/Gemm/MatMul: the MVU clamps only in a layer's output pipeline"
                .into(),
            "move the clamp after a layer, or run it on the host",
        ));
    };
    if lo != Some(0.0) {
        return Err(bad(
            format!(
                "the lower bound is {}, not 0: the MVU's only clamp is the ReLU of its pooler (max with 0)",
                lo.map_or_else(|| "absent (no lower clamp)".to_string(), |v| v.to_string())
            ),
            "use Clip(0, M) (ReLU6) or Relu, or run the clamp on the host",
        ));
    }
    let Some(m) = hi else {
        return Ok(()); // Clip(0, inf) is a ReLU
    };
    let reach = output_bound(layer, opts.aprec);
    if reach <= m {
        return Ok(());
    }
    Err(bad(
        format!(
            "clamps at {m}, and '{}' reaches up to {reach} for {}-bit inputs: the MVU's output pipeline \
             has a ReLU (its pooler cleared to 0) but no upper clamp (its quantizer keeps bits \
             msb..msb-oprec+1 of the 27-bit value and wraps instead of saturating)",
            layer.node, opts.aprec
        ),
        "use Relu instead of ReLU6 (and retrain or recalibrate), lower --aprec until the clamp cannot bind, \
         or run the clamp on the host",
    ))
}
