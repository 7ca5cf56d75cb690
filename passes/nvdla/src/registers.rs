//! The register table: every attribute of every `nvdla` dialect op, with its
//! kind, range, identity default and CTable block.
//!
//! In: an [`Engine`] and attribute names/values. Out: [`RegSpec`]s, default
//! attribute maps ([`defaults`]) and range diagnostics ([`check_value`],
//! [`check_op`]). Sources: `dialects/nvdla.irdl.mlir` (names, enumerations,
//! ranges in the doc blocks) and ONNC's calibration-table documentation
//! (register tables and ranges). The unit tests check the names against the
//! IRDL file, so the two cannot drift apart.
//!
//! ```
//! use onnc_nvdla::registers::{self, Kind};
//! use onnc_nvdla::{Engine, Value};
//! let s = registers::spec(Engine::Sdp, "out_cvt.truncate").unwrap();
//! assert!(matches!(s.kind, Kind::Int { min: 0, max: 63 }));
//! assert_eq!(s.ctable_block, Some("SDP"));
//! assert_eq!(registers::defaults(Engine::Sdp)["out_cvt.scale"], Value::Int(1));
//! let err = registers::check_value(Engine::Sdp, "out_cvt.truncate", &Value::Int(64)).unwrap_err();
//! assert!(err.contains("out_cvt.truncate") && err.contains("0..=63") && err.contains("64"));
//! ```
//!
//! `nvdla.emu` also carries per-`op_type` parameters the IRDL file does not
//! declare (softmax `axis`; power `power`, `scale`, `shift`); they are in
//! [`emu_params`], not in [`specs`], and [`check_op`] requires them; so do
//! an `nvdla.sdp` op's LUT function parameters ([`sdp_params`]).

use std::collections::BTreeMap;

use crate::program::{Engine, Op, Value};

/// What values an attribute takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max` ([`Value::Int`]).
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of these strings ([`Value::Str`]).
    Enum(&'static [&'static str]),
    /// A float parameter ([`Value::Float`]).
    Float,
    /// Any string ([`Value::Str`]).
    Str,
}

/// The value an attribute gets before calibration: the identity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    /// Integer.
    Int(i64),
    /// String (enumerations: their "off" value).
    Str(&'static str),
    /// Float.
    Float(f64),
}

impl Default {
    /// As an attribute value.
    pub fn to_value(self) -> Value {
        match self {
            Default::Int(v) => Value::Int(v),
            Default::Str(s) => Value::Str(s.to_string()),
            Default::Float(v) => Value::Float(v),
        }
    }
}

/// One attribute of one dialect op.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegSpec {
    /// The dialect attribute name (`in_cvt.scale`).
    pub name: &'static str,
    /// Its values.
    pub kind: Kind,
    /// Its identity value.
    pub default: Default,
    /// The CTable block (`CONV`, `SDP`, `CDP`, `LUT`, `EMU`), or `None` for a
    /// non-calibration parameter.
    pub ctable_block: Option<&'static str>,
}

const I16: (i64, i64) = (i16::MIN as i64, i16::MAX as i64);
const I32: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);
const PRECISIONS: &[&str] = &["int8", "int16", "fp16"];

const fn int(
    name: &'static str,
    range: (i64, i64),
    default: i64,
    block: Option<&'static str>,
) -> RegSpec {
    RegSpec {
        name,
        kind: Kind::Int {
            min: range.0,
            max: range.1,
        },
        default: Default::Int(default),
        ctable_block: block,
    }
}

const fn enumeration(
    name: &'static str,
    values: &'static [&'static str],
    default: &'static str,
) -> RegSpec {
    RegSpec {
        name,
        kind: Kind::Enum(values),
        default: Default::Str(default),
        ctable_block: None,
    }
}

const fn float(name: &'static str, default: f64, block: Option<&'static str>) -> RegSpec {
    RegSpec {
        name,
        kind: Kind::Float,
        default: Default::Float(default),
        ctable_block: block,
    }
}

const CONV: Option<&str> = Some("CONV");
const SDP: Option<&str> = Some("SDP");
const CDP: Option<&str> = Some("CDP");
const LUT: Option<&str> = Some("LUT");
const EMU: Option<&str> = Some("EMU");

