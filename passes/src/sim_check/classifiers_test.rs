//! The INT8 accuracy check: three digit classifiers (plain, residual and
//! depthwise-separable CNNs, `test/data/int8-classifiers`, trained by its
//! `train_classifiers.py`) calibrated by the built-in calibrator on their
//! calibration set, compiled for nv_small, nv_large and nv_full (INT8), and run over the
//! held-out test set in the simulator: INT8 top-1 must be within 1 point
//! of the FP32 model's (reference interpreter) on the same inputs.
//!
//! `cargo test -p onnc-passes --lib classifiers -- --nocapture` prints the
//! table of docs/quantization.md (every calibration method is measured;
//! the 1-point bound is asserted for each).
//!
//! The residual model's Add: calibration derives no X1 rescale yet, so
//! the skip tensor's scale must be the accumulator unit times a power of
//! two (docs/targets/nvdla.md, *INT8 operand scales*) and `nvdla-load-ctable`
//! refuses the calibrator's raw scales. [`align_residuals`] coarsens the
//! conv's input scale until it is, as `passes/nvdla/tests/simulate/int8.rs`
//! does; the accuracy is measured with the aligned scales.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use onnc_calib::{CalibSource, Method, Preprocess};
use onnc_nvdla::ctable::{TensorScale, TensorScales};
use onnc_onnx::Graph;
use onnc_tensor::Tensor;

use super::accuracy::{reference_classes, score, simulated_classes};
use super::int8::{compile_int8, program_name};
use onnc_nvdla::{Engine, TensorKind};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/data/int8-classifiers")
}

/// The held-out set: one `x` input `[1, 1, 8, 8]` per sample, and the labels.
fn test_set() -> (Vec<Vec<(String, Tensor)>>, Vec<usize>) {
    let x = onnc_npy::read(&data().join("test_x.npy")).expect("test_x.npy");
    let y = onnc_npy::read(&data().join("test_y.npy")).expect("test_y.npy");
    let x = x.as_f32().expect("test_x is float32").to_vec();
    let labels: Vec<usize> = y
        .as_i64()
        .expect("test_y is int64")
        .iter()
        .map(|&v| v as usize)
        .collect();
    let n = labels.len();
    assert_eq!(x.len(), n * 64, "test_x holds [N, 1, 8, 8]");
    let samples = x
        .chunks(64)
        .map(|c| {
            vec![(
                "x".to_string(),
                Tensor::from_f32(vec![1, 1, 8, 8], c.to_vec()).unwrap(),
            )]
        })
        .collect();
    (samples, labels)
}

fn scales(c: &onnc_calib::Calibration) -> TensorScales {
    let mut t = TensorScales::new("int8-classifiers/calib", "calib");
    for (name, &s) in &c.scales {
        t.entries.insert(name.clone(), TensorScale::new(s));
    }
    t
}

