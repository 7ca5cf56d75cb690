//! The register table of the `nvdla` dialect: every attribute of every op,
//! with its kind, range, identity default and CTable block — written once.
//!
//! In: a dialect op name (`conv`, `sdp`, `pdp`, `cdp`, `rubik`, `bdma`, `emu`,
//! `concat`, `reshape`, `slice`). Out: its [`RegSpec`]s in the IRDL file's
//! attribute order (without `hw_layer`). Both the dialect's verifier
//! (`onnc-dialects`, the ranges of `nvdla.*` ops in MLIR) and the back end
//! (`onnc-nvdla::registers`: defaults, checks of the in-memory program,
//! calibration-table names) read this table, so a register's range is stated
//! in one place. Sources: `dialects/nvdla.irdl.mlir` (names, enumerations,
//! ranges in the op doc blocks; a unit test in `onnc-nvdla` holds the names to
//! the IRDL file) and ONNC's calibration-table documentation (register
//! tables and ranges).
//!
//! ```
//! use onnc_nvdla_hw::registers::{self, Kind};
//! let s = registers::spec("sdp", "out_cvt.truncate").unwrap();
//! assert!(matches!(s.kind, Kind::Int { min: 0, max: 63 }));
//! assert_eq!(s.ctable_block, Some("SDP"));
//! assert!(registers::specs("reshape").is_empty());
//! ```

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
/// The datapath precisions an op's precision attributes take.
pub const PRECISIONS: &[&str] = &["int8", "int16", "fp16"];

pub const fn int(
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

pub const fn enumeration(
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

pub const fn float(name: &'static str, default: f64, block: Option<&'static str>) -> RegSpec {
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

/// Every attribute of dialect op `op` (`"conv"`, without the `nvdla.`
/// prefix) except `hw_layer`, in the IRDL file's order; empty for an op
/// without registers or an unknown name.
pub fn specs(op: &str) -> &'static [RegSpec] {
    match op {
        "conv" => CONV_SPECS,
        "sdp" => SDP_SPECS,
        "pdp" => PDP_SPECS,
        "cdp" => CDP_SPECS,
        "rubik" => RUBIK_SPECS,
        "bdma" => BDMA_SPECS,
        "emu" => EMU_SPECS,
        "concat" => CONCAT_SPECS,
        "slice" => SLICE_SPECS,
        _ => &[],
    }
}

/// The attribute `name` of dialect op `op`.
pub fn spec(op: &str, name: &str) -> Option<&'static RegSpec> {
    specs(op).iter().find(|s| s.name == name)
}

/// `nvdla.conv`'s group count: `G` groups of `K/G` kernels, each reading
/// its own `C/G` input channels from a `[K, C/G, R, S]` weight. Optional
/// (absent means 1, a dense conv), so not declared in the IRDL file, whose
/// attributes are all required.
static CONV_OPTIONAL: &[RegSpec] = &[int("group", (1, i64::MAX), 1, None)];

/// The attributes dialect op `op` may carry but does not require (the IRDL
/// file does not declare them; absent, each means its default): `group` of
/// `nvdla.conv`. Empty for every other op.
pub fn optional_params(op: &str) -> &'static [RegSpec] {
    match op {
        "conv" => CONV_OPTIONAL,
        _ => &[],
    }
}

/// The parameters an `nvdla.emu` op of `op_type` requires that the IRDL
/// file does not declare (softmax `axis`; power `power`, `scale`, `shift`).
pub fn emu_params(op_type: &str) -> &'static [RegSpec] {
    match op_type {
        "softmax" => EMU_SOFTMAX,
        "power" => EMU_POWER,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_integer_default_lies_in_its_range_and_enum_defaults_are_members() {
        for op in [
            "conv", "sdp", "pdp", "cdp", "rubik", "bdma", "emu", "concat", "slice",
        ] {
            assert!(!specs(op).is_empty(), "{op}");
            for s in specs(op) {
                match (s.kind, s.default) {
                    (Kind::Int { min, max }, Default::Int(v)) => {
                        assert!(min <= v && v <= max, "{op}.{}", s.name)
                    }
                    (Kind::Enum(values), Default::Str(v)) => {
                        assert!(values.contains(&v), "{op}.{}", s.name)
                    }
                    (Kind::Float, Default::Float(v)) => assert!(v.is_finite()),
                    (Kind::Str, Default::Str(_)) => {}
                    (k, d) => panic!("{op}.{}: kind {k:?} with default {d:?}", s.name),
                }
            }
        }
    }

    #[test]
    fn names_are_unique_per_op() {
        for op in [
            "conv", "sdp", "pdp", "cdp", "rubik", "bdma", "emu", "concat", "slice",
        ] {
            let mut names: Vec<_> = specs(op).iter().map(|s| s.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), specs(op).len(), "{op}");
        }
        assert!(spec("pdp", "pool_size").is_none());
        assert!(spec("conv", "group").is_none(), "group is optional");
        assert_eq!(optional_params("conv")[0].name, "group");
        assert!(optional_params("sdp").is_empty());
        assert_eq!(emu_params("power").len(), 3);
    }
}
