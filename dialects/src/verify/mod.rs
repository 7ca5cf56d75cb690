//! Semantic verifiers: the rules IRDL cannot state.
//!
//! IRDL checks operand counts, attribute presence and kinds. This module
//! checks what depends on values: attribute array lengths against tensor
//! ranks, channel/group arithmetic, enumerations, integer widths, register
//! ranges of the hardware dialects. `onnc-opt` runs it after parsing and
//! after the pipeline; passes call [`verify_module`] on what they build.
//!
//! In: an operation tree. Out: an error diagnostic at each offending op
//! (`'onnx.conv' op kernel_shape has 3 entries but the input has 2 spatial
//! axes`), and `false` if there was any.

mod common;
mod mvu;
mod mvu_layer;
mod mvu_pool;
mod nnie;
mod nvdla;
mod nvdla_config;
mod onnx;

use crate::ir::emit_error;
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module, OperationRef,
};

/// The rule messages for one op (empty when it is fine).
pub fn check_op(op: &OperationRef) -> Vec<String> {
    let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
    let mut out = Vec::new();
    if let Some(rest) = name.strip_prefix("onnx.") {
        onnx::check(rest, op, &mut out);
    } else if let Some(rest) = name.strip_prefix("nvdla.") {
        nvdla::check(rest, op, &mut out);
    } else if let Some(rest) = name.strip_prefix("nnie.") {
        nnie::check(rest, op, &mut out);
    } else if let Some(rest) = name.strip_prefix("mvu.") {
        mvu::check(rest, op, &mut out);
    }
    out.into_iter()
        .map(|m| format!("'{name}' op {m}"))
        .collect()
}

/// Runs every rule on every op under `root`, emitting one error per
/// violation at the op's location. Returns `true` when nothing was wrong.
pub fn verify_op_tree(root: &OperationRef) -> bool {
    let mut clean = true;
    root.walk(WalkOrder::PreOrder, |op| {
        for message in check_op(&op) {
            emit_error(op.location(), &message);
            clean = false;
        }
        WalkResult::Advance
    });
    clean
}

/// [`verify_op_tree`] on a module.
pub fn verify_module(module: &Module) -> bool {
    verify_op_tree(&module.as_operation())
}
