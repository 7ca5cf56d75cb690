//! `onnc-run` — the reference interpreter on the command line.
//!
//! ```text
//! onnc-run model.onnx --inputs test_data_set_0 --outputs out/
//! onnc-run model.mlir --random-inputs 7 --outputs out/
//! onnc-run model.onnx --inputs test_data_set_0 --expected test_data_set_0
//! onnc-run model.mlir --compare-pipeline 'builtin.module(onnx-simplify)' --random-inputs 1
//! ```
//! In: an ONNX model or an `onnx`-dialect MLIR file, and inputs from a
//! folder of `input_<k>.pb` files (ONNX test-data layout, graph input order),
//! `--input name=file.npy|.pb`, or `--random-inputs SEED`. Out: `output_<k>.pb`
//! files (graph output order) in `--outputs DIR`, and a summary per output.
//! `--expected DIR` compares with `output_<k>.pb` there (exit 1 beyond the
//! tolerance); `--compare-pipeline` runs the model before and after a pass
//! pipeline on the same inputs and reports the worst errors.

use clap::Parser;
use onnc_passes::numerics;
use onnc_tensor::{DType, Data, Tensor};
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

/// onnc-run: run a model with onnc's reference interpreter.
#[derive(Parser, Debug)]
#[command(name = "onnc-run", version)]
struct Cli {
    /// The model: `.onnx`, or `.mlir`/`.mlirbc` in the onnx dialect.
    model: PathBuf,
    /// Folder with `input_<k>.pb` files, one per graph input, in order.
    #[arg(long)]
    inputs: Option<PathBuf>,
    /// One input from a file: `name=path.npy` or `name=path.pb` (repeatable).
    #[arg(long = "input")]
    input: Vec<String>,
    /// Make every input not given otherwise from this seed.
    #[arg(long)]
    random_inputs: Option<u64>,
    /// Where to write `output_<k>.pb` (created if missing).
    #[arg(long)]
    outputs: Option<PathBuf>,
    /// Also write the inputs used, as `input_<k>.pb` (e.g. random ones, to feed another runtime).
    #[arg(long)]
    save_inputs: Option<PathBuf>,
    /// Compare the outputs with `output_<k>.pb` in this folder.
    #[arg(long)]
    expected: Option<PathBuf>,
    /// Run the model before and after this pipeline and compare (MLIR models).
    #[arg(long)]
    compare_pipeline: Option<String>,
    /// Relative tolerance for --expected / --compare-pipeline.
    #[arg(long, default_value_t = 1e-3)]
    rtol: f64,
    /// Absolute tolerance for --expected / --compare-pipeline.
    #[arg(long, default_value_t = 1e-5)]
    atol: f64,
    /// Fix a graph input's shape (`name=1x3x224x224`) for .onnx models.
    #[arg(long = "input-shape")]
    input_shape: Vec<String>,
}

fn main() -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    let cli = Cli::parse();
    onnc_passes::register_all();
    match run(&cli) {
        Ok(code) => code,
        Err(lines) => {
            for l in lines {
                eprintln!("{l}");
            }
            ExitCode::FAILURE
        }
    }
}

fn err(msg: impl Into<String>) -> Vec<String> {
    vec![format!("onnc-run: error: {}", msg.into())]
}

fn read_npy(path: &Path) -> Result<Tensor, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let npy = npyz::NpyFile::new(&bytes[..])
        .map_err(|e| format!("'{}' is not a .npy file: {e}", path.display()))?;
    if npy.order() != npyz::Order::C {
        return Err(format!(
            "'{}' is Fortran-ordered; save it C-ordered",
            path.display()
        ));
    }
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let descr = npy.dtype().descr();
    let bad = |e: std::io::Error| format!("'{}': {e}", path.display());
    let data = match descr.trim_start_matches(['<', '|', '=']) {
        "f4" => Data::F32(npy.into_vec::<f32>().map_err(bad)?),
        "f8" => Data::F64(npy.into_vec::<f64>().map_err(bad)?),
        "i8" => Data::I64(npy.into_vec::<i64>().map_err(bad)?),
        "i4" => Data::I32(npy.into_vec::<i32>().map_err(bad)?),
        "u1" => Data::U8(npy.into_vec::<u8>().map_err(bad)?),
        "i1" => Data::I8(npy.into_vec::<i8>().map_err(bad)?),
        "b1" => Data::Bool(npy.into_vec::<u8>().map_err(bad)?),
        other => return Err(format!("'{}': element type '{other}' is not supported (use float32, float64, int64, int32, int8, uint8 or bool)", path.display())),
    };
    Tensor::new(shape, data).map_err(|e| format!("'{}': {e}", path.display()))
}

fn read_input_file(path: &Path) -> Result<Tensor, String> {
    if path.extension().is_some_and(|e| e == "npy") {
        read_npy(path)
    } else {
        onnc_onnx::read_tensor_pb(path)
            .map(|(_, t)| t)
            .map_err(|e| e.to_string())
    }
}

/// Writes a TensorProto file by onnc-io's rules (atomic; nothing left on failure).
fn write_pb(path: &Path, name: &str, t: &Tensor) -> Result<(), Vec<String>> {
    onnc_io::write_file(path, &onnc_onnx::tensor_pb_bytes(name, t)).map_err(|e| err(e.to_string()))
}

/// Prints `text` on stdout; a full or closed stdout is an error, not a panic.
fn out(text: String) -> Result<(), Vec<String>> {
    onnc_io::stdout::print(&text).map_err(|e| {
        err(onnc_io::stdout::describe(&e)
            .trim_start_matches("error: ")
            .to_string())
    })
}

