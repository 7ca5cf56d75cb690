//! The attributes of an `mvu.conv` / `mvu.matmul` op that the configuration
//! writer reads from a lowered layer beyond its registers: where the layer
//! came from and how its weights and bias were quantized.
//!
//! In: a context and one [`Lowered`] layer. Out: `(name, attribute)` pairs:
//!
//! | attribute | value | from |
//! |---|---|---|
//! | `onnx_op` | `"Conv"`, `"Gemm"`, `"MatMul"`, `"GlobalAveragePool"`, … | the ONNX node's op type |
//! | `weight_name` | string, the weight file is `<weight_name>.hex` (absent: the node name) | the weight initializer |
//! | `relu` | `0 : i64` / `1 : i64` | a ReLU in the layer's output pipeline |
//! | `weight_scales` | `array<f32: …>`, one per layer or per output channel | the float weight = code · scale |
//! | `bias_values` | `array<f32: …>`, one per output channel (absent: no bias) | the float bias (the `bias` operand holds it in accumulator units) |
//! | `weight_layout` | `"as_layer"` / `"transposed"` | the ONNX weight operand's layout (`[in, out]` for MatMul and Gemm `transB = 0`) |
//! | `output_end` | string | the ONNX value where the layer's output pipeline ends |
//! | `sum_of` | `N : i64` (absent: not a sum) | a GlobalAveragePool computed as the sum of `N` pixels |

use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    r#type::IntegerType,
    Attribute, Identifier,
};
use onnc_dialects::ir::attr_to_mlir;
use onnc_mvu::frontend::{Lowered, WeightLayout};
use onnc_tensor::Attr;

/// The layer's attributes (table in the module docs); optional ones only when set.
pub fn layer_attrs<'c>(
    context: &'c melior::Context,
    l: &Lowered,
) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    let s = |v: &str| -> Attribute<'c> { StringAttribute::new(context, v).into() };
    let i = |v: i64| -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(context, 64).into(), v).into()
    };
    let floats = |v: &[f32]| attr_to_mlir(context, &Attr::Floats(v.to_vec()), "");
    let mut a: Vec<(&str, Attribute<'c>)> = vec![("onnx_op", s(&l.op))];
    if let Some(w) = &l.layer.weight_name {
        a.push(("weight_name", s(w)));
    }
    a.push(("relu", i(l.layer.relu.into())));
    a.push(("weight_scales", floats(&l.weights.scales)));
    if let Some(b) = &l.bias {
        a.push(("bias_values", floats(b)));
    }
    let layout = match l.layout {
        WeightLayout::AsLayer => "as_layer",
        WeightLayout::Transposed => "transposed",
    };
    a.push(("weight_layout", s(layout)));
    a.push(("output_end", s(&l.end)));
    if let Some(n) = l.sum_of {
        a.push(("sum_of", i(n.into())));
    }
    a.into_iter()
        .map(|(n, v)| (Identifier::new(context, n), v))
        .collect()
}
