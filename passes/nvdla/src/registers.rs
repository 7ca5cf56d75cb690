//! The register table of the `nvdla` dialect (written once, in
//! `onnc_nvdla_hw::registers`, which the dialect's verifier reads too) seen
//! from the back end: by [`Engine`], with [`Value`]s.
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
//! `nvdla.conv` may carry `group` ([`optional_params`]): checked when
//! present, 1 when absent.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use crate::program::{Engine, Op, Value};
pub use onnc_nvdla_hw::registers::{emu_params, optional_params, Default, Kind, RegSpec};
use onnc_nvdla_hw::registers::{enumeration, float};

impl From<Default> for Value {
    /// The identity value as an attribute value.
    fn from(d: Default) -> Value {
        match d {
            Default::Int(v) => Value::Int(v),
            Default::Str(s) => Value::Str(s.to_string()),
            Default::Float(v) => Value::Float(v),
        }
    }
}

/// Every attribute of `engine`'s op except `hw_layer`, in the IRDL file's order.
pub fn specs(engine: Engine) -> &'static [RegSpec] {
    onnc_nvdla_hw::registers::specs(engine.op_name())
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

/// The attribute `name` of `engine`'s op.
pub fn spec(engine: Engine, name: &str) -> Option<&'static RegSpec> {
    specs(engine).iter().find(|s| s.name == name)
}

/// The attribute name `parts` joined by dots (`["x1_op", "cvt", "alu_cvt",
/// "scale"]` → `x1_op.cvt.alu_cvt.scale`). Built by hand, not `format!`:
/// lowering and emission name a few dozen registers of every op this way.
pub fn attr_key(parts: &[&str]) -> String {
    let mut key = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            key.push('.');
        }
        key.push_str(p);
    }
    key
}

/// Every attribute of `engine` at its identity value (scales 1, shifts,
/// truncates, offsets and enables 0, enumerations their "off" value).
pub fn defaults(engine: Engine) -> BTreeMap<String, Value> {
    // Built once per engine and cloned: collecting the specs into a map
    // sorted them again for every op the lowering made.
    static CACHE: std::sync::OnceLock<BTreeMap<Engine, BTreeMap<String, Value>>> =
        std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        Engine::ALL
            .iter()
            .map(|&e| (e, build_defaults(e)))
            .collect()
    });
    match cache.get(&engine) {
        Some(m) => m.clone(),
        None => build_defaults(engine),
    }
}

fn build_defaults(engine: Engine) -> BTreeMap<String, Value> {
    specs(engine)
        .iter()
        .map(|s| (s.name.to_string(), Value::from(s.default)))
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
    let optional = || {
        optional_params(engine.op_name())
            .iter()
            .find(|s| s.name == name)
    };
    match spec(engine, name).or_else(optional) {
        Some(s) => check_spec(engine, s, v),
        None => Err(format!(
            "nvdla.{} has no attribute '{name}'",
            engine.op_name()
        )),
    }
}

/// The register specs of `engine` plus `extra` (an EMU op's or a LUT's
/// parameters), sorted by name. Sorted once per combination (a handful) and
/// kept: sorting them again for every op was a tenth of a big graph's
/// emission.
fn sorted_specs(engine: Engine, extra: &'static [RegSpec]) -> Vec<&'static RegSpec> {
    type Key = (Engine, usize, usize);
    static SORTED: OnceLock<Mutex<HashMap<Key, Vec<&'static RegSpec>>>> = OnceLock::new();
    let key = (engine, extra.as_ptr() as usize, extra.len());
    let cache = SORTED.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    map.entry(key)
        .or_insert_with(|| {
            let mut all: Vec<&'static RegSpec> = specs(engine).iter().chain(extra).collect();
            all.sort_by_key(|s| s.name);
            all
        })
        .clone()
}

/// Every problem with `op`'s attributes: missing, unknown, out of range or of
/// the wrong kind, in attribute-name order (empty when the op is valid).
pub fn check_op(op: &Op) -> Vec<String> {
    let engine = op.engine;
    let layer = &op.hw_layer;
    let extra: &'static [RegSpec] = match engine {
        Engine::Emu => op.str("op_type").map_or(&[], emu_params),
        Engine::Sdp => sdp_params(op.str("y_op.act").unwrap_or_default()),
        _ => &[],
    };
    let sorted = sorted_specs(engine, extra);
    let mut errors = Vec::new();
    // Specs and attributes (a B-tree) are both in name order: each spec's
    // attribute is found by walking the two together, not looked up.
    let mut attrs = op.attrs.iter().peekable();
    for s in &sorted {
        while attrs.next_if(|(k, _)| k.as_str() < s.name).is_some() {}
        let value = attrs
            .peek()
            .filter(|(k, _)| k.as_str() == s.name)
            .map(|(_, v)| *v);
        match value {
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
    // The same walk finds the names no register spec has.
    let mut next = sorted.iter().map(|s| s.name).peekable();
    for (name, v) in &op.attrs {
        while next.next_if(|s| *s < name.as_str()).is_some() {}
        let known = next.peek() == Some(&name.as_str());
        let optional = optional_params(engine.op_name())
            .iter()
            .find(|s| s.name == name);
        if let Some(s) = optional.filter(|_| !known) {
            if let Err(e) = check_spec(engine, s, v) {
                errors.push(format!("layer '{layer}': {e}"));
            }
        } else if crate::qrecord::is_quant_attr(name) {
            // The quantization record (`crate::qrecord`), not a register.
            if let Err(e) = crate::qrecord::check(name, v) {
                errors.push(format!("layer '{layer}': {e}"));
            }
        } else if !known {
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
            for s in optional_params(&op) {
                assert!(
                    text.contains(&format!("//   {} (optional)", s.name)),
                    "nvdla.{op}: the doc block documents optional attribute '{}'",
                    s.name
                );
            }
        }
    }

    #[test]
    fn defaults_pass_their_own_checks() {
        for engine in Engine::ALL {
            for s in specs(engine) {
                check_spec(engine, s, &Value::from(s.default)).unwrap();
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
        let sdp: Vec<_> = specs(Engine::Sdp)
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

    #[test]
    fn conv_group_is_optional_and_checked_when_present() {
        let mut op = Op {
            engine: Engine::Conv,
            hw_layer: "dw".into(),
            attrs: defaults(Engine::Conv),
            inputs: vec![Some(0), Some(1)],
            output: 2,
            onnx_nodes: vec![],
        };
        assert!(
            !op.attrs.contains_key("group"),
            "dense convs carry no group"
        );
        assert!(check_op(&op).is_empty());
        op.attrs.insert("group".into(), Value::Int(32));
        assert!(check_op(&op).is_empty());
        op.attrs.insert("group".into(), Value::Int(0));
        let errors = check_op(&op);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("'group' = 0") && errors[0].contains("1..="));
        assert!(check_value(Engine::Conv, "group", &Value::Int(4)).is_ok());
        assert!(check_value(Engine::Sdp, "group", &Value::Int(4)).is_err());
    }
}
