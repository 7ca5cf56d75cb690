//! Small accessors shared by the per-dialect rule files.

use crate::ir::{i64_array_attr, int_attr, str_attr, tensor_shape};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

/// The dims of operand `i` when it is a ranked tensor (`None` entries are `?`).
pub fn operand_dims(op: &OperationRef, i: usize) -> Option<Vec<Option<usize>>> {
    tensor_shape(op.operand(i).ok()?.r#type())?.dims
}

/// The dims of result `i` when it is a ranked tensor.
pub fn result_dims(op: &OperationRef, i: usize) -> Option<Vec<Option<usize>>> {
    tensor_shape(op.result(i).ok()?.r#type())?.dims
}

/// An `array<i64>` attribute.
pub fn ints(op: &OperationRef, name: &str) -> Option<Vec<i64>> {
    i64_array_attr(op.attribute(name).ok()?)
}

/// An integer attribute's value.
pub fn int(op: &OperationRef, name: &str) -> Option<i64> {
    int_attr(op.attribute(name).ok()?).map(|(v, _)| v)
}

/// A string attribute's value.
pub fn string(op: &OperationRef, name: &str) -> Option<String> {
    str_attr(op.attribute(name).ok()?)
}

/// Checks that an `array<i64>` attribute has `len` entries, each at least `min`.
pub fn check_list(op: &OperationRef, name: &str, len: usize, min: i64, what: &str, out: &mut Vec<String>) {
    let Some(v) = ints(op, name) else { return };
    if v.len() != len {
        out.push(format!("{name} has {} entries but {what} needs {len}", v.len()));
    } else if let Some(bad) = v.iter().find(|&&x| x < min) {
        out.push(format!("{name} entries must be >= {min}, got {bad}"));
    }
}

/// Checks that an integer attribute lies in `[lo, hi]`.
pub fn check_int_range(op: &OperationRef, name: &str, lo: i64, hi: i64, out: &mut Vec<String>) {
    if let Some(v) = int(op, name) {
        if v < lo || v > hi {
            out.push(format!("{name} = {v} is out of range [{lo}, {hi}]"));
        }
    }
}
