//! The kernel table and the entry points [`run_op`] and [`run_op_with`].
//!
//! In: an ONNX op type (default domain), its attributes and inputs.
//! Out: its outputs, in ONNX order.
//!
//! ```
//! use onnc_interp::run_op;
//! use onnc_tensor::{Attrs, Tensor};
//! let a = Tensor::from_f32(vec![2], vec![1.0, -2.0]).unwrap();
//! let y = run_op("Relu", &Attrs::new(), &[Some(&a)]).unwrap();
//! assert_eq!(y[0].as_f32().unwrap(), &[1.0, 0.0]);
//! ```

mod activation;
mod argmax;
mod attention;
mod batch_norm;
mod binary;
mod cast;
mod causal_conv;
mod center_crop_pad;
pub mod channel_shuffle;
mod col2im;
mod concat;
mod constant;
mod conv;
mod conv_transpose;
mod cumulative;
mod depth_space;
mod det;
mod dft;
mod einsum;
mod expand;
mod gather;
mod gemm;
mod grid_sample;
mod integer_linear;
mod linear_attention;
mod loss;
mod lrn;
mod matmul;
mod mm;
mod nms;
mod normalization;
mod one_hot;
mod pad;
mod par;
mod pool;
mod quantize;
mod recurrent;
mod reduce;
mod resize;
mod reverse_sequence;
mod roi_align;
mod rotary;
mod scatter;
mod select;
mod shape_ops;
mod signal_window;
mod slice;
mod softmax;
mod split;
mod tensor_scatter;
mod topk;
mod transpose;
mod trilu;
mod unary;
mod unique;
mod variadic;
mod where_op;
mod window;

use crate::call::Call;
use crate::{Error, Result};
use binary::{Arith, Bits, Cmp, Logic};
use onnc_tensor::{Attrs, Tensor};

/// The newest default-domain opset whose semantics [`run_op`] implements.
pub const LATEST_OPSET: i64 = 21;

/// How to run one operator beyond its attributes and inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpOptions {
    /// The default-domain opset the node was written against. It selects
    /// semantics that changed between opsets: `Softmax`/`LogSoftmax`/`Hardmax`
    /// "coerce to 2D" below 13, and `Resize` opset-10 coordinates.
    pub opset: i64,
    /// How many outputs the node declares, when known: `Split` without
    /// sizes splits into this many parts; `Dropout` and `MaxPool` produce
    /// their second output (mask, indices) only when this is ≥ 2.
    pub num_outputs: Option<usize>,
}

impl Default for OpOptions {
    fn default() -> Self {
        OpOptions {
            opset: LATEST_OPSET,
            num_outputs: None,
        }
    }
}

/// A kernel.
type Kernel = fn(&Call) -> Result<Vec<Tensor>>;