/// Raises the scale of each fused conv's input (or lowers the skip
/// operand's when the conv's would have to shrink) so that every INT8
/// element-wise operand counts the accumulator unit `s_in · s_w` (`s_w =
/// max |w| / 127`, per tensor) times a power of two.
fn align_residuals(graph: &Graph, target: &str, s: &mut TensorScales) {
    let (_, p) = crate::numerics::compile_nvdla_planned(graph.clone(), "align", target, "naive")
        .unwrap_or_else(|e| panic!("{}", e.join("\n")));
    // The program's name → the table's key (an ONNX value name).
    let keys: HashMap<String, String> = s
        .entries
        .keys()
        .map(|k| (program_name(graph, k), k.clone()))
        .collect();
    let key = |t: usize| {
        let name = &p.tensors[t].name;
        keys.get(name)
            .cloned()
            .unwrap_or_else(|| panic!("no scale for '{name}'"))
    };
    for op in p.ops.iter().filter(|o| o.engine == Engine::Sdp) {
        let Some(acc) = op.inputs[0].filter(|&t| p.tensors[t].kind == TensorKind::Fused) else {
            continue;
        };
        let conv = &p.ops[p.producer(acc).unwrap()];
        let (Some(x), Some(w)) = (conv.inputs[0], conv.inputs[1]) else {
            continue;
        };
        let TensorKind::Weight(wv) = &p.tensors[w].kind else {
            continue;
        };
        let wv = wv.values();
        let s_w = f64::from(wv.iter().fold(0f32, |m, v| m.max(v.abs()))) / 127.0;
        for &b in op.inputs[1..].iter().flatten() {
            if p.tensors[b].is_weight() {
                continue;
            }
            let (kx, kb) = (key(x), key(b));
            let s_x = f64::from(s.entries[&kx].scale);
            let s_b = f64::from(s.entries[&kb].scale);
            let k = (s_b / (s_w * s_x)).log2().floor();
            if k >= 0.0 {
                s.entries.get_mut(&kx).unwrap().scale = (s_b / (s_w * k.exp2())) as f32;
            } else {
                s.entries.get_mut(&kb).unwrap().scale = (s_w * s_x) as f32;
            }
        }
    }
}

