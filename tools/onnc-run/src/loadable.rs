//! `onnc-run` on NVDLA loadables (and nvdla-dialect IR, emitted in memory):
//! the bit-exact simulator `onnc-nvdla-sim` instead of the interpreter.
//!
//! In: the loadable bytes, inputs in the ONNX test-data layout
//! (`--inputs DIR`: `input_<k>.pb` binds input bind id k; `.npy` through
//! `--input`), or none (NVIDIA's unit-test loadables carry their data).
//! Out: `output_<k>.pb` per output bind id (`--outputs`), a summary line per
//! output, `--expected` comparison, `--dimg-out` (the output in NVIDIA's
//! 2018 DIMG layout, as the regression goldens), `--dump-layers DIR` (every
//! surface an op writes: `NNN-tT-opO-ENGINE.bin` raw bytes and `layers.json`
//! with each surface's geometry).

use onnc_nvdla_sim::{run, sched::Dump};
use onnc_tensor::{DType, Tensor};
use std::io::IsTerminal;
use std::path::Path;

/// What `main` hands over for a loadable run.
pub struct Request<'a> {
    /// The loadable bytes.
    pub bytes: Vec<u8>,
    /// Display name of the model.
    pub file: &'a str,
    /// Inputs in bind-id order (`None` = leave zero).
    pub inputs: Vec<Option<Tensor>>,
    /// `--outputs`.
    pub outputs: Option<&'a Path>,
    /// `--expected` with its tolerances.
    pub expected: Option<(&'a Path, f64, f64)>,
    /// `--dimg-out`.
    pub dimg_out: Option<&'a Path>,
    /// `--dump-layers`.
    pub dump_layers: Option<&'a Path>,
    /// `--nvdla-config`: the hardware configuration (default: inferred).
    pub config: Option<&'a str>,
    /// `--progress`: whether a bar over the simulated layers is wanted
    /// (drawn only when stderr is a terminal).
    pub progress: bool,
}

/// Writes the surface `d` as the next file of `--dump-layers` `dir` and
/// its line of `layers.json` (the first write error is kept in `error`).
fn dump_layer(dir: &Path, d: &Dump, layers: &mut Vec<String>, error: &mut Option<String>) {
    let name = format!(
        "{:03}-t{}-op{}-{}.bin",
        layers.len(),
        d.task,
        d.op,
        d.engine.replace(' ', "_")
    );
    if let Err(e) = onnc_io::write_file(&dir.join(&name), d.bytes) {
        error.get_or_insert(e.to_string());
    }
    layers.push(format!(
        "{{\"file\": \"{name}\", \"task\": {}, \"op\": {}, \"engine\": \"{}\", \"width\": {}, \"height\": {}, \"channel\": {}, \"line_stride\": {}, \"surf_stride\": {}, \"precision\": \"{}\"}}",
        d.task,
        d.op,
        d.engine,
        d.whc.0,
        d.whc.1,
        d.whc.2,
        d.strides.0,
        d.strides.1,
        ["int8", "int16", "fp16"].get(usize::from(d.precision)).unwrap_or(&"?")
    ));
}

fn err(m: impl std::fmt::Display) -> Vec<String> {
    vec![format!("onnc-run: error: {m}")]
}

/// Whether `path`/`bytes` is a loadable rather than ONNX or MLIR.
pub fn is_loadable(path: &Path, bytes: &[u8]) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.ends_with(".nvdla") || name.ends_with("_fbuf") || bytes.get(4..8) == Some(b"NVDA")
}

