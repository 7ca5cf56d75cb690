//! Does a loadable compute its model? The NVDLA loadable runs in the
//! bit-exact simulator (`onnc-nvdla-sim`), the ONNX graph in the reference
//! interpreter, on the same inputs, and every output is compared.
//!
//! In: the graph, its inputs, the target configuration, the loadable bytes
//! (or the graph, to compile here) and a tolerance. Out: a [`Check`]: text
//! lines (one per output: largest absolute error, its ratio to the largest
//! reference magnitude, top-1 agreement for classifier-shaped outputs) and
//! whether everything is within the tolerance; with [`Detail::Layers`] also
//! the per-layer table ([`layers`]) and the memory-plan check.
//!
//! Used by `onnc-run --compare-target` (always with the table) and
//! `onnc compile --check-sim` (the table only when an output fails).
//!
//! INT8 loadables ([`check_int8`]) take the calibration's per-tensor
//! scales: inputs are quantized with their scale as the loadable expects,
//! outputs and surfaces dequantized with theirs ([`int8`]), compared by
//! RMS error ([`metric`]) with [`int8::INT8_TOLERANCE`]; a top-1 class may
//! then differ only where the reference's two classes are closer than the
//! tolerance (a tie at INT8 resolution), which the line says.
//! [`accuracy`] counts a classifier's top-1 over a labelled set.
//!
//! ```text
//! m.onnx on nv_full (simulated) against the reference interpreter:
//!   y: max abs error 4.540e-5 = 3.073e-4 of max |reference| 1.477e-1 (ok), top-1 3 agrees
//! plain.onnx on nv_small (simulated, INT8 dequantized with the calibrated scales) against the reference interpreter:
//!   logits: rms error 1.524e-1 = 1.732e-2 of rms reference 8.796e0 (ok), top-1 9 agrees
//! ```

pub mod accuracy;
#[cfg(test)]
mod classifiers_test;
pub mod int8;
pub mod layers;
pub mod metric;

use std::collections::{HashMap, HashSet};

use onnc_nvdla::ctable::TensorScales;
use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};

use crate::numerics;
use metric::Metric;

/// FP16's budget: an output's largest error may be this fraction of its
/// largest reference magnitude.
pub const FP16_TOLERANCE: f64 = 1e-2;

/// What to print besides the outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The outputs only.
    Outputs,
    /// The outputs, then the per-layer table and the memory-plan check.
    Layers,
    /// The table only when an output is beyond the tolerance.
    LayersOnFailure,
}

/// The result of a check.
#[derive(Debug, Clone)]
pub struct Check {
    /// Everything within the tolerance, top-1 classes equal, and the
    /// memory plan innocent.
    pub ok: bool,
    /// The report (lines ending in `\n`).
    pub text: String,
    /// The largest error / max |reference| over the outputs, and over the
    /// layers when the table was made.
    pub worst: f64,
}

fn err(m: impl std::fmt::Display) -> Vec<String> {
    vec![format!("error: {m}")]
}

/// The largest element's index (ties: the first).
fn argmax(v: &[f32]) -> Option<usize> {
    v.iter()
        .enumerate()
        .filter(|(_, x)| !x.is_nan())
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
}

/// A top-1 class as printed: its index, or that every score is NaN.
fn class_name(c: Option<usize>) -> String {
    c.map_or_else(
        || "none (every score is NaN)".to_string(),
        |c| c.to_string(),
    )
}

/// The simulator's inputs: each graph input by bind id, as f32.
fn sim_inputs(
    graph: &Graph,
    inputs: &[(String, Tensor)],
) -> Result<Vec<onnc_nvdla_sim::run::Tensor>, Vec<String>> {
    graph
        .inputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let t = inputs
                .iter()
                .find(|(n, _)| *n == v.name)
                .map(|(_, t)| t)
                .ok_or_else(|| err(format!("no value for input '{}'", v.name)))?;
            let values = t.cast(DType::F32).as_f32().map_err(err)?.to_vec();
            Ok(onnc_nvdla_sim::run::Tensor {
                bind_id: k as u16,
                data: onnc_nvdla_sim::run::TensorData::F32(values),
            })
        })
        .collect()
}

