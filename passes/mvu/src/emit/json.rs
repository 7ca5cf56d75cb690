//! `mvu_config.json`: the configuration table as JSON.
//!
//! In: a [`Table`]. Out: JSON `{"rows": [...], "total_countdown": N}`; each row
//! has `name`, `kind`, `aprec`, `wprec`, `oprec`, `iShape`, `fShape`,
//! `ilength`, `ijump`, `wlength`, `wjump`, `countdown`, `total_layer_countdown`,
//! `jobs` and `memory` (in that order). Indented by two spaces, with arrays of
//! numbers on one line (`"ijump": [-132, -132, 60, 2, 0]`) so the file reads like
//! the table and FileCheck can match a register on one line. Deterministic.
//!
//! ```
//! use onnc_mvu::{emit, generate, ConvShape, Layer, Options, Precision};
//! let t = generate(&[Layer::conv("c", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
//!                                Precision::new(2, 2, 2))], &Options::default()).unwrap();
//! let s = emit::json(&t);
//! assert!(s.contains("\"ijump\": [-132, -132, 60, 2, 0],"));
//! let v: serde_json::Value = serde_json::from_str(&s).unwrap();
//! assert_eq!(v["total_countdown"], 36720);
//! ```

use crate::config::Table;

/// `true` for a line that is one number, optionally followed by a comma.
fn number_line(l: &str) -> bool {
    let t = l.trim().trim_end_matches(',');
    !t.is_empty() && t.parse::<i128>().is_ok()
}

/// Puts every array whose elements are all numbers on one line. In
/// `serde_json`'s pretty output a line ending in `[` always opens an array
/// (string contents are escaped and never end a line), so this is exact.
fn inline_number_arrays(pretty: &str) -> String {
    let lines: Vec<&str> = pretty.lines().collect();
    let mut out = String::with_capacity(pretty.len());
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.ends_with('[') {
            let mut j = i + 1;
            while j < lines.len() && number_line(lines[j]) {
                j += 1;
            }
            let close = lines.get(j).map(|c| c.trim()).unwrap_or("");
            if j > i + 1 && (close == "]" || close == "],") {
                let items: Vec<&str> = lines[i + 1..j]
                    .iter()
                    .map(|x| x.trim().trim_end_matches(','))
                    .collect();
                out.push_str(l);
                out.push_str(&items.join(", "));
                out.push_str(close);
                out.push('\n');
                i = j + 1;
                continue;
            }
        }
        out.push_str(l);
        out.push('\n');
        i += 1;
    }
    out
}

/// Serializes `table` (struct field order, trailing newline).
pub fn json(table: &Table) -> String {
    // Serializing plain structs of integers and strings cannot fail.
    inline_number_arrays(&serde_json::to_string_pretty(table).unwrap_or_default())
}
