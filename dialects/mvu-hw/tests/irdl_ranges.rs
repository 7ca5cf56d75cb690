//! The ranges written in `dialects/mvu.irdl.mlir`'s op doc blocks and in
//! `docs/dialects/mvu.md` are `onnc_mvu_hw`'s: the text a reader sees and
//! the numbers the verifier and the back end use cannot drift apart. The
//! conv block's worked example is held to the register formulas too.
//!
//! A doc line `//   name, name   SPEC` states the range of each name; SPEC
//! is `A..B` (a scalar), `array<i64>, N entries, each A..B` (a register
//! array) or `0 | 1` (a value set IRDL checks exactly with `irdl.is`).
//! Numbers are decimals, `2^k`, `-2^k` or `2^k-1`.

use onnc_mvu_hw::fields::{COUNTDOWN_BITS, JUMP_BITS, LENGTH_BITS, MAX_PREC, MIN_PREC, MVU_COUNT};
use onnc_mvu_hw::ranges::{ARRAYS, SCALARS};
use onnc_mvu_hw::{conv_countdown, conv_registers, ConvJob};
use std::collections::BTreeMap;

const IRDL: &str = include_str!("../../mvu.irdl.mlir");
const DOC: &str = include_str!("../../../docs/dialects/mvu.md");
const OPS: [&str; 2] = ["conv", "matmul"];

/// What a doc line says about one attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Spec {
    /// An inclusive integer range.
    Scalar(i64, i64),
    /// Entry count and each entry's inclusive range.
    Array(usize, i64, i64),
    /// The values IRDL accepts (`0 | 1`).
    Set(Vec<i64>),
}

/// `2^k-1`, `2^k`, `-2^k` or a decimal.
fn number(s: &str) -> Option<i64> {
    let s = s.trim().trim_end_matches([',', ':']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, s),
    };
    let v = match s.strip_prefix("2^") {
        Some(rest) => match rest.split_once('-') {
            Some((k, m)) => (1i64 << k.parse::<u32>().ok()?) - m.parse::<i64>().ok()?,
            None => 1i64 << rest.parse::<u32>().ok()?,
        },
        None => s.parse().ok()?,
    };
    Some(neg * v)
}

/// `A..B` as an inclusive range.
fn range(token: &str) -> Option<(i64, i64)> {
    let (a, b) = token.trim_end_matches([',', ':']).split_once("..")?;
    Some((number(a)?, number(b)?))
}

/// What `spec` (the text after the names) states, `None` when no range.
fn spec(spec: &str) -> Option<Spec> {
    let spec = spec.trim();
    if let Some(rest) = spec.strip_prefix("array<i64>,") {
        let mut words = rest.split_whitespace();
        let n = words.next()?.parse().ok()?;
        if words.next()? != "entries," || words.next()? != "each" {
            return None;
        }
        let (lo, hi) = range(words.next()?)?;
        return Some(Spec::Array(n, lo, hi));
    }
    let first = spec.split_whitespace().next()?;
    if let Some((lo, hi)) = range(first) {
        return Some(Spec::Scalar(lo, hi));
    }
    let head = spec.split(',').next()?;
    let values: Option<Vec<i64>> = head
        .split('|')
        .map(|alt| number(alt.split_whitespace().next()?))
        .collect();
    values.filter(|v| v.len() > 1).map(Spec::Set)
}

/// The `(names, spec)` of one doc line's text, `None` when it states no range.
fn doc_line(body: &str) -> Option<(Vec<String>, Spec)> {
    let mut rest = body.trim();
    let mut names = Vec::new();
    loop {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (token, after) = rest.split_at(end);
        rest = after.trim_start();
        let (name, more) = match token.strip_suffix(',') {
            Some(name) => (name, true),
            None => (token, false),
        };
        let valid = !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return None;
        }
        names.push(name.to_string());
        if !more {
            break;
        }
    }
    Some((names, spec(rest)?))
}