fn model(name: &str) -> (Graph, String) {
    let path = data().join(format!("{name}.onnx"));
    let g = onnc_onnx::load(&path, &onnc_onnx::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .graph;
    (g, format!("{name}.onnx"))
}

#[test]
fn int8_classifiers_keep_their_fp32_accuracy_within_one_point() {
    let (samples, labels) = test_set();
    let source = CalibSource::detect(&data().join("calib"), Preprocess::default()).unwrap();
    let methods = [
        Method::Entropy,
        Method::Max,
        Method::Percentile(onnc_calib::DEFAULT_PERCENTILE),
        Method::Mse,
    ];
    // Every method on nv_small; nv_large and nv_full in INT8 (the same
    // INT8 arithmetic in other memory layouts and atom sizes) with the
    // default one. One thread per model.
    let runs: Vec<(&str, Method)> = methods
        .iter()
        .map(|&m| ("nv_small", m))
        .chain([
            ("nv_large", Method::Entropy),
            ("nv_full:int8", Method::Entropy),
        ])
        .collect();
    let (samples, labels, source, runs) = (&samples, &labels, &source, &runs);
    let results: Vec<Vec<(String, bool)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ["plain", "residual", "dwsep"]
            .map(|name| scope.spawn(move || measure(name, source, runs, samples, labels)))
            .into_iter()
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    for (line, within) in results.into_iter().flatten() {
        println!("{line}");
        if !within {
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "INT8 beyond 1 point of FP32:\n{}",
        failures.join("\n")
    );
}

/// The check `onnc compile --check-sim` runs, with the per-layer table:
/// every INT8 surface is dequantized and compared, the shipped and the
/// no-reuse loadables give the same output bytes, and every output and
/// layer is within INT8_TOLERANCE (each calibration set of the models is
/// a check input; the largest ratio is printed for docs/quantization.md).
#[test]
fn the_int8_check_compares_every_surface_within_the_tolerance() {
    let source = CalibSource::detect(&data().join("calib"), Preprocess::default()).unwrap();
    let mut worst: f64 = 0.0;
    for name in ["plain", "dwsep", "residual"] {
        let (graph, file) = model(name);
        let stats = onnc_calib::collect(&graph, &source, false).unwrap();
        let plans = source.plan(&graph).unwrap();
        for method in [
            Method::Entropy,
            Method::Max,
            Method::Percentile(onnc_calib::DEFAULT_PERCENTILE),
            Method::Mse,
        ] {
            let mut model_worst: f64 = 0.0;
            let mut s = scales(&stats.calibration(method));
            if name == "residual" {
                align_residuals(&graph, "nv_small", &mut s);
            }
            let (bytes, _) = compile_int8(&graph, &file, "nv_small", "best-fit", &s)
                .unwrap_or_else(|e| panic!("{}", e.join("\n")));
            for plan in plans.iter().step_by(10) {
                let inputs = source.load(plan, &graph).unwrap().inputs;
                let c = super::check_int8(
                    &graph,
                    &file,
                    "nv_small",
                    &inputs,
                    &s,
                    super::int8::INT8_TOLERANCE,
                    &bytes,
                    super::Detail::Layers,
                )
                .unwrap_or_else(|e| panic!("{}", e.join("\n")));
                assert!(c.ok, "{file} ({method}):\n{}", c.text);
                // Every layer, the Gemm's 1×1 conv (`fc/conv`) too.
                assert!(!c.text.contains("not compared"), "{}", c.text);
                assert!(c.text.contains("no layer beyond tolerance"), "{}", c.text);
                model_worst = model_worst.max(c.worst);
            }
            println!("{file} ({method}): largest error / max |reference| {model_worst:.3e}");
            worst = worst.max(model_worst);
        }
    }
    println!("largest error / max |reference| over outputs and layers: {worst:.3e}");
}

/// The tolerance is tight enough to see a wrong conversion: `plain.onnx`
/// compiled for an input scale 25 % off what the check quantizes with
/// fails. (A hidden tensor's scale is free: its producer's output converter
/// and its consumers' units change together; the input's and the
/// outputs' are what the loadable and its user must agree on.)
#[test]
fn a_scale_25_percent_off_fails_the_int8_check() {
    let source = CalibSource::detect(&data().join("calib"), Preprocess::default()).unwrap();
    let (graph, file) = model("plain");
    let s = scales(&onnc_calib::calibrate(&graph, &source, &Default::default()).unwrap());
    let mut wrong = s.clone();
    wrong.entries.get_mut("x").unwrap().scale *= 1.25;
    let (bytes, _) = compile_int8(&graph, &file, "nv_small", "best-fit", &wrong)
        .unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let inputs = source
        .load(&source.plan(&graph).unwrap()[0], &graph)
        .unwrap()
        .inputs;
    let c = super::check_int8(
        &graph,
        &file,
        "nv_small",
        &inputs,
        &s,
        super::int8::INT8_TOLERANCE,
        &bytes,
        super::Detail::Outputs,
    )
    .unwrap_or_else(|e| panic!("{}", e.join("\n")));
    println!("{}", c.text);
    assert!(!c.ok && c.text.contains("BEYOND TOLERANCE"), "{}", c.text);
}

/// One model over `runs`: a line per run and whether INT8 is within 1
/// point of FP32.
fn measure(
    name: &str,
    source: &CalibSource,
    runs: &[(&str, Method)],
    samples: &[Vec<(String, Tensor)>],
    labels: &[usize],
) -> Vec<(String, bool)> {
    let (graph, file) = model(name);
    let stats = onnc_calib::collect(&graph, source, false).unwrap();
    let reference =
        reference_classes(&graph, &file, samples).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    runs.iter()
        .map(|&(target, method)| {
            let mut s = scales(&stats.calibration(method));
            if name == "residual" {
                align_residuals(&graph, target, &mut s);
            }
            let (bytes, _) = compile_int8(&graph, &file, target, "best-fit", &s)
                .unwrap_or_else(|e| panic!("{file} on {target} ({method}): {}", e.join("\n")));
            let simulated = simulated_classes(&graph, &file, target, &bytes, Some(&s), samples)
                .unwrap_or_else(|e| panic!("{file} on {target}: {}", e.join("\n")));
            let a = score(&reference, &simulated, labels);
            let (fp32, int8) = (a.reference_percent(), a.simulated_percent());
            (
                format!(
                    "{file} on {target}, {method}: FP32 {fp32:.2}%, INT8 {int8:.2}% ({} samples, top-1 agrees on {})",
                    a.samples, a.agree
                ),
                (fp32 - int8).abs() <= 1.0,
            )
        })
        .collect()
}
