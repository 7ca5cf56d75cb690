//! Rules for the `nvdla` dialect. Register ranges come from the one register
//! table, `onnc_nvdla_hw::registers` (the ranges of the op doc blocks in
//! `dialects/nvdla.irdl.mlir`, which follow ONNC's CTable register table and
//! the `dla_interface.h` descriptor fields), which the back end checks its
//! programs with too.
//!
//! | op | rule |
//! |---|---|
//! | every op | integer attributes are `i64`; `hw_layer` is not empty; every integer register of `onnc_nvdla_hw::registers` lies in its range |
//! | conv | `data_format` is `"feature"` or a lowercase `FORMAT_T_*` image format (`"t_r8g8b8a8"`, …); input N×C×H×W and weight K×(C/G)×R×S are 4-D, G the optional `group` (≥ 1, default 1) dividing K; output is N×K×E×F with E = ⌊(H + pad_y_top + pad_y_bottom − ((R−1)·dilation_y + 1)) / conv_stride_y⌋ + 1 (F likewise) |
//! | sdp | a sub-unit with `act = "lut"` needs `lut_index` ≥ 0; operand cube x1/x2/y is given exactly when its sub-unit is enabled with `type` ≠ none and `mode` ≠ per_layer; with type add or mul, a per_kernel cube has C entries (`[C]` or `[1, C, 1, 1]`) and a per_point cube the input's shape (type both packs two operands; not checked); output shape = input shape |
//! | pdp | output N×C×E×F with E = ⌊(H + pad_top + pad_bottom − pool_height) / stride_y⌋ + 1 (F likewise) |
//! | cdp | `in_precision` = `out_precision`; `lut_param.linear_only_start` ≤ `linear_only_end`; `alpha`, `beta`, `bias` are f32; output shape = input shape |
//! | rubik | `stride_x`, `stride_y` in [1, 8] in contract mode, exactly 1 in split/merge; element count preserved, except that contract reads `sx·sy` phases of `C_pad ≥ C` channels each (whole atoms) into `[N, C, H·sy, W·sx]` |
//! | bdma | output shape = input shape |
//! | concat | members and output are 4-D and agree on every axis but `axis` (1 channels, 2 rows, 3 columns); the output's `axis` is the sum of the members' |
//! | reshape | element count preserved |
//! | slice | `c_start` ≥ 0; window inside the input's channels; N, H, W kept |
//! | emu | softmax carries `axis` (i64) = 1; power carries f32 `power`, `scale`, `shift`; scale factors are finite f32 > 0; output shape = input shape |
//!
//! Configuration rules (precisions, engines, SDP LUT/eltwise, batch) read the
//! module's `nvdla.config` attribute: see `nvdla_config.rs`.

use super::common::*;
use melior::ir::{operation::OperationLike, OperationRef};
use onnc_nvdla_hw::registers::Kind;

/// The firmware's `FORMAT_T_*` image formats (0..35), lowercase, without `FORMAT_`.
const IMAGE_FORMATS: [&str; 36] = [
    "t_r8",
    "t_r10",
    "t_r12",
    "t_r16",
    "t_r16_i",
    "t_r16_f",
    "t_a16b16g16r16",
    "t_x16b16g16r16",
    "t_a16b16g16r16_f",
    "t_a16y16u16v16",
    "t_v16u16y16a16",
    "t_a16y16u16v16_f",
    "t_a8b8g8r8",
    "t_a8r8g8b8",
    "t_b8g8r8a8",
    "t_r8g8b8a8",
    "t_x8b8g8r8",
    "t_x8r8g8b8",
    "t_b8g8r8x8",
    "t_r8g8b8x8",
    "t_a2b10g10r10",
    "t_a2r10g10b10",
    "t_b10g10r10a2",
    "t_r10g10b10a2",
    "t_a2y10u10v10",
    "t_v10u10y10a2",
    "t_a8y8u8v8",
    "t_v8u8y8a8",
    "t_y8___u8v8_n444",
    "t_y8___v8u8_n444",
    "t_y10___u10v10_n444",
    "t_y10___v10u10_n444",
    "t_y12___u12v12_n444",
    "t_y12___v12u12_n444",
    "t_y16___u16v16_n444",
    "t_y16___v16u16_n444",
];