/// One op's doc block (the comment lines before `irdl.operation @op`) and body.
fn block(op: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let lines: Vec<&str> = IRDL.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start() == format!("irdl.operation @{op} {{"))
        .unwrap_or_else(|| panic!("mvu.irdl.mlir has no op @{op}"));
    let start = lines[..at]
        .iter()
        .rposition(|l| !l.trim_start().starts_with("//"))
        .map_or(0, |i| i + 1);
    let end = lines[at..]
        .iter()
        .position(|l| l.trim() == "}")
        .map_or(lines.len(), |i| at + i);
    (lines[start..at].to_vec(), lines[at..end].to_vec())
}

/// `attribute -> spec` for every range `op`'s doc block states.
fn documented(op: &str) -> BTreeMap<String, Spec> {
    let mut out = BTreeMap::new();
    for line in block(op).0 {
        let Some(body) = line.trim_start().strip_prefix("//   ") else {
            continue;
        };
        if let Some((names, s)) = doc_line(body) {
            for n in names {
                out.insert(n, s.clone());
            }
        }
    }
    out
}

/// The values `irdl.is` admits for `attr` in `op`'s body (its `irdl.any_of`).
fn irdl_values(op: &str, attr: &str) -> Vec<i64> {
    let body = block(op).1;
    let def = |var: &str| {
        body.iter()
            .find_map(|l| l.trim().strip_prefix(&format!("%{var} = ")))
            .unwrap_or_else(|| panic!("@{op} does not define %{var}"))
    };
    let any_of = def(attr)
        .strip_prefix("irdl.any_of(")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or_else(|| panic!("@{op} %{attr} is not an irdl.any_of"));
    any_of
        .split(',')
        .map(|v| {
            let is = def(v.trim().trim_start_matches('%'));
            is.strip_prefix("irdl.is ")
                .and_then(|s| s.strip_suffix(" : i64"))
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("@{op} {v} is not `irdl.is N : i64`: {is}"))
        })
        .collect()
}

#[test]
fn every_documented_range_is_the_crates() {
    for op in OPS {
        let doc = documented(op);
        for &(name, lo, hi) in SCALARS {
            assert_eq!(
                doc.get(name),
                Some(&Spec::Scalar(lo, hi)),
                "mvu.{op} '{name}': the IRDL doc block disagrees with onnc_mvu_hw::ranges ({lo}..{hi})"
            );
        }
        for (name, n, lo, hi) in ARRAYS {
            assert_eq!(
                doc.get(name),
                Some(&Spec::Array(n, lo, hi)),
                "mvu.{op} '{name}': the IRDL doc block disagrees with onnc_mvu_hw::ranges ({n} entries, each {lo}..{hi})"
            );
        }
    }
}

#[test]
fn every_other_documented_range_is_checked_by_irdl() {
    for op in OPS {
        let doc = documented(op);
        let ours = |n: &str| SCALARS.iter().any(|s| s.0 == n) || ARRAYS.iter().any(|a| a.0 == n);
        let others: Vec<_> = doc.iter().filter(|(n, _)| !ours(n)).collect();
        assert!(!others.is_empty(), "mvu.{op}: expected mul_mode and flags");
        for (name, s) in others {
            let want: Vec<i64> = match s {
                Spec::Scalar(lo, hi) => (*lo..=*hi).collect(),
                Spec::Set(v) => v.clone(),
                Spec::Array(..) => {
                    panic!("mvu.{op} '{name}': an array range outside onnc_mvu_hw::ranges::ARRAYS")
                }
            };
            assert_eq!(
                irdl_values(op, name),
                want,
                "mvu.{op} '{name}': the doc block's values are not the ones IRDL admits"
            );
        }
    }
}

