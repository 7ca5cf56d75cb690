//! The per-layer table of [`super::check`] (`onnc-run --compare-target`): every hardware
//! layer's output surface, read from the simulated memory, against the
//! reference interpreter's tensor of the same ONNX value.
//!
//! In: the planned program (compiled with the `naive` planner, so every
//! surface keeps its bytes to the end), the memories after the simulated
//! run, and the reference values by ONNX name. Out: one [`Row`] per
//! non-virtual op whose output is a 4-D feature tensor, in execution order,
//! and the text table ([`render`]). A layer is matched to the node or
//! value named like its surface, else to the last of its ONNX nodes
//! (`Op::onnx_nodes`) whose first output has as many elements as the
//! surface, else to the node a legalized part was made from (`fc/conv` →
//! `fc`); `reference` holds all these keys. INT8 surfaces are compared in real
//! values, each multiplied by the scale it is stored in (`stored`, from
//! [`super::int8::stored_scales`]).
//!
//! FP16 tables give the largest error, INT8 ones the RMS error
//! ([`super::metric::Metric`]); beside it, the same ratio for the
//! interpreter run with the loadable's number format alone (`storage`:
//! FP16 values, or INT8 weights and stored values), so a layer whose
//! error departs from its format's own stands out:
//!
//! ```text
//!   #  layer   engine  tensor  shape           max abs err  / max|ref|  storage alone  status
//!   0  conv1   sdp     r1      1x64x112x112    2.1e-3       4.0e-4     3.9e-4         ok
//!   3  pool1   pdp     r4      1x64x56x56      9.0e-1       5.9e-1     6.1e-4         BEYOND
//! ```

use std::collections::HashMap;

use onnc_nvdla::{Precision, Program, TensorKind};
use onnc_nvdla_sim::engine::Hw;
use onnc_nvdla_sim::memory::Memory;
use onnc_tensor::{DType, Tensor};

/// One hardware layer compared.
pub struct Row {
    /// Op index in the program.
    pub index: usize,
    /// Hardware-layer name.
    pub layer: String,
    /// Engine (`conv`, `sdp`, `pdp`, …).
    pub engine: &'static str,
    /// The output tensor's (ONNX) name.
    pub tensor: String,
    /// Its shape.
    pub shape: Vec<usize>,
    /// `(error, that / the reference's magnitude)` by the table's metric
    /// (max abs for FP16, rms for INT8), or why it is not compared.
    pub error: Result<(f64, f64), String>,
    /// The same ratio for the interpreter run with the loadable's storage
    /// alone (FP16 values, or INT8 weights and stored values): the
    /// format's own error at this layer, when known and finite.
    pub storage: Option<f64>,
}

