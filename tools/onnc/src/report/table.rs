//! The report as text: a table with column widths fitted to the content,
//! CSV, or JSON; either view (hardware layers or ONNX nodes), sorted by any
//! column.
//!
//! In: a [`Report`], the view, an optional sort key (a column's key, as in
//! the CSV header) and the format. Out: the text, or an error listing the
//! keys when the key is unknown. Numeric columns sort largest first, text
//! columns A→Z; ties keep execution (graph) order. CSV holds raw values
//! (bytes, full-precision numbers, `per_channel`, `true`/`false`, empty
//! for none); the table abbreviates (KiB, `chan`, `yes (method)`, `-`).
//!
//! ```text
//!   #  hw layer   engines   prec  output       out KiB  wt KiB      MACs  desc  onnx nodes
//!   0  conv1_bn1  conv+sdp  fp16  1x16x16x16       8.0     0.6    147456     2  conv1, bn1, relu1
//! ```

use super::{HwLayer, OnnxNode, Report};
use crate::cli::{ReportFormat, ReportView};

/// One column: its key (CSV header, `--sort`), its table header, numeric or text.
struct Column {
    key: &'static str,
    header: &'static str,
    numeric: bool,
}

/// One cell: as the table shows it, as CSV writes it, and its sort value.
struct Cell {
    shown: String,
    raw: String,
    num: f64,
}

fn text(s: impl Into<String>) -> Cell {
    let s = s.into();
    Cell {
        shown: s.clone(),
        raw: s,
        num: 0.0,
    }
}

fn count(n: u64) -> Cell {
    Cell {
        shown: n.to_string(),
        raw: n.to_string(),
        num: n as f64,
    }
}

fn bytes(n: u64) -> Cell {
    Cell {
        shown: kib(n),
        raw: n.to_string(),
        num: n as f64,
    }
}

fn float(v: Option<f64>, digits: usize) -> Cell {
    match v {
        Some(v) => Cell {
            shown: format!("{v:.digits$}"),
            raw: format!("{v}"),
            num: v,
        },
        None => Cell {
            shown: "-".into(),
            raw: String::new(),
            num: f64::NEG_INFINITY,
        },
    }
}

fn sci(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.3e}"))
}

/// KiB with one decimal.
pub fn kib(b: u64) -> String {
    format!("{:.1}", b as f64 / 1024.0)
}

fn col(key: &'static str, header: &'static str, numeric: bool) -> Column {
    Column {
        key,
        header,
        numeric,
    }
}

fn hw_table(r: &Report) -> (Vec<Column>, Vec<Vec<Cell>>) {
    let quant = r.hw_layers.iter().any(|l| l.quant.is_some());
    // Scales: NVDLA INT8 (uncalibrated layers show `-→-`); MVU has none.
    let scales = quant
        && (r.target.starts_with("nv_")
            || r.hw_layers.iter().any(|l| {
                l.quant
                    .as_ref()
                    .is_some_and(|q| q.input_scale.is_some() || q.output_scale.is_some())
            }));
    let clips = r
        .hw_layers
        .iter()
        .any(|l| l.quant.as_ref().is_some_and(|q| !q.input_clips.is_empty()));
    let error = r.hw_layers.iter().any(|l| l.quant_error.is_some());
    let mut cols = vec![
        col("index", "#", true),
        col("name", "hw layer", false),
        col("engine", "engines", false),
        col("precision", "prec", false),
        col("output_shape", "output", false),
        col("output_bytes", "out KiB", true),
        col("weight_bytes", "wt KiB", true),
        col("macs", "MACs", true),
        col("descriptors", "desc", true),
    ];
    if scales && !clips {
        cols.push(col("scales", "scale in→out", false));
    }
    if clips {
        cols.push(col("input_clips", "clip in", false));
    }
    if quant {
        cols.push(col("weight_scale_mode", "wts", false));
        cols.push(col("calibrated", "calibrated", false));
    }
    if error {
        cols.push(col("cosine", "cosine", true));
        cols.push(col("rmse", "rmse", true));
    }
    cols.push(col("onnx_nodes", "onnx nodes", false));
    let rows = r
        .hw_layers
        .iter()
        .map(|l| hw_row(l, quant, scales && !clips, clips, error))
        .collect();
    (cols, rows)
}