fn sim_options(target: &str) -> onnc_nvdla_sim::run::Options {
    // nv_large lays memory out as nv_full does, so the configuration is
    // given rather than inferred from the loadable.
    onnc_nvdla_sim::run::Options {
        hw: onnc_nvdla_sim::engine::Hw::by_name(numerics::nvdla_spec(target).0),
        ..Default::default()
    }
}

/// Compiles `graph` for `target` and checks it (`onnc-run --compare-target`).
pub fn compile_and_check(
    graph: &Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: f64,
) -> Result<Check, Vec<String>> {
    let (bytes, _) = numerics::compile_nvdla(graph.clone(), file, target)?;
    check(
        graph,
        file,
        target,
        inputs,
        tolerance,
        &bytes,
        Detail::Layers,
    )
}

/// Checks the loadable `bytes` compiled from `graph` for `target` (FP16).
pub fn check(
    graph: &Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: f64,
    bytes: &[u8],
    detail: Detail,
) -> Result<Check, Vec<String>> {
    check_with(
        graph, file, target, inputs, None, tolerance, bytes, detail, None,
    )
}

/// Checks the INT8 loadable `bytes` compiled from `graph` for `target`
/// with the per-tensor `scales` (keyed by ONNX value names, as the
/// calibrator and per-tensor tables give them).
#[allow(clippy::too_many_arguments)]
pub fn check_int8(
    graph: &Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    scales: &TensorScales,
    tolerance: f64,
    bytes: &[u8],
    detail: Detail,
) -> Result<Check, Vec<String>> {
    check_with(
        graph,
        file,
        target,
        inputs,
        Some(scales),
        tolerance,
        bytes,
        detail,
        None,
    )
}

/// Called once per layer the simulation finishes, in order (its `index`
/// of `total`; for a progress bar).
pub type OnLayer<'a> = &'a mut dyn FnMut(&onnc_nvdla_sim::run::Layer);

/// A no-reuse compile of the model: its loadable, its program and, for
/// INT8, the scale each program tensor is stored in.
struct Naive {
    bytes: Vec<u8>,
    program: onnc_nvdla::Program,
    stored: Option<Vec<Option<f64>>>,
}

impl Naive {
    fn compile(
        graph: &Graph,
        file: &str,
        target: &str,
        scales: Option<&TensorScales>,
    ) -> Result<Naive, Vec<String>> {
        Ok(match scales {
            None => {
                let (bytes, program) =
                    numerics::compile_nvdla_planned(graph.clone(), file, target, "naive")?;
                Naive {
                    bytes,
                    program,
                    stored: None,
                }
            }
            Some(s) => {
                let (bytes, program) = int8::compile_int8(graph, file, target, "naive", s)?;
                let stored = int8::stored_scales(&program, s, graph);
                Naive {
                    bytes,
                    program,
                    stored: Some(stored),
                }
            }
        })
    }

    /// The inputs the loadable takes (INT8 ones quantized).
    fn feed(
        &self,
        graph: &Graph,
        inputs: &[(String, Tensor)],
    ) -> Result<Vec<onnc_nvdla_sim::run::Tensor>, Vec<String>> {
        match &self.stored {
            None => sim_inputs(graph, inputs),
            Some(stored) => sim_inputs(
                graph,
                &int8::quantize_inputs(&self.program, stored, inputs)?,
            ),
        }
    }
}

