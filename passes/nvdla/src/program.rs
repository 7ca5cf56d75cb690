//! The lowered NVDLA network: hardware layers over feature cubes.
//!
//! In: nothing (plain data), built by `lower`, rewritten by `plan` and
//! `ctable`, read by `exec` and `emit`. Out: [`Program`].
//!
//! A `Program` mirrors the `nvdla` dialect one to one (the MLIR side converts
//! both ways without loss):
//!
//! ```text
//! func.func @main(%x: tensor<1x1x28x28xf16>) -> tensor<1x20x24x24xf16> attributes {nvdla.config = "nv_full"} {
//!   %w   = arith.constant dense_resource<conv1_w> : tensor<20x1x5x5xf32>     // Tensor{kind: Weight}
//!   %b   = arith.constant dense_resource<conv1_b> : tensor<1x20x1x1xf32>     // Tensor{kind: Weight}
//!   %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", ...} : ... -> tensor<1x20x24x24xf32>  // Tensor{kind: Fused}
//!   %y   = "nvdla.sdp"(%acc, %b) {hw_layer = "conv1", x1_op.mode = "per_kernel", ...}    // Op{engine: Sdp}
//!   return %y
//! }
//! ```
//!
//! Conventions every stage relies on:
//! * Feature tensors are 4-D `[N, C, H, W]`; a 2-D `[N, K]` ONNX tensor is
//!   `[N, K, 1, 1]`. Weight tensors keep their ONNX shape
//!   (conv: `[K, C/group, R, S]`; SDP operands: see [`Op::inputs`]).
//! * Weights keep their original `f32` values; the emitter converts them to
//!   the op's precision (FP16, or INT8 with the op's converter registers).
//! * `Op::attrs` holds **every** attribute the dialect op requires, spelled
//!   exactly as in `dialects/nvdla.irdl.mlir` (`in_cvt.scale`,
//!   `x1_op.mode`, ...); integer registers are [`Value::Int`], enumerations
//!   [`Value::Str`], EMU/CDP float parameters [`Value::Float`].
//! * Ops are in execution order; an op's inputs are produced by earlier ops
//!   or are network inputs/weights.
//! * Virtual engines ([`Engine::Concat`], [`Engine::Reshape`],
//!   [`Engine::Slice`]) emit no hardware op: the planner places their
//!   operands and result in the same memory (a channel, row or column
//!   window for concat by its `axis`, a channel window for slice, the same
//!   bytes for reshape), or reports why it cannot.

use std::collections::BTreeMap;
use std::fmt;

use crate::config::ConfigName;
pub use onnc_nvdla_hw::Precision;

/// Index of a tensor in [`Program::tensors`].
pub type TensorId = usize;

/// The engine an op runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Engine {
    /// Convolution pipeline (CDMA/CSC/CMAC/CACC); always followed by its fused SDP.
    Conv,
    /// Single-point data processor (bias, BN, eltwise, activation, converters).
    Sdp,
    /// Planar data processor (pooling).
    Pdp,
    /// Channel data processor (LRN).
    Cdp,
    /// RUBIK (contract/split/merge).
    Rubik,
    /// Bridge DMA (copies).
    Bdma,
    /// CPU emulator task (softmax, power).
    Emu,
    /// Virtual: channel concatenation, realised by placement.
    Concat,
    /// Virtual: same bytes, new shape (Reshape, Flatten, Squeeze, Unsqueeze).
    Reshape,
    /// Virtual: a channel window of the input, realised by placement.
    Slice,
}