fn describe(t: &Tensor) -> String {
    let v = t.data().to_f64_vec();
    let (mut lo, mut hi, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
    for x in &v {
        lo = lo.min(*x);
        hi = hi.max(*x);
        sum += x;
    }
    let mean = if v.is_empty() {
        0.0
    } else {
        sum / v.len() as f64
    };
    let head: Vec<String> = v.iter().take(4).map(|x| format!("{x:.6}")).collect();
    format!(
        "{} {:?} min {lo:.6} max {hi:.6} mean {mean:.6} first [{}]",
        t.dtype(),
        t.shape(),
        head.join(", ")
    )
}

fn run(cli: &Cli) -> Result<ExitCode, Vec<String>> {
    let shapes = cli
        .input_shape
        .iter()
        .map(|s| {
            onnc_onnx::Options::parse_input_shape(s)
                .ok_or_else(|| err(format!("--input-shape '{s}' is not NAME=DxDx..")))
        })
        .collect::<Result<Vec<_>, _>>()?;

    if let Some(pipeline) = &cli.compare_pipeline {
        let text = std::fs::read_to_string(&cli.model)
            .map_err(|e| err(format!("cannot read '{}': {e}", cli.model.display())))?;
        let diffs = numerics::compare_pipeline(
            &text,
            &cli.model.display().to_string(),
            pipeline,
            cli.random_inputs.unwrap_or(0),
        )?;
        let mut ok = true;
        for d in &diffs {
            let pass = d.max_abs <= cli.atol || d.max_rel <= cli.rtol;
            ok &= pass;
            out(format!(
                "{}: shape {:?} max abs error {:.3e} max rel error {:.3e} {}\n",
                d.name,
                d.shape,
                d.max_abs,
                d.max_rel,
                if pass { "ok" } else { "MISMATCH" }
            ))?;
        }
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }

    let graph = numerics::load_graph(&cli.model, &shapes)?;
    let mut given: Vec<(String, Tensor)> = Vec::new();
    if let Some(dir) = &cli.inputs {
        for (k, v) in graph.inputs.iter().enumerate() {
            let p = dir.join(format!("input_{k}.pb"));
            if !p.exists() {
                return Err(err(format!(
                    "graph input {k} ('{}') has no file {}",
                    v.name,
                    p.display()
                )));
            }
            given.push((v.name.clone(), read_input_file(&p).map_err(err)?));
        }
    }
    for spec in &cli.input {
        let (name, path) = spec
            .split_once('=')
            .ok_or_else(|| err(format!("--input '{spec}' is not NAME=FILE")))?;
        if !graph.inputs.iter().any(|v| v.name == name) {
            let names: Vec<&str> = graph.inputs.iter().map(|v| v.name.as_str()).collect();
            return Err(err(format!(
                "the model has no input '{name}'; its inputs are: {}",
                names.join(", ")
            )));
        }
        given.retain(|(n, _)| n != name);
        given.push((
            name.to_string(),
            read_input_file(Path::new(path)).map_err(err)?,
        ));
    }
    if let Some(seed) = cli.random_inputs {
        let random = numerics::random_inputs(&graph, seed).map_err(err)?;
        for (n, t) in random {
            if !given.iter().any(|(g, _)| *g == n) {
                given.push((n, t));
            }
        }
    }
    for v in &graph.inputs {
        if !given.iter().any(|(n, _)| *n == v.name) {
            return Err(err(format!("no value for graph input '{}' (give --inputs DIR, --input {}=FILE or --random-inputs SEED)", v.name, v.name)));
        }
    }
    if let Some(dir) = &cli.save_inputs {
        std::fs::create_dir_all(dir)
            .map_err(|e| err(format!("cannot create '{}': {e}", dir.display())))?;
        for (k, v) in graph.inputs.iter().enumerate() {
            if let Some((name, t)) = given.iter().find(|(n, _)| *n == v.name) {
                write_pb(&dir.join(format!("input_{k}.pb")), name, t)?;
            }
        }
    }
    let outputs =
        numerics::run(&graph, &given).map_err(|e| err(format!("{}: {e}", cli.model.display())))?;
    for (name, t) in &outputs {
        out(format!("{name}: {}\n", describe(t)))?;
    }
    if let Some(dir) = &cli.outputs {
        std::fs::create_dir_all(dir)
            .map_err(|e| err(format!("cannot create '{}': {e}", dir.display())))?;
        for (k, (name, t)) in outputs.iter().enumerate() {
            write_pb(&dir.join(format!("output_{k}.pb")), name, t)?;
        }
    }
    let mut ok = true;
    if let Some(dir) = &cli.expected {
        for (k, (name, actual)) in outputs.iter().enumerate() {
            let p = dir.join(format!("output_{k}.pb"));
            let (_, expected) = onnc_onnx::read_tensor_pb(&p).map_err(|e| err(e.to_string()))?;
            let expected = if expected.dtype() != actual.dtype() && expected.dtype() == DType::F64 {
                expected.cast(actual.dtype())
            } else {
                expected
            };
            let tol = onnc_interp::Tolerance {
                rtol: cli.rtol,
                atol: cli.atol,
            };
            match tol.check(&expected, actual) {
                Ok(d) => out(format!(
                    "{name}: matches {} (max abs error {:.3e}; rtol {}, atol {})\n",
                    p.display(),
                    d.max_abs,
                    cli.rtol,
                    cli.atol
                ))?,
                Err(m) => {
                    ok = false;
                    out(format!("{name}: MISMATCH with {}: {m}\n", p.display()))?;
                }
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