static CONV_SPECS: &[RegSpec] = &[
    enumeration("conv_mode", &["direct", "winograd"], "direct"),
    RegSpec {
        name: "data_format",
        kind: Kind::Str,
        default: Default::Str("feature"),
        ctable_block: None,
    },
    enumeration("in_precision", PRECISIONS, "int8"),
    enumeration("out_precision", PRECISIONS, "int8"),
    int("conv_stride_x", (1, 8), 1, None),
    int("conv_stride_y", (1, 8), 1, None),
    int("pad_x_left", (0, 31), 0, None),
    int("pad_x_right", (0, 31), 0, None),
    int("pad_y_top", (0, 31), 0, None),
    int("pad_y_bottom", (0, 31), 0, None),
    int("dilation_x", (1, 32), 1, None),
    int("dilation_y", (1, 32), 1, None),
    int("pad_val", I16, 0, None),
    int("in_cvt.enable", (0, 1), 0, CONV),
    int("in_cvt.scale", I16, 1, CONV),
    int("in_cvt.truncate", (0, 63), 0, CONV),
    int("in_cvt.offset", I16, 0, CONV),
    int("mean_ry", (0, 65535), 0, CONV),
    int("mean_gu", (0, 65535), 0, CONV),
    int("mean_bv", (0, 65535), 0, CONV),
    int("mean_ax", (0, 65535), 0, CONV),
    int("mean_format", (0, 1), 0, CONV),
    int("out_cvt.truncate", (0, 16), 0, CONV),
];

/// The ten attributes of one SDP sub-unit; `$cal` is the CTable block of
/// `shift_value`/`truncate` (X1 and X2 are calibrated, Y is not).
macro_rules! sdp_sub_unit {
    ($p:literal, $cal:expr) => {
        [
            int(concat!($p, ".enable"), (0, 1), 0, None),
            enumeration(
                concat!($p, ".alu_type"),
                &["max", "min", "sum", "eql"],
                "sum",
            ),
            enumeration(
                concat!($p, ".type"),
                &["none", "mul", "add", "both"],
                "none",
            ),
            enumeration(
                concat!($p, ".mode"),
                &["per_layer", "per_kernel", "per_point"],
                "per_layer",
            ),
            enumeration(
                concat!($p, ".act"),
                &["none", "relu", "lut", "prelu"],
                "none",
            ),
            int(concat!($p, ".shift_value"), (0, 63), 0, $cal),
            int(concat!($p, ".truncate"), (0, 63), 0, $cal),
            enumeration(concat!($p, ".precision"), PRECISIONS, "int8"),
            int(concat!($p, ".alu_operand"), I32, 0, None),
            int(concat!($p, ".mul_operand"), I32, 1, None),
        ]
    };
}

const SDP_X1: [RegSpec; 10] = sdp_sub_unit!("x1_op", SDP);
const SDP_X2: [RegSpec; 10] = sdp_sub_unit!("x2_op", SDP);
const SDP_Y: [RegSpec; 10] = sdp_sub_unit!("y_op", None);

static SDP_SPECS: &[RegSpec] = &[
    enumeration("src_precision", PRECISIONS, "int8"),
    enumeration("dst_precision", PRECISIONS, "int8"),
    int("lut_index", (-1, 255), -1, None),
    SDP_X1[0],
    SDP_X1[1],
    SDP_X1[2],
    SDP_X1[3],
    SDP_X1[4],
    SDP_X1[5],
    SDP_X1[6],
    SDP_X1[7],
    SDP_X1[8],
    SDP_X1[9],
    SDP_X2[0],
    SDP_X2[1],
    SDP_X2[2],
    SDP_X2[3],
    SDP_X2[4],
    SDP_X2[5],
    SDP_X2[6],
    SDP_X2[7],
    SDP_X2[8],
    SDP_X2[9],
    SDP_Y[0],
    SDP_Y[1],
    SDP_Y[2],
    SDP_Y[3],
    SDP_Y[4],
    SDP_Y[5],
    SDP_Y[6],
    SDP_Y[7],
    SDP_Y[8],
    SDP_Y[9],
    int("y_op.cvt.alu_cvt.enable", (0, 1), 0, SDP),
    int("y_op.cvt.alu_cvt.offset", I16, 0, SDP),
    int("y_op.cvt.alu_cvt.scale", I16, 1, SDP),
    int("y_op.cvt.alu_cvt.truncate", (0, 63), 0, SDP),
    int("y_op.cvt.mul_cvt.enable", (0, 1), 0, SDP),
    int("y_op.cvt.mul_cvt.offset", I16, 0, SDP),
    int("y_op.cvt.mul_cvt.scale", I16, 1, SDP),
    int("y_op.cvt.mul_cvt.truncate", (0, 63), 0, SDP),
    int("out_cvt.offset", I32, 0, SDP),
    int("out_cvt.scale", I16, 1, SDP),
    int("out_cvt.truncate", (0, 63), 0, SDP),
];