/// Every supported op type and its kernel, sorted by name.
#[rustfmt::skip]
const KERNELS: &[(&str, Kernel)] = &[
    ("Abs", unary::abs),
    ("Acos", unary::acos),
    ("Acosh", unary::acosh),
    ("Add", |c| binary::arith(c, Arith::Add)),
    ("AffineGrid", grid_sample::affine_grid),
    ("And", |c| binary::logic(c, Logic::And)),
    ("ArgMax", |c| argmax::arg_extreme(c, true)),
    ("ArgMin", |c| argmax::arg_extreme(c, false)),
    ("Asin", unary::asin),
    ("Asinh", unary::asinh),
    ("Atan", unary::atan),
    ("Atanh", unary::atanh),
    ("Attention", attention::attention),
    ("AveragePool", pool::average_pool),
    ("BatchNormalization", batch_norm::batch_norm),
    ("BitCast", cast::bit_cast),
    ("BitShift", |c| binary::bitwise(c, Bits::Shl)),
    ("BitwiseAnd", |c| binary::bitwise(c, Bits::And)),
    ("BitwiseNot", unary::bitwise_not),
    ("BitwiseOr", |c| binary::bitwise(c, Bits::Or)),
    ("BitwiseXor", |c| binary::bitwise(c, Bits::Xor)),
    ("BlackmanWindow", |c| signal_window::window(c, signal_window::Kind::Blackman)),
    ("Cast", cast::cast),
    ("CastLike", cast::cast_like),
    ("CausalConvWithState", causal_conv::causal_conv_with_state),
    ("Ceil", unary::ceil),
    ("Celu", activation::celu),
    ("CenterCropPad", center_crop_pad::center_crop_pad),
    ("Clip", activation::clip),
    ("Col2Im", col2im::col2im),
    ("Compress", select::compress),
    ("Concat", concat::concat),
    ("Constant", constant::constant),
    ("ConstantOfShape", constant::constant_of_shape),
    ("Conv", conv::conv),
    ("ConvInteger", integer_linear::conv_integer),
    ("ConvTranspose", conv_transpose::conv_transpose),
    ("Cos", unary::cos),
    ("Cosh", unary::cosh),
    ("CumProd", |c| cumulative::cumulative(c, true)),
    ("CumSum", |c| cumulative::cumulative(c, false)),
    ("DFT", dft::dft),
    ("DepthToSpace", depth_space::depth_to_space),
    ("DequantizeLinear", quantize::dequantize),
    ("Det", det::det),
    ("Div", |c| binary::arith(c, Arith::Div)),
    ("Dropout", shape_ops::dropout),
    ("DynamicQuantizeLinear", quantize::dynamic_quantize),
    ("Einsum", einsum::einsum),
    ("Elu", activation::elu),
    ("Equal", |c| binary::compare(c, Cmp::Eq)),
    ("Erf", unary::erf),
    ("Exp", unary::exp),
    ("Expand", expand::expand),
    ("EyeLike", one_hot::eye_like),
    ("Flatten", shape_ops::flatten),
    ("Floor", unary::floor),
    ("GRU", |c| recurrent::recurrent(c, recurrent::Cell::Gru)),
    ("Gather", gather::gather),
    ("GatherElements", gather::gather_elements),
    ("GatherND", scatter::gather_nd),
    ("Gelu", activation::gelu),
    ("Gemm", gemm::gemm),
    ("GlobalAveragePool", |c| pool::global_pool(c, "avg")),
    ("GlobalLpPool", |c| pool::global_pool(c, "lp")),
    ("GlobalMaxPool", |c| pool::global_pool(c, "max")),
    ("Greater", |c| binary::compare(c, Cmp::Gt)),
    ("GreaterOrEqual", |c| binary::compare(c, Cmp::Ge)),
    ("GridSample", grid_sample::grid_sample),
    ("GroupNormalization", normalization::group_norm),
    ("HammingWindow", |c| signal_window::window(c, signal_window::Kind::Hamming)),
    ("HannWindow", |c| signal_window::window(c, signal_window::Kind::Hann)),
    ("HardSigmoid", activation::hard_sigmoid),
    ("HardSwish", activation::hard_swish),
    ("Hardmax", |c| softmax::softmax(c, softmax::Kind::Hard)),
    ("Identity", shape_ops::identity),
    ("InstanceNormalization", normalization::instance_norm),
    ("IsInf", unary::is_inf),
    ("IsNaN", unary::is_nan),
    ("LRN", lrn::lrn),
    ("LSTM", |c| recurrent::recurrent(c, recurrent::Cell::Lstm)),
    ("LayerNormalization", |c| normalization::layer_norm(c, false)),
    ("LeakyRelu", activation::leaky_relu),
    ("Less", |c| binary::compare(c, Cmp::Lt)),
    ("LessOrEqual", |c| binary::compare(c, Cmp::Le)),
    ("LinearAttention", linear_attention::linear_attention),
    ("Log", unary::log),
    ("LogSoftmax", |c| softmax::softmax(c, softmax::Kind::LogSoft)),
    ("LpNormalization", normalization::lp_norm),
    ("LpPool", pool::lp_pool),
    ("MatMul", matmul::matmul),
    ("MatMulInteger", integer_linear::matmul_integer),
    ("Max", |c| variadic::fold(c, Arith::Max)),
    ("MaxPool", pool::max_pool),
    ("MaxUnpool", col2im::max_unpool),
    ("Mean", variadic::mean),
    ("MeanVarianceNormalization", normalization::mvn),
    ("Min", |c| variadic::fold(c, Arith::Min)),
    ("Mish", activation::mish),
    ("Mod", binary::modulo),
    ("Mul", |c| binary::arith(c, Arith::Mul)),
    ("Neg", unary::neg),
    ("NegativeLogLikelihoodLoss", loss::nll_loss),
    ("NonMaxSuppression", nms::nms),
    ("NonZero", select::non_zero),
    ("Not", unary::not),
    ("OneHot", one_hot::one_hot),
    ("Or", |c| binary::logic(c, Logic::Or)),
    ("PRelu", activation::prelu),
    ("Pad", pad::pad),
    ("Pow", binary::pow),
    ("QLinearConv", integer_linear::qlinear_conv),
    ("QLinearMatMul", integer_linear::qlinear_matmul),
    ("QuantizeLinear", quantize::quantize),
    ("RMSNormalization", |c| normalization::layer_norm(c, true)),
    ("RNN", |c| recurrent::recurrent(c, recurrent::Cell::Rnn)),
    ("Range", constant::range),
    ("Reciprocal", unary::reciprocal),
    ("ReduceL1", |c| reduce::reduce(c, reduce::Kind::L1)),
    ("ReduceL2", |c| reduce::reduce(c, reduce::Kind::L2)),
    ("ReduceLogSum", |c| reduce::reduce(c, reduce::Kind::LogSum)),
    ("ReduceLogSumExp", |c| reduce::reduce(c, reduce::Kind::LogSumExp)),
    ("ReduceMax", |c| reduce::reduce(c, reduce::Kind::Max)),
    ("ReduceMean", |c| reduce::reduce(c, reduce::Kind::Mean)),
    ("ReduceMin", |c| reduce::reduce(c, reduce::Kind::Min)),
    ("ReduceProd", |c| reduce::reduce(c, reduce::Kind::Prod)),
    ("ReduceSum", |c| reduce::reduce(c, reduce::Kind::Sum)),
    ("ReduceSumSquare", |c| reduce::reduce(c, reduce::Kind::SumSquare)),
    ("Relu", activation::relu),
    ("Reshape", shape_ops::reshape),
    ("Resize", |c| resize::resize(c, false)),
    ("ReverseSequence", reverse_sequence::reverse_sequence),
    ("RoiAlign", roi_align::roi_align),
    ("RotaryEmbedding", rotary::rotary_embedding),
    ("Round", unary::round),
    ("Scatter", scatter::scatter_elements),
    ("ScatterElements", scatter::scatter_elements),
    ("ScatterND", scatter::scatter_nd),
    ("Selu", activation::selu),
    ("Shape", constant::shape),
    ("Shrink", activation::shrink),
    ("Sigmoid", activation::sigmoid),
    ("Sign", unary::sign),
    ("Sin", unary::sin),
    ("Sinh", unary::sinh),
    ("Size", constant::size),
    ("Slice", slice::slice),
    ("Softmax", |c| softmax::softmax(c, softmax::Kind::Soft)),
    ("SoftmaxCrossEntropyLoss", loss::softmax_cross_entropy),
    ("Softplus", activation::softplus),
    ("Softsign", activation::softsign),
    ("SpaceToDepth", depth_space::space_to_depth),
    ("Split", split::split),
    ("Sqrt", unary::sqrt),
    ("Squeeze", shape_ops::squeeze),
    ("Sub", |c| binary::arith(c, Arith::Sub)),
    ("Sum", |c| variadic::fold(c, Arith::Add)),
    ("SwiGLU", activation::swiglu),
    ("Swish", activation::swish),
    ("Tan", unary::tan),
    ("Tanh", activation::tanh),
    ("TensorScatter", tensor_scatter::tensor_scatter),
    ("ThresholdedRelu", activation::thresholded_relu),
    ("Tile", expand::tile),
    ("TopK", topk::topk),
    ("Transpose", transpose::transpose),
    ("Trilu", trilu::trilu),
    ("Unique", unique::unique),
    ("Unsqueeze", shape_ops::unsqueeze),
    ("Upsample", |c| resize::resize(c, true)),
    ("Where", where_op::where_op),
    ("Xor", |c| binary::logic(c, Logic::Xor)),
];

