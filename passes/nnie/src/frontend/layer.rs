//! The NNIE layer: one Caffe layer made from one ONNX node, with its
//! quantization parameters.
//!
//! In: built by [`super::lower`] from a legalized graph; clips are filled by
//! calibration. Out: read by the Caffe writer ([`super::caffe_net`]), the
//! simulator ([`super::simulate`]), the clip table and
//! [`super::dialect_attrs`] (attribute names of `dialects/nnie.irdl.mlir`).
//!
//! ```
//! use onnc_nnie::frontend::{Layer, LayerKind};
//! let l = Layer::new("relu1", "Relu", LayerKind::Relu { negative_slope: 0.0 }, vec!["c1".into()], "r1");
//! assert_eq!(l.dialect_op(), "nnie.relu");
//! assert_eq!(l.caffe_type(), "ReLU");
//! assert!(!l.is_quantized());
//! ```

use onnc_tensor::Tensor;

use crate::grid::ClipValue;

/// `(height, width)` pairs of kernels, strides, pads and dilations.
pub type Hw = [usize; 2];

/// Element-wise operation of an Eltwise layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EltwiseOp {
    /// `Add`, `Sum`.
    Sum,
    /// `Mul`.
    Prod,
    /// `Max`.
    Max,
}

impl EltwiseOp {
    /// The dialect's spelling (`"sum"`, `"prod"`, `"max"`).
    pub fn name(self) -> &'static str {
        match self {
            EltwiseOp::Sum => "sum",
            EltwiseOp::Prod => "prod",
            EltwiseOp::Max => "max",
        }
    }
}

/// What a layer computes; one variant per op of the `nnie` dialect.
#[derive(Debug, Clone, PartialEq)]
pub enum LayerKind {
    /// Caffe Convolution (`nnie.conv`).
    Conv {
        /// Output channels.
        num_output: usize,
        /// Kernel size.
        kernel: Hw,
        /// Strides.
        stride: Hw,
        /// Pads, equal on both sides.
        pad: Hw,
        /// Dilations.
        dilation: Hw,
        /// Groups (> 1: grouped, = channels: depthwise).
        group: usize,
    },
    /// Caffe Deconvolution (`nnie.deconv`): the transpose of a Convolution;
    /// weights `C × O/group × kH × kW` (ONNX ConvTranspose's layout), output
    /// `stride·(in − 1) + kernel − 2·pad`.
    Deconv {
        /// Output channels.
        num_output: usize,
        /// Kernel size.
        kernel: Hw,
        /// Strides.
        stride: Hw,
        /// Pads, cut equally from both sides.
        pad: Hw,
        /// Groups (= channels: depthwise).
        group: usize,
    },
    /// Caffe InnerProduct (`nnie.fc`): `y = x·Wᵀ + b`, `W` is `O × K`.
    Fc {
        /// Output features.
        num_output: usize,
    },
    /// Caffe Pooling (`nnie.pool`), rounding up.
    Pool {
        /// Max (else average).
        max: bool,
        /// Kernel size (unused when global).
        kernel: Hw,
        /// Strides.
        stride: Hw,
        /// Pads, equal on both sides.
        pad: Hw,
        /// Global pooling.
        global: bool,
    },
    /// Caffe Eltwise (`nnie.eltwise`).
    Eltwise {
        /// The operation.
        op: EltwiseOp,
    },
    /// Caffe Concat (`nnie.concat`).
    Concat {
        /// Axis (non-negative).
        axis: usize,
    },
    /// HiSilicon Upsample (`nnie.upsample`), nearest neighbour.
    Upsample {
        /// Always 2.
        scale: u32,
    },
    /// Caffe ReLU (`nnie.relu`).
    Relu {
        /// 0 for a plain ReLU.
        negative_slope: f32,
    },
    /// Caffe Softmax (`nnie.softmax`).
    Softmax {
        /// Axis (non-negative).
        axis: usize,
    },
    /// Caffe Reshape (`nnie.reshape`): `[0, c, h, w]`.
    Reshape {
        /// The 4-entry shape, first entry 0 (copy the batch).
        shape: [i64; 4],
    },
    /// HiSilicon Permute (`nnie.permute`), order `(0, 2, 3, 1)` only.
    Permute,
    /// Caffe Slice (`nnie.slice`): keeps `[start, end)` of `axis` (of
    /// length `len`); the pieces before and after are extra tops nobody reads.
    Slice {
        /// Axis (1, 2 or 3).
        axis: usize,
        /// First kept index.
        start: usize,
        /// One past the last kept index.
        end: usize,
        /// The axis' length in the input.
        len: usize,
    },
    /// Caffe Slice with one top per piece (`nnie.split`): ONNX `Split`;
    /// the layer's `top` is the first piece.
    Split {
        /// Axis (1, 2 or 3).
        axis: usize,
        /// Where each piece after the first starts.
        points: Vec<usize>,
        /// Every output, in order.
        tops: Vec<String>,
    },
    /// A feature map times a per-channel `N×C×1×1` feature map (the
    /// squeeze-excitation gate; `nnie.channel_scale`): Caffe Flatten of the
    /// gate to `N×C`, then Scale (axis 0) with the two bottoms `[x, gate]`.
    ChannelScale,
    /// Per-channel `y = scale[c]·x + bias[c]` with constant scale (the
    /// layer's `weight`, `C` entries) and bias (`nnie.affine`): Caffe Scale
    /// with `bias_term`, from `BatchNormalization`.
    Affine,
    /// Caffe Sigmoid (`nnie.sigmoid`).
    Sigmoid,
    /// Caffe TanH (`nnie.tanh`).
    Tanh,
    /// Caffe Power (`nnie.power`): `y = (shift + scale·x)^power` (power 1
    /// for the scalar affine maps; −½ for a layer norm's `1/√(σ² + ε)`).
    Power {
        /// Multiplier.
        scale: f32,
        /// Addend.
        shift: f32,
        /// Exponent.
        power: f32,
    },
}

