//! Element-wise unary operators: the output has the input's type.
//!
//! Spec: `https://onnx.ai/onnx/operators/onnx__<Op>.html` for `Relu`,
//! `LeakyRelu`, `Sigmoid`, `Tanh`, `Neg`, `Sqrt`, `Exp`, `Log`, `Abs`, `Ceil`,
//! `Floor`, `Reciprocal`, `Erf`, `Elu`, `Selu`, `HardSigmoid`, `Softplus`,
//! `Identity`, `Not`, `Cos`, `Sin`, `Softsign`, `Sign` (9), `Round` (11),
//! `HardSwish` (14), `Mish` (18), and the shape-preserving `CumSum` (11,
//! `exclusive`/`reverse` 0) and `Trilu` (14, `upper` 1).
//!
//! Opset history: before opset 6 most of them carried `consumed_inputs`
//! (an optimization hint), dropped by normalization; later versions add
//! types only. Attributes (materialized): `LeakyRelu.alpha` 0.01, `Elu.alpha`
//! 1.0, `Selu.alpha` 1.67326 / `gamma` 1.0507, `HardSigmoid.alpha` 0.2 /
//! `beta` 0.5.

use super::attrs::{attr, AttrKind as K, AttrSpec, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::{Node, Result, TypeInfo};
use onnc_tensor::Tensor;

const fn unary(name: &'static str, url: &'static str, attrs: &'static [AttrSpec]) -> OpSpec {
    unary_since(name, url, attrs, 1)
}

const fn unary_since(
    name: &'static str,
    url: &'static str,
    attrs: &'static [AttrSpec],
    since: i64,
) -> OpSpec {
    OpSpec {
        name,
        min_opset: since,
        max_opset: 25,
        spec_url: url,
        notes: "",
        attrs,
        normalize: Some(normalize),
        infer_fn: infer,
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    unary("Abs", crate::spec_url!("Abs"), &[]),
    unary("Ceil", crate::spec_url!("Ceil"), &[]),
    unary(
        "Elu",
        crate::spec_url!("Elu"),
        &[attr("alpha", K::Float, D::Float(1.0))],
    ),
    OpSpec {
        notes: "NNIE: `tanh(a·z + b·z³)`, \\|error\\| ≤ 3.6e-4 (`nnie/erf-as-tanh`); nv_small: 5 ramps of the normal CDF, \\|error\\| ≤ 0.0264 (`nvdla/erf-to-ramps`)",
        ..unary("Erf", crate::spec_url!("Erf"), &[])
    },
    unary("Exp", crate::spec_url!("Exp"), &[]),
    unary("Floor", crate::spec_url!("Floor"), &[]),
    unary(
        "HardSigmoid",
        crate::spec_url!("HardSigmoid"),
        &[
            attr("alpha", K::Float, D::Float(0.2)),
            attr("beta", K::Float, D::Float(0.5)),
        ],
    ),
    unary("Identity", crate::spec_url!("Identity"), &[]),
    unary(
        "LeakyRelu",
        crate::spec_url!("LeakyRelu"),
        &[attr("alpha", K::Float, D::Float(0.01))],
    ),
    unary("Log", crate::spec_url!("Log"), &[]),
    unary("Neg", crate::spec_url!("Neg"), &[]),
    unary("Reciprocal", crate::spec_url!("Reciprocal"), &[]),
    unary("Relu", crate::spec_url!("Relu"), &[]),
    unary(
        "Selu",
        crate::spec_url!("Selu"),
        &[
            attr("alpha", K::Float, D::Float(1.673_263_2)),
            attr("gamma", K::Float, D::Float(1.050_701)),
        ],
    ),
    unary("Sigmoid", crate::spec_url!("Sigmoid"), &[]),
    unary("Softplus", crate::spec_url!("Softplus"), &[]),
    unary("Sqrt", crate::spec_url!("Sqrt"), &[]),
    unary("Tanh", crate::spec_url!("Tanh"), &[]),
    unary("Not", crate::spec_url!("Not"), &[]),
    unary("Cos", crate::spec_url!("Cos"), &[]),
    unary("Sin", crate::spec_url!("Sin"), &[]),
    unary("Softsign", crate::spec_url!("Softsign"), &[]),
    unary_since("Sign", crate::spec_url!("Sign"), &[], 9),
    unary_since("Round", crate::spec_url!("Round"), &[], 11),
    unary_since("HardSwish", crate::spec_url!("HardSwish"), &[], 14),
    unary_since("Mish", crate::spec_url!("Mish"), &[], 18),
    unary_since(
        "CumSum",
        crate::spec_url!("CumSum"),
        &[
            attr("exclusive", K::Int, D::Int(0)),
            attr("reverse", K::Int, D::Int(0)),
        ],
        11,
    ),
    unary_since(
        "Trilu",
        crate::spec_url!("Trilu"),
        &[attr("upper", K::Int, D::Int(1))],
        14,
    ),
];

fn normalize(mut node: Node, _: &mut NormCx) -> Result<Vec<Node>> {
    // CumSum takes `axis`, Trilu an optional `k`: both are inputs.
    match node.op_type.as_str() {
        "CumSum" => arity(&node, 2, 2)?,
        "Trilu" => arity(&node, 1, 2)?,
        _ => arity(&node, 1, 1)?,
    }
    node.attrs.remove("consumed_inputs");
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    Ok(vec![input(node, inputs, 0)?.clone()])
}
