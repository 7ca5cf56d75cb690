//! Compiles an ONNX model for an NVDLA configuration in INT8, calibrated
//! on the ONNX graph as `onnc --calib` does (method max: every value's
//! `max |v| / 127` over `.npy` inputs), without the MLIR tools: legalize,
//! lower, apply the scales (tensors the legalizer or the lowering made get
//! derived ones), plan, emit. Prints the legalized graph's activation
//! counts, the op counts and the calibration notes; with `ONNC_SIM=1` also
//! runs the loadable in the bit-exact simulator on the first calibration
//! input and compares the first output with the FP32 interpreter.
//!
//! In: `cargo run -p onnc-nvdla --example int8_compile -- MODEL.onnx
//! nv_small|nv_large CALIB.npy...`. Out: a report on stdout; exit code 1
//! with the first error.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::ctable::{self, ApplyOptions};
use onnc_nvdla::emit::{emit, Abi, EmitOptions};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{ConfigName, Engine};

fn run(args: &[String]) -> Result<(), String> {
    let [model, config, calib @ ..] = args else {
        return Err("usage: int8_compile MODEL.onnx nv_small|nv_large CALIB.npy...".into());
    };
    let (target, config) = match config.as_str() {
        "nv_small" => (Target::NvSmall, ConfigName::NvSmall),
        "nv_large" => (Target::NvLarge, ConfigName::NvLarge),
        c => return Err(format!("unknown INT8 configuration '{c}'")),
    };
    let g = onnc_onnx::load(model, &Default::default())
        .map_err(|e| format!("{model}: {e}"))?
        .graph;
    let input = g
        .inputs
        .first()
        .ok_or("the model has no input")?
        .name
        .clone();
    let mut maxima: BTreeMap<String, f32> = BTreeMap::new();
    let mut first: Option<(onnc_tensor::Tensor, Vec<f32>)> = None;
    for path in calib {
        let x = onnc_npy::read(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
        let mut put = |name: &str, t: &onnc_tensor::Tensor| {
            if let Ok(v) = t.as_f32() {
                let m = v.iter().fold(0f32, |m, x| m.max(x.abs()));
                let e = maxima.entry(name.to_string()).or_insert(0.0);
                *e = e.max(m);
            }
        };
        put(&input, &x);
        let outs =
            onnc_interp::run_graph_observed(&g, &[(input.clone(), x.clone())], &mut |n, outs| {
                for (name, t) in n.outputs.iter().zip(outs) {
                    put(name, t);
                }
            })
            .map_err(|e| format!("calibration run: {e}"))?;
        if first.is_none() {
            let y = outs
                .first()
                .ok_or("the model has no output")?
                .1
                .as_f32()
                .map_err(|e| e.to_string())?
                .to_vec();
            first = Some((x, y));
        }
    }
    let l = legalize(g, target, &Options::default()).map_err(|e| format!("legalize: {e}"))?;
    let ops = |op: &str| l.graph.nodes.iter().filter(|n| n.op_type == op).count();
    println!(
        "legalized: {} nodes ({} HardSigmoid, {} Sigmoid, {} Tanh)",
        l.graph.nodes.len(),
        ops("HardSigmoid"),
        ops("Sigmoid"),
        ops("Tanh")
    );
    let mut p =
        lower(&l.graph, config, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    let table: serde_json::Map<String, serde_json::Value> = maxima
        .iter()
        .map(|(n, m)| {
            (
                n.clone(),
                serde_json::json!({ "scale": f64::from(m.max(1e-6)) / 127.0 }),
            )
        })
        .collect();
    let t = ctable::parse_nvidia_calibtable(&serde_json::Value::Object(table).to_string(), "calib")
        .map_err(|e| e.to_string())?;
    let stats = ctable::apply_scales_with(&mut p, &t, &ApplyOptions::default())
        .map_err(|e| format!("calibrate: {e}"))?;
    for n in &stats.notes {
        println!("note: {n}");
    }
    plan(&mut p, &PlanOptions::default()).map_err(|e| format!("plan: {e}"))?;
    let bytes = emit(&p, &EmitOptions { abi: Abi::Current })
        .map_err(|e| format!("emit: {e}"))?
        .write();
    let count = |e: Engine| p.ops.iter().filter(|o| o.engine == e).count();
    println!(
        "{model} for {}: {} CONV, {} SDP, {} PDP ops; loadable {} bytes",
        config.as_str(),
        count(Engine::Conv),
        count(Engine::Sdp),
        count(Engine::Pdp),
        bytes.len()
    );
    if std::env::var("ONNC_SIM").is_ok_and(|v| v == "1") {
        let (x, reference) = first.ok_or("no calibration input to simulate")?;
        let s_x = maxima[&input].max(1e-6) / 127.0;
        let q: Vec<f32> = x
            .as_f32()
            .map_err(|e| e.to_string())?
            .iter()
            .map(|v| v / s_x)
            .collect();
        let inputs = [onnc_nvdla_sim::run::Tensor {
            bind_id: 0,
            data: onnc_nvdla_sim::run::TensorData::F32(q),
        }];
        let out = onnc_nvdla_sim::run::simulate(&bytes, &inputs, &Default::default())
            .map_err(|e| format!("simulate: {e}"))?;
        let &o = p.outputs.first().ok_or("no output")?;
        let name = &p.tensors[o].name;
        let s_out = maxima
            .get(name)
            .ok_or(format!("no scale for output '{name}'"))?
            .max(1e-6)
            / 127.0;
        let sim: Vec<f32> = out
            .tensors
            .first()
            .ok_or("no simulated output")?
            .values
            .iter()
            .map(|v| v * s_out)
            .collect();
        let legal = onnc_interp::run_graph(&l.graph, &[(input.clone(), x.clone())])
            .map_err(|e| format!("legalized run: {e}"))?;
        let fp32: Vec<f32> = legal
            .first()
            .ok_or("no output")?
            .1
            .as_f32()
            .map_err(|e| e.to_string())?
            .to_vec();
        let amax = |v: &[f32]| {
            v.iter()
                .enumerate()
                .fold((0, f32::MIN), |b, (i, &y)| if y > b.1 { (i, y) } else { b })
                .0
        };
        let peak = reference.iter().fold(0f32, |m, v| m.max(v.abs()));
        let worst = reference
            .iter()
            .zip(&sim)
            .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        let legal_err = reference
            .iter()
            .zip(&fp32)
            .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        let sim_legal = fp32
            .iter()
            .zip(&sim)
            .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
        println!(
            "simulated: max |sim − ref| = {worst:.4} = {:.3} of max |ref| {peak:.3}; argmax ref {} sim {} legalized-FP32 {}",
            worst / peak,
            amax(&reference),
            amax(&sim),
            amax(&fp32)
        );
        println!(
            "legalized graph in FP32 (the approximations alone): max |Δ| = {legal_err:.4} = {:.3} of max |ref|; INT8 simulation against it: {:.3}",
            legal_err / peak,
            sim_legal / peak
        );
    }
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
