//! The INT8 variant of the differential check (nv_large): the program is
//! calibrated from the reference's own activations before emission.
//!
//! In: an ONNX graph and an INT8 configuration. Out: a [`Report`]; panics
//! when an output disagrees by more than `tol · max |ref|`.
//!
//! Calibration: the legalized graph runs in the interpreter on the test
//! input; every value's `max |v| / 127` becomes its scale in an NVIDIA
//! calibtable (`ctable::load_nvidia_calibtable`), restricted to the
//! program's tensor names. [`Calib::Onnx`] runs the ONNX graph instead, as
//! the CLI calibrator does: tensors the legalizer made get no entry, and
//! the calibration must derive their scales (`ctable::derive`). The simulator gets `x / s_x` (it rounds and
//! saturates to INT8) and its INT8 outputs are multiplied back by their
//! scales.

use std::collections::BTreeMap;
use std::time::Instant;

use onnc_legalize::{legalize, Options};
use onnc_nvdla::ctable::ApplyOptions;
use onnc_nvdla::emit::{emit, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{ctable, Engine, Program, TensorId, TensorKind};
use onnc_onnx::Graph;
use onnc_tensor::Tensor;

use crate::harness::{compare, inputs_for, op_kinds, reference, through_the_loader, Check, Report};

/// `max |v| / 127` of every value the legalized graph computes, by name.
fn activation_scales(g: &Graph, inputs: &[(String, Tensor)]) -> BTreeMap<String, f64> {
    let mut scales = BTreeMap::new();
    let mut put = |name: &str, t: &Tensor| {
        if let Ok(v) = t.as_f32() {
            let m = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            scales.insert(name.to_string(), f64::from(m.max(1e-6)) / 127.0);
        }
    };
    for (n, t) in inputs {
        put(n, t);
    }
    let mut observe = |node: &onnc_onnx::Node, outs: &[Tensor]| {
        for (name, t) in node.outputs.iter().zip(outs) {
            put(name, t);
        }
    };
    onnc_interp::run_graph_observed(g, inputs, &mut observe)
        .unwrap_or_else(|e| panic!("{}: calibration run: {e}", g.name));
    scales
}

/// The partial-sum entries (`"<node>#psum"`) `onnc compile --calib`'s
/// calibrator writes for `g` on `inputs` (the maximum, as for every
/// partial sum).
fn psum_scales(g: &Graph, inputs: &[(String, Tensor)]) -> BTreeMap<String, f64> {
    let set = onnc_calib::DataSet {
        inputs: inputs.to_vec(),
        files: vec![],
    };
    let opts = onnc_calib::Options {
        method: onnc_calib::Method::Max,
        ..Default::default()
    };
    let cal = onnc_calib::calibrate(g, &onnc_calib::CalibSource::Sets(vec![set]), &opts)
        .unwrap_or_else(|e| panic!("{}: calibrate: {e}", g.name));
    cal.scales
        .into_iter()
        .filter(|(k, _)| onnc_calib::psum::is_psum_key(k))
        .map(|(k, s)| (k, f64::from(s)))
        .collect()
}

/// The scale a tensor is written in: its own, except that the partial sums
/// of an unaligned concat (`y#part2`) are in the concat's.
fn scale_key(name: &str) -> &str {
    name.split("#part").next().unwrap_or(name)
}

/// Whether `t` is written through an output converter (SDP, EMU).
fn converted(p: &Program, t: TensorId) -> bool {
    p.producer(t)
        .is_some_and(|i| matches!(p.ops[i].engine, Engine::Sdp | Engine::Emu))
}

/// The tensor whose scale `t` carries: itself when converted, else its
/// producer's input, recursively (PDP, views, RUBIK, BDMA keep the scale).
fn inherited(p: &Program, mut t: TensorId) -> TensorId {
    while let Some(i) = p.producer(t).filter(|_| !converted(p, t)) {
        match p.ops[i].inputs.first().copied().flatten() {
            Some(x) => t = x,
            None => break,
        }
    }
    t
}

/// Makes every INT8 element-wise add calibratable: the X1/X2 ALUs shift a
/// feature operand by whole bits only, so the fused conv's input scale (a
/// standalone SDP's own input scale) is raised until
/// `s_operand / (s_in · s_w)` (`s_w` = 1 standalone) is a power of two.
fn align_residuals(p: &Program, scales: &mut BTreeMap<String, f64>) {
    for op in p.ops.iter().filter(|o| o.engine == Engine::Sdp) {
        let Some(input) = op.inputs[0] else { continue };
        let (x, s_w) = match p.producer(input).map(|i| &p.ops[i]) {
            Some(conv) if p.tensors[input].kind == TensorKind::Fused => {
                let (Some(x), Some(w)) = (conv.inputs[0], conv.inputs[1]) else {
                    continue;
                };
                let TensorKind::Weight(wv) = &p.tensors[w].kind else {
                    continue;
                };
                let wv = wv.values();
                (
                    x,
                    f64::from(wv.iter().fold(0f32, |m, v| m.max(v.abs()))) / 127.0,
                )
            }
            _ => (input, 1.0),
        };
        for b in op.inputs[1..]
            .iter()
            .flatten()
            .filter(|&&b| !matches!(p.tensors[b].kind, TensorKind::Weight(_)))
        {
            let x_name = scale_key(&p.tensors[inherited(p, x)].name).to_string();
            let b_name = scale_key(&p.tensors[inherited(p, *b)].name).to_string();
            let (Some(&s_b), Some(&s_x)) = (scales.get(&b_name), scales.get(&x_name)) else {
                continue;
            };
            let k = (s_b / (s_w * s_x)).log2().floor();
            if k >= 0.0 {
                scales.insert(x_name, s_b / (s_w * k.exp2()));
            } else {
                // The ALU cannot shift right: coarsen the operand instead.
                scales.insert(b_name, s_w * s_x);
            }
        }
    }
}

/// Which graph the calibration observes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Calib {
    /// The legalized graph: every tensor of the program has an entry.
    Legalized,
    /// The ONNX graph before legalization, as `onnc --calib` observes it.
    Onnx,
}

