//! Decomposes the INT8 error of a model compiled for nv_small/nv_large into
//! (a) the format limit — FP32 against "ideal INT8 with these scales"
//! (`onnc_nvdla::ideal`: every stored tensor rounded to its calibrated scale,
//! weights quantized as the compiler chose) — and (b) the implementation —
//! that ideal INT8 against the bit-exact simulator, layer by layer.
//!
//! In: `cargo run -p onnc-nvdla --example int8_decompose -- MODEL.onnx
//! nv_small|nv_large CALIB_DIR [METHOD] [--per-tensor]` (METHOD as
//! `--calib-method`: max, percentile[:P], entropy, mse; default entropy as
//! `onnc --calib`). The model is calibrated on the ONNX graph over every
//! set in CALIB_DIR, compiled with the naive planner (every surface kept),
//! and simulated on the first set. Out on stdout: one row per stored
//! layer (RMS errors over the FP32 reference's RMS: `a` ideal vs FP32,
//! `b` simulated vs ideal, `c` simulated vs FP32), then the output's
//! max-abs errors over max |ref| and the argmaxes. Exit code 1 with the
//! first error. With `INT8_DECOMPOSE_KEEP=PATTERN` the values of legalized
//! nodes whose name contains PATTERN stay FP32 in the ideal run (`""`:
//! all of them), and with `INT8_DECOMPOSE_FP32_WEIGHTS=1` the weights do.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::ctable::{self, ApplyOptions};
use onnc_nvdla::emit::{emit, locate, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions, Strategy};
use onnc_nvdla::{ideal, ConfigName, TensorKind};
use onnc_tensor::Tensor;

fn rms_ratio(r: &[f32], s: &[f32], norm: f64) -> f64 {
    let d: f64 = r.iter().zip(s).map(|(a, b)| f64::from(a - b).powi(2)).sum();
    (d / r.len().max(1) as f64).sqrt() / norm
}

fn rms(r: &[f32]) -> f64 {
    (r.iter().map(|a| f64::from(*a).powi(2)).sum::<f64>() / r.len().max(1) as f64).sqrt()
}

fn max_ratio(r: &[f32], s: &[f32]) -> f64 {
    let peak = r.iter().fold(0f32, |m, v| m.max(v.abs()));
    let worst = r.iter().zip(s).fold(0f32, |m, (a, b)| m.max((a - b).abs()));
    f64::from(worst / peak.max(1e-30))
}

fn argmax(v: &[f32]) -> usize {
    v.iter()
        .enumerate()
        .fold((0, f32::MIN), |b, (i, &y)| if y > b.1 { (i, y) } else { b })
        .0
}

fn f32s(t: &Tensor) -> Result<Vec<f32>, String> {
    Ok(t.as_f32().map_err(|e| e.to_string())?.to_vec())
}