/// The SDP sub-units and the operand segment of each (0 is the input).
const SUB_UNITS: [(&str, usize); 3] = [("x1", 1), ("x2", 2), ("y", 3)];

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    check_int_widths(op, out);
    check_non_empty(op, "hw_layer", out);
    let optional = onnc_nvdla_hw::registers::optional_params(op_name);
    for s in onnc_nvdla_hw::registers::specs(op_name)
        .iter()
        .chain(optional)
    {
        if let Kind::Int { min, max } = s.kind {
            check_int_range(op, s.name, min, max, out);
        }
    }
    match op_name {
        "conv" => check_conv(op, out),
        "sdp" => check_sdp(op, out),
        "pdp" => check_pdp(op, out),
        "cdp" => check_cdp(op, out),
        "rubik" => check_rubik(op, out),
        "bdma" => check_same_shape(op, out),
        "emu" => check_emu(op, out),
        "concat" => check_concat(op, out),
        "reshape" => check_reshape(op, out),
        "slice" => check_slice(op, out),
        _ => {}
    }
    super::nvdla_config::check(op_name, op, out);
}

fn check_concat(op: &OperationRef, out: &mut Vec<String>) {
    let Some(y) = ranked(result_dims(op, 0), 4, "output", out) else {
        return;
    };
    let axis = match int(op, "axis").unwrap_or(1) {
        a @ 1..=3 => a as usize,
        a => {
            out.push(format!(
                "axis {a} is not 1 (channels), 2 (rows) or 3 (columns)"
            ));
            return;
        }
    };
    let mut total = Some(0usize);
    for i in 0..op.operand_count() {
        let Some(x) = ranked(operand_dims(op, i), 4, "member", out) else {
            return;
        };
        if (0..4).any(|d| d != axis && x[d] != y[d]) {
            let which = match axis {
                1 => "N, H and W",
                2 => "N, C and W",
                _ => "N, C and H",
            };
            out.push(format!(
                "member {i} has shape {} but every member needs the output's {which} {}",
                dims_str(&x),
                dims_str(&y)
            ));
        }
        total = total.zip(x[axis]).map(|(a, b)| a + b);
    }
    if let (Some(t), Some(c)) = (total, y[axis]) {
        if t != c {
            let what = ["", "channels", "rows", "columns"][axis];
            out.push(format!(
                "output has {c} {what} but the members have {t} in all"
            ));
        }
    }
}

fn check_reshape(op: &OperationRef, out: &mut Vec<String>) {
    let count =
        |d: Option<Vec<Option<usize>>>| d?.into_iter().try_fold(1usize, |a, v| a.checked_mul(v?));
    if let (Some(a), Some(b)) = (count(operand_dims(op, 0)), count(result_dims(op, 0))) {
        if a != b {
            out.push(format!("output has {b} elements but the input has {a}"));
        }
    }
}

fn check_slice(op: &OperationRef, out: &mut Vec<String>) {
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y), Some(start)) = (x, y, int(op, "c_start")) else {
        return;
    };
    if start < 0 {
        return; // the register range (0..) reports it
    }
    if let (Some(cx), Some(cy)) = (x[1], y[1]) {
        if start as usize + cy > cx {
            out.push(format!(
                "channel window [{start}, {}) exceeds the input's {cx} channels",
                start as usize + cy
            ));
        }
    }
    if x[0] != y[0] || x[2] != y[2] || x[3] != y[3] {
        out.push(format!(
            "output {} must keep the input's N, H and W {}",
            dims_str(&y),
            dims_str(&x)
        ));
    }
}

