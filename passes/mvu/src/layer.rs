//! Layer descriptions: what the code generator needs to know about one MVU job
//! family (a convolution or a matrix multiply) and its precisions.
//!
//! In: shapes in ONNX terms (channels and pixels, not 64-channel blocks), plus
//! activation / weight / output precisions. Out: [`Layer`], consumed by
//! [`crate::generate`], [`crate::export_weights`] and [`crate::quantize_weights`].
//!
//! Weight layouts expected alongside a layer are ONNX's: conv `[O, I, kH, kW]`,
//! matmul `[out, in]` (PyTorch `Linear` / ONNX `Gemm` with `transB = 1`; an ONNX
//! `MatMul` weight `[in, out]` must be transposed by the caller).
//!
//! ```
//! use onnc_mvu::{ConvShape, Layer, Precision};
//! // SimpleConv: 64 -> 64 channels, 32x32, 3x3, stride 1, pad 1, 8-bit everything.
//! let l = Layer::conv("Conv_0", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
//!                     Precision::new(8, 8, 8));
//! assert_eq!(l.weight_shape(), vec![64, 64, 3, 3]);
//! assert_eq!(l.output_chw(), Some([64, 32, 32]));
//! ```

use serde::Serialize;

/// Activation, weight and output precisions (bits) and signedness of one layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Precision {
    /// Activation (input data) precision `ip`, 1..=16.
    pub act: u32,
    /// Weight precision `wp`, 1..=16.
    pub weight: u32,
    /// Output precision `op`, 1..=16.
    pub out: u32,
    /// Activations are two's complement (`mvuprecision` bit 25).
    pub act_signed: bool,
    /// Weights are two's complement (`mvuprecision` bit 24).
    pub weight_signed: bool,
}

impl Precision {
    /// Unsigned activations and weights (what BARVINN's programs configure).
    pub const fn new(act: u32, weight: u32, out: u32) -> Self {
        Precision {
            act,
            weight,
            out,
            act_signed: false,
            weight_signed: false,
        }
    }

    /// Same precisions with signed (two's complement) weights.
    pub const fn with_signed_weights(mut self, signed: bool) -> Self {
        self.weight_signed = signed;
        self
    }

    /// Same precisions with signed (two's complement) activations.
    pub const fn with_signed_acts(mut self, signed: bool) -> Self {
        self.act_signed = signed;
        self
    }
}

/// A 2-D convolution (group 1, dilation 1) over one C x H x W input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConvShape {
    /// Input channels `C_in` (weight dim 1).
    pub in_channels: u32,
    /// Input height.
    pub in_height: u32,
    /// Input width.
    pub in_width: u32,
    /// Output channels `C_out` (weight dim 0).
    pub out_channels: u32,
    /// Kernel `[kH, kW]`.
    pub kernel: [u32; 2],
    /// Strides `[sH, sW]` (ONNX order).
    pub strides: [u32; 2],
    /// Pads `[top, left, bottom, right]` (ONNX order).
    pub pads: [u32; 4],
}

impl ConvShape {
    /// A convolution with stride 1 and no padding.
    pub const fn new(
        in_channels: u32,
        in_height: u32,
        in_width: u32,
        out_channels: u32,
        kernel: [u32; 2],
    ) -> Self {
        ConvShape {
            in_channels,
            in_height,
            in_width,
            out_channels,
            kernel,
            strides: [1, 1],
            pads: [0; 4],
        }
    }

    /// Same shape with stride `s` on both axes.
    pub const fn with_stride(mut self, s: u32) -> Self {
        self.strides = [s, s];
        self
    }

    /// Same shape with `[sH, sW]` strides.
    pub const fn with_strides(mut self, strides: [u32; 2]) -> Self {
        self.strides = strides;
        self
    }

    /// Same shape with symmetric padding `p` on all four sides.
    pub const fn with_pad(mut self, p: u32) -> Self {
        self.pads = [p; 4];
        self
    }

    /// Same shape with ONNX pads `[top, left, bottom, right]`.
    pub const fn with_pads(mut self, pads: [u32; 4]) -> Self {
        self.pads = pads;
        self
    }

