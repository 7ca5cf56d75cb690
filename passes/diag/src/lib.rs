//! onnc's diagnostics: one [`Diagnostic`] type for every tool and target,
//! and one renderer.
//!
//! In: diagnostics made by the tools ([`Diagnostic::error`] and its
//! builders) or read from the engines' and MLIR's text ([`parse`]). Out:
//! text (`file: node 'X' (Op): error: what; fix: how`, repeated causes
//! grouped, a closing summary, colour per [`ColorChoice`]) or JSON Lines
//! ([`json`]), written to standard error by [`emit`] in the format the
//! tool was started with ([`configure`]).
//!
//! ```
//! use onnc_diag::{text, Diagnostic};
//! let d = |n: &str| Diagnostic::error("cannot run on nv_small").file("m.onnx").node(n, "Add");
//! let out = text::render(&[d("a1"), d("a2")], Some("stopped before emission"), false);
//! assert_eq!(out, "m.onnx: 2 × Add, e.g. 'a1': error: cannot run on nv_small\n\
//!                  note: also at 'a2'\n\
//!                  error: 2 problems; stopped before emission\n");
//! ```

mod color;
mod diagnostic;
mod group;
pub mod json;
mod order;
mod parse;
pub mod text;

pub use color::ColorChoice;
pub use diagnostic::{Diagnostic, Severity, Span};
pub use group::{group, Item};
pub use order::graph_order;
pub use parse::{parse, parse_all};

use std::sync::OnceLock;

/// `--diagnostics-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Lines for people.
    #[default]
    Text,
    /// JSON Lines for programs ([`json`]).
    Json,
}

/// How this process prints diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Config {
    /// Text or JSON.
    pub format: Format,
    /// Whether text is coloured (already resolved).
    pub color: bool,
}

static CONFIG: OnceLock<Config> = OnceLock::new();

/// Sets how [`emit`] prints, once per process (later calls are ignored):
/// `color` is resolved against standard error and `NO_COLOR`.
pub fn configure(format: Format, color: ColorChoice) {
    let _ = CONFIG.set(Config {
        format,
        color: color.for_stderr(),
    });
}

/// The configuration [`configure`] set (text, no colour if it was not called).
pub fn config() -> Config {
    CONFIG.get().copied().unwrap_or_default()
}

/// `diags` (and the summary, naming where the tool `stopped`) in the
/// configured format.
pub fn render(diags: &[Diagnostic], stopped: Option<&str>) -> String {
    let c = config();
    match c.format {
        Format::Text => text::render(diags, stopped, c.color),
        Format::Json => json::render(diags, stopped),
    }
}

/// Prints [`render`] to standard error (write errors are ignored: there is
/// nowhere left to report them).
pub fn emit(diags: &[Diagnostic], stopped: Option<&str>) {
    use std::io::Write;
    let text = render(diags, stopped);
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// [`emit`] of messages in the engines' text forms ([`parse`]d), each
/// without a file given one (`file`).
pub fn emit_messages(messages: &[String], file: Option<&str>, stopped: Option<&str>) {
    let diags: Vec<Diagnostic> = messages
        .iter()
        .flat_map(|m| parse_all(m))
        .map(|mut d| {
            if d.file.is_none() && d.node.is_some() {
                d.file = file.map(str::to_string);
            }
            d
        })
        .collect();
    emit(&diags, stopped);
}