fn run(args: &[String]) -> Result<(), String> {
    let per_tensor = args.iter().any(|a| a == "--per-tensor");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--per-tensor").collect();
    let [model, config, dir, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: int8_decompose MODEL.onnx nv_small|nv_large CALIB_DIR [METHOD] [--per-tensor]"
                .into(),
        );
    };
    let method: onnc_calib::Method = match rest.first() {
        Some(m) => m.parse().map_err(|e| format!("{e}"))?,
        None => onnc_calib::Method::default(),
    };
    let (target, config) = match config.as_str() {
        "nv_small" => (Target::NvSmall, ConfigName::NvSmall),
        "nv_large" => (Target::NvLarge, ConfigName::NvLarge),
        c => return Err(format!("unknown INT8 configuration '{c}'")),
    };
    let g = onnc_onnx::load(model.as_str(), &Default::default())
        .map_err(|e| format!("{model}: {e}"))?
        .graph;
    let src = onnc_calib::CalibSource::detect(Path::new(dir.as_str()), Default::default())
        .map_err(|e| e.to_string())?;
    let stats = onnc_calib::collect(&g, &src, false).map_err(|e| e.to_string())?;
    let cal = stats.calibration(method);
    let plans = src.plan(&g).map_err(|e| e.to_string())?;
    let first = src
        .load(plans.first().ok_or("no calibration set")?, &g)
        .map_err(|e| e.to_string())?;
    let (input, x) = first
        .inputs
        .first()
        .cloned()
        .ok_or("the model has no input")?;
    let original = onnc_interp::run_graph(&g, &first.inputs).map_err(|e| e.to_string())?;
    let reference = f32s(&original.first().ok_or("no output")?.1)?;

    let l = legalize(g, target, &Options::default()).map_err(|e| format!("legalize: {e}"))?;
    let mut p =
        lower(&l.graph, config, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    let table: serde_json::Map<String, serde_json::Value> = cal
        .scales
        .iter()
        .map(|(n, s)| (n.clone(), serde_json::json!({ "scale": f64::from(*s) })))
        .collect();
    let t = ctable::parse_nvidia_calibtable(&serde_json::Value::Object(table).to_string(), "calib")
        .map_err(|e| e.to_string())?;
    let opts = ApplyOptions {
        per_channel: !per_tensor,
    };
    let applied =
        ctable::apply_scales_with(&mut p, &t, &opts).map_err(|e| format!("calibrate: {e}"))?;
    let notes = applied.notes.len();
    plan(
        &mut p,
        &PlanOptions {
            strategy: Strategy::Naive,
        },
    )
    .map_err(|e| format!("plan: {e}"))?;
    let bytes = emit(&p, &EmitOptions { abi: Abi::Current })
        .map_err(|e| format!("emit: {e}"))?
        .write();

    // The simulated run, every surface kept.
    let s_x = f64::from(*cal.scales.get(&input).ok_or("no scale for the input")?);
    let q: Vec<f32> = f32s(&x)?
        .iter()
        .map(|v| (f64::from(*v) / s_x) as f32)
        .collect();
    let sim_in = [onnc_nvdla_sim::run::Tensor {
        bind_id: 0,
        data: onnc_nvdla_sim::run::TensorData::F32(q),
    }];
    let (out, mem) = onnc_nvdla_sim::run::simulate_memory(&bytes, &sim_in, &Default::default())
        .map_err(|e| format!("simulate: {e}"))?;
    let hw = onnc_nvdla_sim::engine::Hw::by_name(config.as_str()).ok_or("no hardware model")?;

    // Stored scales by program tensor, and by the legalized values they hold.
    let stored = ideal::stored_scales(&p, s_x);
    let by_name: HashMap<&str, usize> = p
        .tensors
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let program_tensor = |node: &onnc_onnx::Node, k: usize, v: &str| -> Option<usize> {
        by_name
            .get(v)
            .or_else(|| (k == 0).then(|| by_name.get(node.name.as_str())).flatten())
            .copied()
    };
    // `INT8_DECOMPOSE_KEEP=PATTERN`: values of nodes whose name contains
    // PATTERN stay FP32 in the ideal run (what a finer scale there buys).
    let keep = std::env::var("INT8_DECOMPOSE_KEEP").ok();
    let quant = |node: &onnc_onnx::Node, k: usize, v: &str| {
        if keep.as_deref().is_some_and(|pat| node.name.contains(pat)) {
            return None;
        }
        program_tensor(node, k, v).and_then(|t| stored[t])
    };
    let modes = ideal::weight_modes(&p);
    let (mut qg, chan, tens) = ideal::quantize_weights(&l.graph, &modes)?;
    if std::env::var("INT8_DECOMPOSE_FP32_WEIGHTS").is_ok_and(|v| v == "1") {
        qg = l.graph.clone();
    }
    let fp = ideal::run(&l.graph, &first.inputs, &|_, _, _| None, None)?;
    let fq = ideal::run(&qg, &first.inputs, &quant, Some(s_x))?;
    // Values also under the names of the nodes that make them.
    let mut alias: HashMap<String, String> = HashMap::new();
    for n in &l.graph.nodes {
        if let Some(o) = n.outputs.first() {
            alias.entry(n.name.clone()).or_insert_with(|| o.clone());
        }
    }
    let value = |env: &HashMap<String, Tensor>, name: &str| -> Option<Tensor> {
        env.get(name)
            .or_else(|| alias.get(name).and_then(|v| env.get(v)))
            .cloned()
    };

    println!(
        "{model} {} {method}: {} weights per channel, {} per tensor; {} notes; {} ops",
        config.as_str(),
        chan,
        tens,
        notes,
        p.ops.len()
    );
    let located = locate(&p).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let mut sims: HashMap<String, Vec<f32>> = HashMap::new();
    for (index, op) in p.ops.iter().enumerate() {
        let tensor = &p.tensors[op.output];
        if op.engine.is_virtual()
            || !matches!(tensor.kind, TensorKind::Activation | TensorKind::Output(_))
        {
            continue;
        }
        let (Some((_, desc)), Some(s)) = (&located[op.output], stored[op.output]) else {
            continue;
        };
        let names = std::iter::once(tensor.name.as_str())
            .chain(op.onnx_nodes.iter().rev().map(String::as_str));
        let Some((key, r, i)) = names
            .filter_map(|n| Some((n, value(&fp, n)?, value(&fq, n)?)))
            .find(|(_, r, _)| r.numel() == tensor.elements())
        else {
            continue;
        };
        let key = alias.get(key).cloned().unwrap_or_else(|| key.to_string());
        let (r, i) = (f32s(&r)?, f32s(&i)?);
        let sim: Vec<f32> = onnc_nvdla_sim::run::read_cube(&mem, &hw, desc)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|v| (f64::from(*v) * s) as f32)
            .collect();
        // A layer whose reference is (nearly) all zero is measured in output steps.
        let norm = rms(&r).max(s);
        let (a, b, c) = (
            rms_ratio(&r, &i, norm),
            rms_ratio(&i, &sim, norm),
            rms_ratio(&r, &sim, norm),
        );
        sims.insert(key.clone(), sim);
        rows.push((index, op, key, norm, s, a, b, c));
    }
    // Each layer again from the simulator's own inputs: its local error.
    let (_, local) = ideal::run_replacing(&qg, &first.inputs, &quant, Some(s_x), &sims)?;
    println!("  #  layer                                    engine  shape              a:ideal-fp32  b:sim-ideal  c:sim-fp32  local:sim-ideal(sim inputs)  (steps)");
    let (mut worst_b, mut worst_b_at) = (0f64, String::new());
    let (mut worst_l, mut worst_l_at) = (0f64, String::new());
    for (index, op, key, norm, s, a, b, c) in rows {
        let (l, steps) = match (local.get(&key), sims.get(&key)) {
            (Some(t), Some(sim)) => {
                let v = f32s(t)?;
                (rms_ratio(&v, sim, norm), rms_ratio(&v, sim, s))
            }
            _ => (f64::NAN, f64::NAN),
        };
        if b > worst_b {
            worst_b = b;
            worst_b_at = op.hw_layer.clone();
        }
        if l > worst_l {
            worst_l = l;
            worst_l_at = op.hw_layer.clone();
        }
        println!(
            "{index:>4}  {:<40} {:<6}  {:<18} {a:>12.4} {b:>12.4} {c:>11.4} {l:>12.4} {steps:>10.3}",
            op.hw_layer,
            op.engine.op_name(),
            format!("{:?}", p.tensors[op.output].shape)
        );
    }
    println!(
        "largest local error (sim − ideal on the simulator's inputs): {worst_l:.4} ({worst_l_at})"
    );
    let o = *p.outputs.first().ok_or("no output")?;
    let s_out = stored[o].ok_or("the output has no INT8 scale")?;
    let sim: Vec<f32> = out
        .tensors
        .first()
        .ok_or("no simulated output")?
        .values
        .iter()
        .map(|v| (f64::from(*v) * s_out) as f32)
        .collect();
    let out_name = &l.graph.outputs.first().ok_or("no output")?.name;
    let legal = f32s(fp.get(out_name).ok_or("no legalized output")?)?;
    let ideal = f32s(fq.get(out_name).ok_or("no ideal output")?)?;
    println!("largest b (sim − ideal) at a layer: {worst_b:.4} ({worst_b_at})");
    println!(
        "output, max |Δ| / max |ref|: legalized−ref {:.3}, ideal−legalized {:.3}, sim−ideal {:.3}, sim−ref {:.3}; RMS ratio: ideal−legalized {:.3}, sim−ideal {:.3}, sim−ref {:.3}",
        max_ratio(&reference, &legal),
        max_ratio(&legal, &ideal),
        max_ratio(&ideal, &sim),
        max_ratio(&reference, &sim),
        rms_ratio(&legal, &ideal, rms(&legal)),
        rms_ratio(&ideal, &sim, rms(&legal)),
        rms_ratio(&reference, &sim, rms(&reference)),
    );
    println!(
        "argmax: ref {} legalized {} ideal {} sim {}",
        argmax(&reference),
        argmax(&legal),
        argmax(&ideal),
        argmax(&sim)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
