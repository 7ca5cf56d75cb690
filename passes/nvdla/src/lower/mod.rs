//! Lowering: a legalized ONNX graph to NVDLA hardware layers, with fusion.
//!
//! In: an [`onnc_onnx::Graph`] legalized for one configuration
//! (`onnc_legalize::legalize(.., Target::NvFull, ..)`), static shapes.
//! Out: a [`Program`] whose ops carry every dialect register (identity
//! converter values until calibration), or a [`Error`] listing every
//! node that cannot be mapped, with the fix.
//!
//! Mapping (one file per concern):
//! * `Conv` → `nvdla.conv` (result `Fused`) + `nvdla.sdp` sharing its
//!   `hw_layer`. The SDP absorbs the bias and the single-consumer chain
//!   after the conv: per-channel `Mul`/`Add` (unfolded batch norm), `Relu`,
//!   `PRelu`, `Clip(0, ∞)`, an `Add`/`Sub`/`Mul`/`Max`/`Min` with another
//!   activation (per-point from memory, or per-channel for a `[N, C, 1, 1]`
//!   squeeze-excitation vector) and the `Relu` after it, as long as the
//!   steps pack onto X1/X2/Y (X1/X2 on nv_small, which has no Y unit;
//!   [`sdp`], [`fuse`]).
//!   A grouped or depthwise conv keeps its `[K, C/G, R, S]` kernel and
//!   carries `group = G` ([`grouped`]); grouped convs that legalization
//!   split are merged back ([`regroup`]);
//!   a `Flatten`/`Reshape` `[N,C,H,W] → [N,CHW]` feeding a 1×1 conv becomes
//!   one conv with an H×W kernel over the cube.
//! * Remaining element-wise ops → standalone `nvdla.sdp` reading memory,
//!   absorbing their own chains.
//! * `MaxPool`/`AveragePool`/`GlobalAveragePool` → `nvdla.pdp` (averages
//!   divide by the whole window: `count_include_pad=0` with padding is
//!   refused); `LRN` → `nvdla.cdp` with its LUT index.
//! * `onnc.ChannelShuffle` → a 1×1 conv with 0/1 permutation weights
//!   ([`select`]); `Transpose` only when it keeps the cube.
//! * `Concat`/`Split`/`Slice` on channels → virtual `Concat`/`Slice` views
//!   when every window starts on a memory-atom boundary, else exact 0/1
//!   selection convs (the concat members summed by per-point SDP adds); `Reshape`/`Flatten`/`Squeeze`/`Unsqueeze`/`Identity`
//!   → virtual `Reshape` when the cube is unchanged.
//! * `Sigmoid`, `Tanh`, `Softplus`, `HardSwish`, `Mish` and `x · Sigmoid(x)`
//!   (SiLU) → the SDP Y unit's lookup table, `HardSigmoid` → X-unit steps
//!   ([`activation`]; FP16 only).
//! * 3-D tokens `[N, T, K]` → the cube `[N, K, T, 1]` (or the H×W grid of the
//!   feature map they came from): `MatMul` by a constant → a 1×1 conv,
//!   `LayerNormalization` → 1×1 convs, SDP products and the `rsqrt` table,
//!   `Transpose(0, 2, 1)` → a view ([`tokens`], run first).
//! * `Softmax` (axis 1) → `nvdla.emu` softmax; `Pow` by a constant → emu power.
//! * A graph output that would be a view of a graph input (an Identity-only
//!   model) is a copy instead: an SDP with every unit bypassed.
//! * NaN or infinite weights are problems; FP16 weights beyond ±65504 are
//!   warnings for the caller to show ([`weight_values`]).
//!
//! ```
//! use onnc_nvdla::lower::{lower, LowerOptions};
//! use onnc_nvdla::{ConfigName, Engine};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{DType, Tensor};
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 3, 8, 8])],
//!     outputs: vec![vi("y", &[1, 4, 8, 8])],
//!     initializers: vec![("w".into(), Tensor::from_f32(vec![4, 3, 1, 1], vec![0.5; 12]).unwrap()),
//!                        ("b".into(), Tensor::from_f32(vec![4], vec![0.1; 4]).unwrap())],
//!     nodes: vec![Node::new("conv1", "Conv", &["x", "w", "b"], &["c"]), Node::new("relu1", "Relu", &["c"], &["y"])],
//!     ..Default::default()
//! };
//! let p = lower(&g, ConfigName::NvFull, &LowerOptions::default()).unwrap();
//! assert_eq!(p.ops.iter().map(|o| o.engine).collect::<Vec<_>>(), [Engine::Conv, Engine::Sdp]);
//! assert_eq!(p.ops[1].str("x1_op.act"), Some("relu"));
//! assert_eq!(p.ops[1].onnx_nodes, ["conv1", "relu1"]);
//! ```

