//! A `--pass-pipeline` cut into runs: consecutive in-memory passes, and
//! consecutive MLIR passes (upstream passes, `func.func(...)` nests, and our
//! passes that exist only in MLIR: `onnc-verify`, `onnc-dce`).
//!
//! In: `builtin.module(onnx-simplify,cse,func.func(onnc-dce),onnc-legalize{target=nv_full})`.
//! Out: `[Memory(["onnx-simplify"]), Mlir("builtin.module(cse,func.func(onnc-dce))"),
//! Memory(["onnc-legalize{target=nv_full}"])]`. Text that is not a
//! `builtin.module(...)` pipeline is one MLIR run (MLIR's parser judges it).

use crate::pipeline::registry;

/// One run of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// A pipeline MLIR's pass manager runs (`builtin.module(...)`).
    Mlir(String),
    /// Entries the in-memory manager runs (`onnx-simplify`, `onnc-legalize{target=nv_full}`).
    Memory(Vec<String>),
}

/// The top-level entries of `body` (split at commas outside brackets and quotes).
fn top_level(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(body[start..].trim());
    out.retain(|e| !e.is_empty());
    out
}

/// The pass an entry names: the text before its options or nest.
fn head(entry: &str) -> &str {
    entry.split(['{', '(']).next().unwrap_or(entry).trim()
}

/// Cuts `pipeline` into runs (see the module doc).
pub fn split(pipeline: &str) -> Vec<Segment> {
    let text = pipeline.trim();
    if text.is_empty() {
        return Vec::new();
    }
    let Some(body) = text
        .strip_prefix("builtin.module(")
        .and_then(|r| r.strip_suffix(')'))
    else {
        return vec![Segment::Mlir(text.to_string())];
    };
    let mut out: Vec<Segment> = Vec::new();
    let mut mlir: Vec<&str> = Vec::new();
    let flush = |mlir: &mut Vec<&str>, out: &mut Vec<Segment>| {
        if !mlir.is_empty() {
            out.push(Segment::Mlir(format!("builtin.module({})", mlir.join(","))));
            mlir.clear();
        }
    };
    for entry in top_level(body) {
        if registry::find(head(entry)).is_some() {
            flush(&mut mlir, &mut out);
            match out.last_mut() {
                Some(Segment::Memory(run)) => run.push(entry.to_string()),
                _ => out.push(Segment::Memory(vec![entry.to_string()])),
            }
        } else {
            mlir.push(entry);
        }
    }
    flush(&mut mlir, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_in_memory_passes_form_one_run() {
        let s = split("builtin.module(onnx-simplify, onnc-legalize{target=nv_full report=true},cse,func.func(onnc-dce{dialects=onnx}),canonicalize{max-iterations=3},convert-onnx-to-nvdla{config=nv_full},nvdla-plan-memory)");
        assert_eq!(
            s,
            [
                Segment::Memory(vec![
                    "onnx-simplify".into(),
                    "onnc-legalize{target=nv_full report=true}".into()
                ]),
                Segment::Mlir(
                    "builtin.module(cse,func.func(onnc-dce{dialects=onnx}),canonicalize{max-iterations=3})"
                        .into()
                ),
                Segment::Memory(vec![
                    "convert-onnx-to-nvdla{config=nv_full}".into(),
                    "nvdla-plan-memory".into()
                ]),
            ]
        );
    }

    #[test]
    fn quoted_commas_and_other_text_stay_whole() {
        let s = split(r#"builtin.module(nvdla-load-ctable{file="a,b(c.json"},onnc-verify)"#);
        assert_eq!(
            s,
            [
                Segment::Memory(vec![r#"nvdla-load-ctable{file="a,b(c.json"}"#.into()]),
                Segment::Mlir("builtin.module(onnc-verify)".into()),
            ]
        );
        assert_eq!(
            split("func.func(onnc-dce)"),
            [Segment::Mlir("func.func(onnc-dce)".into())]
        );
        assert!(split("  ").is_empty());
        assert!(split("builtin.module()").is_empty());
    }
}
