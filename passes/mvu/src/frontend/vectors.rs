//! Test vectors: a seeded input and the output the quantized network gives.
//!
//! In: the graph, its lowered layers, the options (precisions, seed). Out:
//! [`TestVectors`]: the input (integer activation codes), the expected output,
//! and the input's data-RAM image.
//!
//! What is computed, exactly:
//! * **input**: the graph input's shape, every element an integer drawn
//!   uniformly from `0..=2^aprec − 1` (ChaCha8 seeded with `seed`), stored as
//!   f32; these are the unsigned activation codes the MVU reads.
//! * **expected output**: `onnc-interp` runs the graph with each layer's
//!   weights replaced by their dequantized values `q · scale` (the integers in
//!   the `.hex` files times their scales; `alpha` of a Gemm is folded in) and
//!   everything else as in the graph (biases, ReLUs, layout ops). Activations
//!   between layers are not re-quantized: this is the reference a board run is
//!   compared with after scaling, not a bit-exact model of the MVU's output
//!   quantizer (whose window, `mvuquant`, depends on calibration).
//! * **input image** (`input_0.hex`): the input in the MVU's data-RAM layout,
//!   NHWC with channels zero-padded to blocks of 64, `aprec` lines per block,
//!   MSB plane first, element 0 rightmost (a 2-D input `[rows, k]` is rows of
//!   64-element blocks).
//!
//! ```
//! use onnc_mvu::frontend::random_codes;
//! let a = random_codes(10, 2, 7);
//! assert_eq!(a, random_codes(10, 2, 7));
//! assert!(a.iter().all(|&v| (0.0..=3.0).contains(&v) && v.fract() == 0.0));
//! ```

