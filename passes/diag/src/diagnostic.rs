//! The diagnostic value every onnc tool reports through.
//!
//! In: what went wrong, where (file, position, ONNX node and its op type,
//! or a byte span in a JSON file), what would fix it, notes. Out: a
//! [`Diagnostic`] that [`crate::text`] and [`crate::json`] render.
//!
//! ```
//! use onnc_diag::{Diagnostic, Severity};
//! let d = Diagnostic::error("needs 2 CBUF banks more than it has")
//!     .file("m.onnx")
//!     .node("conv1", "Conv")
//!     .fix("split the layer");
//! assert_eq!(d.severity, Severity::Error);
//! assert_eq!(d.op.as_deref(), Some("Conv"));
//! ```

use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Extra information attached to, or following, another diagnostic.
    Note,
    /// Informational.
    Remark,
    /// Suspicious but allowed.
    Warning,
    /// The input is wrong; the tool fails.
    Error,
}

impl Severity {
    /// The word printed before the message (`error`, `warning`, ...).
    pub fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Remark => "remark",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A byte range of the offending text in `file` (e.g. a key of a JSON
/// calibration table), with the line it is on for display.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// First byte (0-based).
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The whole source line holding `start` (without its newline).
    #[serde(skip)]
    pub line_text: String,
}

/// One problem (or warning, note, remark) with everything known about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Diagnostic {
    /// How bad.
    pub severity: Severity,
    /// The file the problem is in (the model, a calibration table...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line in `file` (0: unknown).
    #[serde(skip_serializing_if = "is_zero")]
    pub line: usize,
    /// 1-based column in `file` (0: unknown).
    #[serde(skip_serializing_if = "is_zero")]
    pub col: usize,
    /// The ONNX node (or merged nodes `a+b`) at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The node's op type (`Conv`, `onnc.ChannelShuffle`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<String>,
    /// What is wrong, without location, severity or fix.
    pub message: String,
    /// What would fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Further lines of explanation, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The offending bytes in `file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// The graph input or output the problem is about, when it is about
    /// the model's boundary (set where the engine raises it, e.g. "writes
    /// the graph output 'q' as tokens"): a caller that changed the
    /// model's inputs or outputs (`onnc compile`'s one round, which cuts
    /// refused nodes out) tells from it which problems judge the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Diagnostic {
    /// A diagnostic of `severity` saying `message`, located nowhere yet.
    pub fn new(severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            file: None,
            line: 0,
            col: 0,
            node: None,
            op: None,
            message: message.into(),
            fix: None,
            notes: Vec::new(),
            span: None,
            value: None,
        }
    }

    /// An error.
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, message)
    }

    /// A warning.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, message)
    }

    /// In `file`.
    pub fn file(mut self, file: impl Into<String>) -> Diagnostic {
        self.file = Some(file.into());
        self
    }

    /// At node `name` of op type `op`.
    pub fn node(mut self, name: impl Into<String>, op: impl Into<String>) -> Diagnostic {
        self.node = Some(name.into());
        self.op = Some(op.into()).filter(|o: &String| !o.is_empty());
        self
    }

    /// With what would fix it.
    pub fn fix(mut self, fix: impl Into<String>) -> Diagnostic {
        self.fix = Some(fix.into()).filter(|f: &String| !f.is_empty());
        self
    }

    /// About the graph input or output `value` (see [`Diagnostic::value`]).
    pub fn value(mut self, value: impl Into<String>) -> Diagnostic {
        self.value = Some(value.into());
        self
    }

    /// With one more note.
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// At bytes `start..end` of `source` (the text of `file`): sets the
    /// line and column of `start` and keeps its line for display. A range
    /// beyond the text is clamped to it.
    pub fn span(mut self, source: &str, start: usize, end: usize) -> Diagnostic {
        let start = floor_char(source, start.min(source.len()));
        let end = end.clamp(start, source.len());
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        self.line = source[..start].matches('\n').count() + 1;
        self.col = source[line_start..start].chars().count() + 1;
        self.span = Some(Span {
            start,
            end,
            line_text: source[line_start..line_end]
                .trim_end_matches('\r')
                .to_string(),
        });
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The largest char boundary of `s` at or before `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_gives_line_column_and_the_line() {
        let src = "{\n  \"conv1\": 0.5,\n  \"bad\": -1\n}\n";
        let start = src.find("\"bad\"").unwrap();
        let d = Diagnostic::error("x").span(src, start, start + 5);
        assert_eq!((d.line, d.col), (3, 3));
        let s = d.span.unwrap();
        assert_eq!(s.line_text, "  \"bad\": -1");
        assert_eq!((s.start, s.end), (start, start + 5));
    }

    #[test]
    fn a_span_past_the_end_is_clamped() {
        let d = Diagnostic::error("x").span("ab", 7, 9);
        assert_eq!(d.span.unwrap().start, 2);
        assert_eq!((d.line, d.col), (1, 3));
    }
}
