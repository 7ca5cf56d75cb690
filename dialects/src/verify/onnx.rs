//! Rules for the `onnx` dialect.
//!
//! | op | rule |
//! |---|---|
//! | every op | integer attributes are `i64`; `array<…>` attributes are `array<i64>` (segment sizes excepted) |
//! | conv, conv_transpose | kernel_shape/strides/dilations have one entry per spatial axis (≥ 1), pads two (≥ 0); group ≥ 1 divides C; weight channels × group = C; kernel_shape = weight's spatial dims; bias has M entries |
//! | max_pool, average_pool, lp_pool | kernel_shape/strides/dilations/pads as for conv |
//! | gemm | 2-D operands whose inner dims agree (after transA/transB) |
//! | concat, softmax, log_softmax, flatten, gather, split | axis within [-rank, rank) (flatten: [-rank, rank]) |
//! | custom, concat, sum, max, min, split | used operand/result slots form a prefix |
//! | constant | a `value` of elements (`dense`, `dense_resource`) has the result's type |

use super::common::*;
use crate::ir::{i32_array_attr, i64_array_attr, int_attr, is_dense_array};
use melior::ir::{attribute::AttributeLike, operation::OperationLike, OperationRef, ValueLike};

const SEGMENT_ATTRS: [&str; 2] = ["operandSegmentSizes", "resultSegmentSizes"];

/// Ops whose optional operand/result "slots" stand for a variadic group.
const SLOT_OPS: [&str; 6] = ["custom", "concat", "sum", "max", "min", "split"];

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    check_widths(op, out);
    if SLOT_OPS.contains(&op_name) {
        check_slots(op, out);
    }
    match op_name {
        "conv" | "conv_transpose" => check_conv(op, op_name == "conv_transpose", out),
        "max_pool" | "average_pool" | "lp_pool" => check_pool(op, out),
        "gemm" => check_gemm(op, out),
        "concat" | "softmax" | "log_softmax" | "gather" | "split" => check_axis(op, false, out),
        "flatten" => check_axis(op, true, out),
        "constant" => check_constant(op, out),
        _ => {}
    }
}

fn check_widths(op: &OperationRef, out: &mut Vec<String>) {
    for (name, attr) in op.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if SEGMENT_ATTRS.contains(&name.as_str()) {
            continue;
        }
        if let Some((_, width)) = int_attr(attr) {
            if width != 64 {
                out.push(format!(
                    "attribute '{name}' must be a 64-bit integer (i64), got i{width}"
                ));
            }
        } else if is_dense_array(attr) && i64_array_attr(attr).is_none() && !is_f32_array(attr) {
            out.push(format!("attribute '{name}' must be array<i64: ...>"));
        }
    }
}

fn is_f32_array(attr: melior::ir::Attribute) -> bool {
    crate::ir::f32_array_attr(attr).is_some()
}

fn spatial_rank(op: &OperationRef) -> Option<usize> {
    operand_dims(op, 0)
        .map(|d| d.len())
        .filter(|r| *r >= 3)
        .map(|r| r - 2)
}

fn check_window_attrs(op: &OperationRef, n: usize, out: &mut Vec<String>) {
    let what = format!("an input with {n} spatial axes");
    check_list(op, "kernel_shape", n, 1, &what, out);
    check_list(op, "strides", n, 1, &what, out);
    check_list(op, "dilations", n, 1, &what, out);
    check_list(op, "pads", 2 * n, 0, &what, out);
    check_list(op, "output_padding", n, 0, &what, out);
}

