//! Rules for the `nnie` dialect (doc blocks in `dialects/nnie.irdl.mlir`;
//! quantization per MQBench's NNIE scheme, research targets.md §B).
//!
//! | op | rule |
//! |---|---|
//! | every op | integer attributes are `i64`; `layer_name` is not empty; `tops` holds one non-empty string per result (the Caffe blob names) |
//! | conv, deconv, fc, pool, eltwise, concat, upsample, channel_scale, affine | `input_clip` is `array<f32>` with one entry per data input; each clip c is finite, > 0 and on the 8-bit grid c = 2^(k/16) (16·log2 c within [`GRID_TOLERANCE`] of an integer); `input_z` is `array<i64>` of the same length with z = round(16·log2 c) − 127 |
//! | conv, deconv, fc | `weight_clip` is an f32 on the same grid; `weight_z` = round(16·log2 weight_clip) − 127 |
//! | conv | `kernel`, `stride`, `dilation` have 2 entries ≥ 1, `pad` 2 entries ≥ 0; `group` ≥ 1 divides C and O; weight O × C/group × kH × kW with (kH, kW) = `kernel`; bias has O entries; output N × O × OH × OW, OH = ⌊(H + 2·pH − dH·(kH−1) − 1) / sH⌋ + 1 |
//! | deconv | `kernel`, `stride` 2 entries ≥ 1, `pad` 2 entries ≥ 0; weight dim 0 = C, `group` divides it; bias has `O = weight dim 1 · group` entries; output N × O × (s·(H − 1) + k − 2p) × (same for W) |
//! | fc | input N × K (or N × C × H × W, K = C·H·W); weight O × K; bias has O entries; output N × O |
//! | pool | `kernel`, `stride` 2 entries ≥ 1, `pad` 2 entries ≥ 0; output rounds UP (Caffe ceil mode, which NNIE requires): OH = ⌈(H + 2·pH − kH) / sH⌉ + 1, minus one when that last window starts in the bottom padding; global pooling gives N × C × 1 × 1 |
//! | eltwise | at least 2 inputs; output shape = input shape; `input_clip` may be empty for `"prod"` (MQBench emits none) |
//! | concat | used operand slots form a prefix; `axis` within [−rank, rank); inputs agree off the axis; output axis = sum |
//! | upsample | output N × C × 2H × 2W (`scale` = 2 is exact in IRDL) |
//! | softmax | `axis` within [−rank, rank) |
//! | reshape | `shape` has 4 entries, the first 0 (copy the batch), each ≥ −1, at most one −1; input and output 4-D with equal element counts; fixed entries match the output |
//! | permute | output = input in N × H × W × C order (`order` is exact in IRDL) |
//!
//! 8-bit only: the z rule above is the 8-bit code (offset 127); the 16-bit mode
//! is a network-wide mapper setting with no public formula, not modelled per layer.

use super::common::*;
use melior::ir::{attribute::ArrayAttribute, operation::OperationLike, OperationRef};

/// How far 16·log2(c) may be from an integer for c to count as 2^(k/16).
/// f32 rounding moves it by about 1e-6.
pub const GRID_TOLERANCE: f64 = 1e-4;
/// The 8-bit code's offset: z = round(16·log2 c) − 127.
pub const Z_OFFSET: i64 = 127;

/// The slot count of nnie.concat.
const CONCAT_SLOTS: usize = 16;

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    check_int_widths(op, out);
    check_non_empty(op, "layer_name", out);
    check_tops(op, out);
    if matches!(
        op_name,
        "conv"
            | "deconv"
            | "fc"
            | "pool"
            | "eltwise"
            | "concat"
            | "upsample"
            | "channel_scale"
            | "affine"
    ) {
        check_input_clips(op_name, op, out);
    }
    match op_name {
        "conv" => {
            check_weight_clip(op, out);
            check_conv(op, out);
        }
        "deconv" => {
            check_weight_clip(op, out);
            check_deconv(op, out);
        }
        "fc" => {
            check_weight_clip(op, out);
            check_fc(op, out);
        }
        "pool" => check_pool(op, out),
        "eltwise" => check_eltwise(op, out),
        "concat" => check_concat(op, out),
        "upsample" => check_upsample(op, out),
        "softmax" => check_axis(op, out),
        "reshape" => check_reshape(op, out),
        "permute" => check_permute(op, out),
        "relu" => check_f32(op, "negative_slope", out),
        _ => {}
    }
}