impl Engine {
    /// The dialect op name without the `nvdla.` prefix.
    pub fn op_name(self) -> &'static str {
        match self {
            Engine::Conv => "conv",
            Engine::Sdp => "sdp",
            Engine::Pdp => "pdp",
            Engine::Cdp => "cdp",
            Engine::Rubik => "rubik",
            Engine::Bdma => "bdma",
            Engine::Emu => "emu",
            Engine::Concat => "concat",
            Engine::Reshape => "reshape",
            Engine::Slice => "slice",
        }
    }

    /// Parses a dialect op name (without the prefix).
    pub fn from_op_name(s: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.op_name() == s)
    }

    /// Every engine, in a fixed order.
    pub const ALL: [Engine; 10] = [
        Engine::Conv,
        Engine::Sdp,
        Engine::Pdp,
        Engine::Cdp,
        Engine::Rubik,
        Engine::Bdma,
        Engine::Emu,
        Engine::Concat,
        Engine::Reshape,
        Engine::Slice,
    ];

    /// Whether the op is a DLA hardware op (counted in `dla_ops`).
    pub fn is_dla(self) -> bool {
        matches!(
            self,
            Engine::Conv | Engine::Sdp | Engine::Pdp | Engine::Cdp | Engine::Rubik | Engine::Bdma
        )
    }

    /// Whether the op writes its input's values in its input's INT8 scale
    /// (no output converter: pooling, data movement, views).
    pub fn keeps_scale(self) -> bool {
        matches!(
            self,
            Engine::Pdp
                | Engine::Reshape
                | Engine::Slice
                | Engine::Concat
                | Engine::Bdma
                | Engine::Rubik
        )
    }

    /// Whether the op emits nothing (placement only).
    pub fn is_virtual(self) -> bool {
        matches!(self, Engine::Concat | Engine::Reshape | Engine::Slice)
    }

    /// The CTable block names of this engine's registers (`<hw_layer>.<BLOCK>`).
    pub fn ctable_blocks(self) -> &'static [&'static str] {
        match self {
            Engine::Conv => &["CONV"],
            Engine::Sdp => &["SDP"],
            Engine::Cdp => &["CDP", "LUT"],
            Engine::Emu => &["EMU"],
            _ => &[],
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op_name())
    }
}

/// An attribute value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Integer register or parameter (an `i64` IntegerAttr in IR).
    Int(i64),
    /// Float parameter (an `f32` FloatAttr in IR).
    Float(f64),
    /// Enumeration or name (a StringAttr in IR).
    Str(String),
}

impl Value {
    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The float (integers widen), if numeric.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(v) => Some(*v),
            Value::Int(v) => Some(*v as f64),
            Value::Str(_) => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Str(s) => write!(f, "\"{s}\""),
        }
    }
}

/// The memory pool a tensor lives in (set by the planner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// The shared activation pool (liveness-based reuse).
    Activations,
    /// The weight pool (SET from blobs).
    Weights,
    /// Its own bindable buffer (network inputs and outputs).
    Bind,
}

impl Pool {
    /// The IR spelling (`"act"`, `"weights"`, `"bind"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Pool::Activations => "act",
            Pool::Weights => "weights",
            Pool::Bind => "bind",
        }
    }

    /// Parses the IR spelling.
    pub fn parse(s: &str) -> Option<Pool> {
        match s {
            "act" => Some(Pool::Activations),
            "weights" => Some(Pool::Weights),
            "bind" => Some(Pool::Bind),
            _ => None,
        }
    }
}

/// Where the planner put a tensor. In IR: the `nvdla.mem` dictionary on the
/// defining op (or the function argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Placement {
    /// Pool.
    pub pool: Option<Pool>,
    /// Byte offset in the pool (for views: of the first byte of the window).
    pub offset: u64,
    /// Bytes the tensor occupies (surface-aligned cube, or packed weights).
    pub size: u64,
    /// Bytes between lines (features only, else 0).
    pub line_stride: u32,
    /// Bytes between surfaces (features only, else 0).
    pub surf_stride: u32,
}

/// What a tensor is.
#[derive(Debug, Clone, PartialEq)]
pub enum TensorKind {
    /// Network input number `.0` (bind id per direction).
    Input(u16),
    /// Network output number `.0`.
    Output(u16),
    /// Intermediate feature cube in DRAM.
    Activation,
    /// CONV→SDP accumulator stream: never in memory.
    Fused,
    /// Constant with its original values, row-major in `Tensor::shape`.
    Weight(Weights),
}

/// A weight's `f32` values, shared: a clone, or a weight lowered from an
/// ONNX initializer unchanged, refers to the same storage (for a model read
/// from a file, the file's bytes) instead of copying it. Passes on the
/// compile path read [`Weights::le_bytes`], [`Weights::at`] or
/// [`Weights::iter`], which decode as they go; [`Weights::values`] decodes
/// the whole tensor once (kept for the simulator, calibration and tests).
#[derive(Debug, Clone, PartialEq)]
pub struct Weights(onnc_tensor::Tensor);

impl Weights {
    /// Weights holding `values`.
    pub fn new(values: Vec<f32>) -> Weights {
        let n = values.len();
        Weights(onnc_tensor::Tensor::from_f32(vec![n], values).expect("a 1-D tensor of n values"))
    }

