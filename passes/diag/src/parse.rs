//! Reading the text diagnostics onnc's engines and MLIR produce into
//! [`Diagnostic`]s, so that every message reaches the one renderer.
//!
//! In: one message as the engines print it, e.g.
//! `m.onnx: node 'c1': error: onnx.Conv 'c1': too wide; fix: split it`,
//! `f.mlir:2:3: error: ...`, `node 'up' : error: 'Resize' cannot run on nnie: ...`,
//! `error: ...`; continuation lines holding a note (`note: ...`, or
//! `<loc>: note: ...`, kept as printed) become notes, other continuation
//! lines stay in the message. [`parse_all`] splits a text holding several
//! diagnostics. Out: the
//! diagnostic with file, line, column, node, op type, message and fix
//! separated. A line with no severity word is an error saying that line.
//!
//! ```
//! let d = onnc_diag::parse("node 'c1': error: onnx.Conv 'c1': too wide; fix: split it");
//! assert_eq!(d.node.as_deref(), Some("c1"));
//! assert_eq!(d.op.as_deref(), Some("Conv"));
//! assert_eq!(d.message, "too wide");
//! assert_eq!(d.fix.as_deref(), Some("split it"));
//! ```

use crate::{Diagnostic, Severity};

const WORDS: [(&str, Severity); 4] = [
    ("error:", Severity::Error),
    ("warning:", Severity::Warning),
    ("note:", Severity::Note),
    ("remark:", Severity::Remark),
];

/// Parses one message (possibly several lines) into a diagnostic.
pub fn parse(text: &str) -> Diagnostic {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut d = parse_line(first);
    for line in lines {
        match marker(line) {
            Some((0, Severity::Note, len)) => d.notes.push(line[len..].trim_start().to_string()),
            // A located note (`f.mlir:3:4: note: ...`) is kept as printed.
            Some((_, Severity::Note, _)) => d.notes.push(line.to_string()),
            _ => {
                d.message.push('\n');
                d.message.push_str(line);
            }
        }
    }
    d
}

/// Every diagnostic of `text`: a line that starts (without indentation)
/// with an error, warning or remark, located or not, begins a new one.
pub fn parse_all(text: &str) -> Vec<Diagnostic> {
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let begins = !line.starts_with(char::is_whitespace)
            && matches!(marker(line.trim_end()), Some((_, s, _)) if s != Severity::Note);
        if begins || starts.is_empty() {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| parse(text[w[0]..w[1]].trim_end_matches('\n')))
        .collect()
}

/// The first severity word that starts the line or follows `": "`:
/// its byte position, severity and length.
pub(crate) fn marker(line: &str) -> Option<(usize, Severity, usize)> {
    let mut best: Option<(usize, Severity, usize)> = None;
    for (word, sev) in WORDS {
        let mut from = 0;
        while let Some(i) = line[from..].find(word) {
            let p = from + i;
            let after = &line[p + word.len()..];
            let starts = p == 0 || line[..p].ends_with(": ");
            if starts && (after.is_empty() || after.starts_with(' ')) {
                if best.is_none_or(|(b, _, _)| p < b) {
                    best = Some((p, sev, word.len()));
                }
                break;
            }
            from = p + word.len();
        }
    }
    best
}

fn parse_line(line: &str) -> Diagnostic {
    let Some((p, severity, len)) = marker(line) else {
        return Diagnostic::error(line);
    };
    let mut d = Diagnostic::new(severity, line[p + len..].trim_start());
    let loc = line[..p].trim_end_matches(": ");
    if !loc.is_empty() {
        locate(&mut d, loc);
    }
    refine(&mut d);
    d
}

/// Fills file, line, column, node and op from a location prefix:
/// `[file[:line:col]: ]node 'X'[ (Op)]` or `file[:line:col]`.
fn locate(d: &mut Diagnostic, loc: &str) {
    let file_part = match loc.find("node '") {
        Some(i) if i == 0 || loc[..i].ends_with(": ") => {
            if let Some((node, op, rest)) = node_ref(&loc[i..]) {
                if rest.trim().is_empty() {
                    d.node = Some(node);
                    d.op = op;
                    loc[..i].trim_end_matches(": ")
                } else {
                    loc
                }
            } else {
                loc
            }
        }
        _ => loc,
    };
    if file_part.is_empty() {
        return;
    }
    let mut parts = file_part.rsplitn(3, ':');
    let (c, l, f) = (parts.next(), parts.next(), parts.next());
    match (
        f,
        l.and_then(|l| l.parse().ok()),
        c.and_then(|c| c.parse().ok()),
    ) {
        (Some(f), Some(l), Some(c)) if !f.is_empty() => {
            d.file = Some(f.to_string());
            d.line = l;
            d.col = c;
        }
        _ => d.file = Some(file_part.to_string()),
    }
}

/// `node 'X' (Op)rest` → (X, Some(Op), rest); `node 'X'rest` → (X, None, rest).
fn node_ref(s: &str) -> Option<(String, Option<String>, &str)> {
    let s = s.strip_prefix("node '")?;
    let end = s.find('\'')?;
    let name = s[..end].to_string();
    let rest = &s[end + 1..];
    if let Some(r) = rest.strip_prefix(" (") {
        if let Some(close) = r.find(')') {
            return Some((name, Some(r[..close].to_string()), &r[close + 1..]));
        }
    }
    Some((name, None, rest))
}

