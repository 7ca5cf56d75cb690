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
pub fn check_list(
    op: &OperationRef,
    name: &str,
    len: usize,
    min: i64,
    what: &str,
    out: &mut Vec<String>,
) {
    let Some(v) = ints(op, name) else { return };
    if v.len() != len {
        out.push(format!(
            "{name} has {} entries but {what} needs {len}",
            v.len()
        ));
    } else if let Some(bad) = v.iter().find(|&&x| x < min) {
        out.push(format!("{name} entries must be >= {min}, got {bad}"));
    }
}

/// Checks that an integer attribute lies in `[lo, hi]`.
pub fn check_int_range(op: &OperationRef, name: &str, lo: i64, hi: i64, out: &mut Vec<String>) {
    if let Some(v) = int(op, name) {
        if hi == i64::MAX && v < lo {
            out.push(format!("{name} = {v} must be >= {lo}"));
        } else if v < lo || v > hi {
            out.push(format!("{name} = {v} is out of range [{lo}, {hi}]"));
        }
    }
}

// ---- Helpers for the hardware dialects (nvdla, nnie, mvu) -------------------

/// One row of a register-range table: attribute name and inclusive bounds.
pub type Range = (&'static str, i64, i64);

/// [`check_int_range`] for every row of `table`.
pub fn check_ranges(op: &OperationRef, table: &[Range], out: &mut Vec<String>) {
    for &(name, lo, hi) in table {
        check_int_range(op, name, lo, hi, out);
    }
}

/// Every integer attribute (a register, a count) must be `i64`.
pub fn check_int_widths(op: &OperationRef, out: &mut Vec<String>) {
    for (name, attr) in op.attributes() {
        if let Some((_, width)) = int_attr(attr) {
            if width != 64 {
                let name = name.as_string_ref().as_str().unwrap_or("");
                out.push(format!(
                    "attribute '{name}' must be a 64-bit integer (i64), got i{width}"
                ));
            }
        }
    }
}

/// A string attribute that must not be empty (`hw_layer`, `layer_name`).
pub fn check_non_empty(op: &OperationRef, name: &str, out: &mut Vec<String>) {
    if string(op, name).is_some_and(|s| s.is_empty()) {
        out.push(format!("{name} must not be empty"));
    }
}

/// A float attribute's value.
pub fn float(op: &OperationRef, name: &str) -> Option<f64> {
    crate::ir::float_attr(op.attribute(name).ok()?)
}

/// Checks that a float attribute, when present, is an `f32` FloatAttr.
pub fn check_f32(op: &OperationRef, name: &str, out: &mut Vec<String>) {
    use melior::ir::{attribute::AttributeLike, r#type::TypeLike};
    let Ok(attr) = op.attribute(name) else { return };
    if !attr.is_float() {
        return;
    }
    let ty = attr.r#type();
    if !(ty.is_float() && ty.float_width() == 32) {
        out.push(format!("attribute '{name}' must be an f32 float, got {ty}"));
    }
}

/// An `array<i64: …>` attribute; reports a dense array of another element type.
pub fn i64_list(op: &OperationRef, name: &str, out: &mut Vec<String>) -> Option<Vec<i64>> {
    let attr = op.attribute(name).ok()?;
    let v = i64_array_attr(attr);
    if v.is_none() && crate::ir::is_dense_array(attr) {
        out.push(format!("attribute '{name}' must be array<i64: ...>"));
    }
    v
}

/// An `array<f32: …>` attribute; reports a dense array of another element type.
pub fn f32_list(op: &OperationRef, name: &str, out: &mut Vec<String>) -> Option<Vec<f32>> {
    let attr = op.attribute(name).ok()?;
    let v = crate::ir::f32_array_attr(attr);
    if v.is_none() && crate::ir::is_dense_array(attr) {
        out.push(format!("attribute '{name}' must be array<f32: ...>"));
    }
    v
}

/// An `array<i64>` attribute that must have exactly `len` entries in `[lo, hi]`.
/// Returns the entries when they pass.
pub fn check_i64_list(
    op: &OperationRef,
    name: &str,
    len: usize,
    lo: i64,
    hi: i64,
    out: &mut Vec<String>,
) -> Option<Vec<i64>> {
    let v = i64_list(op, name, out)?;
    if v.len() != len {
        out.push(format!("{name} has {} entries but needs {len}", v.len()));
        return None;
    }
    if let Some((i, bad)) = v.iter().enumerate().find(|(_, x)| **x < lo || **x > hi) {
        if hi == i64::MAX {
            out.push(format!("{name}[{i}] = {bad} must be >= {lo}"));
        } else {
            out.push(format!("{name}[{i}] = {bad} is out of range [{lo}, {hi}]"));
        }
        return None;
    }
    Some(v)
}

/// The `operandSegmentSizes` of an op with optional operands.
pub fn operand_segments(op: &OperationRef) -> Option<Vec<i32>> {
    crate::ir::i32_array_attr(op.attribute("operandSegmentSizes").ok()?)
}

/// The operand index of segment `seg` (each segment before it holding 0 or 1
/// values); `None` when the segment is empty.
pub fn segment_operand(segments: &[i32], seg: usize) -> Option<usize> {
    if *segments.get(seg)? == 0 {
        return None;
    }
    Some(segments.iter().take(seg).map(|&s| s.max(0) as usize).sum())
}

/// Dims as `[1, 2, ?]`.
pub fn dims_str(d: &[Option<usize>]) -> String {
    let parts: Vec<String> = d
        .iter()
        .map(|v| v.map_or("?".into(), |v| v.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Whether two shapes agree wherever both dims are known (ranks must match).
pub fn dims_agree(a: &[Option<usize>], b: &[Option<usize>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.is_none() || y.is_none() || x == y)
}

/// The dims of operand or result `i` of `what`-kind when it has rank `rank`;
/// reports any other rank.
pub fn ranked(
    dims: Option<Vec<Option<usize>>>,
    rank: usize,
    what: &str,
    out: &mut Vec<String>,
) -> Option<Vec<Option<usize>>> {
    let d = dims?;
    if d.len() != rank {
        out.push(format!(
            "{what} must have rank {rank}, got rank {} {}",
            d.len(),
            dims_str(&d)
        ));
        return None;
    }
    Some(d)
}

/// Checks that result 0 has the same shape as operand 0 (element-wise and
/// copying engines).
pub fn check_same_shape(op: &OperationRef, out: &mut Vec<String>) {
    let (Some(x), Some(y)) = (operand_dims(op, 0), result_dims(op, 0)) else {
        return;
    };
    if !dims_agree(&x, &y) {
        out.push(format!(
            "output shape {} differs from input shape {}",
            dims_str(&y),
            dims_str(&x)
        ));
    }
}

/// Output size of a window along one axis: `floor((n + pads - k) / s) + 1`
/// (`ceil` instead of `floor` when `ceil` is set); `None` when the padded input
/// is smaller than the window or the stride is not positive.
pub fn window_out(n: i64, pads: i64, k: i64, s: i64, ceil: bool) -> Option<i64> {
    let span = n + pads - k;
    if span < 0 || s < 1 {
        return None;
    }
    Some(if ceil { (span + s - 1) / s } else { span / s } + 1)
}