    /// The values of `t` in row-major order: the same storage when `t` is
    /// `f32`, converted (ONNX `Cast`) otherwise.
    pub fn of_tensor(t: &onnc_tensor::Tensor) -> Weights {
        let n = t.numel();
        let f = t.cast(onnc_tensor::DType::F32);
        Weights(f.reshape(vec![n]).expect("the same element count"))
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.0.numel()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i` (read from the bytes, nothing decoded ahead). Panics past the end.
    pub fn at(&self, i: usize) -> f32 {
        if let Some(r) = self.0.row_scaled() {
            return r.value(i);
        }
        let b = self.0.le_view().element(i, 4);
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The values in order, decoded (or scaled) as they are read.
    pub fn iter(&self) -> Box<dyn Iterator<Item = f32> + '_> {
        if let Some(r) = self.0.row_scaled() {
            return Box::new((0..r.rows()).flat_map(move |o| r.row(o)));
        }
        Box::new(self.0.le_view().runs().flat_map(|run| {
            run.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        }))
    }

    /// The values of weights that are a kernel times a per-output-channel
    /// factor not yet applied (a batch normalization folded by the
    /// legalizer, [`onnc_tensor::Tensor::scale_rows`]), read without
    /// computing them all; `None` for any other weights. The packer
    /// applies the factor as it writes the output format.
    pub fn row_scaled(&self) -> Option<onnc_tensor::RowScaled<'_>> {
        self.0.row_scaled()
    }

    /// Whether the values of weights over a model's bytes have been decoded
    /// or gathered into a copy ([`onnc_tensor::Tensor::is_copied_out`]):
    /// the compile path never does (tests check it).
    pub fn is_copied_out(&self) -> bool {
        self.0.is_copied_out()
    }

    /// The values' little-endian bytes where they lie (one run, or runs at a
    /// stride for a channel slice of the model's bytes), without copying —
    /// except lazily scaled weights ([`Weights::row_scaled`]), whose values
    /// this computes and keeps.
    pub fn le_view(&self) -> onnc_tensor::LeBytes<'_> {
        self.0.le_view()
    }

    /// The values' little-endian bytes as one slice: no copy, except for a
    /// strided channel slice, which this gathers once and keeps (the compile
    /// path reads [`Weights::le_view`] instead).
    pub fn le_bytes(&self) -> &[u8] {
        self.0.le_bytes()
    }

    /// All values as a slice (decoded once on first use if the storage is
    /// shared bytes, then kept: a full copy; the compile path avoids it).
    pub fn values(&self) -> &[f32] {
        self.0.as_f32().expect("weights are f32 by construction")
    }

    /// The values, owned (the storage itself when nothing else shares it).
    pub fn into_vec(self) -> Vec<f32> {
        match self.0.into_data() {
            onnc_tensor::Data::F32(v) => v,
            _ => unreachable!("weights are f32 by construction"),
        }
    }

    /// The values as a tensor of `shape` (sharing the storage), or an error
    /// when the element counts differ.
    pub fn to_tensor(&self, shape: Vec<usize>) -> onnc_tensor::Result<onnc_tensor::Tensor> {
        self.0.clone().reshape(shape)
    }

    /// Whether both share one storage (neither is a copy of the other).
    pub fn shares_storage(&self, other: &Weights) -> bool {
        self.0.shares_storage(&other.0)
    }
}

impl From<Vec<f32>> for Weights {
    fn from(values: Vec<f32>) -> Weights {
        Weights::new(values)
    }
}

/// A tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// Name (the ONNX value name where there is one; unique).
    pub name: String,
    /// Shape: `[N, C, H, W]` for features, the ONNX shape for weights.
    pub shape: Vec<usize>,
    /// Element precision in memory (weights: the precision they are converted to).
    pub precision: Precision,
    /// Role.
    pub kind: TensorKind,
    /// Memory placement, once planned.
    pub place: Option<Placement>,
}

impl Tensor {
    /// Number of elements (saturating: a hostile shape is refused by the
    /// lowering's size check, never an overflow panic here).
    pub fn elements(&self) -> usize {
        self.shape.iter().fold(1usize, |n, &d| n.saturating_mul(d))
    }

    /// Whether the tensor is a weight.
    pub fn is_weight(&self) -> bool {
        matches!(self.kind, TensorKind::Weight(_))
    }
}

/// One hardware layer job (or one virtual view op).
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    /// Engine.
    pub engine: Engine,
    /// The hardware-layer name (CTable key prefix; shared by a conv and its fused SDP).
    pub hw_layer: String,
    /// Every dialect attribute except `hw_layer`, by dialect name.
    pub attrs: BTreeMap<String, Value>,
    /// Operand slots, positional per engine:
    /// * conv: `[input, weight]`;
    /// * sdp: `[input, x1, x2, y]` (a `None` slot uses its immediates); an
    ///   operand of a `per_kernel` sub-unit is a weight `[1, K, 1, 1]`; a
    ///   `per_point` one is a feature cube (eltwise) or weight `[N, C, H, W]`;
    ///   a sub-unit of type `"both"` takes a weight `[2, K, 1, 1]`: row 0 is
    ///   the ALU operand, row 1 the MUL operand, computing `(x alu a) · m`;
    /// * concat: one slot per member, in channel order;
    /// * everything else: `[input]`.
    pub inputs: Vec<Option<TensorId>>,
    /// The result.
    pub output: TensorId,
    /// The ONNX nodes this op came from (names, or `op_type#index` when unnamed).
    pub onnx_nodes: Vec<String>,
}

impl Op {
    /// Integer attribute `name`.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.attrs.get(name).and_then(Value::as_int)
    }

