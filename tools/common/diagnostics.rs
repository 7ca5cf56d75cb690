//! `--diagnostics-format text|json` and `--color auto|always|never`, the
//! same on every tool, and the one place a tool prints its failure.
//!
//! In: the parsed flags ([`DiagnosticArgs`], flattened into each tool's
//! clap command), messages in the engines' text forms or structured
//! [`onnc_diag::Diagnostic`]s. Out: the configured renderer on stderr
//! (`onnc_diag`: graph order is the caller's, grouping and the summary
//! are the renderer's; no colour into pipes or with `NO_COLOR`).

use clap::{Args, ValueEnum};
use onnc_diag::{ColorChoice, Diagnostic, Format};

/// How diagnostics are printed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DiagnosticsFormat {
    // `file: node 'X' (Op): error: what; fix: how`, repeated causes grouped, a summary.
    // (Plain comments: value docs would switch clap's --help to its long layout.)
    #[default]
    Text,
    // JSON Lines: one object per diagnostic, then a summary object (docs/debugging.md).
    Json,
}

/// When to colour diagnostics.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Color {
    // When stderr is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

/// The two flags every tool takes.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct DiagnosticArgs {
    /// How errors and warnings are printed: text, or JSON Lines for programs.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = DiagnosticsFormat::Text, global = true)]
    pub diagnostics_format: DiagnosticsFormat,
    /// Colour in diagnostics (auto: when stderr is a terminal and NO_COLOR is unset).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Color::Auto, global = true)]
    pub color: Color,
}

impl DiagnosticArgs {
    /// Makes these flags the process's diagnostic style.
    pub fn apply(self) {
        onnc_diag::configure(
            match self.diagnostics_format {
                DiagnosticsFormat::Text => Format::Text,
                DiagnosticsFormat::Json => Format::Json,
            },
            match self.color {
                Color::Auto => ColorChoice::Auto,
                Color::Always => ColorChoice::Always,
                Color::Never => ColorChoice::Never,
            },
        );
    }
}

/// A tool's failure: what to report and where it stopped.
#[derive(Debug, Default)]
pub struct Failure {
    /// Everything to report, in the order to report it.
    pub diagnostics: Vec<Diagnostic>,
    /// `stopped before emission`, `stopped in legalization`, or nothing.
    pub stopped: Option<String>,
}

impl Failure {
    /// Prints the failure (configured format) on stderr.
    pub fn emit(&self) {
        onnc_diag::emit(&self.diagnostics, self.stopped.as_deref());
    }

    /// The same failure, saying where the tool stopped.
    pub fn stopped(mut self, at: impl Into<String>) -> Failure {
        self.stopped = Some(at.into());
        self
    }

    /// Each diagnostic at a node and without a file gets `file`.
    pub fn in_file(mut self, file: &str) -> Failure {
        for d in &mut self.diagnostics {
            if d.file.is_none() && d.node.is_some() {
                d.file = Some(file.to_string());
            }
        }
        self
    }
}

impl From<Vec<String>> for Failure {
    /// Messages in the engines' text forms, parsed ([`onnc_diag::parse_all`]).
    fn from(messages: Vec<String>) -> Failure {
        Failure {
            diagnostics: messages
                .iter()
                .flat_map(|m| onnc_diag::parse_all(m))
                .collect(),
            stopped: None,
        }
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diagnostics: Vec<Diagnostic>) -> Failure {
        Failure {
            diagnostics,
            stopped: None,
        }
    }
}

/// Prints warnings and remarks (engine text forms) the way errors are printed.
pub fn emit_messages(messages: &[String], file: Option<&str>) {
    onnc_diag::emit_messages(messages, file, None);
}

/// Whether `args` ask for JSON diagnostics (looked up before clap parses,
/// so that a usage error is reported in the format asked for).
pub fn wants_json(args: &[String]) -> bool {
    args.iter().enumerate().any(|(i, a)| {
        a == "--diagnostics-format=json"
            || (a == "--diagnostics-format" && args.get(i + 1).is_some_and(|v| v == "json"))
    })
}

/// Prints a clap usage error as one JSON diagnostic (its first line,
/// without clap's `error: `, and clap's tip as a note). Only for errors
/// clap prints on stderr; help and `--version` are not diagnostics.
pub fn emit_clap_error_json(e: &clap::Error) {
    let text = e.render().to_string();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or_default();
    let mut d = Diagnostic::error(first.strip_prefix("error: ").unwrap_or(first));
    for l in lines {
        if let Some(tip) = l.trim().strip_prefix("tip: ") {
            d.notes.push(tip.to_string());
        }
    }
    onnc_diag::configure(Format::Json, ColorChoice::Never);
    onnc_diag::emit(&[d], None);
}