/// One NNIE layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Caffe layer name = ONNX node name (the clip-table key).
    pub name: String,
    /// The ONNX op it came from.
    pub op_type: String,
    /// The original node names (legalization provenance; `[name]` if none).
    pub sources: Vec<String>,
    /// What it computes.
    pub kind: LayerKind,
    /// Data inputs (value names), in order.
    pub bottoms: Vec<String>,
    /// The output value name.
    pub top: String,
    /// Conv `O × C/g × kH × kW` or Fc `O × K` weights (float, unclipped).
    pub weight: Option<Tensor>,
    /// Bias, `O` elements.
    pub bias: Option<Tensor>,
    /// One grid clip per bottom (quantized layers, after calibration).
    pub input_clips: Vec<ClipValue>,
    /// The weights' grid clip (Conv, Fc, after calibration).
    pub weight_clip: Option<ClipValue>,
}

impl Layer {
    /// A layer without weights or clips.
    pub fn new(
        name: &str,
        op_type: &str,
        kind: LayerKind,
        bottoms: Vec<String>,
        top: &str,
    ) -> Self {
        Self {
            name: name.to_string(),
            op_type: op_type.to_string(),
            sources: vec![name.to_string()],
            kind,
            bottoms,
            top: top.to_string(),
            weight: None,
            bias: None,
            input_clips: Vec::new(),
            weight_clip: None,
        }
    }

    /// The `nnie` dialect op (`nnie.conv`, …).
    pub fn dialect_op(&self) -> &'static str {
        match self.kind {
            LayerKind::Conv { .. } => "nnie.conv",
            LayerKind::Deconv { .. } => "nnie.deconv",
            LayerKind::Fc { .. } => "nnie.fc",
            LayerKind::Pool { .. } => "nnie.pool",
            LayerKind::Eltwise { .. } => "nnie.eltwise",
            LayerKind::Concat { .. } => "nnie.concat",
            LayerKind::Upsample { .. } => "nnie.upsample",
            LayerKind::Relu { .. } => "nnie.relu",
            LayerKind::Softmax { .. } => "nnie.softmax",
            LayerKind::Reshape { .. } => "nnie.reshape",
            LayerKind::Permute => "nnie.permute",
            LayerKind::Slice { .. } => "nnie.slice",
            LayerKind::Split { .. } => "nnie.split",
            LayerKind::ChannelScale => "nnie.channel_scale",
            LayerKind::Affine => "nnie.affine",
            LayerKind::Sigmoid => "nnie.sigmoid",
            LayerKind::Tanh => "nnie.tanh",
            LayerKind::Power { .. } => "nnie.power",
        }
    }

    /// The Caffe layer type.
    pub fn caffe_type(&self) -> &'static str {
        match self.kind {
            LayerKind::Conv { .. } => "Convolution",
            LayerKind::Deconv { .. } => "Deconvolution",
            LayerKind::Fc { .. } => "InnerProduct",
            LayerKind::Pool { .. } => "Pooling",
            LayerKind::Eltwise { .. } => "Eltwise",
            LayerKind::Concat { .. } => "Concat",
            LayerKind::Upsample { .. } => "Upsample",
            LayerKind::Relu { .. } => "ReLU",
            LayerKind::Softmax { .. } => "Softmax",
            LayerKind::Reshape { .. } => "Reshape",
            LayerKind::Permute => "Permute",
            LayerKind::Slice { .. } | LayerKind::Split { .. } => "Slice",
            LayerKind::ChannelScale | LayerKind::Affine => "Scale",
            LayerKind::Sigmoid => "Sigmoid",
            LayerKind::Tanh => "TanH",
            LayerKind::Power { .. } => "Power",
        }
    }

    /// Whether the layer's inputs are quantized (carry `input_clip`): conv,
    /// fc, pool, eltwise, concat, upsample — as in the dialect. Like ReLU,
    /// the element-wise activations (Sigmoid, TanH, Power) and Slice are
    /// simulated in float: MQBench writes no clip for them.
    pub fn is_quantized(&self) -> bool {
        !matches!(
            self.kind,
            LayerKind::Relu { .. }
                | LayerKind::Softmax { .. }
                | LayerKind::Reshape { .. }
                | LayerKind::Permute
                | LayerKind::Slice { .. }
                | LayerKind::Split { .. }
                | LayerKind::Sigmoid
                | LayerKind::Tanh
                | LayerKind::Power { .. }
        )
    }

    /// Whether the layer has weights (conv, deconv, fc).
    pub fn has_weights(&self) -> bool {
        matches!(
            self.kind,
            LayerKind::Conv { .. } | LayerKind::Deconv { .. } | LayerKind::Fc { .. }
        )
    }

    /// Whether MQBench's deploy step writes this layer into the clip table:
    /// quantized layers except group convolutions, `prod` Eltwise and the
    /// channel scale (MQBench skips `Mul`) and global average pooling
    /// (`GlobalAveragePool`).
    pub fn in_clip_table(&self) -> bool {
        match self.kind {
            LayerKind::Conv { group, .. } | LayerKind::Deconv { group, .. } => group == 1,
            LayerKind::Eltwise { op } => op != EltwiseOp::Prod,
            LayerKind::ChannelScale => false,
            LayerKind::Pool { max, global, .. } => !global || max,
            _ => self.is_quantized(),
        }
    }
}