fn check_conv(op: &OperationRef, out: &mut Vec<String>) {
    if let Some(f) = string(op, "data_format") {
        if f != "feature" && !IMAGE_FORMATS.contains(&f.as_str()) {
            out.push(format!("data_format \"{f}\" is neither \"feature\" nor an image format (\"t_r8g8b8a8\", ...)"));
        }
    }
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let w = ranked(operand_dims(op, 1), 4, "weight", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(w)) = (x, w) else { return };
    let g = int(op, "group").unwrap_or(1);
    if g >= 1 {
        let g = g as usize;
        if let (Some(c), Some(wc)) = (x[1], w[1]) {
            if wc.checked_mul(g) != Some(c) {
                let per = if g == 1 {
                    String::new()
                } else {
                    format!(" per group × {g} groups")
                };
                out.push(format!("weight has {wc} input channels{per} but the input has {c} (a grouped conv's weight is K x C/group x R x S)"));
            }
        }
        if let Some(k) = w[0] {
            if k % g != 0 {
                out.push(format!(
                    "weight has {k} kernels, not a multiple of group = {g}"
                ));
            }
        }
    }
    let Some(y) = y else { return };
    let e = conv_extent(
        op,
        x[2],
        w[2],
        ["pad_y_top", "pad_y_bottom", "dilation_y", "conv_stride_y"],
    );
    let f = conv_extent(
        op,
        x[3],
        w[3],
        ["pad_x_left", "pad_x_right", "dilation_x", "conv_stride_x"],
    );
    let expect = [x[0], w[0], e, f];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the convolution's {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

/// Output extent of the convolution along one axis (`None` when unknown).
fn conv_extent(
    op: &OperationRef,
    n: Option<usize>,
    k: Option<usize>,
    [p0, p1, dil, stride]: [&str; 4],
) -> Option<usize> {
    let (n, k) = (n? as i64, k? as i64);
    let span = (k - 1) * int(op, dil)? + 1;
    window_out(
        n,
        int(op, p0)? + int(op, p1)?,
        span,
        int(op, stride)?,
        false,
    )
    .map(|v| v as usize)
}

fn check_sdp(op: &OperationRef, out: &mut Vec<String>) {
    let lut_index = int(op, "lut_index").unwrap_or(-1);
    for (unit, _) in SUB_UNITS {
        if string(op, &format!("{unit}_op.act")).as_deref() == Some("lut") && lut_index < 0 {
            out.push(format!(
                "{unit}_op.act = \"lut\" needs a LUT but lut_index = {lut_index}"
            ));
        }
    }
    let input = operand_dims(op, 0);
    if let Some(segments) = operand_segments(op) {
        for (unit, seg) in SUB_UNITS {
            check_sdp_cube(
                op,
                unit,
                segment_operand(&segments, seg),
                input.as_deref(),
                out,
            );
        }
    }
    check_same_shape(op, out);
}

/// The operand cube of one SDP sub-unit against its enable/type/mode.
fn check_sdp_cube(
    op: &OperationRef,
    unit: &str,
    operand: Option<usize>,
    input: Option<&[Option<usize>]>,
    out: &mut Vec<String>,
) {
    let attr = |field: &str| format!("{unit}_op.{field}");
    let enabled = int(op, &attr("enable")) == Some(1);
    let ty = string(op, &attr("type")).unwrap_or_default();
    let mode = string(op, &attr("mode")).unwrap_or_default();
    let needs = enabled && ty != "none" && mode != "per_layer";
    match (needs, operand) {
        (true, None) => out.push(format!(
            "{unit} operand cube is missing: {unit}_op is enabled with type \"{ty}\" in {mode} mode"
        )),
        (false, Some(_)) => out.push(format!(
            "{unit} operand cube is given but {unit}_op does not read one (it needs enable = 1, type != \"none\" and mode != \"per_layer\")"
        )),
        // type "both" packs ALU and MUL operands into one cube; its layout is not documented.
        (true, Some(i)) if ty != "both" => check_cube_shape(op, unit, &mode, i, input, out),
        (true, Some(_)) => {}
        (false, None) => {}
    }
}

fn check_cube_shape(
    op: &OperationRef,
    unit: &str,
    mode: &str,
    i: usize,
    input: Option<&[Option<usize>]>,
    out: &mut Vec<String>,
) {
    let (Some(cube), Some(x)) = (operand_dims(op, i), input) else {
        return;
    };
    let ok = match mode {
        "per_kernel" => {
            let c = x.get(1).copied().flatten();
            let expect_1d = [c];
            let expect_4d = [Some(1), c, Some(1), Some(1)];
            dims_agree(&cube, &expect_1d) || dims_agree(&cube, &expect_4d)
        }
        _ => dims_agree(&cube, x),
    };
    if !ok {
        let need = match mode {
            "per_kernel" => format!(
                "one entry per channel ([C] or [1, C, 1, 1], C = {})",
                x.get(1)
                    .copied()
                    .flatten()
                    .map_or("?".into(), |c| c.to_string())
            ),
            _ => format!("the input's shape {}", dims_str(x)),
        };
        out.push(format!(
            "{unit} operand cube has shape {} but {mode} mode needs {need}",
            dims_str(&cube)
        ));
    }
}

fn check_pdp(op: &OperationRef, out: &mut Vec<String>) {
    let x = ranked(operand_dims(op, 0), 4, "input", out);
    let y = ranked(result_dims(op, 0), 4, "output", out);
    let (Some(x), Some(y)) = (x, y) else { return };
    let extent = |n: Option<usize>, [p0, p1, k, s]: [&str; 4]| -> Option<usize> {
        window_out(
            n? as i64,
            int(op, p0)? + int(op, p1)?,
            int(op, k)?,
            int(op, s)?,
            false,
        )
        .map(|v| v as usize)
    };
    let e = extent(x[2], ["pad_top", "pad_bottom", "pool_height", "stride_y"]);
    let f = extent(x[3], ["pad_left", "pad_right", "pool_width", "stride_x"]);
    let expect = [x[0], x[1], e, f];
    if !dims_agree(&y, &expect) {
        out.push(format!(
            "output shape {} does not match the pooling's {}",
            dims_str(&y),
            dims_str(&expect)
        ));
    }
}

fn check_cdp(op: &OperationRef, out: &mut Vec<String>) {
    if let (Some(a), Some(b)) = (string(op, "in_precision"), string(op, "out_precision")) {
        if a != b {
            out.push(format!(
                "in_precision \"{a}\" and out_precision \"{b}\" must be equal"
            ));
        }
    }
    let start = int(op, "lut_param.linear_only_start");
    let end = int(op, "lut_param.linear_only_end");
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            out.push(format!(
                "lut_param.linear_only_start = {s} exceeds lut_param.linear_only_end = {e}"
            ));
        }
    }
    for name in ["alpha", "beta", "bias"] {
        check_f32(op, name, out);
    }
    check_same_shape(op, out);
}

