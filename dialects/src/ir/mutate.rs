//! IR mutation primitives melior lacks: use queries, safe erasure, RAUW.
//!
//! In: values and operations of a live module. Out: the module changed in
//! place. Erasing only happens for ops whose results are unused, so no
//! dangling use can be created through this API.

use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use mlir_sys::*;

/// Whether `value` has at least one use.
pub fn has_uses<'c>(value: impl ValueLike<'c>) -> bool {
    // SAFETY: query on a valid value.
    unsafe { !mlirOpOperandIsNull(mlirValueGetFirstUse(value.to_raw())) }
}

/// The number of uses of `value`.
pub fn use_count<'c>(value: impl ValueLike<'c>) -> usize {
    let mut n = 0;
    // SAFETY: walks the use list of a valid value without changing it.
    unsafe {
        let mut operand = mlirValueGetFirstUse(value.to_raw());
        while !mlirOpOperandIsNull(operand) {
            n += 1;
            operand = mlirOpOperandGetNextUse(operand);
        }
    }
    n
}

/// Whether no result of `op` is used.
pub fn results_unused(op: &OperationRef) -> bool {
    op.results().all(|r| !has_uses(r))
}

/// Erases `op` if none of its results is used; returns whether it did.
/// The caller must not touch `op` (or refs into it) afterwards.
pub fn erase_if_unused(op: OperationRef) -> bool {
    if !results_unused(&op) {
        return false;
    }
    // SAFETY: the op is valid and unused; erase() unlinks it from its block and frees it.
    unsafe { mlirOperationDestroy(op.to_raw()) };
    true
}

/// Replaces every use of `from` with `to` (types must agree; the verifier checks).
pub fn replace_all_uses<'c>(from: impl ValueLike<'c>, to: impl ValueLike<'c>) {
    // SAFETY: both values are valid and belong to the same context.
    unsafe { mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// Sets (or replaces) attribute `name` of `op` (a pass holds only an
/// immutable `OperationRef` to the op it runs on; attributes are the one
/// thing passes change on it in place).
pub fn set_attribute<'c>(op: &OperationRef<'c, '_>, name: &str, value: melior::ir::Attribute<'c>) {
    use melior::ir::operation::OperationMutLike;
    // SAFETY: `op` is a live operation; the mutable view lives only for this call.
    let mut m = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
    m.set_attribute(name, value);
}