/// Runs the request; `Ok(false)` when `--expected` found a mismatch.
pub fn run(req: Request) -> Result<bool, Vec<String>> {
    let hw = match req.config {
        Some(name) => Some(onnc_nvdla_sim::engine::Hw::by_name(name).ok_or_else(|| {
            err(format!(
                "unknown --nvdla-config '{name}' (nv_full, nv_large, nv_small)"
            ))
        })?),
        None => None,
    };
    let opts = run::Options {
        hw,
        ..Default::default()
    };
    if let Some(path) = req.dimg_out {
        // NVIDIA's regression flow binds no input (an unbound input reads as
        // zeros); an all-zero input folder is the same run.
        let zero = |t: &Tensor| {
            t.cast(DType::F32)
                .as_f32()
                .map(|v| v.iter().all(|x| *x == 0.0))
                .unwrap_or(false)
        };
        if req.inputs.iter().flatten().any(|t| !zero(t)) {
            return Err(err("--dimg-out runs NVIDIA's regression flow, whose inputs are zero; give no inputs or all-zero ones"));
        }
        let dimg =
            run::golden_dimg(&req.bytes, &opts).map_err(|e| err(format!("{}: {e}", req.file)))?;
        onnc_io::write_file(path, &dimg).map_err(err)?;
    }
    let inputs: Vec<run::Tensor> = req
        .inputs
        .iter()
        .enumerate()
        .filter_map(|(k, t)| t.as_ref().map(|t| (k, t)))
        .map(|(k, t)| {
            let values = t
                .cast(DType::F32)
                .as_f32()
                .map(|v| v.to_vec())
                .map_err(|e| err(e.to_string()))?;
            Ok(run::Tensor {
                bind_id: k as u16,
                data: run::TensorData::F32(values),
            })
        })
        .collect::<Result<_, Vec<String>>>()?;
    let mut layers: Vec<String> = Vec::new();
    let mut dump_error: Option<String> = None;
    if let Some(dir) = req.dump_layers {
        std::fs::create_dir_all(dir)
            .map_err(|e| err(format!("cannot create '{}': {e}", dir.display())))?;
    }
    // The count loads the loadable once more: only for a bar that is drawn.
    let total = if req.progress && std::io::stderr().is_terminal() {
        run::layer_count(&req.bytes, &opts).unwrap_or(0)
    } else {
        0
    };
    let bar = onnc_calib::progress_bar(total, "simulating", "layers", req.progress);
    let result = if req.dump_layers.is_none() && bar.is_hidden() {
        run::simulate(&req.bytes, &inputs, &opts)
    } else {
        let mut on_layer = |l: &run::Layer| {
            let d = l.dump;
            bar.set_position(l.index as u64);
            bar.set_message(format!("{} (task {} op {})", d.engine, d.task, d.op));
            if let Some(dir) = req.dump_layers {
                dump_layer(dir, d, &mut layers, &mut dump_error);
            }
        };
        run::simulate_with_layers(&req.bytes, &inputs, &opts, &mut on_layer)
    };
    bar.finish_and_clear();
    let outs = result.map_err(|e| err(format!("{}: {e}", req.file)))?;
    if let Some(dir) = req.dump_layers {
        if let Some(e) = dump_error {
            return Err(err(e));
        }
        let index = format!("[\n  {}\n]\n", layers.join(",\n  "));
        onnc_io::write_file(&dir.join("layers.json"), index.as_bytes()).map_err(err)?;
    }
    let mut text = String::new();
    let mut tensors = Vec::new();
    for o in &outs.tensors {
        let t =
            Tensor::from_f32(o.dims.to_vec(), o.values.clone()).map_err(|e| err(e.to_string()))?;
        text += &format!(
            "{}: {} {:?} (bind id {}, {})\n",
            o.name,
            summary(&o.values),
            o.dims,
            o.bind_id,
            o.data_type
        );
        tensors.push((o.name.clone(), t));
    }
    if let Some(dir) = req.outputs {
        std::fs::create_dir_all(dir)
            .map_err(|e| err(format!("cannot create '{}': {e}", dir.display())))?;
        for (k, (name, t)) in tensors.iter().enumerate() {
            let bytes = onnc_onnx::tensor_pb_bytes(name, t);
            onnc_io::write_file(&dir.join(format!("output_{k}.pb")), &bytes).map_err(err)?;
        }
    }
    let mut ok = true;
    if let Some((dir, rtol, atol)) = req.expected {
        for (k, (name, actual)) in tensors.iter().enumerate() {
            let p = dir.join(format!("output_{k}.pb"));
            let (_, expected) = onnc_onnx::read_tensor_pb(&p).map_err(|e| err(e.to_string()))?;
            let expected = expected.cast(DType::F32);
            // The loadable's NCHW view of an output may be the model's [N, C]
            // or any other shape with the same elements.
            let actual = if actual.numel() == expected.numel() {
                Tensor::from_f32(
                    expected.shape().to_vec(),
                    actual.as_f32().map_err(|e| err(e.to_string()))?.to_vec(),
                )
                .map_err(|e| err(e.to_string()))?
            } else {
                actual.clone()
            };
            match (onnc_interp::Tolerance { rtol, atol }).check(&expected, &actual) {
                Ok(d) => {
                    text += &format!(
                        "{name}: matches {} (max abs error {:.3e}; rtol {rtol}, atol {atol})\n",
                        p.display(),
                        d.max_abs
                    )
                }
                Err(m) => {
                    ok = false;
                    text += &format!("{name}: MISMATCH with {}: {m}\n", p.display());
                }
            }
        }
    }
    onnc_io::stdout::print(&text)
        .map_err(|e| err(onnc_io::stdout::describe(&e).trim_start_matches("error: ")))?;
    Ok(ok)
}

fn summary(v: &[f32]) -> String {
    let (mut lo, mut hi, mut sum) = (f32::INFINITY, f32::NEG_INFINITY, 0.0f64);
    for &x in v {
        lo = lo.min(x);
        hi = hi.max(x);
        sum += f64::from(x);
    }
    let mean = if v.is_empty() {
        0.0
    } else {
        sum / v.len() as f64
    };
    let head: Vec<String> = v.iter().take(4).map(|x| format!("{x:.6}")).collect();
    format!(
        "min {lo:.6} max {hi:.6} mean {mean:.6} first [{}]",
        head.join(", ")
    )
}
