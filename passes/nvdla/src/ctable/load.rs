//! `load`: override a program's calibration registers from a CTable JSON.
//!
//! In: a [`Program`], the JSON text and its file name (for messages). Out:
//! the program with every listed register set, and [`LoadStats`]; or every
//! problem at once ([`Error`]) and the program untouched.
//!
//! ```
//! use onnc_nvdla::{ctable, registers, ConfigName, Engine, Op, Program, Value};
//! let mut p = Program::new(ConfigName::NvFull);
//! p.ops.push(Op { engine: Engine::Emu, hw_layer: "prob".into(), attrs: registers::defaults(Engine::Emu),
//!                 inputs: vec![Some(0)], output: 1, onnx_nodes: vec![] });
//! let stats = ctable::load(&mut p, r#"{"prob.EMU": {"input_scale_factor": 0.5}}"#, "t.json").unwrap();
//! assert_eq!((stats.registers, stats.changed), (1, 1));
//! assert_eq!(p.ops[0].attrs["input_scale_factor"], Value::Float(0.5));
//! let err = ctable::load(&mut p, r#"{"prob.EMU": {"input_scale": 0.5}}"#, "t.json").unwrap_err();
//! assert!(err.to_string().contains("did you mean 'input_scale_factor'"));
//! ```

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::names::{block_specs, json_register_name, layer_keys, nearest};
use crate::program::{Program, Value};
use crate::registers::{self, Kind};
use crate::Error;

/// What a load did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadStats {
    /// Layer-block entries applied.
    pub layers: usize,
    /// Registers set (counting each op a shared key reaches).
    pub registers: usize,
    /// Registers whose value changed.
    pub changed: usize,
    /// Per-tensor `{scale, offset}` entries accepted and not stored.
    pub tensor_entries: usize,
    /// The `qinfo` strings found (empty if absent).
    pub qinfo: BTreeMap<String, String>,
    /// Per-tensor tables: entries naming no tensor of the program (tensors
    /// fusion removed), each with the nearest tensor name; print as a note.
    pub unmatched: Vec<String>,
    /// Per-tensor tables: what was read and not used (conflicting scales,
    /// asymmetric offsets folded, AMCT prune records, ...); print as notes.
    pub notes: Vec<String>,
}

/// One validated assignment.
struct Set {
    op: usize,
    name: &'static str,
    value: Value,
}

