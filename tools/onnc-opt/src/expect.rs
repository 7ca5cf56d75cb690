//! `--verify-diagnostics`: check emitted diagnostics against the
//! `expected-*` comments of the source, as mlir-opt does.
//!
//! Directives: `// expected-error {{text}}` (same line), `@+N`, `@-N`,
//! `@above`, `@below`; also `expected-warning`, `expected-remark`,
//! `expected-note`. A diagnostic matches when severity and line agree and
//! its message contains `text`. Every expected diagnostic must be produced
//! and every produced one must be expected (notes included).
//!
//! In: chunk text, file name, captured diagnostics. Out: the list of
//! mismatches, each already formatted as an error line.

use onnc_dialects::ir::{Diag, Severity};
use regex::Regex;
use std::sync::OnceLock;

/// One `expected-*` directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// Severity asked for.
    pub severity: Severity,
    /// 1-based line the diagnostic must be on.
    pub line: usize,
    /// Line of the directive itself (for reporting).
    pub at: usize,
    /// Substring the message must contain.
    pub text: String,
}

fn directive() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"expected-(error|warning|remark|note)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}",
        )
        .unwrap_or_else(|e| unreachable!("directive regex is valid: {e}"))
    })
}

/// Reads the directives of `text` (line numbers are those of `text`).
/// Malformed line offsets are reported as errors.
pub fn parse_expected(text: &str, file: &str) -> Result<Vec<Expected>, Vec<String>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = i + 1;
        for cap in directive().captures_iter(line) {
            let severity = match &cap[1] {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "remark" => Severity::Remark,
                _ => Severity::Note,
            };
            let target = match cap.get(2).map(|m| m.as_str()) {
                None => Some(at),
                Some("@above") => at.checked_sub(1),
                Some("@below") => Some(at + 1),
                Some(off) => off[1..]
                    .parse::<i64>()
                    .ok()
                    .and_then(|d| usize::try_from(at as i64 + d).ok())
                    .filter(|l| *l > 0),
            };
            match target {
                Some(line) => out.push(Expected {
                    severity,
                    line,
                    at,
                    text: cap[3].to_string(),
                }),
                None => errors.push(format!(
                    "{file}:{at}: error: expected-{} points before the first line",
                    &cap[1]
                )),
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Flattens diagnostics and their notes into one list.
fn flatten(diags: &[Diag]) -> Vec<&Diag> {
    let mut out = Vec::new();
    for d in diags {
        out.push(d);
        out.extend(flatten(&d.notes));
    }
    out
}

/// Compares what was emitted with what was expected; returns the mismatches.
pub fn check(expected: &[Expected], diags: &[Diag], file: &str) -> Vec<String> {
    let mut used = vec![false; expected.len()];
    let mut errors = Vec::new();
    for d in flatten(diags) {
        let on_this_file = d.loc.file.as_deref() == Some(file);
        let hit = expected.iter().enumerate().position(|(i, e)| {
            !used[i]
                && on_this_file
                && e.severity == d.severity
                && e.line == d.loc.line
                && d.message.contains(&e.text)
        });
        match hit {
            Some(i) => used[i] = true,
            None => {
                let where_ = if d.loc.is_unknown() {
                    "<unknown location>".to_string()
                } else {
                    d.loc.to_string()
                };
                errors.push(format!(
                    "{where_}: error: unexpected {}: {}",
                    d.severity.word(),
                    d.message
                ));
            }
        }
    }
    for (e, was_used) in expected.iter().zip(used) {
        if !was_used {
            errors.push(format!(
                "{file}:{}: error: expected {} \"{}\" was not produced (expected on line {})",
                e.at,
                e.severity.word(),
                e.text,
                e.line
            ));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_dialects::ir::Loc;

    fn diag(sev: Severity, line: usize, msg: &str) -> Diag {
        Diag {
            severity: sev,
            loc: Loc {
                file: Some("f.mlir".into()),
                line,
                col: 1,
                name: None,
            },
            message: msg.into(),
            notes: vec![],
        }
    }

    #[test]
    fn offsets_resolve() {
        let src = "a // expected-error {{x}}\n// expected-error @+1 {{y}}\nb\n// expected-warning@-2 {{z}}\n// expected-note @above {{n}}\n";
        let e = parse_expected(src, "f.mlir").unwrap();
        let lines: Vec<(usize, &str)> = e.iter().map(|e| (e.line, e.text.as_str())).collect();
        assert_eq!(lines, vec![(1, "x"), (3, "y"), (2, "z"), (4, "n")]);
    }

    #[test]
    fn matches_by_line_severity_and_substring() {
        let e = parse_expected("\n// expected-error @+1 {{bad thing}}\nop\n", "f.mlir").unwrap();
        assert!(check(
            &e,
            &[diag(Severity::Error, 3, "a bad thing happened")],
            "f.mlir"
        )
        .is_empty());
        let errs = check(
            &e,
            &[diag(Severity::Error, 2, "a bad thing happened")],
            "f.mlir",
        );
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs[0].contains("unexpected error"));
        assert!(errs[1].contains("was not produced"));
        let errs = check(
            &e,
            &[diag(Severity::Warning, 3, "a bad thing happened")],
            "f.mlir",
        );
        assert_eq!(errs.len(), 2);
    }

    #[test]
    fn offset_before_file_start_is_an_error() {
        assert!(parse_expected("// expected-error @-3 {{x}}", "f.mlir").is_err());
    }
}