static PDP_SPECS: &[RegSpec] = &[
    enumeration("precision", PRECISIONS, "int8"),
    enumeration("pool_mode", &["avg", "max", "min"], "max"),
    int("pool_width", (1, 8), 1, None),
    int("pool_height", (1, 8), 1, None),
    int("stride_x", (1, 8), 1, None),
    int("stride_y", (1, 8), 1, None),
    int("pad_left", (0, 7), 0, None),
    int("pad_right", (0, 7), 0, None),
    int("pad_top", (0, 7), 0, None),
    int("pad_bottom", (0, 7), 0, None),
];

/// `local_size` is further restricted to 3, 5, 7 or 9 by [`check_value`].
static CDP_SPECS: &[RegSpec] = &[
    enumeration("in_precision", PRECISIONS, "int8"),
    enumeration("out_precision", PRECISIONS, "int8"),
    int("local_size", (3, 9), 5, None),
    int("bypass_sqsum", (0, 1), 0, None),
    int("bypass_out_mul", (0, 1), 0, None),
    float("alpha", 1e-4, None),
    float("beta", 0.75, None),
    float("bias", 1.0, None),
    int("in_cvt.offset", (-128, 127), 0, CDP),
    int("in_cvt.scale", I16, 1, CDP),
    int("in_cvt.truncate", (0, 31), 0, CDP),
    int("out_cvt.offset", (-(1 << 24), (1 << 24) - 1), 0, CDP),
    int("out_cvt.scale", I16, 1, CDP),
    int("out_cvt.truncate", (0, 63), 0, CDP),
    int("lut_index", (0, 255), 0, CDP),
    int(
        "lut_param.linear_exp_offset.exp_offset",
        (-128, 127),
        0,
        LUT,
    ),
    int(
        "lut_param.linear_only_offset.frac_bits",
        (-128, 127),
        0,
        LUT,
    ),
    int("lut_param.linear_only_start", (0, (1 << 38) - 1), 0, LUT),
    int("lut_param.linear_only_end", (0, (1 << 38) - 1), 0, LUT),
];

static RUBIK_SPECS: &[RegSpec] = &[
    enumeration("precision", PRECISIONS, "int8"),
    enumeration("mode", &["contract", "split", "merge"], "contract"),
    int("stride_x", (1, 8), 1, None),
    int("stride_y", (1, 8), 1, None),
];

static BDMA_SPECS: &[RegSpec] = &[
    enumeration("source_type", &["mc", "cv"], "mc"),
    enumeration("destination_type", &["mc", "cv"], "mc"),
];

static EMU_SPECS: &[RegSpec] = &[
    enumeration("op_type", &["softmax", "power", "log"], "softmax"),
    enumeration("precision", &["int8", "fp16"], "int8"),
    float("input_scale_factor", 1.0, EMU),
    float("output_scale_factor", 1.0, EMU),
];

static CONCAT_SPECS: &[RegSpec] = &[int("axis", (1, 3), 1, None)];
static SLICE_SPECS: &[RegSpec] = &[int("c_start", (0, i64::MAX), 0, None)];

static EMU_SOFTMAX: &[RegSpec] = &[int("axis", (1, 1), 1, None)];
static EMU_POWER: &[RegSpec] = &[
    float("power", 1.0, None),
    float("scale", 1.0, None),
    float("shift", 0.0, None),
];

/// Every attribute of `engine`'s op except `hw_layer`, in the IRDL file's order.
pub fn specs(engine: Engine) -> &'static [RegSpec] {
    match engine {
        Engine::Conv => CONV_SPECS,
        Engine::Sdp => SDP_SPECS,
        Engine::Pdp => PDP_SPECS,
        Engine::Cdp => CDP_SPECS,
        Engine::Rubik => RUBIK_SPECS,
        Engine::Bdma => BDMA_SPECS,
        Engine::Emu => EMU_SPECS,
        Engine::Concat => CONCAT_SPECS,
        Engine::Reshape => &[],
        Engine::Slice => SLICE_SPECS,
    }
}

/// The function of an `nvdla.sdp` op's lookup table (undeclared in the
/// IRDL file; required when `y_op.act = "lut"`, see [`sdp_params`]).
static SDP_LUT: &[RegSpec] = &[
    enumeration("lut_fn", &crate::emit::lut_fn::LutFn::NAMES, "sigmoid"),
    float("lut_alpha", 0.0, None),
    float("lut_beta", 0.0, None),
];