fn hw_row(l: &HwLayer, quant: bool, scales: bool, clips: bool, error: bool) -> Vec<Cell> {
    let shape = l
        .output_shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("x");
    let mut row = vec![
        count(l.index as u64),
        text(&l.name),
        text(&l.engine),
        text(&l.precision),
        text(shape),
        bytes(l.output_bytes),
        bytes(l.weight_bytes),
        count(l.macs),
        count(l.descriptors as u64),
    ];
    let q = l.quant.as_ref();
    if scales {
        row.push(match q {
            Some(q) => text(format!("{}→{}", sci(q.input_scale), sci(q.output_scale))),
            None => text("-"),
        });
    }
    if clips {
        row.push(text(match q {
            Some(q) if !q.input_clips.is_empty() => q
                .input_clips
                .iter()
                .map(|c| format!("{c:.4}"))
                .collect::<Vec<_>>()
                .join(" "),
            _ => "-".into(),
        }));
    }
    if quant {
        let mode = q.and_then(|q| q.weight_scale_mode.as_deref());
        row.push(Cell {
            shown: match mode {
                Some("per_channel") => "chan",
                Some("per_tensor") => "tensor",
                _ => "-",
            }
            .into(),
            raw: mode.unwrap_or("").into(),
            num: 0.0,
        });
        row.push(Cell {
            shown: match q {
                Some(q) => match (q.calibrated, &q.method) {
                    (true, Some(m)) => format!("yes ({m})"),
                    (true, None) => "yes".into(),
                    (false, _) => "no".into(),
                },
                None => "-".into(),
            },
            raw: q.map_or(String::new(), |q| q.calibrated.to_string()),
            num: 0.0,
        });
    }
    if error {
        let e = l.quant_error;
        row.push(float(e.map(|e| e.cosine), 6));
        row.push(float(e.map(|e| e.rmse), 4));
    }
    row.push(text(l.onnx_nodes.join(", ")));
    row
}

fn onnx_table(r: &Report) -> (Vec<Column>, Vec<Vec<Cell>>) {
    let quant = r.onnx_nodes.iter().any(|n| n.calibrated.is_some());
    let mut cols = vec![
        col("index", "#", true),
        col("name", "onnx node", false),
        col("op_type", "op", false),
        col("engine", "engines", false),
        col("precision", "prec", false),
        col("output_bytes", "out KiB", true),
        col("weight_bytes", "wt KiB", true),
        col("macs", "MACs", true),
        col("descriptors", "desc", true),
    ];
    if quant {
        cols.push(col("calibrated", "calibrated", false));
    }
    cols.push(col("hw_layers", "hw layers", false));
    let rows = r.onnx_nodes.iter().map(|n| onnx_row(n, quant)).collect();
    (cols, rows)
}

fn onnx_row(n: &OnnxNode, quant: bool) -> Vec<Cell> {
    let mut row = vec![
        count(n.index as u64),
        text(&n.name),
        text(&n.op_type),
        text(&n.engine),
        text(&n.precision),
        bytes(n.output_bytes),
        bytes(n.weight_bytes),
        count(n.macs),
        count(n.descriptors as u64),
    ];
    if quant {
        row.push(Cell {
            shown: match n.calibrated {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            }
            .into(),
            raw: n.calibrated.map_or(String::new(), |c| c.to_string()),
            num: 0.0,
        });
    }
    row.push(Cell {
        shown: if n.hw_layers.is_empty() {
            "(folded)".to_string()
        } else {
            n.hw_layers.join(", ")
        },
        raw: n.hw_layers.join(", "),
        num: 0.0,
    });
    row
}