/// Takes the op type, node and fix out of the message forms the engines
/// use: `onnx.Op 'X': what; fix: how`, `'Op' cannot run on T: why`,
/// `node 'X' (Op): what`.
fn refine(d: &mut Diagnostic) {
    let msg = std::mem::take(&mut d.message);
    let (head, tail) = match msg.split_once('\n') {
        Some((h, t)) => (h.to_string(), Some(t.to_string())),
        None => (msg, None),
    };
    let mut head = head.as_str();
    // `onnx.Conv 'c1': ...` / `onnc.ChannelShuffle 'c1': ...`
    if let Some(sp) = head.find(" '") {
        let op = &head[..sp];
        let is_op = (op.starts_with("onnx.") || op.starts_with("onnc."))
            && op
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
        if is_op {
            if let Some(end) = head[sp + 2..].find("': ") {
                let node = &head[sp + 2..sp + 2 + end];
                if d.node.as_deref().is_none_or(|n| n == node) {
                    d.node = Some(node.to_string());
                    d.op = Some(op.strip_prefix("onnx.").unwrap_or(op).to_string());
                    head = &head[sp + 2 + end + 3..];
                }
            }
        }
    }
    // `node 'X' (Op): ...` at the start of the message.
    if d.node.is_none() && head.starts_with("node '") {
        if let Some((node, op, rest)) = node_ref(head) {
            if let Some(rest) = rest.strip_prefix(": ") {
                d.node = Some(node);
                d.op = op;
                head = rest;
            }
        }
    }
    // `'Resize' cannot run on nnie: ...`
    if d.op.is_none() && d.node.is_some() && head.starts_with('\'') {
        if let Some(end) = head[1..].find("' cannot run on ") {
            d.op = Some(head[1..1 + end].to_string());
            head = &head[1 + end + 2..];
        }
    }
    let head = match head.split_once("; fix: ") {
        Some((what, fix)) => {
            d.fix = Some(fix.to_string());
            what
        }
        None => head,
    };
    d.message = match tail {
        Some(t) => format!("{head}\n{t}"),
        None => head.to_string(),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_location_form() {
        let d = parse("m.onnx: node 'r' (Reshape): error: rank unknown");
        assert_eq!(
            (d.file.as_deref(), d.node.as_deref(), d.op.as_deref()),
            (Some("m.onnx"), Some("r"), Some("Reshape"))
        );
        assert_eq!(d.message, "rank unknown");
        let d = parse("bad.mlir:2:3: error: expected type");
        assert_eq!((d.file.as_deref(), d.line, d.col), (Some("bad.mlir"), 2, 3));
        let d = parse("f.mlir:4:5: node 'c': warning: odd");
        assert_eq!((d.line, d.node.as_deref()), (4, Some("c")));
        assert_eq!(d.severity, Severity::Warning);
        let d = parse("error: --calib is not used by --target mvu");
        assert_eq!((d.file, d.node), (None, None));
        assert_eq!(d.message, "--calib is not used by --target mvu");
        let d = parse("onnc-translate: error: no translation given");
        assert_eq!(d.file.as_deref(), Some("onnc-translate"));
    }

    #[test]
    fn engine_message_forms() {
        let d = parse("node 'up1': error: 'Resize' cannot run on nnie: only 2x");
        assert_eq!(d.op.as_deref(), Some("Resize"));
        assert_eq!(d.message, "cannot run on nnie: only 2x");
        let d = parse("node 'sh': error: onnc.ChannelShuffle 'sh': no; fix: yes");
        assert_eq!(d.op.as_deref(), Some("onnc.ChannelShuffle"));
        assert_eq!((d.message.as_str(), d.fix.as_deref()), ("no", Some("yes")));
        let d = parse("error: node 'j' (Add): joins two paths");
        assert_eq!(
            (d.node.as_deref(), d.op.as_deref()),
            (Some("j"), Some("Add"))
        );
        assert_eq!(d.message, "joins two paths");
    }

    #[test]
    fn continuation_lines() {
        let d = parse("error: x does not compute:\n  layer 1 off\nnode 'a': note: see here");
        assert_eq!(d.message, "x does not compute:\n  layer 1 off");
        assert_eq!(d.notes, ["node 'a': note: see here"]);
    }

    #[test]
    fn several_diagnostics_in_one_text() {
        let all = parse_all(
            "a.mlir:1:2: error: x\na.mlir:1:2: note: y\nb.mlir:3:4: error: z\n  table: error: 1\n",
        );
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].notes, ["a.mlir:1:2: note: y"]);
        assert_eq!(all[1].message, "z\n  table: error: 1");
    }

    #[test]
    fn no_severity_word_is_an_error_saying_the_line() {
        let d = parse("internal error: boom");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(d.message, "internal error: boom");
        let d = parse("a: error:");
        assert_eq!((d.file.as_deref(), d.message.as_str()), (Some("a"), ""));
    }
}
