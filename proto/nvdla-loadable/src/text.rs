//! Indented text output shared by the dumper and the descriptor printers.
//!
//! In: `key: value` lines and nesting. Out: a `String` with two-space
//! indentation per level.

use std::fmt::Display;

/// An indented text buffer.
#[derive(Debug, Default)]
pub struct Out {
    buf: String,
    indent: usize,
}

impl Out {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes one line at the current indentation.
    pub fn line(&mut self, text: impl Display) {
        for _ in 0..self.indent {
            self.buf.push_str("  ");
        }
        self.buf.push_str(&text.to_string());
        self.buf.push('\n');
    }

    /// Writes `key: value`.
    pub fn kv(&mut self, key: &str, value: impl Display) {
        self.line(format_args!("{key}: {value}"));
    }

    /// Writes `title` and runs `f` one level deeper.
    pub fn nest(&mut self, title: impl Display, f: impl FnOnce(&mut Out)) {
        self.line(title);
        self.indent += 1;
        f(self);
        self.indent -= 1;
    }

    /// The text written so far.
    pub fn finish(self) -> String {
        self.buf
    }
}