    /// ONNX output `[H, W]`: `floor((in + pad_begin + pad_end - k) / s) + 1`,
    /// or `None` if the kernel does not fit the padded input or a stride is 0.
    pub fn output_hw(&self) -> Option<[u32; 2]> {
        let axis = |i: u64, k: u64, s: u64, p0: u64, p1: u64| -> Option<u32> {
            let padded = i + p0 + p1;
            if s == 0 || k == 0 || padded < k {
                return None;
            }
            u32::try_from((padded - k) / s + 1).ok()
        };
        let [t, l, b, r] = self.pads.map(u64::from);
        Some([
            axis(
                self.in_height.into(),
                self.kernel[0].into(),
                self.strides[0].into(),
                t,
                b,
            )?,
            axis(
                self.in_width.into(),
                self.kernel[1].into(),
                self.strides[1].into(),
                l,
                r,
            )?,
        ])
    }
}

/// A matrix multiply `Y[rows, out] = X[rows, in] x W^T` (one MVU job per input row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MatMulShape {
    /// Input vectors (rows of X); one MVU job each.
    pub rows: u32,
    /// Input features (`in`, weight dim 1).
    pub in_features: u32,
    /// Output features (`out`, weight dim 0).
    pub out_features: u32,
}

/// Max pooling done by the MVU's pooler on a conv's outputs (ONNX `MaxPool`
/// attributes, over the conv's output grid).
///
/// The pooler (`maxpool.v`) keeps one running maximum per output lane and is
/// cleared to 0 at the start of each window, so a pooled layer always computes
/// `max(0, window)`: exact for a `MaxPool` after a ReLU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// Window `[kH, kW]`.
    pub kernel: [u32; 2],
    /// Strides `[sH, sW]`.
    pub strides: [u32; 2],
    /// Pads `[top, left, bottom, right]` (padded positions are skipped: after a
    /// ReLU they cannot change the maximum).
    pub pads: [u32; 4],
    /// ONNX `ceil_mode`: the last window may hang over the end.
    pub ceil_mode: bool,
}

impl Pool {
    /// Pooled size of an `[h, w]` grid, ONNX arithmetic; `None` if a window
    /// does not fit or a stride is 0. In ceil mode a window starting in the
    /// end padding is dropped, as ONNX does.
    pub fn output_hw(&self, hw: [u32; 2]) -> Option<[u32; 2]> {
        let axis = |i: u64, k: u64, s: u64, p0: u64, p1: u64| -> Option<u32> {
            let padded = i + p0 + p1;
            if s == 0 || k == 0 || padded < k {
                return None;
            }
            let mut n = if self.ceil_mode {
                (padded - k).div_ceil(s) + 1
            } else {
                (padded - k) / s + 1
            };
            if self.ceil_mode && (n - 1) * s >= i + p0 {
                n -= 1;
            }
            u32::try_from(n).ok()
        };
        let [t, l, b, r] = self.pads.map(u64::from);
        Some([
            axis(
                hw[0].into(),
                self.kernel[0].into(),
                self.strides[0].into(),
                t,
                b,
            )?,
            axis(
                hw[1].into(),
                self.kernel[1].into(),
                self.strides[1].into(),
                l,
                r,
            )?,
        ])
    }

    /// The conv-output rows (or columns, `axis` 1) of pooled index `i` on a
    /// grid of `n`: `start..end`, clipped to the grid.
    pub fn window(&self, axis: usize, i: u32, n: u32) -> std::ops::Range<u32> {
        let begin = i64::from(i) * i64::from(self.strides[axis]) - i64::from(self.pads[axis]);
        let end = begin + i64::from(self.kernel[axis]);
        let clip = |v: i64| v.clamp(0, i64::from(n)) as u32;
        clip(begin)..clip(end)
    }
}

/// The operation of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum LayerOp {
    /// A convolution.
    Conv(ConvShape),
    /// A matrix multiply (ONNX Gemm / MatMul with constant weights).
    MatMul(MatMulShape),
}

/// The kind of a layer, as printed in the outputs (`"conv"` / `"matmul"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LayerKind {
    /// Convolution.
    Conv,
    /// Matrix multiply.
    MatMul,
}

impl LayerKind {
    /// `"conv"` or `"matmul"`.
    pub fn as_str(self) -> &'static str {
        match self {
            LayerKind::Conv => "conv",
            LayerKind::MatMul => "matmul",
        }
    }
}

/// One layer to map onto an MVU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// Layer name (ONNX node name); every error and output names it.
    pub name: String,
    /// Name of the weight initializer; the weight file is `<weight_name>.hex`
    /// (falls back to `<name>.hex`).
    pub weight_name: Option<String>,
    /// What the layer computes.
    pub op: LayerOp,
    /// Precisions.
    pub precision: Precision,
    /// Quantizer MSB index written to `mvuquant`; `None` uses `oprec - 1` as
    /// BARVINN's generator does.
    pub quant_msb: Option<u32>,
    /// ReLU in the output pipeline (the pooler cleared to 0 before each output).
    pub relu: bool,
    /// Max pooling of a conv's outputs in the output pipeline.
    pub pool: Option<Pool>,
    /// Bias through the bias RAM: the word (64-channel block) of the layer's
    /// bias image this layer's first output block reads (`mvubbaseptr`);
    /// `None`: no bias (`mvuusebias_mem` 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bias_base: Option<u32>,
}