/// Sorts `rows` by the column `key` (numeric: largest first; text: A→Z;
/// stable, so ties keep their order).
fn sort(cols: &[Column], rows: &mut [Vec<Cell>], key: &str) -> Result<(), String> {
    let Some(c) = cols.iter().position(|c| c.key == key) else {
        let keys: Vec<&str> = cols.iter().map(|c| c.key).collect();
        return Err(format!(
            "--sort {key}: no such column in this view; keys: {}",
            keys.join(", ")
        ));
    };
    if cols[c].numeric {
        rows.sort_by(|a, b| b[c].num.total_cmp(&a[c].num));
    } else {
        rows.sort_by(|a, b| a[c].raw.cmp(&b[c].raw));
    }
    Ok(())
}

/// The table: every column as wide as its widest cell, numbers right-aligned,
/// two spaces between columns, the last column unpadded.
fn layout(cols: &[Column], rows: &[Vec<Cell>]) -> String {
    let width = |s: &str| s.chars().count();
    let widths: Vec<usize> = cols
        .iter()
        .enumerate()
        .map(|(i, c)| {
            rows.iter()
                .map(|r| width(&r[i].shown))
                .chain([width(c.header)])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, (cell, c)) in cells.iter().zip(cols).enumerate() {
            let pad = widths[i].saturating_sub(width(cell));
            if i > 0 {
                s.push_str("  ");
            }
            if c.numeric {
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            } else if i + 1 == cols.len() {
                s.push_str(cell);
            } else {
                s.push_str(cell);
                s.push_str(&" ".repeat(pad));
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    let mut out = line(cols.iter().map(|c| c.header).collect());
    for r in rows {
        out.push_str(&line(r.iter().map(|c| c.shown.as_str()).collect()));
    }
    out
}

/// One CSV field (RFC 4180: quoted when it holds a comma, quote or newline).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(cols: &[Column], rows: &[Vec<Cell>]) -> String {
    let mut out = cols.iter().map(|c| c.key).collect::<Vec<_>>().join(",");
    out.push('\n');
    for r in rows {
        let fields: Vec<String> = r.iter().map(|c| csv_field(&c.raw)).collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The lines under the table: totals, per-engine counts, memory.
fn summary(r: &Report) -> String {
    let mut s = String::new();
    for l in &r.hw_layers {
        if let Some(note) = l.quant.as_ref().and_then(|q| q.weight_scale_note.as_ref()) {
            s.push_str(&format!("  {}: per-tensor weights: {note}\n", l.name));
        }
    }
    if let (Some(dla), Some(emu)) = (r.dla_ops, r.emu_ops) {
        let engines: Vec<String> = r
            .ops_per_engine
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!(
            "DLA ops: {dla}   EMU ops: {emu}   ({})",
            engines.join(", ")
        ));
        if !r.views.is_empty() {
            let views: Vec<String> = r.views.iter().map(|(k, v)| format!("{k} {v}")).collect();
            s.push_str(&format!("   views: {}", views.join(", ")));
        }
        s.push('\n');
    }
    for (name, q) in &r.output_quant_error {
        s.push_str(&format!(
            "output {name}: cosine {:.6}, max abs error {:.4}, rmse {:.4}\n",
            q.cosine, q.max_abs_err, q.rmse
        ));
    }
    if let Some(a) = &r.accuracy {
        s.push_str(&format!(
            "top-1 on {} labelled samples: float {:.2}%, quantized (simulated) {:.2}%; the two agree on {}\n",
            a.samples, a.float_top1_percent, a.quantized_top1_percent, a.agree
        ));
    }
    s.push_str(&format!(
        "MACs: {}   descriptors: {}   ",
        r.macs, r.descriptors
    ));
    match r.activation_lower_bound_bytes {
        Some(bound) => {
            let ratio = if bound > 0 {
                r.activation_bytes as f64 / bound as f64
            } else {
                1.0
            };
            s.push_str(&format!(
                "activations: {} KiB (lower bound {} KiB, {ratio:.3}x)",
                kib(r.activation_bytes),
                kib(bound)
            ));
        }
        None => s.push_str(&format!("activations: {} KiB", kib(r.activation_bytes))),
    }
    s.push_str(&format!("   weights: {} KiB", kib(r.weight_bytes)));
    if let Some(b) = r.bind_bytes {
        s.push_str(&format!("   bound buffers: {} KiB", kib(b)));
    }
    if let Some(b) = r.loadable_bytes {
        s.push_str(&format!("   loadable: {} KiB", kib(b as u64)));
    }
    s.push('\n');
    s
}

/// The report in `format`, showing `view`, sorted by `sort` when given.
pub fn render(
    r: &Report,
    view: ReportView,
    sort_key: Option<&str>,
    format: ReportFormat,
) -> Result<String, String> {
    let (cols, mut rows) = match view {
        ReportView::HwLayers => hw_table(r),
        ReportView::OnnxNodes => onnx_table(r),
    };
    if let Some(k) = sort_key {
        sort(&cols, &mut rows, k)?;
    }
    Ok(match format {
        ReportFormat::Table => {
            let (what, n) = match view {
                ReportView::HwLayers => ("hardware layers", r.hw_layers.len()),
                ReportView::OnnxNodes => ("ONNX nodes", r.onnx_nodes.len()),
            };
            format!(
                "{} on {}: {n} {what}\n{}{}",
                r.model,
                r.target,
                layout(&cols, &rows),
                summary(r)
            )
        }
        ReportFormat::Csv => csv(&cols, &rows),
        ReportFormat::Json => {
            let mut sorted = r.clone();
            if sort_key.is_some() {
                let order: Vec<usize> = rows.iter().map(|row| row[0].num as usize).collect();
                match view {
                    ReportView::HwLayers => {
                        sorted.hw_layers = order.iter().map(|&i| r.hw_layers[i].clone()).collect()
                    }
                    ReportView::OnnxNodes => {
                        sorted.onnx_nodes = order.iter().map(|&i| r.onnx_nodes[i].clone()).collect()
                    }
                }
            }
            sorted.to_json()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        let layer = |i: usize, name: &str, macs: u64| HwLayer {
            index: i,
            name: name.into(),
            engine: "conv+sdp".into(),
            engines: vec!["conv".into(), "sdp".into()],
            onnx_nodes: vec![format!("{name}_node")],
            precision: "fp16".into(),
            output_shape: vec![1, 8, 4, 4],
            macs,
            descriptors: 2,
            ..Default::default()
        };
        Report {
            model: "m.onnx".into(),
            target: "nv_full".into(),
            hw_layers: vec![
                layer(0, "a", 10),
                layer(1, "a_rather_long_layer_name", 30),
                layer(2, "b", 20),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn widths_fit_the_longest_cell_and_sorting_orders_rows() {
        let r = report();
        let t = render(&r, ReportView::HwLayers, Some("macs"), ReportFormat::Table).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "m.onnx on nv_full: 3 hardware layers");
        assert!(
            lines[1].starts_with("#  hw layer                  engines"),
            "{t}"
        );
        assert!(
            lines[2].starts_with("1  a_rather_long_layer_name  conv+sdp"),
            "{t}"
        );
        assert!(
            lines[3].starts_with("2  b                         conv+sdp"),
            "{t}"
        );
        assert!(lines[4].starts_with("0  a "), "{t}");
        // Every row is as long as the header up to the last column.
        let at = lines[1].find("onnx nodes").unwrap();
        assert_eq!(&lines[2][at..], "a_rather_long_layer_name_node");
        let e = render(&r, ReportView::HwLayers, Some("bogus"), ReportFormat::Table).unwrap_err();
        assert!(e.contains("keys: index, name, engine"), "{e}");
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        let mut r = report();
        r.hw_layers[0].onnx_nodes = vec!["x".into(), "y".into()];
        let c = render(&r, ReportView::HwLayers, None, ReportFormat::Csv).unwrap();
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(
            lines[0],
            "index,name,engine,precision,output_shape,output_bytes,weight_bytes,macs,descriptors,onnx_nodes"
        );
        assert_eq!(lines[1], "0,a,conv+sdp,fp16,1x8x4x4,0,0,10,2,\"x, y\"");
    }
}