fn check_conv(op: &OperationRef, transpose: bool, out: &mut Vec<String>) {
    let Some(x) = operand_dims(op, 0) else { return };
    if x.len() < 3 {
        out.push(format!(
            "input must have rank >= 3 (N x C x spatial...), got rank {}",
            x.len()
        ));
        return;
    }
    let n = x.len() - 2;
    check_window_attrs(op, n, out);
    let group = int(op, "group").unwrap_or(1);
    if group < 1 {
        out.push(format!("group must be >= 1, got {group}"));
        return;
    }
    let Some(w) = operand_dims(op, 1) else { return };
    if w.len() != x.len() {
        out.push(format!(
            "weight rank {} differs from input rank {}",
            w.len(),
            x.len()
        ));
        return;
    }
    let g = group as usize;
    if let Some(c) = x[1] {
        if c % g != 0 {
            out.push(format!(
                "group {group} does not divide the {c} input channels"
            ));
        }
        // Conv weights are M x C/group x k...; ConvTranspose weights are C x M/group x k...
        let (wc, expect) = if transpose {
            (w[0], Some(c))
        } else {
            (w[1], Some(c / g.max(1)))
        };
        if let (Some(wc), Some(e)) = (wc, expect) {
            if wc != e && c % g == 0 {
                let axis = if transpose { 0 } else { 1 };
                out.push(format!(
                    "weight dim {axis} is {wc} but input channels {c} with group {group} need {e}"
                ));
            }
        }
    }
    if !transpose {
        if let Some(m) = w[0] {
            if m % g != 0 {
                out.push(format!(
                    "group {group} does not divide the {m} output channels"
                ));
            }
        }
    }
    if let Some(k) = ints(op, "kernel_shape") {
        let ws: Vec<Option<usize>> = w[2..].to_vec();
        if k.len() == ws.len()
            && k.iter()
                .zip(&ws)
                .any(|(a, b)| b.is_some_and(|b| b as i64 != *a))
        {
            out.push(format!(
                "kernel_shape {k:?} does not match the weight's spatial dims {}",
                fmt_dims(&ws)
            ));
        }
    }
    if op.operand_count() > 2 {
        if let (Some(b), Some(m)) = (
            operand_dims(op, 2),
            if transpose { w[1].map(|v| v * g) } else { w[0] },
        ) {
            if b.len() != 1 || b[0].is_some_and(|v| v != m) {
                out.push(format!("bias must have shape [{m}], got {}", fmt_dims(&b)));
            }
        }
    }
}

fn check_pool(op: &OperationRef, out: &mut Vec<String>) {
    match spatial_rank(op) {
        Some(n) => check_window_attrs(op, n, out),
        None if operand_dims(op, 0).is_some() => {
            out.push("input must have rank >= 3 (N x C x spatial...)".into())
        }
        None => {}
    }
}

fn check_gemm(op: &OperationRef, out: &mut Vec<String>) {
    let (Some(a), Some(b)) = (operand_dims(op, 0), operand_dims(op, 1)) else {
        return;
    };
    if a.len() != 2 || b.len() != 2 {
        out.push(format!(
            "operands A and B must be 2-D, got ranks {} and {}",
            a.len(),
            b.len()
        ));
        return;
    }
    let ta = int(op, "transA").unwrap_or(0) != 0;
    let tb = int(op, "transB").unwrap_or(0) != 0;
    let k_a = if ta { a[0] } else { a[1] };
    let k_b = if tb { b[1] } else { b[0] };
    if let (Some(x), Some(y)) = (k_a, k_b) {
        if x != y {
            out.push(format!(
                "inner dimensions differ: A gives K={x}, B gives K={y} (transA={}, transB={})",
                ta as i32, tb as i32
            ));
        }
    }
}

fn check_axis(op: &OperationRef, inclusive_end: bool, out: &mut Vec<String>) {
    let (Some(axis), Some(x)) = (int(op, "axis"), operand_dims(op, 0)) else {
        return;
    };
    let r = x.len() as i64;
    let hi = if inclusive_end { r } else { r - 1 };
    if axis < -r || axis > hi {
        out.push(format!(
            "axis {axis} is out of range [{}, {hi}] for rank {r}",
            -r
        ));
    }
}

fn check_constant(op: &OperationRef, out: &mut Vec<String>) {
    let (Ok(value), Ok(result)) = (op.attribute("value"), op.result(0)) else {
        return;
    };
    if !value.is_elements() {
        return;
    }
    let (have, want) = (value.r#type(), result.r#type());
    if have != want {
        out.push(format!(
            "value has type {have} but the result has type {want}; they must be the same"
        ));
    }
}

fn check_slots(op: &OperationRef, out: &mut Vec<String>) {
    for name in SEGMENT_ATTRS {
        let Some(sizes) = op.attribute(name).ok().and_then(i32_array_attr) else {
            continue;
        };
        if let Some(first_empty) = sizes.iter().position(|&s| s == 0) {
            if sizes[first_empty..].iter().any(|&s| s != 0) {
                out.push(format!(
                    "{name} must fill slots from the front, got {sizes:?}"
                ));
            }
        }
    }
}

fn fmt_dims(d: &[Option<usize>]) -> String {
    let parts: Vec<String> = d
        .iter()
        .map(|v| v.map_or("?".into(), |v| v.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}
