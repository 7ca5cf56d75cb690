//! The operator registry: one [`OpSpec`] per supported ONNX operator.
//!
//! In: an operator name, domain and the model's opset for that domain.
//! Out: its [`OpSpec`] — spec URL, supported opset range, attribute schema,
//! the normalizer (old opset forms → the modern operand form, defaults
//! materialized) and shape/type inference ([`OpSpec::infer`]).
//!
//! One file per operator or small family; [`registry`] lists them all.
//! Operators not listed here (or in another domain) are kept untouched by the
//! loader and get no inferred types.

pub mod attrs;
pub(crate) mod shape;

mod batch_norm;
mod binary;
mod cast;
mod clip;
mod concat;
mod constant;
mod conv;
mod conv_transpose;
mod dropout;
mod expand;
mod flatten;
mod gather;
mod gemm;
mod layer_norm;
mod lrn;
mod matmul;
mod pad;
mod pool;
mod reduce;
mod reshape;
mod resize;
mod slice;
mod softmax;
mod split;
mod squeeze;
mod transpose;
mod unary;
mod variadic;

use crate::{Node, Result, TypeInfo};
use attrs::AttrSpec;
use onnc_tensor::Tensor;
use std::collections::HashMap;
use std::sync::OnceLock;

pub use crate::normalize::NormCx;

/// Shape and type inference: the normalized node, the types of its inputs
/// (`None` = absent or unknown) and the values of its constant inputs.
/// Returns one type per node output, in order.
pub type InferFn = fn(&Node, &[Option<TypeInfo>], &[Option<&Tensor>]) -> Result<Vec<TypeInfo>>;

/// Normalization: the node as read from the file (kinds checked, static
/// defaults filled) → the nodes replacing it, in the modern form.
pub type NormalizeFn = fn(Node, &mut NormCx) -> Result<Vec<Node>>;

/// What the importer knows about one operator.
#[derive(Debug)]
pub struct OpSpec {
    /// ONNX operator name.
    pub name: &'static str,
    /// Oldest model opset supported.
    pub min_opset: i64,
    /// Newest model opset supported.
    pub max_opset: i64,
    /// The operator's page in the ONNX specification.
    pub spec_url: &'static str,
    /// Notes for `docs/supported-onnx-ops.md`.
    pub notes: &'static str,
    /// Attributes: kinds and defaults.
    pub attrs: &'static [AttrSpec],
    /// Opset normalization (defaults to "keep as is").
    pub normalize: Option<NormalizeFn>,
    /// Shape and type inference.
    pub infer_fn: InferFn,
}

impl OpSpec {
    /// Infers the output types of a normalized `node`.
    ///
    /// `inputs[i]` is the type of input `i` (`None` when absent or unknown);
    /// `const_inputs[i]` its value when it is a known constant. Both may be
    /// shorter than `node.inputs`.
    pub fn infer(
        &self,
        node: &Node,
        inputs: &[Option<TypeInfo>],
        const_inputs: &[Option<&Tensor>],
    ) -> Result<Vec<TypeInfo>> {
        (self.infer_fn)(node, inputs, const_inputs)
    }
}

/// URL of an operator's page in the ONNX specification.
#[macro_export]
#[doc(hidden)]
macro_rules! spec_url {
    ($op:literal) => {
        concat!("https://onnx.ai/onnx/operators/onnx__", $op, ".html")
    };
}

/// Every supported operator, in alphabetical order of file.
pub fn registry() -> Vec<&'static OpSpec> {
    let families: &[&'static [OpSpec]] = &[
        batch_norm::SPECS,
        binary::SPECS,
        cast::SPECS,
        clip::SPECS,
        concat::SPECS,
        constant::SPECS,
        conv::SPECS,
        conv_transpose::SPECS,
        dropout::SPECS,
        expand::SPECS,
        flatten::SPECS,
        gather::SPECS,
        gemm::SPECS,
        layer_norm::SPECS,
        lrn::SPECS,
        matmul::SPECS,
        pad::SPECS,
        pool::SPECS,
        reduce::SPECS,
        reduce::ARG_SPECS,
        reshape::SPECS,
        resize::SPECS,
        slice::SPECS,
        softmax::SPECS,
        split::SPECS,
        squeeze::SPECS,
        transpose::SPECS,
        unary::SPECS,
        variadic::SPECS,
    ];
    let mut all: Vec<&'static OpSpec> = families.iter().flat_map(|f| f.iter()).collect();
    all.sort_by_key(|s| s.name);
    all
}

fn by_name() -> &'static HashMap<&'static str, &'static OpSpec> {
    static MAP: OnceLock<HashMap<&'static str, &'static OpSpec>> = OnceLock::new();
    MAP.get_or_init(|| registry().into_iter().map(|s| (s.name, s)).collect())
}

/// The spec of `op_type` in `domain` (`""` or `"ai.onnx"`), whatever the opset.
pub fn find(op_type: &str, domain: &str) -> Option<&'static OpSpec> {
    if !(domain.is_empty() || domain == "ai.onnx") {
        return None;
    }
    by_name().get(op_type).copied()
}

/// The spec of `op_type` in `domain` when `opset` is within its supported range.
///
/// After loading, nodes are in the normalized form; pass
/// [`crate::NORMALIZED_OPSET`] to look them up.
pub fn lookup(op_type: &str, domain: &str, opset: i64) -> Option<&'static OpSpec> {
    find(op_type, domain).filter(|s| s.min_opset <= opset && opset <= s.max_opset)
}
