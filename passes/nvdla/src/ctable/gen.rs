//! `gen`: a program's calibration registers as a CTable JSON text.
//!
//! In: a [`Program`]. Out: pretty JSON (two-space indent, trailing newline):
//! `version`, `qinfo`, then one `"<hw_layer>.<BLOCK>"` object per op block in
//! op order (a key shared by two ops is written once, from the first), each
//! register in dialect order with the op's current value (the identity
//! default if the op lacks it).
//!
//! ```
//! use onnc_nvdla::{ctable, registers, ConfigName, Engine, Op, Program};
//! let mut p = Program::new(ConfigName::NvFull);
//! p.ops.push(Op { engine: Engine::Emu, hw_layer: "prob".into(), attrs: registers::defaults(Engine::Emu),
//!                 inputs: vec![Some(0)], output: 1, onnx_nodes: vec![] });
//! let json = ctable::gen(&p);
//! assert!(json.contains("\"prob.EMU\": {\n    \"input_scale_factor\": 1.0,"));
//! ```

use std::collections::BTreeSet;
use std::fmt::Write;

use super::names::{block_specs, json_register_name, layer_keys, QINFO_DEFAULTS};
use crate::program::{Program, Value};

/// The CTable JSON of `p`.
pub fn gen(p: &Program) -> String {
    let mut out = String::from("{\n");
    out.push_str(
        "  \"version\": {\n    \"major\": 0,\n    \"minor\": 1,\n    \"sub_minor\": 0\n  },\n",
    );
    out.push_str("  \"qinfo\": {\n");
    let qinfo: Vec<String> = QINFO_DEFAULTS
        .iter()
        .map(|(k, v)| format!("    {}: {}", quote(k), quote(v)))
        .collect();
    out.push_str(&qinfo.join(",\n"));
    out.push_str("\n  }");
    let mut seen = BTreeSet::new();
    for (key, i, block) in layer_keys(p) {
        if !seen.insert(key.clone()) {
            continue;
        }
        let op = &p.ops[i];
        let regs: Vec<String> = block_specs(op.engine, block)
            .map(|s| {
                let v = op
                    .attrs
                    .get(s.name)
                    .cloned()
                    .unwrap_or_else(|| Value::from(s.default));
                format!(
                    "    {}: {}",
                    quote(&json_register_name(op.engine, s)),
                    scalar(&v)
                )
            })
            .collect();
        let _ = write!(out, ",\n  {}: {{\n{}\n  }}", quote(&key), regs.join(",\n"));
    }
    out.push_str("\n}\n");
    out
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serializes")
}

/// A register value as JSON; floats as the shortest text of their `f32`.
fn scalar(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_finite() => {
            serde_json::to_string(&(*f as f32)).expect("finite f32 serializes")
        }
        Value::Float(_) => "null".to_string(),
        Value::Str(s) => quote(s),
    }
}