/// `tops`, when present (IRDL requires it): one non-empty string per result.
fn check_tops(op: &OperationRef, out: &mut Vec<String>) {
    let Ok(a) = op.attribute("tops") else { return };
    let Ok(arr) = ArrayAttribute::try_from(a) else {
        out.push("tops must be an array of strings, one blob name per result".into());
        return;
    };
    let names: Vec<Option<String>> = (0..arr.len())
        .map(|i| arr.element(i).ok().and_then(crate::ir::str_attr))
        .collect();
    if let Some(i) = names
        .iter()
        .position(|n| n.as_deref().is_none_or(str::is_empty))
    {
        out.push(format!(
            "tops[{i}] must be a non-empty string (a Caffe blob name)"
        ));
    }
    if names.len() != op.result_count() {
        out.push(format!(
            "tops names {} blob(s) but the op has {} result(s)",
            names.len(),
            op.result_count()
        ));
    }
}

/// The grid index k = 16·log2(c) of a clip value, or why c is not on the grid.
fn grid_index(c: f64) -> Result<i64, String> {
    if !(c.is_finite() && c > 0.0) {
        return Err("must be a finite value > 0".into());
    }
    let k = 16.0 * c.log2();
    let rounded = k.round();
    if (k - rounded).abs() > GRID_TOLERANCE {
        return Err(format!(
            "is not 2^(k/16) for an integer k (16*log2(c) = {k:.4})"
        ));
    }
    Ok(rounded as i64)
}

/// Checks one clip value and, when given, its z.
fn check_clip(what: &str, c: f64, z: Option<(&str, i64)>, out: &mut Vec<String>) {
    match grid_index(c) {
        Err(why) => out.push(format!("{what} = {c} {why}")),
        Ok(k) => {
            let expect = k - Z_OFFSET;
            if let Some((z_what, z)) = z.filter(|(_, z)| *z != expect) {
                out.push(format!("{z_what} = {z} does not match {what} = {c} (round(16*log2(c)) - 127 = {expect})"));
            }
        }
    }
}

/// The number of data inputs an op's `input_clip` describes.
fn data_inputs(op_name: &str, op: &OperationRef) -> usize {
    match op_name {
        "eltwise" | "concat" => op.operand_count(),
        "channel_scale" => 2,
        _ => 1,
    }
}

fn check_input_clips(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    let clips = f32_list(op, "input_clip", out);
    let zs = i64_list(op, "input_z", out);
    let Some(clips) = clips else { return };
    let n = data_inputs(op_name, op);
    let prod = op_name == "eltwise" && string(op, "operation").as_deref() == Some("prod");
    if clips.len() != n && !(prod && clips.is_empty()) {
        out.push(format!(
            "input_clip has {} entries but the op has {n} data input(s)",
            clips.len()
        ));
    }
    if let Some(zs) = &zs {
        if zs.len() != clips.len() {
            out.push(format!(
                "input_z has {} entries but input_clip has {}",
                zs.len(),
                clips.len()
            ));
        }
    }
    for (i, &c) in clips.iter().enumerate() {
        let z = zs.as_ref().and_then(|zs| zs.get(i).copied());
        let z_name = format!("input_z[{i}]");
        check_clip(
            &format!("input_clip[{i}]"),
            f64::from(c),
            z.map(|z| (z_name.as_str(), z)),
            out,
        );
    }
}

fn check_weight_clip(op: &OperationRef, out: &mut Vec<String>) {
    check_f32(op, "weight_clip", out);
    let Some(c) = float(op, "weight_clip") else {
        return;
    };
    let z = int(op, "weight_z").map(|z| ("weight_z", z));
    check_clip("weight_clip", c, z, out);
}

/// Checks a 2-entry window attribute; returns it when it passes.
fn pair(op: &OperationRef, name: &str, min: i64, out: &mut Vec<String>) -> Option<[i64; 2]> {
    let v = check_i64_list(op, name, 2, min, i64::MAX, out)?;
    Some([*v.first()?, *v.get(1)?])
}