use onnc_onnx::Graph;
use onnc_tensor::{Attr, Tensor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::flow::Flow;
use super::groups::diagonal_blocks;
use super::lower::{Lowered, WeightLayout};
use super::problem::Problem;
use super::CompileOptions;
use crate::limits::ACT_WORD_ELEMS;
use crate::weights::bit_serial_lines;

/// One input / expected-output pair.
#[derive(Debug, Clone, PartialEq)]
pub struct TestVectors {
    /// Graph input name.
    pub input_name: String,
    /// The input (integer codes as f32, NCHW).
    pub input: Tensor,
    /// Graph output name.
    pub output_name: String,
    /// The expected output.
    pub output: Tensor,
    /// The input's data-RAM image, one line per 64-bit word.
    pub input_lines: Vec<String>,
}

/// `n` integer codes in `0..=2^bits − 1` from ChaCha8 seeded with `seed`.
pub fn random_codes(n: usize, bits: u32, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let max = (1u32 << bits.min(16)) - 1;
    (0..n).map(|_| rng.random_range(0..=max) as f32).collect()
}

/// The graph with every layer's weight operand replaced by its dequantized
/// weights (in the ONNX node's shape: a layer widened to a Concat buffer
/// ([`Flow`]) gives back its ONNX input channels).
pub fn fake_quantized(graph: &Graph, layers: &[Lowered], flow: &Flow) -> Graph {
    let mut g = graph.clone();
    for (i, l) in layers
        .iter()
        .enumerate()
        // Summing and pooling layers have no weights in the graph.
        .filter(|(_, l)| matches!(l.op.as_str(), "Conv" | "Gemm" | "MatMul"))
    {
        let (deq, shape) =
            onnx_weights(l, flow.layers.get(i).and_then(|io| io.input_map.as_deref()));
        let (data, dims) = match l.layout {
            WeightLayout::AsLayer => (deq, shape),
            WeightLayout::Transposed => {
                let (out, inp) = (shape[0], shape[1]);
                let mut t = vec![0f32; deq.len()];
                for o in 0..out {
                    for i in 0..inp {
                        t[i * out + o] = deq[o * inp + i];
                    }
                }
                (t, vec![inp, out])
            }
        };
        // A grouped Conv keeps its group: the reference runs it on the
        // diagonal blocks of the dense weights the MVU multiplies.
        let grouped = graph
            .nodes
            .iter()
            .find(|n| n.name == l.node && n.op_type == "Conv")
            .and_then(|n| n.attrs.get("group").and_then(Attr::as_int))
            .filter(|&g| g > 1);
        let (data, dims) = match (grouped, dims.as_slice()) {
            (Some(g), &[o, c, fh, fw]) => (
                diagonal_blocks(&data, o, c, g as usize, fh * fw),
                vec![o, c / g as usize, fh, fw],
            ),
            _ => (data, dims),
        };
        let name = format!("{}__mvu_weight", l.node);
        let Ok(tensor) = Tensor::from_f32(dims, data) else {
            continue;
        };
        g.initializers.push((name.clone(), tensor));
        if let Some(n) = g.nodes.iter_mut().find(|n| n.name == l.node) {
            n.inputs[1] = Some(name);
            if n.op_type == "Gemm" {
                n.attrs.insert("alpha".into(), Attr::Float(1.0));
            }
        }
    }
    g
}

/// Layer `l`'s dequantized weights and shape in its ONNX input channels:
/// with `map` (the stored channel of each ONNX input channel), the columns
/// `map` picks out of the widened weights.
fn onnx_weights(l: &Lowered, map: Option<&[u32]>) -> (Vec<f32>, Vec<usize>) {
    let deq = l.weights.dequantized();
    let mut shape = l.layer.weight_shape();
    let Some(map) = map else {
        return (deq, shape);
    };
    let (out, width) = (shape[0], shape[1]);
    let per = deq.len() / (out * width).max(1);
    let mut w = Vec::with_capacity(out * map.len() * per);
    for o in 0..out {
        for &s in map {
            let at = (o * width + s as usize) * per;
            w.extend_from_slice(&deq[at..at + per]);
        }
    }
    shape[1] = map.len();
    (w, shape)
}

/// The input in data-RAM order: NHWC (or rows), channels padded to 64.
fn ram_order(shape: &[usize], values: &[f32]) -> Vec<i32> {
    let (c, pixels) = match shape {
        [_, c, h, w] => (*c, h * w),
        [rows, k] => (*k, *rows),
        _ => (values.len(), 1),
    };
    let padded = c.div_ceil(ACT_WORD_ELEMS) * ACT_WORD_ELEMS;
    let mut out = vec![0i32; padded * pixels];
    for ch in 0..c {
        for p in 0..pixels {
            // NCHW source index; rows x k is "channels last" already.
            let src = if shape.len() == 4 {
                ch * pixels + p
            } else {
                p * c + ch
            };
            out[p * padded + ch] = values[src] as i32;
        }
    }
    out
}

/// The test input of a graph input `name` of `shape` and element type
/// `dtype`: the seeded codes (as `dtype`) and their data-RAM image.
/// What [`test_vectors`] draws, for a reader of the `mvu` level that has
/// the input's name, shape, `aprec` and seed but not the graph.
pub fn input_vectors(
    name: &str,
    shape: &[usize],
    dtype: onnc_tensor::DType,
    aprec: u32,
    seed: u64,
) -> Result<(Tensor, Vec<String>), Problem> {
    let n = shape.iter().product();
    let codes = random_codes(n, aprec, seed);
    let x = Tensor::from_f32(shape.to_vec(), codes.clone())
        .map_err(|e| Problem::option("test vectors", e.to_string(), "report this"))?;
    let lines = bit_serial_lines(
        name,
        &ram_order(shape, &codes),
        aprec,
        false,
        ACT_WORD_ELEMS,
    )
    .map_err(|e| Problem::option("test vectors", e.to_string(), "use --aprec 1..=16"))?;
    Ok((x.cast(dtype), lines))
}

/// Makes the test vectors for `graph` compiled as `layers` placed by `flow`.
pub fn test_vectors(
    graph: &Graph,
    layers: &[Lowered],
    flow: &Flow,
    opts: &CompileOptions,
) -> Result<TestVectors, Problem> {
    let input = &graph.inputs[0];
    let Some(shape) = input.type_info().static_shape() else {
        return Err(Problem::option(
            &format!("graph input '{}'", input.name),
            "has no static shape",
            "give it one (--input-shape)",
        ));
    };
    let (x, input_lines) = input_vectors(&input.name, &shape, input.dtype, opts.aprec, opts.seed)?;
    let g = fake_quantized(graph, layers, flow);
    let out = onnc_interp::run_graph(&g, &[(input.name.clone(), x.clone())]).map_err(|e| {
        Problem::option(
            "test vectors",
            format!("the reference interpreter failed: {e}"),
            "compile with test vectors off, or report this",
        )
    })?;
    let (output_name, output) = out.into_iter().next().ok_or_else(|| {
        Problem::option("test vectors", "the graph has no output", "keep one output")
    })?;
    Ok(TestVectors {
        input_name: input.name.clone(),
        input: x,
        output_name,
        output: output.cast(onnc_tensor::DType::F32),
        input_lines,
    })
}