/// [`check`] (FP16, `scales` = None) or [`check_int8`] (`scales` given),
/// with `on_layer` called as each simulated layer finishes. The verdict
/// does not depend on `on_layer`.
#[allow(clippy::too_many_arguments)]
pub fn check_with(
    graph: &Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    scales: Option<&TensorScales>,
    tolerance: f64,
    bytes: &[u8],
    detail: Detail,
    on_layer: Option<OnLayer>,
) -> Result<Check, Vec<String>> {
    let reference = numerics::run(graph, inputs).map_err(|e| err(format!("{file}: {e}")))?;
    // INT8 needs the program for the scales; FP16 compiles it for the table only.
    let mut naive = match scales {
        Some(_) => Some(Naive::compile(graph, file, target, scales)?),
        None => None,
    };
    let feed = match &naive {
        Some(n) => n.feed(graph, inputs)?,
        None => sim_inputs(graph, inputs)?,
    };
    let opts = sim_options(target);
    let outs = match on_layer {
        Some(f) => onnc_nvdla_sim::run::simulate_with_layers(bytes, &feed, &opts, f),
        None => onnc_nvdla_sim::run::simulate(bytes, &feed, &opts),
    }
    .map_err(|e| err(format!("{file} on {target}: {e}")))?;
    if outs.tensors.len() != reference.len() {
        return Err(err(format!(
            "{file}: the loadable has {} outputs, the model {}",
            outs.tensors.len(),
            reference.len()
        )));
    }
    let mut ok = true;
    let mut worst: f64 = 0.0;
    // The format-storage reference (FP16, or INT8 with the calibrated
    // scales), run once if an output fails.
    let mut storage: Option<Result<Vec<(String, Tensor)>, String>> = None;
    let mut text = format!(
        "{file} on {target} (simulated{}) against the reference interpreter:\n",
        if scales.is_some() {
            ", INT8 dequantized with the calibrated scales"
        } else {
            ""
        }
    );
    for (k, ((name, r), o)) in reference.iter().zip(&outs.tensors).enumerate() {
        let r = r.cast(DType::F32);
        let r = r.as_f32().map_err(err)?;
        if r.len() != o.values.len() {
            return Err(err(format!(
                "{file}: output '{name}': {} values from the loadable, {} from the model",
                o.values.len(),
                r.len()
            )));
        }
        let values = match naive.as_ref().and_then(|n| Some((n, n.stored.as_ref()?))) {
            Some((n, stored)) => match n.program.outputs.get(k).map(|&t| (t, stored[t])) {
                Some((_, Some(s))) => int8::dequantize(&o.values, s),
                Some((t, None))
                    if n.program.tensors[t].precision != onnc_nvdla::Precision::Int8 =>
                {
                    o.values.clone()
                }
                _ => {
                    return Err(err(format!(
                        "{file}: output '{name}' is INT8 and the calibration gives no scale for it"
                    )))
                }
            },
            None => o.values.clone(),
        };
        let classifier = is_classifier(r_shape(&reference, name));
        let ties = scales.is_some();
        let metric = if ties { Metric::Rms } else { Metric::MaxAbs };
        let (mut line, pass) = output_line(name, r, &values, tolerance, classifier, metric);
        // The format's own error is the yardstick: FP16 storage of every
        // value for an FP16 loadable, INT8 storage of every calibrated
        // value for a calibrated one (an uncalibrated INT8 loadable has
        // identity scales and no yardstick).
        if !pass && (scales.is_some() || target == "nv_full") {
            let stored = storage
                .get_or_insert_with(|| {
                    match naive.as_ref().and_then(|n| Some((n, n.stored.as_ref()?))) {
                        Some((n, stored)) => {
                            let values = int8::stored_values(&n.program, stored, graph);
                            let weights = int8::with_int8_weights(graph);
                            numerics::run_int8_storage(&weights, inputs, &values)
                        }
                        None => numerics::run_fp16_storage(graph, inputs),
                    }
                })
                .as_ref()
                .map_err(|e| err(format!("{file}: {e}")))?;
            let what = match scales {
                Some(_) => FormatFloor::Int8,
                None => FormatFloor::Fp16,
            };
            line = with_storage_floor(
                line,
                r,
                &stored[k].1,
                metric.ratio(r, &values),
                metric,
                what,
            )?;
        }
        worst = worst.max(metric.ratio(r, &values));
        ok &= pass;
        text += &line;
    }
    if detail == Detail::Layers || (detail == Detail::LayersOnFailure && !ok) {
        let naive = match naive.take() {
            Some(n) => n,
            None => Naive::compile(graph, file, target, None)?,
        };
        let (table, plan_ok, layers_worst) =
            layer_table(graph, file, target, inputs, tolerance, &outs, &naive)?;
        worst = worst.max(layers_worst);
        text += &table;
        ok &= plan_ok;
    }
    Ok(Check { ok, text, worst })
}

fn r_shape<'a>(reference: &'a [(String, Tensor)], name: &str) -> &'a [usize] {
    reference
        .iter()
        .find(|(n, _)| n == name)
        .map_or(&[], |(_, t)| t.shape())
}