/// Compiles `g` for `c.config` (INT8), calibrates, simulates and compares.
pub fn check_int8(g: Graph, c: Check) -> Report {
    check_int8_with(g, c, false)
}

/// Legalizes, lowers, calibrates from `inputs` (scales aligned for the
/// residual adds when `align`), plans and emits `g` (loaded, output dims
/// known) for `c.config`; returns the program, the loadable and the scales.
pub fn compile_int8(
    g: &Graph,
    inputs: &[(String, Tensor)],
    c: Check,
    align: bool,
) -> (Program, Vec<u8>, BTreeMap<String, f64>) {
    compile_int8_with(g, inputs, c, align, &ApplyOptions::default())
}

/// [`compile_int8`] with the calibration's options (per-channel or
/// per-tensor weights).
pub fn compile_int8_with(
    g: &Graph,
    inputs: &[(String, Tensor)],
    c: Check,
    align: bool,
    options: &ApplyOptions,
) -> (Program, Vec<u8>, BTreeMap<String, f64>) {
    compile_int8_from(g, inputs, c, align, options, Calib::Legalized)
}

/// [`compile_int8_with`], calibrated on the graph `calib` names.
pub fn compile_int8_from(
    g: &Graph,
    inputs: &[(String, Tensor)],
    c: Check,
    align: bool,
    options: &ApplyOptions,
    calib: Calib,
) -> (Program, Vec<u8>, BTreeMap<String, f64>) {
    let name = format!("{} ({})", g.name, c.config.as_str());
    let l = legalize(g.clone(), c.target, &Options::default())
        .unwrap_or_else(|e| panic!("{name}: legalize: {e}"));
    let mut scales = match calib {
        Calib::Legalized => activation_scales(&l.graph, inputs),
        Calib::Onnx => {
            let mut s = activation_scales(g, inputs);
            s.extend(psum_scales(g, inputs));
            s
        }
    };
    let mut p = lower(&l.graph, c.config, &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{name}: lower: {e}"));
    if align {
        align_residuals(&p, &mut scales);
    }
    // Every tensor gets its own scale, as in a TensorRT cache; the loader
    // must ignore those it cannot apply (outputs of PDP, views, ...).
    let mut table: serde_json::Map<String, serde_json::Value> = p
        .tensors
        .iter()
        .filter_map(|t| {
            scales
                .get(scale_key(&t.name))
                .map(|s| (t.name.clone(), serde_json::json!({ "scale": s })))
        })
        .collect();
    // The partial-sum entries, keyed by their ONNX node.
    for (k, s) in scales
        .iter()
        .filter(|(k, _)| onnc_calib::psum::is_psum_key(k))
    {
        table.insert(k.clone(), serde_json::json!({ "scale": s }));
    }
    let json = serde_json::Value::Object(table).to_string();
    ctable::parse_nvidia_calibtable(&json, "harness")
        .and_then(|t| ctable::apply_scales_with(&mut p, &t, options))
        .unwrap_or_else(|e| panic!("{name}: calibrate: {e}"));
    onnc_nvdla::emit::split_convs(&mut p).unwrap_or_else(|e| panic!("{name}: split: {e}"));
    plan(&mut p, &PlanOptions::default()).unwrap_or_else(|e| panic!("{name}: plan: {e}"));
    let bytes = emit(&p, &EmitOptions { abi: Abi::Current })
        .unwrap_or_else(|e| panic!("{name}: emit: {e}"))
        .write();
    (p, bytes, scales)
}

/// [`check_int8`], with the residual scales aligned first when `align`.
pub fn check_int8_with(g: Graph, c: Check, align: bool) -> Report {
    run_int8(g, c, align, &ApplyOptions::default()).0
}

/// One output: the reference's values and the simulator's, dequantized.
pub type Pair = (Vec<f32>, Vec<f32>);

/// [`check_int8_with`] with calibration options; also returns, per
/// output, the reference and the simulator's dequantized values.
pub fn run_int8(g: Graph, c: Check, align: bool, options: &ApplyOptions) -> (Report, Vec<Pair>) {
    run_int8_from(g, c, align, options, Calib::Legalized)
}

/// [`run_int8`], calibrated on the graph `calib` names.
pub fn run_int8_from(
    mut g: Graph,
    c: Check,
    align: bool,
    options: &ApplyOptions,
    calib: Calib,
) -> (Report, Vec<Pair>) {
    let name = format!("{} ({})", g.name, c.config.as_str());
    let inputs = inputs_for(&g, c.seed);
    let t = Instant::now();
    let refs = reference(&mut g, &inputs);
    let reference_time = t.elapsed();
    let t = Instant::now();
    let g = through_the_loader(&g);
    let (p, bytes, scales) = compile_int8_from(&g, &inputs, c, align, options, calib);
    let compile = t.elapsed();
    let scale = |tensor: &str| {
        *scales
            .get(tensor)
            .unwrap_or_else(|| panic!("{name}: no scale for '{tensor}'"))
    };
    let q_inputs: Vec<(String, Tensor)> = inputs
        .iter()
        .map(|(n, t)| {
            let s = scale(n) as f32;
            let v = t.as_f32().unwrap().iter().map(|x| x / s).collect();
            (n.clone(), Tensor::from_f32(t.shape().to_vec(), v).unwrap())
        })
        .collect();
    let t = Instant::now();
    let sims = crate::harness::simulate(&p, &bytes, &q_inputs, &name);
    let simulate = t.elapsed();
    let mut ratios = Vec::new();
    let mut pairs = Vec::new();
    for ((&out, r), s) in p.outputs.iter().zip(&refs).zip(&sims) {
        let tensor = &p.tensors[out];
        assert!(matches!(tensor.kind, TensorKind::Output(_)));
        let s_out = scale(scale_key(&p.tensors[inherited(&p, out)].name)) as f32;
        let s: Vec<f32> = s.iter().map(|q| q * s_out).collect();
        ratios.push(compare(
            &format!("{name} output {}", tensor.name),
            r.as_f32().unwrap(),
            &s,
            c,
        ));
        pairs.push((r.as_f32().unwrap().to_vec(), s));
    }
    let report = Report {
        name,
        ratios,
        compile,
        simulate,
        reference: reference_time,
        ops: op_kinds(&bytes),
    };
    println!("{}", report.line());
    (report, pairs)
}