impl Layer {
    /// A convolution layer.
    pub fn conv(name: impl Into<String>, shape: ConvShape, precision: Precision) -> Self {
        Layer {
            name: name.into(),
            weight_name: None,
            op: LayerOp::Conv(shape),
            precision,
            quant_msb: None,
            relu: false,
            pool: None,
            bias_base: None,
        }
    }

    /// A matrix-multiply layer.
    pub fn matmul(name: impl Into<String>, shape: MatMulShape, precision: Precision) -> Self {
        Layer {
            name: name.into(),
            weight_name: None,
            op: LayerOp::MatMul(shape),
            precision,
            quant_msb: None,
            relu: false,
            pool: None,
            bias_base: None,
        }
    }

    /// Same layer with the given weight initializer name.
    pub fn with_weight_name(mut self, weight_name: impl Into<String>) -> Self {
        self.weight_name = Some(weight_name.into());
        self
    }

    /// Same layer with an explicit quantizer MSB index.
    pub fn with_quant_msb(mut self, msb: u32) -> Self {
        self.quant_msb = Some(msb);
        self
    }

    /// Same layer with a ReLU in its output pipeline.
    pub fn with_relu(mut self, relu: bool) -> Self {
        self.relu = relu;
        self
    }

    /// Same layer adding the bias in words `base ..` of its bias-RAM image.
    pub fn with_bias_base(mut self, base: u32) -> Self {
        self.bias_base = Some(base);
        self
    }

    /// Same layer with max pooling of its (conv) outputs.
    pub fn with_pool(mut self, pool: Pool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// `conv` or `matmul`.
    pub fn kind(&self) -> LayerKind {
        match self.op {
            LayerOp::Conv(_) => LayerKind::Conv,
            LayerOp::MatMul(_) => LayerKind::MatMul,
        }
    }

    /// Weight shape in ONNX layout: conv `[O, I, kH, kW]`, matmul `[out, in]`.
    pub fn weight_shape(&self) -> Vec<usize> {
        match self.op {
            LayerOp::Conv(c) => vec![
                c.out_channels as usize,
                c.in_channels as usize,
                c.kernel[0] as usize,
                c.kernel[1] as usize,
            ],
            LayerOp::MatMul(m) => vec![m.out_features as usize, m.in_features as usize],
        }
    }

    /// Number of weight elements, or `None` if it overflows `usize`.
    pub fn weight_count(&self) -> Option<usize> {
        self.weight_shape()
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
    }

    /// Output channels (conv) or features (matmul): the quantizer's channel axis.
    pub fn out_channels(&self) -> u32 {
        match self.op {
            LayerOp::Conv(c) => c.out_channels,
            LayerOp::MatMul(m) => m.out_features,
        }
    }

    /// Input channels (conv) or features (matmul).
    pub fn in_channels(&self) -> u32 {
        match self.op {
            LayerOp::Conv(c) => c.in_channels,
            LayerOp::MatMul(m) => m.in_features,
        }
    }

    /// Output `[C, H, W]` of a conv (ONNX arithmetic, after its pooling), or `[1, rows, out]` of a
    /// matmul; `None` if the conv shape is degenerate.
    pub fn output_chw(&self) -> Option<[u32; 3]> {
        match self.op {
            LayerOp::Conv(c) => {
                let hw = c.output_hw()?;
                let [h, w] = match &self.pool {
                    Some(p) => p.output_hw(hw)?,
                    None => hw,
                };
                Some([c.out_channels, h, w])
            }
            LayerOp::MatMul(m) => Some([1, m.rows, m.out_features]),
        }
    }

    /// Name of the weight file: `<weight_name or name>.hex`, with every
    /// character outside `[A-Za-z0-9._-]` replaced by `_`.
    pub fn weight_file_name(&self) -> String {
        let base = self.weight_name.as_deref().unwrap_or(&self.name);
        let clean: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let clean = if clean.is_empty() || clean.starts_with('.') {
            format!("_{clean}")
        } else {
            clean
        };
        format!("{clean}.hex")
    }
}