/// Class scores: one axis beyond the batch longer than 1 (`[N, K]`,
/// `[1, K, 1, 1]`), where the top-1 class is meaningful; a feature map's
/// largest element is not (it is often a tie).
fn is_classifier(shape: &[usize]) -> bool {
    shape.iter().skip(1).filter(|&&d| d > 1).count() == 1
}

/// Which format's storage error a failing line is set against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormatFloor {
    /// Every ONNX value stored in FP16 ([`numerics::run_fp16_storage`]).
    Fp16,
    /// The weights per channel and every value the loadable stores, in
    /// INT8 with the scale it is stored in ([`numerics::run_int8_storage`],
    /// `int8::stored_values`, `int8::with_int8_weights`).
    Int8,
}

impl FormatFloor {
    fn words(self) -> &'static str {
        match self {
            FormatFloor::Fp16 => "FP16 storage of every ONNX value alone",
            FormatFloor::Int8 => "INT8 storage of its weights and stored values alone",
        }
    }
}

/// `line` (an output beyond the tolerance, `ours` its error ratio) with
/// what storing the values in the loadable's format alone costs on the
/// same inputs (`stored`, the interpreter run with that storage): the
/// format's own error on this model, which tells a wrong computation from
/// the format's rounding (and, in INT8, clipping) amplified by the
/// network. The verdict is not changed; where FP16 storage overflows (a
/// value beyond ±65504) the line stays as it is.
fn with_storage_floor(
    line: String,
    r: &[f32],
    stored: &Tensor,
    ours: f64,
    metric: Metric,
    what: FormatFloor,
) -> Result<String, Vec<String>> {
    let stored = stored.cast(DType::F32);
    let floor = metric.ratio(r, stored.as_f32().map_err(err)?);
    if !floor.is_finite() {
        // A value beyond FP16's range: storage alone overflows, which says
        // nothing about the loadable (it saturates).
        return Ok(line);
    }
    let word = if ours <= floor { "within" } else { "above" };
    Ok(line.replacen(
        "(BEYOND TOLERANCE)",
        &format!("(BEYOND TOLERANCE; {word} {}, {floor:.3e})", what.words()),
        1,
    ))
}

/// One output's line and whether it passes (the top-1 class compared on
/// classifier-shaped outputs; with [`Metric::Rms`], INT8, a different class
/// passes when the reference scores it within `tolerance` times the
/// reference's magnitude of its own top class: a tie at INT8 resolution).
fn output_line(
    name: &str,
    r: &[f32],
    s: &[f32],
    tolerance: f64,
    classifier: bool,
    metric: Metric,
) -> (String, bool) {
    let (error, magnitude) = metric.measure(r, s);
    let ratio = metric.ratio(r, s);
    let pass = ratio <= tolerance;
    let ties = metric == Metric::Rms;
    let top1 = (classifier && r.len() > 1).then(|| (argmax(r), argmax(s)));
    // How far below the reference's top score the simulated class scores.
    let gap = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (Some(a), Some(b)) => f64::from(r[a] - r[b]),
        _ => f64::INFINITY,
    };
    let tie = |a, b| ties && gap(a, b) <= tolerance * magnitude;
    let agrees = top1.is_none_or(|(a, b)| a == b || tie(a, b));
    let top = match top1 {
        Some((a, b)) if a == b => format!(", top-1 {} agrees", a.unwrap_or(0)),
        Some((a, b)) if tie(a, b) => format!(
            ", top-1 {} vs reference {} (a tie: the reference scores them {:.3e} apart, within the tolerance)",
            b.unwrap_or(0),
            a.unwrap_or(0),
            gap(a, b)
        ),
        Some((a, b)) => format!(
            ", top-1 DIFFERS: reference {}, simulated {}",
            class_name(a),
            class_name(b)
        ),
        None => String::new(),
    };
    let (e_word, m_word) = metric.words();
    let line = format!(
        "  {name}: {e_word} {error:.3e} = {ratio:.3e} of {m_word} {magnitude:.3e} ({}){top}\n",
        if pass { "ok" } else { "BEYOND TOLERANCE" }
    );
    (line, pass && agrees)
}

