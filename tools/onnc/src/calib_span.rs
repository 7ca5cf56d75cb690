//! Pointing calibration-table errors at the bytes that cause them.
//!
//! In: a failure of the calibration stage and the JSON tables the user
//! gave (`--load-ctable`, `--load-calibtable`, `--load-calib`). Out: the
//! same failure where each diagnostic about one of those files is located
//! in it: the file as its location (not inside the message), and the
//! span of the offending key — the first `'name'` the message quotes that
//! is a key of the file — or of the position a JSON parse error gives
//! (`at line 3 column 5`). The renderer then prints the line with `^^^`
//! under the key, and JSON output carries the byte range.
//!
//! ```text
//! badcal.json:1:2: error: the table has no scale for 8 tensors ...; 1 table entry names no tensor of this program: 'c9'
//!   {"c9": {"scale": 0.1}}
//!    ^^^^
//! ```

use crate::common::diagnostics::Failure;
use onnc_diag::Diagnostic;
use std::path::PathBuf;

/// `failure` with its diagnostics located in `tables` (see the module).
pub fn locate(mut failure: Failure, tables: &[&PathBuf]) -> Failure {
    for table in tables {
        let path = table.display().to_string();
        let Ok(source) = std::fs::read_to_string(table) else {
            continue;
        };
        for d in &mut failure.diagnostics {
            locate_one(d, &path, &source);
        }
    }
    failure
}

/// Locates `d` in the table `path` (text `source`) if its message names it.
fn locate_one(d: &mut Diagnostic, path: &str, source: &str) {
    let Some(at) = d.message.find(&format!("{path}:")) else {
        return;
    };
    let rest = &d.message[at + path.len() + 1..];
    // `path:L:C: message` (a parse error) or `path: message`.
    let (position, message) = match rest.split_once(": ") {
        Some((lc, m)) if lc.split(':').all(|n| n.parse::<usize>().is_ok()) => {
            let mut n = lc.split(':').map(|n| n.parse::<usize>().unwrap_or(0));
            (Some((n.next().unwrap_or(1), n.next().unwrap_or(1))), m)
        }
        _ => (None, rest.trim_start()),
    };
    let message = message.to_string();
    d.message = message;
    d.file = Some(path.to_string());
    let span = match position {
        Some((line, col)) => offset_of(source, line, col).map(|o| (o, o + 1)),
        None => key_span(&d.message, source),
    };
    let taken = std::mem::replace(d, Diagnostic::error(""));
    *d = match span {
        Some((start, end)) => taken.span(source, start, end),
        None => taken,
    };
}

/// The byte offset of 1-based `line` and `col` (column 0 is read as 1).
fn offset_of(source: &str, line: usize, col: usize) -> Option<usize> {
    let start: usize = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start <= source.len()).then(|| (start + col.saturating_sub(1)).min(source.len()))
}

/// The span of `"name"` for the first `'name'` in `message` that is a key
/// of the JSON text `source` (a quoted string followed by a colon).
fn key_span(message: &str, source: &str) -> Option<(usize, usize)> {
    message
        .split('\'')
        .skip(1)
        .step_by(2)
        .find_map(|name| key_in(source, name))
}

fn key_in(source: &str, name: &str) -> Option<(usize, usize)> {
    let quoted = format!("\"{name}\"");
    let mut from = 0;
    while let Some(i) = source[from..].find(&quoted) {
        let start = from + i;
        let end = start + quoted.len();
        if source[end..].trim_start().starts_with(':') {
            return Some((start, end));
        }
        from = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_key_gets_its_span() {
        let src = "{\"x\": 1, \"c9\": {\"scale\": 0.1}}";
        let mut d =
            Diagnostic::error("nvdla-load-ctable: t.json: no scale for 'x1', 'c9' and 'scale'");
        locate_one(&mut d, "t.json", src);
        assert_eq!(d.file.as_deref(), Some("t.json"));
        assert_eq!(d.message, "no scale for 'x1', 'c9' and 'scale'");
        let s = d.span.unwrap();
        assert_eq!(&src[s.start..s.end], "\"c9\"");
        assert_eq!((d.line, d.col), (1, 10));
    }

    #[test]
    fn a_parse_error_position_becomes_the_span() {
        let src = "{\n  \"a\": ,\n}";
        let mut d = Diagnostic::error("t.json:2:8: malformed JSON: expected value");
        locate_one(&mut d, "t.json", src);
        assert_eq!((d.line, d.col), (2, 8));
        assert_eq!(d.message, "malformed JSON: expected value");
    }

    #[test]
    fn other_files_are_left_alone() {
        let mut d = Diagnostic::error("m.onnx: bad");
        locate_one(&mut d, "t.json", "{}");
        assert_eq!((d.file, d.message.as_str()), (None, "m.onnx: bad"));
    }
}