/// Overrides `p`'s registers with the CTable `json` (named `file` in messages).
pub fn load(p: &mut Program, json: &str, file: &str) -> Result<LoadStats, Error> {
    let root = parse(json, file)?;
    let Json::Object(entries) = root else {
        return Err(structure(
            file,
            "<top level>",
            "the table must be a JSON object",
        ));
    };
    let keys = layer_keys(p);
    let mut stats = LoadStats::default();
    let mut sets = Vec::new();
    let mut errors = Vec::new();
    for (key, body) in &entries {
        match key.as_str() {
            "version" => check_version(body, file).unwrap_or_else(|e| errors.push(e)),
            "qinfo" => match read_qinfo(body, file) {
                Ok(q) => stats.qinfo = q,
                Err(e) => errors.push(e),
            },
            _ => {
                let targets: Vec<(usize, &'static str)> = keys
                    .iter()
                    .filter(|(k, _, _)| k == key)
                    .map(|(_, i, b)| (*i, *b))
                    .collect();
                if !targets.is_empty() {
                    stats.layers += 1;
                    read_block(p, key, body, &targets, file, &mut sets, &mut errors);
                } else if is_tensor_entry(p, key, body) {
                    stats.tensor_entries += 1;
                } else {
                    let suggestions = nearest(key, keys.iter().map(|(k, _, _)| k.as_str()));
                    errors.push(Error::UnknownLayer {
                        file: file.into(),
                        key: clip(key),
                        suggestions,
                    });
                }
            }
        }
    }
    Error::collect(file, errors)?;
    for s in sets {
        let old = p.ops[s.op]
            .attrs
            .insert(s.name.to_string(), s.value.clone());
        stats.registers += 1;
        stats.changed += usize::from(old.as_ref() != Some(&s.value));
    }
    Ok(stats)
}

pub(crate) use super::json::parse;
use super::json::{clip, shown};

pub(crate) fn structure(file: &str, key: &str, message: impl Into<String>) -> Error {
    Error::Structure {
        file: file.into(),
        key: clip(key),
        message: message.into(),
    }
}

fn check_version(body: &Json, file: &str) -> Result<(), Error> {
    let field = |name: &str| body.get(name).and_then(Json::as_i64);
    match (field("major"), field("minor"), field("sub_minor")) {
        (Some(0), Some(_), Some(_)) => Ok(()),
        (Some(major), Some(_), Some(_)) => Err(structure(
            file,
            "version",
            format!("major version {major} is not supported (this reader knows 0.x)"),
        )),
        _ => Err(structure(
            file,
            "version",
            format!(
                "expected {{\"major\": 0, \"minor\": 1, \"sub_minor\": 0}}, got {}",
                shown(body)
            ),
        )),
    }
}

fn read_qinfo(body: &Json, file: &str) -> Result<BTreeMap<String, String>, Error> {
    let Json::Object(map) = body else {
        return Err(structure(
            file,
            "qinfo",
            format!("expected an object of strings, got {}", shown(body)),
        ));
    };
    map.iter()
        .map(|(k, v)| match v {
            Json::String(s) => Ok((k.clone(), s.clone())),
            other => Err(structure(
                file,
                "qinfo",
                format!("'{}' must be a string, got {}", clip(k), shown(other)),
            )),
        })
        .collect()
}

/// A per-tensor entry: a tensor's name with only numeric `scale`/`offset`.
fn is_tensor_entry(p: &Program, key: &str, body: &Json) -> bool {
    let Json::Object(map) = body else {
        return false;
    };
    p.tensors.iter().any(|t| t.name == key)
        && map
            .iter()
            .all(|(k, v)| matches!(k.as_str(), "scale" | "offset") && v.is_number())
}

fn read_block(
    p: &Program,
    key: &str,
    body: &Json,
    targets: &[(usize, &'static str)],
    file: &str,
    sets: &mut Vec<Set>,
    errors: &mut Vec<Error>,
) {
    let Json::Object(regs) = body else {
        errors.push(structure(
            file,
            key,
            format!("expected an object of registers, got {}", shown(body)),
        ));
        return;
    };
    for (register, json) in regs {
        for &(op, block) in targets {
            let engine = p.ops[op].engine;
            let Some(spec) =
                block_specs(engine, block).find(|s| json_register_name(engine, s) == *register)
            else {
                let valid: Vec<String> = block_specs(engine, block)
                    .map(|s| json_register_name(engine, s))
                    .collect();
                let suggestions = nearest(register, valid.iter().map(String::as_str));
                errors.push(Error::UnknownRegister {
                    file: file.into(),
                    key: clip(key),
                    register: clip(register),
                    suggestions,
                });
                break;
            };
            let wrong = |expected: &str| Error::WrongType {
                file: file.into(),
                key: clip(key),
                register: clip(register),
                expected: expected.into(),
                found: shown(json),
            };
            let value = match spec.kind {
                Kind::Int { .. } => match json.as_i64() {
                    Some(v) => Value::Int(v),
                    None => {
                        errors.push(wrong("a JSON integer"));
                        break;
                    }
                },
                Kind::Float => match json.as_f64() {
                    Some(v) => Value::Float(f64::from(v as f32)),
                    None => {
                        errors.push(wrong("a JSON number"));
                        break;
                    }
                },
                Kind::Enum(_) | Kind::Str => match json.as_str() {
                    Some(s) => Value::Str(s.to_string()),
                    None => {
                        errors.push(wrong("a JSON string"));
                        break;
                    }
                },
            };
            if let Err(message) = registers::check_spec(engine, spec, &value) {
                errors.push(Error::OutOfRange {
                    file: file.into(),
                    key: clip(key),
                    register: clip(register),
                    message: super::json::clip_to(&message, 5 * super::json::MAX_SHOWN),
                });
                break;
            }
            sets.push(Set {
                op,
                name: spec.name,
                value,
            });
        }
    }
}