/// The per-layer table from a no-reuse compile (`naive`), whether its
/// outputs are the same bytes as the shipped loadable's (`shipped`), and
/// the largest ratio of a compared layer.
fn layer_table(
    graph: &Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: f64,
    shipped: &onnc_nvdla_sim::run::Outputs,
    naive: &Naive,
) -> Result<(String, bool, f64), Vec<String>> {
    let program = &naive.program;
    // Reference values of the ONNX nodes and values the layers name.
    let wanted: HashSet<&str> = program
        .tensors
        .iter()
        .map(|t| t.name.as_str())
        .chain(
            program
                .ops
                .iter()
                .flat_map(|o| o.onnx_nodes.iter().map(String::as_str))
                .flat_map(|n| [n, layers::origin(n)]),
        )
        .collect();
    // The reference, and the same run with the loadable's storage alone
    // (FP16 values, or INT8 weights and stored values): each layer's
    // error is set beside the format's own.
    let keep = |values: &mut HashMap<String, Tensor>, node: &onnc_onnx::Node, outs: &[Tensor]| {
        if let (true, Some(t)) = (wanted.contains(node.name.as_str()), outs.first()) {
            values.insert(node.name.clone(), t.clone());
        }
        for (name, t) in node.outputs.iter().zip(outs) {
            if wanted.contains(name.as_str()) {
                values.insert(name.clone(), t.clone());
            }
        }
    };
    let mut values = HashMap::new();
    onnc_interp::run_graph_observed(graph, inputs, &mut |node, outs| {
        keep(&mut values, node, outs)
    })
    .map_err(|e| err(format!("{file}: {e}")))?;
    let mut floors = HashMap::new();
    let stored_run = match &naive.stored {
        Some(stored) => {
            let scales = int8::stored_values(program, stored, graph);
            onnc_interp::run_graph_stored_observed(
                &int8::with_int8_weights(graph),
                inputs,
                onnc_interp::Storage::Int8(&scales),
                &mut |node, outs| keep(&mut floors, node, outs),
            )
        }
        None => onnc_interp::run_graph_stored_observed(
            graph,
            inputs,
            onnc_interp::Storage::Fp16,
            &mut |node, outs| keep(&mut floors, node, outs),
        ),
    };
    // A storage run that fails (an FP16 overflow is not a failure: it
    // gives infinities) only leaves the column empty.
    if stored_run.is_err() {
        floors.clear();
    }
    let opts = sim_options(target);
    let feed = naive.feed(graph, inputs)?;
    let (naive_outs, memory) = onnc_nvdla_sim::run::simulate_memory(&naive.bytes, &feed, &opts)
        .map_err(|e| err(format!("{file} on {target} (no-reuse plan): {e}")))?;
    let hw = opts.hw.unwrap_or(onnc_nvdla_sim::engine::Hw::NV_FULL);
    let metric = if naive.stored.is_some() {
        Metric::Rms
    } else {
        Metric::MaxAbs
    };
    let rows = layers::compare(
        program,
        &memory,
        &hw,
        &values,
        &floors,
        naive.stored.as_deref(),
        metric,
    )
    .map_err(|e| err(format!("{file} on {target}: per-layer table: {e}")))?;
    let mut text = layers::render(&rows, tolerance, metric);
    let worst = rows
        .iter()
        .filter_map(|r| r.error.as_ref().ok().map(|e| e.1))
        .fold(0f64, f64::max);
    let same = shipped
        .tensors
        .iter()
        .zip(&naive_outs.tensors)
        .all(|(a, b)| a.raw == b.raw);
    if !same {
        text +=
            "  the outputs differ between the shipped memory plan and one without reuse (every \
                 surface its own bytes): the memory plan makes two live surfaces share bytes; \
                 report it with this model\n";
    }
    Ok((text, same, worst))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_line_fails_on_error_or_on_a_different_top1() {
        let r = [0.1, 0.9, 0.3];
        let (l, pass) = output_line("y", &r, &[0.1, 0.9, 0.3], 1e-2, true, Metric::MaxAbs);
        assert!(pass && l.contains("(ok), top-1 1 agrees"), "{l}");
        let (l, pass) = output_line("y", &r, &[0.1, 0.5, 0.3], 1e-2, true, Metric::MaxAbs);
        assert!(!pass && l.contains("BEYOND TOLERANCE"), "{l}");
        // Within tolerance but the argmax moves: still a failure.
        let (l, pass) = output_line(
            "y",
            &[0.5, 0.5001],
            &[0.5001, 0.5],
            1e-2,
            true,
            Metric::MaxAbs,
        );
        assert!(
            !pass && l.contains("top-1 DIFFERS: reference 1, simulated 0"),
            "{l}"
        );
        // Every simulated score NaN: no class, said in words.
        let (l, _) = output_line("y", &r, &[f32::NAN; 3], 1e-2, true, Metric::MaxAbs);
        assert!(
            l.contains("top-1 DIFFERS: reference 1, simulated none (every score is NaN)"),
            "{l}"
        );
        // A feature map's largest element is no class: not compared.
        let (l, pass) = output_line(
            "y",
            &[0.5, 0.5001],
            &[0.5001, 0.5],
            1e-2,
            false,
            Metric::MaxAbs,
        );
        assert!(pass && !l.contains("top-1"), "{l}");
    }

    #[test]
    fn an_int8_top1_may_differ_only_on_a_tie_within_the_tolerance() {
        // Reference classes 1 and 2 are 0.005 apart: a tie at 1e-2 of rms 0.735.
        let r = [0.1, 0.9, 0.895];
        let (l, pass) = output_line("y", &r, &[0.1, 0.89, 0.9], 1e-2, true, Metric::Rms);
        assert!(
            pass && l.contains("a tie") && l.contains("rms error"),
            "{l}"
        );
        // 0.2 apart is a different answer, not a tie (the values are within 0.2).
        let (l, pass) = output_line(
            "y",
            &[0.1, 0.9, 0.7],
            &[0.1, 0.89, 0.9],
            0.2,
            true,
            Metric::Rms,
        );
        assert!(!pass && l.contains("top-1 DIFFERS"), "{l}");
        // FP16 keeps the strict rule.
        let (l, pass) = output_line("y", &r, &[0.1, 0.89, 0.9], 1e-2, true, Metric::MaxAbs);
        assert!(!pass && l.contains("top-1 DIFFERS"), "{l}");
    }

    #[test]
    fn classifier_shapes() {
        assert!(is_classifier(&[1, 1000]));
        assert!(is_classifier(&[1, 10, 1, 1]));
        assert!(!is_classifier(&[1, 4, 64, 64]));
        assert!(!is_classifier(&[1, 1, 1, 1]));
    }
}