/// The undeclared parameters an `nvdla.sdp` op whose Y unit's activation
/// is `y_act` requires: the LUT function (`lut_fn`, `lut_alpha`,
/// `lut_beta`; [`crate::emit::lut_fn`]) when it is `"lut"`.
pub fn sdp_params(y_act: &str) -> &'static [RegSpec] {
    if y_act == "lut" {
        SDP_LUT
    } else {
        &[]
    }
}

/// The undeclared parameters an `nvdla.emu` op of `op_type` requires.
pub fn emu_params(op_type: &str) -> &'static [RegSpec] {
    match op_type {
        "softmax" => EMU_SOFTMAX,
        "power" => EMU_POWER,
        _ => &[],
    }
}

/// The attribute `name` of `engine`'s op.
pub fn spec(engine: Engine, name: &str) -> Option<&'static RegSpec> {
    specs(engine).iter().find(|s| s.name == name)
}

/// Every attribute of `engine` at its identity value (scales 1, shifts,
/// truncates, offsets and enables 0, enumerations their "off" value).
pub fn defaults(engine: Engine) -> BTreeMap<String, Value> {
    specs(engine)
        .iter()
        .map(|s| (s.name.to_string(), s.default.to_value()))
        .collect()
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Str(_) => "a string",
    }
}

/// Checks `v` against a spec; the message names the attribute, the range and the value.
pub fn check_spec(engine: Engine, s: &RegSpec, v: &Value) -> Result<(), String> {
    let op = engine.op_name();
    let name = s.name;
    match (s.kind, v) {
        (Kind::Int { min, max }, Value::Int(x)) => {
            if *x < min || *x > max {
                return Err(format!(
                    "nvdla.{op} attribute '{name}' = {x} is outside its range {min}..={max}"
                ));
            }
            if engine == Engine::Cdp && name == "local_size" && x % 2 == 0 {
                return Err(format!(
                    "nvdla.{op} attribute '{name}' = {x} must be 3, 5, 7 or 9"
                ));
            }
            Ok(())
        }
        (Kind::Enum(values), Value::Str(x)) => {
            if values.contains(&x.as_str()) {
                Ok(())
            } else {
                Err(format!(
                    "nvdla.{op} attribute '{name}' = \"{x}\" is not one of {}",
                    values.join(" | ")
                ))
            }
        }
        (Kind::Float, Value::Float(x)) => {
            if x.is_finite() {
                Ok(())
            } else {
                Err(format!(
                    "nvdla.{op} attribute '{name}' = {x} must be a finite float"
                ))
            }
        }
        (Kind::Str, Value::Str(_)) => Ok(()),
        (kind, _) => {
            let want = match kind {
                Kind::Int { min, max } => format!("an integer in {min}..={max}"),
                Kind::Enum(values) => format!("one of {}", values.join(" | ")),
                Kind::Float => "a float".to_string(),
                Kind::Str => "a string".to_string(),
            };
            Err(format!(
                "nvdla.{op} attribute '{name}' must be {want}, got {} ({v})",
                kind_name(v)
            ))
        }
    }
}

/// Checks one attribute value of `engine`'s op; the message names the
/// attribute, its range and the value.
pub fn check_value(engine: Engine, name: &str, v: &Value) -> Result<(), String> {
    match spec(engine, name) {
        Some(s) => check_spec(engine, s, v),
        None => Err(format!(
            "nvdla.{} has no attribute '{name}'",
            engine.op_name()
        )),
    }
}