/// The op types [`run_op`] supports, sorted.
pub fn supported_ops() -> impl Iterator<Item = &'static str> {
    KERNELS.iter().map(|(n, _)| *n)
}

/// Whether `op_type` (default domain) has a kernel.
pub fn is_supported(op_type: &str) -> bool {
    KERNELS.binary_search_by(|(n, _)| (*n).cmp(op_type)).is_ok()
}

/// Runs one operator with the latest opset's semantics.
/// Inputs are in ONNX order; `None` stands for an absent optional input.
pub fn run_op(op_type: &str, attrs: &Attrs, inputs: &[Option<&Tensor>]) -> Result<Vec<Tensor>> {
    run_op_with(op_type, attrs, inputs, &OpOptions::default())
}

/// Runs one operator with explicit [`OpOptions`] (opset, output count).
pub fn run_op_with(
    op_type: &str,
    attrs: &Attrs,
    inputs: &[Option<&Tensor>],
    options: &OpOptions,
) -> Result<Vec<Tensor>> {
    let kernel = KERNELS
        .binary_search_by(|(n, _)| (*n).cmp(op_type))
        .map(|i| KERNELS[i].1)
        .map_err(|_| Error::UnknownOp(op_type.to_string()))?;
    let call = Call {
        op: op_type,
        attrs,
        inputs,
        opset: options.opset,
        num_outputs: options.num_outputs,
    };
    kernel(&call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(
            KERNELS.windows(2).all(|w| w[0].0 < w[1].0),
            "KERNELS must stay sorted by name"
        );
    }
}
