//! A `MaxPool` that cannot ride in a convolution's output pipeline, as a
//! layer of its own: an identity 1×1 convolution with the pooling in its
//! output pipeline.
//!
//! In: the `MaxPool` node, the layer whose output it reads (if any) and
//! whether it is that output's only reader. Out: whether the pooling folds
//! into that layer ([`folds`]), else the pooling layer ([`pool_layer`]) or a
//! problem naming the node.
//!
//! The MVU pools only in a convolution's output pipeline (one window of one
//! layer's conv outputs per job). A `MaxPool` of a `Concat` (SqueezeNet's
//! `features.6`, GoogLeNet's `maxpool3`), a second pooling (GoogLeNet's
//! inception pool branch, a 3×3/1 `MaxPool` of the block input that other
//! branches read too), a pooling of an activation other nodes also read, or
//! one whose edge windows are cut short (`ceil_mode`, pads) runs instead as:
//!
//! * **weights**: the `C × C` identity, 1-bit unsigned (`⌈C/64⌉` weight-RAM
//!   words per 64-channel output block); its accumulator is the input code;
//! * **pads**: the pooling's pads, and for `ceil_mode` the rows and columns
//!   the last window hangs over, become the convolution's zero pads; the
//!   pooling itself then has whole windows and no pads (a padded position
//!   outputs 0, and the inputs are ≥ 0, so it cannot change a maximum, as
//!   ONNX's padding that is never the maximum);
//! * **output pipeline**: the pooler (cleared to 0, `max` over the window:
//!   exact for inputs ≥ 0, which [`super::flow`] checks: every producer of
//!   the input has a ReLU, or it is the graph input's unsigned codes) and the
//!   quantizer with MSB `oprec − 1`, so the output code is the input code:
//!   the layer copies codes and adds no rounding.
//!
//! Cost: one job per pooled pixel and 64-channel block (the pooled
//! schedule), each walking `k_H·k_W` conv outputs over every input word:
//! `k_H·k_W·⌈C/64⌉·aprec` cycles per job; and a buffer for its output.
//!
//! ```
//! use onnc_mvu::frontend::{compile, CompileOptions};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{Attr, DType, Tensor};
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 8, 6, 6])],
//!     outputs: vec![vi("y", &[1, 4, 3, 3])],
//!     initializers: vec![("w".into(), Tensor::from_f32(vec![4, 8, 1, 1], vec![1.0; 32]).unwrap())],
//!     nodes: vec![
//!         Node::new("pool", "MaxPool", &["x"], &["p"]).with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
//!             .with_attr("strides", Attr::Ints(vec![2, 2])),
//!         Node::new("conv", "Conv", &["p", "w"], &["y"]),
//!     ],
//!     ..Graph::default()
//! };
//! let c = compile(&g, &CompileOptions { aprec: 2, wprec: 2, oprec: 4, test_vectors: false, ..CompileOptions::default() }).unwrap();
//! let pool = &c.lowered()[0];
//! assert_eq!((pool.op.as_str(), pool.layer.pool.map(|p| p.kernel)), ("MaxPool", Some([2, 2])));
//! assert_eq!(c.table().rows[0].jobs, 3 * 3); // one job per pooled pixel (8 channels: one block)
//! ```

use onnc_onnx::Node;

use super::lower::{Cx, Lowered, WeightLayout};
use super::pipeline::window;
use super::problem::Problem;
use super::weights::LayerWeights;
use super::CompileOptions;
use crate::layer::{ConvShape, Layer, LayerOp, Pool, Precision};
use crate::pool::windows_whole;

/// Whether `node` folds into `from`'s output pipeline: `from` is an
/// unpooled convolution, the pooling is the only reader of its output and
/// its windows are whole. A `node` whose window is invalid folds, so that
/// [`super::pipeline::max_pool`] reports it.
pub(super) fn folds(node: &Node, from: &Lowered, sole_reader: bool) -> bool {
    let LayerOp::Conv(c) = from.layer.op else {
        return false;
    };
    if from.layer.pool.is_some() || from.sum_of.is_some() || !sole_reader {
        return false;
    }
    match (window(node), c.output_hw()) {
        (Ok(p), Some(hw)) => windows_whole(&p, hw),
        _ => true,
    }
}

/// The pooling layer of `node` (see the module documentation): reads the
/// node's `1 × C × H × W` input and outputs its pooled codes.
pub(super) fn pool_layer(
    cx: &Cx<'_>,
    node: &Node,
    opts: &CompileOptions,
) -> Result<Lowered, Problem> {
    let pool = window(node)?;
    let bad = |what: String, fix: &str| Problem::node(&node.name, "MaxPool", what, fix);
    let x = node.input(0).unwrap_or_default();
    let shape = cx.shape(x).unwrap_or_default();
    let [1, c, h, w] = shape[..] else {
        return Err(bad(
            format!("input '{x}' has shape {shape:?}, not a static 1 x C x H x W"),
            "pool a convolution's 2-D output (batch 1), or run the pooling on the host",
        ));
    };
    let (Ok(c), Ok(h), Ok(w)) = (u32::try_from(c), u32::try_from(h), u32::try_from(w)) else {
        return Err(bad(
            format!("shape {shape:?} is too large"),
            "use a smaller input",
        ));
    };
    let Some([oh, ow]) = pool.output_hw([h, w]) else {
        return Err(bad(
            format!(
                "window {:?} with pads {:?} does not fit the {h} x {w} input",
                pool.kernel, pool.pads
            ),
            "use a window no larger than the padded input",
        ));
    };
    // The conv's output grid is the pooling's padded input, grown at the
    // bottom and right to hold the last (ceil_mode) window whole.
    let [t, l, b, r] = pool.pads;
    let grow = |out: u32, k: u32, s: u32, size: u32, p0: u32, p1: u32| {
        ((out - 1) * s + k).saturating_sub(size + p0).max(p1)
    };
    let pads = [
        t,
        l,
        grow(oh, pool.kernel[0], pool.strides[0], h, t, b),
        grow(ow, pool.kernel[1], pool.strides[1], w, l, r),
    ];
    let whole = Pool {
        kernel: pool.kernel,
        strides: pool.strides,
        pads: [0; 4],
        ceil_mode: false,
    };
    let n = c as usize;
    let mut values = vec![0i32; n * n];
    for ch in 0..n {
        values[ch * n + ch] = 1;
    }
    let mut layer = Layer::conv(
        &node.name,
        ConvShape::new(c, h, w, c, [1, 1]).with_pads(pads),
        Precision::new(opts.aprec, 1, opts.oprec),
    )
    // No explicit quantizer MSB: the default is `oprec − 1` (the copy), `--quant-msb`
    // does not reach this layer, and the mvu text reads the default back as `None`.
    .with_weight_name(format!("{}.identity", node.name));
    layer.pool = Some(whole);
    layer.relu = true;
    Ok(Lowered {
        node: node.name.clone(),
        op: "MaxPool".into(),
        layer,
        weights: LayerWeights {
            values,
            scales: vec![1.0],
            signed: false,
        },
        bias: None,
        relu: true,
        layout: WeightLayout::AsLayer,
        end: node.outputs[0].clone(),
        sum_of: None,
    })
}
