//! Ascend AMCT records in the protobuf text format (`record.txt`).
//!
//! ```text
//! record {
//!   key: "conv1"
//!   value {
//!     scale_d: 0.0798481479
//!     offset_d: 0
//!     scale_w: 0.00297622895
//!     offset_w: 0
//!     dst_type: "INT8"
//!   }
//! }
//! ```
//!
//! Reading: `prost-reflect` (the prost ecosystem's reflection crate, with
//! its `text-format` feature) parses the text against the descriptors of
//! `proto/amct/` ([`onnc_proto::FILE_DESCRIPTOR_SET`]) as an
//! `InnerScaleOffsetRecord`, so both variants read; it refuses unknown field
//! names, wrong value types and an optional field given twice. Its error's
//! byte span (through `miette`) becomes the line and column. The records are
//! then mapped as the binary ones ([`super::amct`]), each named by its line.
//!
//! Writing: a small printer of our own in AMCT's block style (prost-reflect
//! prints repeated fields as `[...]` lists, valid but unlike AMCT's files);
//! floats in their shortest `f32` form.

use std::sync::OnceLock;

use miette::Diagnostic;
use onnc_proto::amct::InnerScaleOffsetRecord;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor};

use super::super::scales::TensorScales;
use crate::Error;

/// The descriptor of `amct.InnerScaleOffsetRecord`.
fn descriptor() -> Result<MessageDescriptor, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    let pool = POOL
        .get_or_init(|| {
            DescriptorPool::decode(onnc_proto::FILE_DESCRIPTOR_SET).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| format!("the built-in AMCT descriptors do not load: {e}"))?;
    pool.get_message_by_name("amct.InnerScaleOffsetRecord")
        .ok_or_else(|| "the built-in descriptors lack amct.InnerScaleOffsetRecord".into())
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let head = &text.as_bytes()[..offset.min(text.len())];
    let line = head.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&head[start..]).chars().count() + 1;
    (line, column)
}

/// Reads an AMCT record in text format.
pub(super) fn read(text: &str, file: &str) -> Result<TensorScales, Error> {
    let fail = |place: String, message: String| Error::Entry {
        file: file.into(),
        place,
        message,
    };
    let desc = descriptor().map_err(|m| fail("<descriptors>".into(), m))?;
    let dm = DynamicMessage::parse_text_format(desc, text).map_err(|e| {
        let offset = e
            .labels()
            .and_then(|mut l| l.next())
            .map_or(text.len(), |l| l.offset());
        let (line, column) = line_col(text, offset);
        fail(
            format!("line {line}, column {column}"),
            format!("not an AMCT record in text format: {e}"),
        )
    })?;
    let r: InnerScaleOffsetRecord = dm
        .transcode_to()
        .map_err(|e| fail("<record>".into(), format!("cannot convert the record: {e}")))?;
    super::amct::from_records(&r, file, "amct-text", &record_lines(text))
}

/// The line of each top-level `record` block's start, in order (skipping
/// strings and `#` comments).
fn record_lines(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut depth, mut line) = (0usize, 1usize);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '"' | '\'' => {
                while let Some((_, d)) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '\n' => {
                            line += 1;
                            break;
                        }
                        d if d == c => break,
                        _ => {}
                    }
                }
            }
            '{' | '<' | '[' => depth += 1,
            '}' | '>' | ']' => depth = depth.saturating_sub(1),
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                if depth == 0 && &text[i..end] == "record" {
                    out.push(line);
                }
            }
            _ => {}
        }
    }
    out
}

/// `s` as a text-format string literal.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out += "\\\"",
            b'\\' => out += "\\\\",
            b'\n' => out += "\\n",
            b'\r' => out += "\\r",
            b'\t' => out += "\\t",
            0x20..=0x7e => out.push(char::from(b)),
            _ => out += &format!("\\{b:03o}"),
        }
    }
    out + "\""
}

/// `x` in its shortest `f32` form, with an exponent when very small or large.
fn float(x: f32) -> String {
    let a = x.abs();
    if a != 0.0 && !(1e-4..1e7).contains(&a) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `r` in AMCT's text style; `inner` adds each record's `dst_type`.
pub(super) fn write(r: &InnerScaleOffsetRecord, inner: bool) -> String {
    let mut s = String::new();
    for e in &r.record {
        s += "record {\n";
        s += &format!("  key: {}\n", quoted(e.key.as_deref().unwrap_or("")));
        if let Some(v) = &e.value {
            s += "  value {\n";
            if let Some(d) = v.scale_d {
                s += &format!("    scale_d: {}\n", float(d));
            }
            if let Some(o) = v.offset_d {
                s += &format!("    offset_d: {o}\n");
            }
            for w in &v.scale_w {
                s += &format!("    scale_w: {}\n", float(*w));
            }
            for o in &v.offset_w {
                s += &format!("    offset_w: {o}\n");
            }
            if inner {
                s += &format!("    dst_type: {}\n", quoted(v.dst_type()));
            }
            s += "  }\n";
        }
        s += "}\n";
    }
    s
}