/// Every problem with `op`'s attributes: missing, unknown, out of range or of
/// the wrong kind, in attribute-name order (empty when the op is valid).
pub fn check_op(op: &Op) -> Vec<String> {
    let engine = op.engine;
    let layer = &op.hw_layer;
    let mut all: Vec<&'static RegSpec> = specs(engine).iter().collect();
    if engine == Engine::Emu {
        if let Some(t) = op.str("op_type") {
            all.extend(emu_params(t));
        }
    }
    if engine == Engine::Sdp {
        all.extend(sdp_params(op.str("y_op.act").unwrap_or_default()));
    }
    let mut errors = Vec::new();
    let mut sorted = all.clone();
    sorted.sort_by_key(|s| s.name);
    for s in sorted {
        match op.attrs.get(s.name) {
            None => errors.push(format!(
                "layer '{layer}': nvdla.{engine} is missing attribute '{}'",
                s.name
            )),
            Some(v) => {
                if let Err(e) = check_spec(engine, s, v) {
                    errors.push(format!("layer '{layer}': {e}"));
                }
            }
        }
    }
    for (name, v) in &op.attrs {
        if crate::qrecord::is_quant_attr(name) {
            // The quantization record (`crate::qrecord`), not a register.
            if let Err(e) = crate::qrecord::check(name, v) {
                errors.push(format!("layer '{layer}': {e}"));
            }
        } else if !all.iter().any(|s| s.name == name) {
            errors.push(format!(
                "layer '{layer}': nvdla.{engine} has no attribute '{name}'"
            ));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(op, attribute names)` of every `irdl.operation` in the IRDL text.
    fn irdl_attributes(text: &str) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        let mut current: Option<(String, Vec<String>)> = None;
        let mut in_attrs = false;
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("irdl.operation @") {
                let name = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                current = Some((name, Vec::new()));
            } else if line.starts_with("irdl.attributes {") {
                in_attrs = true;
            } else if in_attrs && line.starts_with('}') {
                in_attrs = false;
                out.extend(current.take());
            } else if in_attrs {
                let name = line
                    .split('"')
                    .nth(1)
                    .expect("attribute line has a quoted name");
                current
                    .as_mut()
                    .expect("attributes inside an operation")
                    .1
                    .push(name.to_string());
            }
        }
        out
    }

    #[test]
    fn names_equal_the_irdl_attributes_minus_hw_layer() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../dialects/nvdla.irdl.mlir"
        );
        let text = std::fs::read_to_string(path).expect("dialects/nvdla.irdl.mlir is readable");
        let ops = irdl_attributes(&text);
        assert!(ops.len() >= 7, "parsed {} ops", ops.len());
        for (op, names) in ops {
            let engine =
                Engine::from_op_name(&op).unwrap_or_else(|| panic!("no engine for nvdla.{op}"));
            let expected: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|n| *n != "hw_layer")
                .collect();
            let table: Vec<&str> = specs(engine).iter().map(|s| s.name).collect();
            assert_eq!(table, expected, "nvdla.{op}");
        }
    }

    #[test]
    fn defaults_pass_their_own_checks() {
        for engine in Engine::ALL {
            for s in specs(engine) {
                check_spec(engine, s, &s.default.to_value()).unwrap();
            }
        }
    }

    #[test]
    fn calibration_blocks_match_the_engine() {
        for engine in Engine::ALL {
            for s in specs(engine) {
                if let Some(b) = s.ctable_block {
                    assert!(engine.ctable_blocks().contains(&b), "{engine} {}", s.name);
                }
            }
        }
        let sdp: Vec<_> = SDP_SPECS
            .iter()
            .filter(|s| s.ctable_block.is_some())
            .map(|s| s.name)
            .collect();
        assert_eq!(sdp.len(), 4 + 8 + 3);
        assert!(!sdp.contains(&"y_op.truncate"));
    }

    #[test]
    fn check_value_reports_range_kind_and_unknown() {
        let e = check_value(Engine::Conv, "out_cvt.truncate", &Value::Int(17)).unwrap_err();
        assert!(
            e.contains("'out_cvt.truncate' = 17") && e.contains("0..=16"),
            "{e}"
        );
        let e = check_value(Engine::Sdp, "x1_op.mode", &Value::Str("per_row".into())).unwrap_err();
        assert!(e.contains("per_layer | per_kernel | per_point"), "{e}");
        let e = check_value(Engine::Cdp, "alpha", &Value::Int(1)).unwrap_err();
        assert!(e.contains("must be a float, got an integer"), "{e}");
        assert!(check_value(Engine::Cdp, "local_size", &Value::Int(4))
            .unwrap_err()
            .contains("3, 5, 7 or 9"));
        assert!(check_value(Engine::Pdp, "pool_size", &Value::Int(1))
            .unwrap_err()
            .contains("no attribute"));
        assert!(check_value(
            Engine::Cdp,
            "lut_param.linear_only_end",
            &Value::Int((1 << 38) - 1)
        )
        .is_ok());
    }

    #[test]
    fn check_op_finds_missing_unknown_and_bad_values() {
        let mut op = Op {
            engine: Engine::Emu,
            hw_layer: "prob".into(),
            attrs: defaults(Engine::Emu),
            inputs: vec![Some(0)],
            output: 1,
            onnx_nodes: vec![],
        };
        assert_eq!(
            check_op(&op),
            vec!["layer 'prob': nvdla.emu is missing attribute 'axis'".to_string()]
        );
        op.attrs.insert("axis".into(), Value::Int(1));
        assert!(check_op(&op).is_empty());
        op.attrs.insert("bogus".into(), Value::Int(1));
        op.attrs
            .insert("precision".into(), Value::Str("int16".into()));
        let errors = check_op(&op);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("precision") && errors[1].contains("'bogus'"));
    }
}