pub mod activation;
pub mod build;
pub mod deconv;
pub(crate) mod error;
pub mod fuse;
pub mod graph;
pub mod grouped;
mod nodes;
pub mod regroup;
pub mod sdp;
pub mod select;
pub mod tokens;
pub mod unwide;
pub mod weight_values;

pub use error::Problem;

use std::collections::BTreeMap;

use onnc_onnx::Graph;

use crate::config::{Config, ConfigName};
use crate::program::{Engine, Precision, Program};
use crate::registers;
use crate::Error;
use build::Builder;
use graph::Work;

/// Lowering options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerOptions {
    /// Fuse element-wise chains into the SDP of the op before them (default
    /// true); false gives one op per ONNX node, for debugging.
    pub fuse: bool,
    /// The precision of every op and feature tensor; `None` takes the
    /// configuration's default (FP16 on nv_full, INT8 on nv_large and
    /// nv_small). A precision the configuration's datapath lacks, or INT16
    /// (which no calibration format describes), is refused.
    pub precision: Option<Precision>,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            fuse: true,
            precision: None,
        }
    }
}

/// `config`'s parameters with the precision `opts` asks for.
/// Out: the configuration, or the reason the precision cannot be used.
pub fn config_for(config: ConfigName, opts: &LowerOptions) -> Result<Config, String> {
    let mut cfg = Config::get(config);
    if let Some(p) = opts.precision {
        if p == Precision::Int16 || !cfg.supports(p) {
            let usable: Vec<&str> = cfg
                .precisions
                .iter()
                .filter(|q| **q != Precision::Int16)
                .map(|q| q.as_str())
                .collect();
            return Err(format!(
                "{} cannot compile in {}; it compiles in {}",
                cfg.name,
                p.as_str(),
                usable.join(" or ")
            ));
        }
        cfg.default_precision = p;
    }
    Ok(cfg)
}

/// Lowers a legalized graph for configuration `config`.
pub fn lower(graph: &Graph, config: ConfigName, opts: &LowerOptions) -> Result<Program, Error> {
    let cfg = config_for(config, opts).map_err(|why| Error::Lower {
        problems: vec![Problem::new(
            "",
            "convert-onnx-to-nvdla",
            why,
            "choose a precision the configuration runs",
        )],
    })?;
    let mut w = Work::new(graph).map_err(|problems| Error::Lower { problems })?;
    // 1/√ on the SDP table only where FP16 runs it (lower::activation).
    let lut_rsqrt = cfg.has_sdp_lut && cfg.default_precision == Precision::Fp16;
    let problems = tokens::tokens(&mut w, lut_rsqrt);
    if !problems.is_empty() {
        return Err(Error::Lower { problems });
    }
    unwide::unwide(&mut w);
    regroup::regroup(&mut w);
    // Composing `x · gate(x)` into one LUT function only pays where the LUT
    // runs; elsewhere (nv_small; INT8) the pieces run on the X units.
    if opts.fuse && cfg.has_sdp_lut && cfg.default_precision == Precision::Fp16 {
        activation::compose(&mut w);
    }
    let refused = activation::refusals(&w, &cfg);
    let mut l = nodes::Lowering::new(w, Builder::new(cfg), opts.clone());
    l.inputs(graph);
    l.plan();
    l.emit();
    l.outputs(graph);
    let nodes::Lowering {
        b, mut problems, ..
    } = l;
    problems.splice(0..0, refused);
    problems.extend(weight_values::errors(&b.prog));
    for t in &b.prog.tensors {
        let limit = onnc_tensor::limits::MAX_TENSOR_BYTES;
        if let Err(e) = onnc_tensor::limits::checked_bytes(&t.shape, t.precision.bytes(), limit) {
            problems.push(Problem::new(
                &t.name,
                "nvdla.tensor",
                e,
                "fix the input shape (--input-shape)",
            ));
        }
    }
    for op in &b.prog.ops {
        for e in registers::check_op(op) {
            let node = op.onnx_nodes.first().cloned().unwrap_or_default();
            problems.push(Problem::new(
                &node,
                &format!("nvdla.{}", op.engine),
                e,
                "this is a lowering bug: please report it with the model",
            ));
        }
    }
    if problems.is_empty() {
        Ok(b.prog)
    } else {
        Err(Error::Lower { problems })
    }
}

/// Ops of `p` by engine.
pub fn engine_counts(p: &Program) -> BTreeMap<Engine, usize> {
    let mut m = BTreeMap::new();
    for o in &p.ops {
        *m.entry(o.engine).or_insert(0) += 1;
    }
    m
}
