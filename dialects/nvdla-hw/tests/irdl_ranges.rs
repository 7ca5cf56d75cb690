//! The ranges written in `dialects/nvdla.irdl.mlir`'s op doc blocks are the
//! register table's (`onnc_nvdla_hw::registers`): the text a reader sees
//! and the numbers every checker uses cannot drift apart.
//!
//! A doc line `//   name, name   SPEC` states the range of each name; SPEC
//! is `A..B`, `0 | 1`, a list `3 | 5 | 7 | 9` (its extent), `intN` /
//! `uintN`, or `-1 (...) or A..B`. `S.field` lines stand for `x1_op`,
//! `x2_op` and `y_op`; `a.b.c 0 | 1; .d int16` lines continue `a.b.`.
//! Strings, enumerations and floats are not ranges and are skipped.

use onnc_nvdla_hw::registers::{specs, Kind};

/// Integer value of `2^k-1`, `2^k`, `-2^k` or a decimal.
fn number(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("-2^") {
        return Some(-(1i64 << rest.parse::<u32>().ok()?));
    }
    if let Some(rest) = s.strip_prefix("2^") {
        return match rest.split_once('-') {
            Some((k, m)) => Some((1i64 << k.parse::<u32>().ok()?) - m.parse::<i64>().ok()?),
            None => Some(1i64 << rest.parse::<u32>().ok()?),
        };
    }
    s.parse().ok()
}

/// The inclusive range a doc SPEC states, or `None` when it is not an integer range.
fn range(spec: &str) -> Option<(i64, i64)> {
    let spec = spec.trim();
    let first = spec.split_whitespace().next()?;
    if let Some(bits) = first.strip_prefix("uint") {
        let n: u32 = bits.trim_end_matches(',').parse().ok()?;
        return Some((0, (1i64 << n) - 1));
    }
    if let Some(bits) = first.strip_prefix("int") {
        let n: u32 = bits.trim_end_matches(',').parse().ok()?;
        return Some((-(1i64 << (n - 1)), (1i64 << (n - 1)) - 1));
    }
    if let Some((lo, rest)) = spec.split_once(" or ") {
        let (_, hi) = range(rest)?;
        return Some((number(lo.split_whitespace().next()?)?, hi));
    }
    if let Some((a, b)) = first.trim_end_matches(',').split_once("..") {
        return Some((number(a)?, number(b)?));
    }
    // `0 | 1`, `0 (disable) | 1 (enable)`, `3 | 5 | 7 | 9`, or a single integer.
    let head = spec.split(',').next()?;
    let values: Option<Vec<i64>> = head
        .split('|')
        .map(|alt| number(alt.split_whitespace().next()?))
        .collect();
    let values = values?;
    Some((*values.iter().min()?, *values.iter().max()?))
}

/// `(op, attribute, range)` for every integer range the doc blocks state.
fn documented() -> Vec<(String, String, (i64, i64))> {
    let text = include_str!("../../nvdla.irdl.mlir");
    let mut pending = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("irdl.dialect @") {
            pending.clear(); // the file header (conventions), not an op's block
            continue;
        }
        if let Some(rest) = t.strip_prefix("irdl.operation @") {
            let op: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
            for (name, r) in pending.drain(..) {
                out.push((op.clone(), name, r));
            }
            continue;
        }
        let Some(body) = t.strip_prefix("//   ") else {
            continue;
        };
        for (name, r) in doc_line(body.trim_start()) {
            pending.push((name, r));
        }
    }
    out
}

/// The `(attribute, range)` pairs of one doc line's text.
fn doc_line(body: &str) -> Vec<(String, (i64, i64))> {
    let mut out = Vec::new();
    let mut prefix = String::new();
    for (i, part) in body.split(';').enumerate() {
        // names `a, b, c` (each but the last ends in a comma), then the spec
        let mut rest = part.trim();
        let mut names = Vec::new();
        loop {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let (token, after) = rest.split_at(end);
            rest = after.trim_start();
            match token.strip_suffix(',') {
                Some(name) => names.push(name),
                None => {
                    names.push(token);
                    break;
                }
            }
        }
        let valid = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._S".contains(c))
        };
        if !names.iter().all(|n| valid(n)) {
            continue;
        }
        let Some(r) = range(rest) else {
            continue;
        };
        for n in names {
            let full = match n.strip_prefix('.') {
                Some(field) => format!("{prefix}{field}"),
                None => n.to_string(),
            };
            if i == 0 {
                prefix = full
                    .rsplit_once('.')
                    .map(|(p, _)| format!("{p}."))
                    .unwrap_or_default();
            }
            match full.strip_prefix("S.") {
                Some(field) => {
                    for unit in ["x1_op", "x2_op", "y_op"] {
                        out.push((format!("{unit}.{field}"), r));
                    }
                }
                None => out.push((full, r)),
            }
        }
    }
    out
}

#[test]
fn every_documented_range_is_the_tables() {
    let doc = documented();
    assert!(
        doc.len() >= 60,
        "parsed only {} documented ranges: {doc:?}",
        doc.len()
    );
    for (op, name, r) in &doc {
        let spec = specs(op)
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("nvdla.{op} documents '{name}', which the table lacks"));
        match spec.kind {
            Kind::Int { min, max } => assert_eq!(
                (min, max),
                *r,
                "nvdla.{op} '{name}': the IRDL doc block says {}..{}, the table {min}..{max}",
                r.0,
                r.1
            ),
            k => panic!("nvdla.{op} documents '{name}' as a range, the table as {k:?}"),
        }
    }
}

#[test]
fn every_integer_register_of_the_engines_is_documented() {
    let doc = documented();
    for op in ["conv", "sdp", "pdp", "cdp", "rubik", "concat"] {
        for s in specs(op) {
            if matches!(s.kind, Kind::Int { .. }) {
                assert!(
                    doc.iter().any(|(o, n, _)| o == op && n == s.name),
                    "nvdla.{op} '{}' has no range in its IRDL doc block",
                    s.name
                );
            }
        }
    }
}

#[test]
fn the_spec_reader_understands_each_form() {
    assert_eq!(range("0..31 (elements)"), Some((0, 31)));
    assert_eq!(range("int16 (-32768..32767)"), Some((-32768, 32767)));
    assert_eq!(
        range("uint16 (0..65535), per-channel image mean"),
        Some((0, 65535))
    );
    assert_eq!(range("0 (disable) | 1 (enable)"), Some((0, 1)));
    assert_eq!(range("0 | 1"), Some((0, 1)));
    assert_eq!(range("3 | 5 | 7 | 9 (checked exactly)"), Some((3, 9)));
    assert_eq!(range("-1 (no LUT) or 0..255, index"), Some((-1, 255)));
    assert_eq!(range("0..2^38-1"), Some((0, (1 << 38) - 1)));
    assert_eq!(range("\"int8\" | \"fp16\""), None);
    assert_eq!(range("f32, the LRN parameters"), None);
    assert_eq!(
        doc_line("y_op.cvt.alu_cvt.enable 0 | 1; .offset int16; .truncate 0..63"),
        vec![
            ("y_op.cvt.alu_cvt.enable".to_string(), (0, 1)),
            ("y_op.cvt.alu_cvt.offset".to_string(), (-32768, 32767)),
            ("y_op.cvt.alu_cvt.truncate".to_string(), (0, 63)),
        ]
    );
    assert_eq!(
        doc_line("pad_left, pad_right   0..7").len(),
        2,
        "names before the gap"
    );
}