fn check_rubik(op: &OperationRef, out: &mut Vec<String>) {
    let contract = string(op, "mode").as_deref() == Some("contract");
    // The register range (1..8, every mode) is checked with the others; a
    // value inside it must still be 1 outside contract mode.
    for name in ["stride_x", "stride_y"] {
        if let Some(v) = int(op, name).filter(|&v| v != 1 && (1..=8).contains(&v)) {
            if !contract {
                out.push(format!("{name} = {v} must be 1 outside contract mode"));
            }
        }
    }
    if contract {
        let dims = |d: Option<Vec<Option<usize>>>| d?.into_iter().collect::<Option<Vec<usize>>>();
        let (sx, sy) = (int(op, "stride_x"), int(op, "stride_y"));
        let in_range = |v: &i64| (1..=8).contains(v);
        if let (Some(a), Some(b), Some(sx), Some(sy)) = (
            dims(operand_dims(op, 0)),
            dims(result_dims(op, 0)),
            sx.filter(in_range),
            sy.filter(in_range),
        ) {
            let (sx, sy) = (sx as usize, sy as usize);
            let ok = a.len() == 4
                && b.len() == 4
                && a[0] == b[0]
                && b[2] == a[2] * sy
                && b[3] == a[3] * sx
                && a[1] % (sx * sy) == 0
                && a[1] / (sx * sy) >= b[1];
            if !ok {
                out.push(format!(
                    "contract {sx}×{sy} of {a:?} cannot give {b:?} (the input holds {sx}·{sy} phases of at least the output's channels; H and W grow by the strides)"
                ));
            }
        }
        return;
    }
    let count =
        |d: Option<Vec<Option<usize>>>| d?.into_iter().try_fold(1usize, |a, v| a.checked_mul(v?));
    if let (Some(a), Some(b)) = (count(operand_dims(op, 0)), count(result_dims(op, 0))) {
        if a != b {
            out.push(format!(
                "output has {b} elements but the input has {a} (rubik only moves data)"
            ));
        }
    }
}

fn check_emu(op: &OperationRef, out: &mut Vec<String>) {
    for name in ["input_scale_factor", "output_scale_factor"] {
        check_f32(op, name, out);
        if let Some(v) = float(op, name).filter(|v| !(v.is_finite() && *v > 0.0)) {
            out.push(format!("{name} = {v} must be a finite value > 0"));
        }
    }
    match string(op, "op_type").as_deref() {
        Some("softmax") => check_softmax_axis(op, out),
        Some("power") => {
            for name in ["power", "scale", "shift"] {
                if float(op, name).is_none() {
                    out.push(format!("op_type \"power\" needs an f32 attribute '{name}'"));
                } else {
                    check_f32(op, name, out);
                }
            }
        }
        _ => {}
    }
    check_same_shape(op, out);
}

fn check_softmax_axis(op: &OperationRef, out: &mut Vec<String>) {
    match int(op, "axis") {
        None => out.push("op_type \"softmax\" needs an i64 attribute 'axis'".into()),
        Some(1) => {}
        Some(a) => out.push(format!(
            "axis = {a} must be 1 (the emulator's softmax runs over channels)"
        )),
    }
}