/// `key = array<i64: a, b> ` and `key = n : i64` pairs of the conv example.
fn example() -> BTreeMap<String, Vec<i64>> {
    let text: String = block("conv")
        .0
        .iter()
        .skip_while(|l| !l.contains("Example"))
        .map(|l| l.trim_start().trim_start_matches('/').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = BTreeMap::new();
    for part in text.split(['{', ',']).filter(|p| p.contains(" = ")) {
        let (key, value) = part.split_once(" = ").unwrap_or_default();
        let key = key.trim();
        let value = value.trim();
        if let Some(first) = value.strip_prefix("array<i64: ") {
            // the array's other entries follow as their own comma-separated parts
            let start = text
                .find(&format!("{key} = array<i64: "))
                .unwrap_or_default();
            let list = &text[start..];
            let inner = list
                .split_once(": ")
                .and_then(|(_, r)| r.split_once('>'))
                .map(|(l, _)| l)
                .unwrap_or(first);
            out.insert(
                key.to_string(),
                inner
                    .split(',')
                    .filter_map(|v| v.trim().parse().ok())
                    .collect(),
            );
        } else if let Some(n) = value.strip_suffix(" : i64").and_then(|v| v.parse().ok()) {
            out.insert(key.to_string(), vec![n]);
        }
    }
    out
}

#[test]
fn the_conv_example_obeys_the_formulas() {
    let ex = example();
    let get = |k: &str, i: usize| -> i128 {
        i128::from(
            *ex.get(k)
                .and_then(|v| v.get(i))
                .unwrap_or_else(|| panic!("the example lacks {k}[{i}]: {ex:?}")),
        )
    };
    let job = ConvJob {
        ip: get("aprec", 0),
        wp: get("wprec", 0),
        ic: get("ishape", 0),
        fc: get("fshape", 0),
        fh: get("fshape", 1),
        fw: get("fshape", 2),
        iw: get("ishape", 2),
        sw: get("strides", 1),
    };
    let r = conv_registers(&job);
    for (name, want) in [
        ("ilength", r.ilength),
        ("ijump", r.ijump),
        ("wlength", r.wlength),
        ("wjump", r.wjump),
    ] {
        let got: Vec<Option<i128>> = (0..5).map(|i| Some(get(name, i))).collect();
        assert_eq!(got, want.to_vec(), "the conv example's {name}");
    }
    let columns = (job.iw - job.fw + 1) / job.sw;
    assert_eq!(conv_countdown(&job, columns), Some(get("countdown", 0)));
}

#[test]
fn the_dialect_doc_states_the_crates_widths() {
    let line = DOC
        .lines()
        .skip_while(|l| !l.contains("Hardware limits"))
        .take(2)
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ");
    for want in [
        format!("{JUMP_BITS}-bit jumps and lengths"),
        format!("{COUNTDOWN_BITS}-bit `countdown`"),
        format!("precisions {MIN_PREC}..{MAX_PREC}"),
        format!("`mvu` 0..{}", MVU_COUNT - 1),
        format!("`omvu_mask` 0..{}", (1u32 << MVU_COUNT) - 1),
    ] {
        assert!(
            line.contains(&want),
            "docs/dialects/mvu.md says '{line}', not '{want}'"
        );
    }
    assert_eq!(JUMP_BITS, LENGTH_BITS, "the doc names one width for both");
}

#[test]
fn the_spec_reader_understands_each_form() {
    assert_eq!(spec("0..7, the MVU"), Some(Spec::Scalar(0, 7)));
    assert_eq!(
        spec("1..2^29-1, clock cycles"),
        Some(Spec::Scalar(1, (1 << 29) - 1))
    );
    assert_eq!(
        spec("array<i64>, 5 entries, each -2^14..2^14-1: address jumps"),
        Some(Spec::Array(5, -16384, 16383))
    );
    assert_eq!(
        spec("0 | 1, input / weights signed"),
        Some(Spec::Set(vec![0, 1]))
    );
    assert_eq!(spec("array<i64: iC, iH, iW>, iC in blocks"), None);
    assert_eq!(spec("= [0, ip*wp*fC - 1, fH - 1, iC*fW - 1, 0]"), None);
    assert_eq!(
        doc_line("aprec, wprec, oprec   1..16, bits").map(|(n, _)| n.len()),
        Some(3)
    );
    assert_eq!(doc_line("(the 6-bit fields of mvuprecision)"), None);
    let ex = example();
    assert_eq!(ex.get("ijump"), Some(&vec![-528, -528, 240, 8, 0]));
    assert_eq!(ex.get("countdown"), Some(&vec![17280]));
}