/// Compares every layer's output surface (see the module doc); `stored`
/// gives each tensor's INT8 scale (`None`: integer surfaces are not
/// compared).
pub fn compare(
    p: &Program,
    mem: &Memory,
    hw: &Hw,
    reference: &HashMap<String, Tensor>,
    storage: &HashMap<String, Tensor>,
    stored: Option<&[Option<f64>]>,
    metric: super::metric::Metric,
) -> Result<Vec<Row>, String> {
    let located = onnc_nvdla::emit::locate(p).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (index, op) in p.ops.iter().enumerate() {
        let t = &p.tensors[op.output];
        if op.engine.is_virtual()
            || !matches!(t.kind, TensorKind::Activation | TensorKind::Output(_))
        {
            continue;
        }
        let Some((_, desc)) = &located[op.output] else {
            continue;
        };
        // The surface's own name first (the import names a result after the
        // node that makes it), then the layer's ONNX nodes from the last:
        // their order is not always the data flow (a fused x·sigmoid(x)
        // lists the gate after the Mul).
        // Last, the node a part made by legalization comes from (Gemm `fc`
        // → `fc/conv`).
        let key = std::iter::once(t.name.as_str())
            .chain(op.onnx_nodes.iter().rev().map(String::as_str))
            .chain(op.onnx_nodes.iter().rev().map(|n| origin(n)))
            .find(|n| reference.get(*n).is_some_and(|r| r.numel() == t.elements()));
        let found = key.and_then(|k| reference.get(k));
        let floor = match (found, key.and_then(|k| storage.get(k))) {
            (Some(r), Some(f)) => {
                let (r, f) = (r.cast(DType::F32), f.cast(DType::F32));
                match (r.as_f32(), f.as_f32()) {
                    (Ok(r), Ok(f)) if r.len() == f.len() => {
                        Some(metric.ratio(r, f)).filter(|q| q.is_finite())
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        // The factor from stored values to real ones.
        let unit = match t.precision {
            Precision::Fp16 => Some(1.0),
            Precision::Int8 => stored.and_then(|s| s[op.output]),
            Precision::Int16 => None,
        };
        let error = match (found, unit) {
            (None, _) => Err("no ONNX node of this layer has a value of its size (a layer made by legalization or lowering)".to_string()),
            (Some(_), None) => {
                Err("integer surface without a scale: compared at the outputs only".to_string())
            }
            (Some(r), Some(unit)) => {
                let r = r.cast(DType::F32);
                let r = r.as_f32().map_err(|e| e.to_string())?;
                let s = onnc_nvdla_sim::run::read_cube(mem, hw, desc)
                    .map_err(|e| format!("{}: {e}", t.name))?;
                let s = if unit == 1.0 {
                    s
                } else {
                    super::int8::dequantize(&s, unit)
                };
                if r.len() != s.len() {
                    Err(format!(
                        "{} values simulated, {} in the reference",
                        s.len(),
                        r.len()
                    ))
                } else {
                    Ok((metric.measure(r, &s).0, metric.ratio(r, &s)))
                }
            }
        };
        rows.push(Row {
            index,
            layer: op.hw_layer.clone(),
            engine: op.engine.op_name(),
            tensor: t.name.clone(),
            shape: t.shape.clone(),
            storage: floor.filter(|_| error.is_ok()),
            error,
        });
    }
    Ok(rows)
}

/// The ONNX node a legalized part `node/part` was made from (the name
/// itself when it has no `/`).
pub fn origin(n: &str) -> &str {
    n.split('/').next().unwrap_or(n)
}

/// The table, columns as wide as their longest entry, then the first layer
/// beyond `tolerance` (or that none is); `metric` names the error columns.
pub fn render(rows: &[Row], tolerance: f64, metric: super::metric::Metric) -> String {
    let (err_col, ratio_col) = metric.columns();
    let head = [
        "#",
        "layer",
        "engine",
        "tensor",
        "shape",
        err_col,
        ratio_col,
        "storage alone",
        "status",
    ];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            let shape = r
                .shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("x");
            let (abs, rel, status) = match &r.error {
                Ok((a, q)) => (
                    format!("{a:.3e}"),
                    format!("{q:.3e}"),
                    if *q <= tolerance {
                        "ok"
                    } else {
                        "BEYOND TOLERANCE"
                    }
                    .to_string(),
                ),
                Err(why) => ("-".into(), "-".into(), format!("not compared: {why}")),
            };
            let storage = r.storage.map_or("-".to_string(), |q| format!("{q:.3e}"));
            [
                r.index.to_string(),
                r.layer.clone(),
                r.engine.to_string(),
                r.tensor.clone(),
                shape,
                abs,
                rel,
                storage,
                status,
            ]
        })
        .collect();
    let mut width = head.map(str::len);
    for c in &cells {
        for (w, s) in width.iter_mut().zip(c) {
            *w = (*w).max(s.chars().count());
        }
    }
    let line = |c: &[String]| {
        let mut s = String::from("   ");
        for (k, (cell, w)) in c.iter().zip(width).enumerate() {
            if k + 1 == c.len() {
                s += cell;
            } else {
                s += &format!("{cell:<w$}  ");
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let compared = rows.iter().filter(|r| r.error.is_ok()).count();
    let mut out = format!(
        "  per layer ({compared} of {} hardware layers compared with the reference):\n",
        rows.len()
    );
    out += &line(&head.map(String::from));
    for c in &cells {
        out += &line(c);
    }
    out += &match rows
        .iter()
        .find(|r| matches!(r.error, Ok((_, q)) if q > tolerance))
    {
        Some(r) => format!(
            "  first layer beyond tolerance: #{} '{}' ({} → {})\n",
            r.index, r.layer, r.engine, r.tensor
        ),
        None => "  no layer beyond tolerance\n".to_string(),
    };
    out += "  storage alone: the same ratio for the interpreter with only the loadable's number format (FP16 values; INT8 weights and stored values)\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: usize, name: &str, e: Result<(f64, f64), String>) -> Row {
        Row {
            index: i,
            layer: name.into(),
            engine: "sdp",
            tensor: format!("{name}_out"),
            shape: vec![1, 8, 4, 4],
            storage: e.as_ref().ok().map(|(_, q)| q / 2.0),
            error: e,
        }
    }

    #[test]
    fn the_first_layer_beyond_tolerance_is_named_and_columns_fit() {
        let rows = [
            row(0, "a", Ok((1e-4, 1e-5))),
            row(1, "a_very_long_layer_name", Err("integer surface".into())),
            row(2, "c", Ok((0.5, 0.2))),
            row(3, "d", Ok((0.9, 0.3))),
        ];
        let t = render(&rows, 1e-2, super::super::metric::Metric::MaxAbs);
        assert!(t.contains("3 of 4 hardware layers compared"), "{t}");
        assert!(t.contains("first layer beyond tolerance: #2 'c'"), "{t}");
        let lines: Vec<&str> = t.lines().collect();
        let col = |l: &str| l.find("sdp").unwrap();
        assert_eq!(col(lines[2]), col(lines[3]), "{t}");
        assert_eq!(col(lines[3]), col(lines[4]), "{t}");
        // The storage column: half of each compared ratio here, `-` where
        // the layer is not compared.
        assert!(lines[1].contains("storage alone"), "{t}");
        let words = |l: &str| l.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(
            words(lines[4])[6..9],
            ["2.000e-1", "1.000e-1", "BEYOND"],
            "{t}"
        );
        assert_eq!(words(lines[3])[5..9], ["-", "-", "-", "not"], "{t}");
        assert!(
            render(&rows[..2], 1e-2, super::super::metric::Metric::MaxAbs)
                .contains("no layer beyond tolerance")
        );
    }
}