    /// String attribute `name`.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).and_then(Value::as_str)
    }

    /// Float attribute `name` (integers widen).
    pub fn float(&self, name: &str) -> Option<f64> {
        self.attrs.get(name).and_then(Value::as_float)
    }

    /// The operands that are present.
    pub fn operands(&self) -> impl Iterator<Item = TensorId> + '_ {
        self.inputs.iter().flatten().copied()
    }
}

/// A lowered network.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Target configuration.
    pub config: ConfigName,
    /// Every tensor; [`TensorId`] indexes this.
    pub tensors: Vec<Tensor>,
    /// Ops in execution order.
    pub ops: Vec<Op>,
    /// Network inputs, in bind order.
    pub inputs: Vec<TensorId>,
    /// Network outputs, in bind order.
    pub outputs: Vec<TensorId>,
    /// The CBUF plan of each convolution cut into row bands, by its
    /// hardware-layer name (recorded by `nvdla-split-conv`, read by emission;
    /// see [`crate::cbuf`]).
    pub cbuf: std::collections::BTreeMap<String, crate::cbuf::CbufPlan>,
}

impl Program {
    /// An empty program for `config`.
    pub fn new(config: ConfigName) -> Program {
        Program {
            config,
            tensors: Vec::new(),
            ops: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            cbuf: Default::default(),
        }
    }

    /// Adds a tensor and returns its id.
    pub fn add_tensor(&mut self, t: Tensor) -> TensorId {
        self.tensors.push(t);
        self.tensors.len() - 1
    }

    /// Adds network input number `inputs.len()` (its bind id) and returns its id.
    pub fn add_input(&mut self, name: &str, shape: &[usize], precision: Precision) -> TensorId {
        let kind = TensorKind::Input(self.inputs.len() as u16);
        let t = self.add_tensor(Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            precision,
            kind,
            place: None,
        });
        self.inputs.push(t);
        t
    }

    /// Adds network output number `outputs.len()` (its bind id) and returns its id.
    pub fn add_output(&mut self, name: &str, shape: &[usize], precision: Precision) -> TensorId {
        let kind = TensorKind::Output(self.outputs.len() as u16);
        let t = self.add_tensor(Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            precision,
            kind,
            place: None,
        });
        self.outputs.push(t);
        t
    }

    /// The op producing `t`, if any.
    pub fn producer(&self, t: TensorId) -> Option<usize> {
        self.ops.iter().position(|o| o.output == t)
    }

    /// The ops reading `t`, in order.
    pub fn consumers(&self, t: TensorId) -> Vec<usize> {
        (0..self.ops.len())
            .filter(|&i| self.ops[i].operands().any(|x| x == t))
            .collect()
    }

    /// Counts of DLA and EMU ops.
    pub fn op_counts(&self) -> (usize, usize) {
        let dla = self.ops.iter().filter(|o| o.engine.is_dla()).count();
        let emu = self.ops.iter().filter(|o| o.engine == Engine::Emu).count();
        (dla, emu)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_names_round_trip() {
        for e in Engine::ALL {
            assert_eq!(Engine::from_op_name(e.op_name()), Some(e));
        }
        assert!(Engine::Conv.is_dla() && !Engine::Emu.is_dla() && Engine::Concat.is_virtual());
    }

    #[test]
    fn precision_and_pool_spellings_round_trip() {
        for p in [Precision::Int8, Precision::Int16, Precision::Fp16] {
            assert_eq!(Precision::parse(p.as_str()), Some(p));
        }
        for p in [Pool::Activations, Pool::Weights, Pool::Bind] {
            assert_eq!(Pool::parse(p.as_str()), Some(p));
        }
    }
}
