//! The JSON form (`--diagnostics-format json`): JSON Lines on standard
//! error, one object per diagnostic, then one summary object when the
//! run failed. Schema version 1:
//!
//! ```text
//! {"kind":"diagnostic","version":1,"severity":"error","file":"m.onnx",
//!  "node":"c1","op":"Conv","message":"...","fix":"...","notes":[...],
//!  "line":3,"col":5,"span":{"start":10,"end":15},"value":"q"}
//! {"kind":"summary","version":1,"errors":35,"warnings":0,"stopped":"stopped before emission"}
//! ```
//! `value` names the graph input or output a problem is about (see
//! [`Diagnostic::value`]). Absent fields are omitted; diagnostics are never grouped here (each
//! node has its own object), in the order given.

use crate::{Diagnostic, Severity};
use serde::Serialize;

/// The schema version written in every object.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Line<'a> {
    kind: &'static str,
    version: u32,
    #[serde(flatten)]
    diagnostic: &'a Diagnostic,
}

#[derive(Serialize)]
struct Summary<'a> {
    kind: &'static str,
    version: u32,
    errors: usize,
    warnings: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'a str>,
}

/// The JSON Lines of `diags`, and the summary when any is an error.
pub fn render(diags: &[Diagnostic], stopped: Option<&str>) -> String {
    let mut out = String::new();
    for d in diags {
        let line = Line {
            kind: "diagnostic",
            version: VERSION,
            diagnostic: d,
        };
        out.push_str(&serde_json::to_string(&line).expect("plain data serializes"));
        out.push('\n');
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        let s = Summary {
            kind: "summary",
            version: VERSION,
            errors,
            warnings: diags
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .count(),
            stopped,
        };
        out.push_str(&serde_json::to_string(&s).expect("plain data serializes"));
        out.push('\n');
    }
    out
}
