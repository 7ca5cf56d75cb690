//! Names of enumerated descriptor fields, for dumps.
//!
//! In: a struct's C name, a field name and the field's value. Out: the
//! `dla_interface.h` name of that value (`FP16`, `MAX`, `PER_KERNEL`, …), or
//! a decoded meaning (`kernel 2` for `POOL_SIZE_2`).

/// The name of `value` for `field` of struct `c_name`, if it is enumerated.
pub fn annotate(c_name: &str, field: &str, value: i64) -> Option<String> {
    let pick = |names: &[&str]| {
        usize::try_from(value)
            .ok()
            .and_then(|i| names.get(i))
            .map(|s| (*s).to_string())
    };
    const PRECISION: &[&str] = &["INT8", "INT16", "FP16"];
    match (c_name, field) {
        (_, "in_precision" | "out_precision" | "src_precision" | "dst_precision" | "precision") => {
            pick(PRECISION)
        }
        ("dla_common_op_desc", "op_type") => pick(&["BDMA", "CONV", "SDP", "PDP", "CDP", "RUBIK"]),
        ("dla_conv_op_desc", "conv_mode") => pick(&["DIRECT", "WINOGRAD"]),
        ("dla_conv_op_desc", "weight_format") => pick(&["UNCOMPRESSED", "COMPRESSED"]),
        ("dla_conv_op_desc", "pixel_override") => pick(&["UINT", "INT"]),
        ("dla_conv_op_desc", "data_format") => match value {
            36 => Some("FEATURE".into()),
            0..=35 => Some(format!("FORMAT_T_{value}")),
            _ => None,
        },
        ("dla_sdp_op", "alu_type") => pick(&["MAX", "MIN", "SUM", "EQL"]),
        ("dla_sdp_op", "op_type") => pick(&["NONE", "MUL", "ADD", "BOTH"]),
        ("dla_sdp_op", "mode") => pick(&["PER_LAYER", "PER_KERNEL", "PER_POINT"]),
        ("dla_sdp_op", "act") => pick(&["NONE", "RELU", "LUT", "PRELU"]),
        ("dla_pdp_op_desc", "pool_mode") => pick(&["AVG", "MAX", "MIN"]),
        ("dla_pdp_op_desc", "pool_width" | "pool_height") => Some(format!("kernel {}", value + 1)),
        ("dla_rubik_op_desc", "mode") => pick(&["CONTRACT", "SPLIT", "MERGE"]),
        ("dla_bdma_surface_desc", "source_type" | "destination_type") => pick(&["MC", "CV", "HW"]),
        ("dla_lut_param", "method") => pick(&["EXPONENTIAL", "LINEAR"]),
        ("dla_lut_param", "hybrid_priority" | "underflow_priority" | "overflow_priority") => {
            pick(&["LINEAR_EXP", "LINEAR_ONLY"])
        }
        _ => None,
    }
}
