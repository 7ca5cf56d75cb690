//! The text form: one line per diagnostic (or per group of repeated
//! causes), in the order given, then a closing summary.
//!
//! In: diagnostics in graph order, where the tool stopped, whether to
//! colour. Out: lines like
//! `m.onnx: node 'c1' (Conv): error: what; fix: how`,
//! `m.onnx: 8 × Add, e.g. '/l1/Add': error: what` (with a note naming the
//! others), and `error: 35 problems; stopped before emission`.

use crate::{
    group::{group, Item},
    Diagnostic, Severity,
};
use std::fmt::Write;

/// How many other node names a group's note lists before "and N more".
const LISTED: usize = 10;

/// How many characters of a source line a span shows.
const SHOWN: usize = 120;

/// ANSI styles, or nothing when colour is off.
struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn severity(&self, s: Severity) -> String {
        let code = match s {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Note => "1;36",
            Severity::Remark => "1;34",
        };
        self.wrap(code, &format!("{}:", s.word()))
    }
    fn bold(&self, text: &str) -> String {
        self.wrap("1", text)
    }
}

/// The text of `diags` and the summary (`stopped` says where the tool
/// stopped, e.g. `stopped before emission`).
pub fn render(diags: &[Diagnostic], stopped: Option<&str>, color: bool) -> String {
    let p = Paint(color);
    let mut out = String::new();
    for item in group(diags) {
        match item {
            Item::One(d) => {
                let mut head = file_loc(d);
                if let Some(node) = &d.node {
                    let _ = write!(head, "node {}", p.bold(&format!("'{node}'")));
                    if let Some(op) = &d.op {
                        let _ = write!(head, " ({op})");
                    }
                    head.push_str(": ");
                }
                line(&mut out, &p, d, &head, &[]);
            }
            Item::Group { first, others } => {
                let op = first.op.as_deref().unwrap_or_default();
                let node = first.node.as_deref().unwrap_or_default();
                let head = format!(
                    "{}{} × {op}, e.g. {}: ",
                    file_loc(first),
                    others.len() + 1,
                    p.bold(&format!("'{node}'"))
                );
                let mut names: Vec<String> = others
                    .iter()
                    .take(LISTED)
                    .map(|n| format!("'{n}'"))
                    .collect();
                if others.len() > LISTED {
                    names.push(format!("and {} more", others.len() - LISTED));
                }
                line(
                    &mut out,
                    &p,
                    first,
                    &head,
                    &[format!("also at {}", names.join(", "))],
                );
            }
        }
    }
    if let Some(s) = summary(diags, stopped) {
        let _ = writeln!(out, "{} {s}", p.severity(Severity::Error));
    }
    out
}

/// `file:line:col: `, `file: ` or nothing.
fn file_loc(d: &Diagnostic) -> String {
    match (&d.file, d.line) {
        (Some(f), 0) => format!("{f}: "),
        (Some(f), l) => format!("{f}:{l}:{}: ", d.col),
        (None, _) => String::new(),
    }
}

/// One diagnostic: head, severity, message, fix; its span; its notes.
fn line(out: &mut String, p: &Paint, d: &Diagnostic, head: &str, extra: &[String]) {
    let _ = write!(out, "{head}{}", p.severity(d.severity));
    if !d.message.is_empty() {
        let _ = write!(out, " {}", d.message);
    }
    if let Some(fix) = &d.fix {
        let _ = write!(out, "; {} {fix}", p.wrap("32", "fix:"));
    }
    out.push('\n');
    if let Some(span) = &d.span {
        let (shown, col) = window(&span.line_text, d.col.saturating_sub(1));
        let width = shown.chars().skip(col).count();
        let carets = (span.end - span.start).clamp(1, width.max(1));
        let _ = writeln!(out, "  {shown}");
        let _ = writeln!(
            out,
            "  {}{}",
            " ".repeat(col),
            p.wrap("1;32", &"^".repeat(carets))
        );
    }
    for n in d.notes.iter().chain(extra) {
        match crate::parse::marker(n) {
            // Located notes (`f.mlir:3:4: note: ...`) print as MLIR prints them.
            Some((at, Severity::Note, len)) if at > 0 => {
                let _ = writeln!(
                    out,
                    "{}{}{}",
                    &n[..at],
                    p.severity(Severity::Note),
                    &n[at + len..]
                );
            }
            _ => {
                let _ = writeln!(out, "{} {n}", p.severity(Severity::Note));
            }
        }
    }
}

/// At most [`SHOWN`] characters of `line` around character `col` (a
/// one-line JSON file can be megabytes), `…` marking what is cut; and
/// `col` within what is shown.
fn window(line: &str, col: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= SHOWN {
        return (line.to_string(), col);
    }
    let start = col.saturating_sub(SHOWN / 3).min(chars.len() - SHOWN);
    let end = start + SHOWN;
    let mut shown: String = chars[start..end].iter().collect();
    let mut col = col - start;
    if start > 0 {
        shown.insert(0, '…');
        col += 1;
    }
    if end < chars.len() {
        shown.push('…');
    }
    (shown, col)
}

/// `35 problems, 2 warnings; stopped before emission` when there are two
/// errors or more, or one and a stage to name; `None` otherwise.
pub fn summary(diags: &[Diagnostic], stopped: Option<&str>) -> Option<String> {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    if errors == 0 || (errors == 1 && stopped.is_none()) {
        return None;
    }
    let mut s = format!("{errors} problem{}", plural(errors));
    if warnings > 0 {
        let _ = write!(s, ", {warnings} warning{}", plural(warnings));
    }
    if let Some(stop) = stopped {
        let _ = write!(s, "; {stop}");
    }
    Some(s)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
