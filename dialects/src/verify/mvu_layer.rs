//! The optional attributes of `mvu.conv` / `mvu.matmul` that carry what the
//! configuration writer reads beyond the registers (`convert-onnx-to-mvu`
//! writes them; see the op doc blocks in `dialects/mvu.irdl.mlir`). Each is
//! checked when present.
//!
//! In: the op. Out: messages appended to `out`.
//!
//! | attribute | rule |
//! |---|---|
//! | `onnx_op`, `weight_name`, `output_end` | non-empty strings |
//! | `relu` | `0 : i64` or `1 : i64` |
//! | `weight_scales` | `array<f32>`, 1 or O entries (O = weight dim 0), each finite and > 0 |
//! | `bias_values` | `array<f32>`, O entries, each finite |
//! | `weight_layout` | `"as_layer"` or `"transposed"` |
//! | `sum_of` | conv only, ≥ 1 |

use super::common::*;
use melior::ir::{operation::OperationLike, OperationRef};

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    for name in ["onnx_op", "weight_name", "output_end", "weight_layout"] {
        if let Ok(a) = op.attribute(name) {
            if string(op, name).is_none() {
                out.push(format!("attribute '{name}' must be a string, got {a}"));
            }
        }
        check_non_empty(op, name, out);
    }
    if let Some(l) = string(op, "weight_layout") {
        if l != "as_layer" && l != "transposed" {
            out.push(format!(
                "weight_layout = \"{l}\" must be \"as_layer\" or \"transposed\""
            ));
        }
    }
    if op.attribute("relu").is_ok() && !matches!(int(op, "relu"), Some(0 | 1)) {
        out.push("relu must be 0 : i64 or 1 : i64".into());
    }
    if op.attribute("sum_of").is_ok() {
        if op_name != "conv" {
            out.push("sum_of (a global average pooling's pixel count) is for mvu.conv only".into());
        } else if int(op, "sum_of").is_none_or(|n| n < 1) {
            out.push("sum_of must be an integer >= 1".into());
        }
    }
    let o = operand_dims(op, 1).and_then(|d| d.first().copied().flatten());
    if let Some(s) = f32_list(op, "weight_scales", out) {
        if o.is_some_and(|o| s.len() != 1 && s.len() != o) {
            out.push(format!(
                "weight_scales has {} entries but needs 1 (per layer) or {} (per output channel)",
                s.len(),
                o.unwrap_or(0)
            ));
        }
        if let Some((i, v)) = s
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && **v > 0.0))
        {
            out.push(format!("weight_scales[{i}] = {v} must be finite and > 0"));
        }
    } else if op
        .attribute("weight_scales")
        .is_ok_and(|a| !crate::ir::is_dense_array(a))
    {
        out.push("attribute 'weight_scales' must be array<f32: ...>".into());
    }
    if let Some(b) = f32_list(op, "bias_values", out) {
        if o.is_some_and(|o| b.len() != o) {
            out.push(format!(
                "bias_values has {} entries but needs {} (one per output channel)",
                b.len(),
                o.unwrap_or(0)
            ));
        }
        if let Some((i, v)) = b.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            out.push(format!("bias_values[{i}] = {v} must be finite"));
        }
    } else if op
        .attribute("bias_values")
        .is_ok_and(|a| !crate::ir::is_dense_array(a))
    {
        out.push("attribute 'bias_values' must be array<f32: ...>".into());
    }
}
