//! `mvu_config.txt`: the table as BARVINN's generator prints it.
//!
//! In: a [`Table`]. Out: `Generated MVU configuration:`, a box-drawn table
//! (Python `texttable` style: `+---+` rules after every row, cells left-aligned
//! and padded by one space, lists in Python's `[a, b, c]` form) with columns
//! `iShape | fShape | ilength | ijump | wlength | wjump | countdown | total layer
//! countdown`, then `Total countdown: N`. Byte-identical to the table in
//! BARVINN's `docs/software.rst` for the same rows.
//!
//! ```
//! use onnc_mvu::{emit, generate, ConvShape, Layer, Options, Precision};
//! let t = generate(&[Layer::conv("c", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1),
//!                                Precision::new(2, 2, 2))], &Options::default()).unwrap();
//! let txt = emit::text(&t);
//! assert!(txt.contains("| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0] | [-132, -132, 60, 2, 0] |"));
//! assert!(txt.ends_with("Total countdown: 36720\n"));
//! ```

use std::fmt::Display;

use crate::config::Table;

const HEADER: [&str; 8] = [
    "iShape",
    "fShape",
    "ilength",
    "ijump",
    "wlength",
    "wjump",
    "countdown",
    "total layer countdown",
];

/// Python's `repr` of a list of integers.
fn list<T: Display>(xs: &[T]) -> String {
    let items: Vec<String> = xs.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// Draws `rows` (first row = header) as a texttable box.
fn draw(rows: &[Vec<String>]) -> String {
    let cols = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let rule: String = widths.iter().fold(String::from("+"), |mut s, w| {
        s.push_str(&"-".repeat(w + 2));
        s.push('+');
        s
    });
    let mut out = rule.clone();
    out.push('\n');
    for r in rows {
        out.push('|');
        for (cell, w) in r.iter().zip(&widths) {
            out.push(' ');
            out.push_str(cell);
            out.push_str(&" ".repeat(w - cell.chars().count() + 1));
            out.push('|');
        }
        out.push('\n');
        out.push_str(&rule);
        out.push('\n');
    }
    out
}

/// Renders `table` like BARVINN's generator output.
pub fn text(table: &Table) -> String {
    let mut rows = vec![HEADER.iter().map(ToString::to_string).collect::<Vec<_>>()];
    for r in &table.rows {
        rows.push(vec![
            list(&r.i_shape),
            list(&r.f_shape),
            list(&r.ilength),
            list(&r.ijump),
            list(&r.wlength),
            list(&r.wjump),
            r.countdown.to_string(),
            r.total_layer_countdown.to_string(),
        ]);
    }
    format!(
        "Generated MVU configuration:\n{}Total countdown: {}\n",
        draw(&rows),
        table.total_countdown
    )
}