fn check_conv(op: &OperationRef, out: &mut Vec<String>) {
    let kernel = pair(op, "kernel", 1, out);
    let stride = pair(op, "stride", 1, out);
    let pad = pair(op, "pad", 0, out);
    let dilation = pair(op, "dilation", 1, out);
    let group = int(op, "group").unwrap_or(1);
    if group < 1 {
        out.push(format!("group = {group} must be >= 1"));
        return;
    }
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let w = ranked(operand_dims(op, 1), 4, "weight", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(w)) = (x, w) else { return };
    let g = group as usize;
    if let Some(c) = x[1] {
        if c % g != 0 {
            out.push(format!(
                "group {group} does not divide the {c} input channels"
            ));
        } else if w[1].is_some_and(|wc| wc != c / g) {
            out.push(format!(
                "weight dim 1 is {} but {c} input channels with group {group} need {}",
                w[1].unwrap_or(0),
                c / g
            ));
        }
    }
    if let Some(o) = w[0].filter(|o| o % g != 0) {
        out.push(format!(
            "group {group} does not divide the {o} output channels"
        ));
    }
    if let Some(k) = kernel {
        let ws = [w[2], w[3]];
        if ws
            .iter()
            .zip(k)
            .any(|(d, k)| d.is_some_and(|d| d as i64 != k))
        {
            out.push(format!(
                "kernel {k:?} does not match the weight's spatial dims {}",
                dims_str(&ws)
            ));
        }
    }
    check_bias(op, w[0], out);
    let (Some(y), Some(k), Some(s), Some(p), Some(d)) = (y, kernel, stride, pad, dilation) else {
        return;
    };
    let extent = |axis: usize| -> Option<usize> {
        let span = d[axis] * (k[axis] - 1) + 1;
        window_out(x[axis + 2]? as i64, 2 * p[axis], span, s[axis], false).map(|v| v as usize)
    };
    let expect = [x[0], w[0], extent(0), extent(1)];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the convolution's {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

/// Deconvolution: weight `C × O/g × kH × kW`, output
/// `N × O × (s·(H − 1) + k − 2p)` per spatial axis.
fn check_deconv(op: &OperationRef, out: &mut Vec<String>) {
    let kernel = pair(op, "kernel", 1, out);
    let stride = pair(op, "stride", 1, out);
    let pad = pair(op, "pad", 0, out);
    let group = int(op, "group").unwrap_or(1);
    if group < 1 {
        out.push(format!("group = {group} must be >= 1"));
        return;
    }
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let w = ranked(operand_dims(op, 1), 4, "weight", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(w)) = (x, w) else { return };
    let g = group as usize;
    if let (Some(c), Some(wc)) = (x[1], w[0]) {
        if c != wc || c % g != 0 {
            out.push(format!(
                "weight dim 0 is {wc}; it must equal the {c} input channels, which group {group} divides"
            ));
        }
    }
    let o = w[1].map(|v| v * g);
    check_bias(op, o, out);
    let (Some(y), Some(k), Some(s), Some(p)) = (y, kernel, stride, pad) else {
        return;
    };
    let extent = |axis: usize| -> Option<usize> {
        let n = x[axis + 2]? as i64;
        let v = s[axis] * (n - 1) + k[axis] - 2 * p[axis];
        (v > 0).then_some(v as usize)
    };
    let expect = [x[0], o, extent(0), extent(1)];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the deconvolution's {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

/// The optional bias (operand 2) has one entry per output channel.
fn check_bias(op: &OperationRef, o: Option<usize>, out: &mut Vec<String>) {
    if op.operand_count() < 3 {
        return;
    }
    let Some(b) = operand_dims(op, 2) else { return };
    if !dims_agree(&b, &[o]) {
        let want = o.map_or("?".into(), |o| o.to_string());
        out.push(format!(
            "bias must have shape [{want}], got {}",
            dims_str(&b)
        ));
    }
}

fn check_fc(op: &OperationRef, out: &mut Vec<String>) {
    let w = ranked(operand_dims(op, 1), 2, "weight", out);
    let (Some(x), Some(w)) = (operand_dims(op, 0), w) else {
        return;
    };
    if x.len() != 2 && x.len() != 4 {
        out.push(format!(
            "input must be N x K or N x C x H x W, got rank {}",
            x.len()
        ));
        return;
    }
    let k = x
        .iter()
        .skip(1)
        .try_fold(1usize, |a, d| a.checked_mul((*d)?));
    if let (Some(k), Some(wk)) = (k, w[1]) {
        if k != wk {
            out.push(format!(
                "weight has {wk} inputs per output but the input has K = {k}"
            ));
        }
    }
    check_bias(op, w[0], out);
    if let Some(y) = result_dims(op, 0) {
        let expect = [x[0], w[0]];
        if !dims_agree(&y, &expect) {
            out.push(format!(
                "output shape {} does not match N x O = {}",
                dims_str(&y),
                dims_str(&expect)
            ));
        }
    }
}

fn check_pool(op: &OperationRef, out: &mut Vec<String>) {
    let kernel = pair(op, "kernel", 1, out);
    let stride = pair(op, "stride", 1, out);
    let pad = pair(op, "pad", 0, out);
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y)) = (x, y) else { return };
    let expect = if int(op, "global_pooling") == Some(1) {
        [x[0], x[1], Some(1), Some(1)]
    } else {
        let (Some(k), Some(s), Some(p)) = (kernel, stride, pad) else {
            return;
        };
        let extent =
            |axis: usize| caffe_pool_extent(x[axis + 2]? as i64, k[axis], s[axis], p[axis]);
        [x[0], x[1], extent(0), extent(1)]
    };
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the pooling's {} (Caffe rounds up)",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

/// Caffe's pooled size: ceil mode, and the last window must start inside the
/// input or the top/left padding.
fn caffe_pool_extent(n: i64, k: i64, s: i64, p: i64) -> Option<usize> {
    let mut o = window_out(n, 2 * p, k, s, true)?;
    if p > 0 && (o - 1) * s >= n + p {
        o -= 1;
    }
    usize::try_from(o).ok()
}

fn check_eltwise(op: &OperationRef, out: &mut Vec<String>) {
    let n = op.operand_count();
    if n < 2 {
        out.push(format!("needs at least 2 inputs, got {n}"));
    }
    check_same_shape(op, out);
}

fn check_concat(op: &OperationRef, out: &mut Vec<String>) {
    if let Some(sizes) = operand_segments(op) {
        let used = sizes.iter().take_while(|&&s| s != 0).count();
        if sizes.len() == CONCAT_SLOTS && sizes.iter().skip(used).any(|&s| s != 0) {
            out.push(format!(
                "operandSegmentSizes must fill slots from the front, got {sizes:?}"
            ));
        }
    }
    let inputs: Option<Vec<_>> = (0..op.operand_count())
        .map(|i| operand_dims(op, i))
        .collect();
    let (Some(inputs), Some(y)) = (inputs, result_dims(op, 0)) else {
        return;
    };
    let Some(first) = inputs.first() else { return };
    let Some(axis) = axis_index(op, first.len(), out) else {
        return;
    };
    let mut expect = first.clone();
    let mut sum = Some(0usize);
    for (i, d) in inputs.iter().enumerate() {
        let off_axis = |v: &[Option<usize>]| -> Vec<Option<usize>> {
            v.iter()
                .enumerate()
                .filter(|(j, _)| *j != axis)
                .map(|(_, x)| *x)
                .collect()
        };
        if d.len() != first.len() || !dims_agree(&off_axis(d), &off_axis(first)) {
            out.push(format!(
                "input {i} has shape {} which differs from input 0 {} off axis {axis}",
                dims_str(d),
                dims_str(first)
            ));
            return;
        }
        sum = sum.zip(d.get(axis).copied().flatten()).map(|(a, b)| a + b);
    }
    if let Some(slot) = expect.get_mut(axis) {
        *slot = sum;
    }
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the concatenation's {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

/// `axis` normalised into `[0, rank)`; reports an out-of-range axis.
fn axis_index(op: &OperationRef, rank: usize, out: &mut Vec<String>) -> Option<usize> {
    let axis = int(op, "axis")?;
    let r = rank as i64;
    if axis < -r || axis >= r {
        out.push(format!(
            "axis {axis} is out of range [{}, {}] for rank {r}",
            -r,
            r - 1
        ));
        return None;
    }
    usize::try_from(if axis < 0 { axis + r } else { axis }).ok()
}

fn check_axis(op: &OperationRef, out: &mut Vec<String>) {
    if let Some(x) = operand_dims(op, 0) {
        axis_index(op, x.len(), out);
    }
}

fn check_upsample(op: &OperationRef, out: &mut Vec<String>) {
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y)) = (x, y) else { return };
    let expect = [x[0], x[1], x[2].map(|h| 2 * h), x[3].map(|w| 2 * w)];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} is not the 2x upsampled {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

fn check_reshape(op: &OperationRef, out: &mut Vec<String>) {
    let Some(shape) = check_i64_list(op, "shape", 4, -1, i64::MAX, out) else {
        return;
    };
    if shape.first() != Some(&0) {
        out.push(format!(
            "shape {shape:?} must start with 0 (NNIE copies the batch)"
        ));
    }
    if shape.iter().filter(|&&v| v == -1).count() > 1 {
        out.push(format!("shape {shape:?} may infer (-1) at most one dim"));
    }
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y)) = (x, y) else { return };
    let expect: Vec<Option<usize>> = shape
        .iter()
        .enumerate()
        .map(|(i, &v)| match v {
            0 => x.get(i).copied().flatten(),
            -1 => None,
            v => usize::try_from(v).ok(),
        })
        .collect();
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match shape {shape:?}",
            dims_str(&y)
        ));
    }
    let count = |d: &[Option<usize>]| d.iter().try_fold(1usize, |a, v| a.checked_mul((*v)?));
    if let (Some(a), Some(b)) = (count(x.as_slice()), count(y.as_slice())) {
        if a != b {
            out.push(format!("output has {b} elements but the input has {a}"));
        }
    }
}

fn check_permute(op: &OperationRef, out: &mut Vec<String>) {
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y)) = (x, y) else { return };
    let expect = [x[0], x[2], x[3], x[1]];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} is not the NHWC permutation {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}