#[cfg(test)]
mod fp16_storage_test {
    use super::*;

    /// A failing FP16 line says how far FP16 storage alone lands, and
    /// whether the loadable is within that; the verdict words stay.
    #[test]
    fn a_failing_line_names_the_fp16_storage_error() {
        let r = [1.0f32, -2.0];
        let stored = Tensor::from_f32(vec![2], vec![1.0, -2.04]).unwrap();
        let line = "  y: max abs error 5e-2 = 2.5e-2 of max |reference| 2e0 (BEYOND TOLERANCE)\n";
        let within = with_storage_floor(
            line.into(),
            &r,
            &stored,
            1.5e-2,
            Metric::MaxAbs,
            FormatFloor::Fp16,
        )
        .unwrap();
        assert!(
            within.contains(
                "(BEYOND TOLERANCE; within FP16 storage of every ONNX value alone, 2.000e-2)"
            ),
            "{within}"
        );
        let above = with_storage_floor(
            line.into(),
            &r,
            &stored,
            2.5e-2,
            Metric::MaxAbs,
            FormatFloor::Fp16,
        )
        .unwrap();
        assert!(above.contains("; above FP16 storage"), "{above}");
        let overflow = Tensor::from_f32(vec![2], vec![f32::INFINITY, -2.0]).unwrap();
        let kept = with_storage_floor(
            line.into(),
            &r,
            &overflow,
            2.5e-2,
            Metric::MaxAbs,
            FormatFloor::Fp16,
        )
        .unwrap();
        assert_eq!(kept, line);
        // An INT8 line names INT8 storage of the calibrated values.
        let int8 = with_storage_floor(
            line.into(),
            &r,
            &stored,
            2.5e-2,
            Metric::MaxAbs,
            FormatFloor::Int8,
        )
        .unwrap();
        assert!(
            int8.contains(
                "(BEYOND TOLERANCE; above INT8 storage of its weights and stored values alone, 2.000e-2)"
            ),
            "{int8}"
        );
    }
}
