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

mod compare_target;
mod int8_scales;
mod loadable;

use clap::Parser;
use onnc_passes::numerics;
use onnc_tensor::{DType, Tensor};
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

mod checks;

use onnc_tools::{diagnostics, generate};

/// onnc-run: run a model with onnc's reference interpreter.
#[derive(Parser, Debug)]
#[command(name = "onnc-run", version = env!("ONNC_VERSION_LINE"))]
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
    /// Relative tolerance for --expected / --compare-pipeline (finite, >= 0).
    #[arg(long, default_value_t = 1e-3, value_parser = checks::tolerance)]
    rtol: f64,
    /// Absolute tolerance for --expected / --compare-pipeline (finite, >= 0).
    #[arg(long, default_value_t = 1e-5, value_parser = checks::tolerance)]
    atol: f64,
    /// Largest tensor made from the inputs (random inputs), in bytes (`16G`, `512M`).
    #[arg(long = "max-tensor-bytes", default_value_t = onnc_tensor::limits::MAX_TENSOR_BYTES, value_parser = checks::byte_count)]
    max_tensor_bytes: u64,
    /// Fix a graph input's shape (`name=1x3x224x224`) for .onnx models.
    #[arg(long = "input-shape")]
    input_shape: Vec<String>,
    /// Loadables: write output 0 in NVIDIA's 2018 DIMG layout (the regression goldens' format).
    #[arg(long = "dimg-out")]
    dimg_out: Option<PathBuf>,
    /// Loadables: write every surface an op writes, and layers.json, into this folder.
    #[arg(long = "dump-layers")]
    dump_layers: Option<PathBuf>,
    /// Compile for this NVDLA configuration, simulate the loadable and compare with the interpreter.
    #[arg(long = "compare-target", value_parser = ["nv_full", "nv_large", "nv_small"])]
    compare_target: Option<String>,
    /// Loadables: the NVDLA configuration they were built for (default: inferred from the
    /// memory layout; nv_large looks like nv_full, so name it).
    #[arg(long = "nvdla-config", value_parser = ["nv_full", "nv_large", "nv_small"])]
    nvdla_config: Option<String>,
    /// --compare-target: largest error allowed, as a fraction of the output's max |reference|
    /// (FP16, default 1e-2) or of its RMS reference (INT8: RMS error, default 0.15).
    #[arg(long = "target-tolerance", value_parser = checks::tolerance)]
    target_tolerance: Option<f64>,
    /// --compare-target nv_small|nv_large: calibrate on these sets (`test_data_set_*`
    /// folders or `.npy` files) instead of on the compared inputs.
    #[arg(long = "calib", conflicts_with = "uncalibrated")]
    calib: Option<PathBuf>,
    /// --compare-target nv_small|nv_large: how thresholds are chosen (max, entropy, mse,
    /// percentile=P; default max on the compared inputs, entropy with --calib).
    #[arg(long = "calib-method", conflicts_with = "uncalibrated")]
    calib_method: Option<String>,
    /// --compare-target nv_small|nv_large: compile with identity scales, as for integer-valued
    /// test data, instead of calibrating.
    #[arg(long)]
    uncalibrated: bool,
    /// Loadables: a progress bar over the simulated layers (`layer k/n`, engine, ETA) on a
    /// terminal; never drawn into a pipe or file.
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    progress: Progress,
    /// `--diagnostics-format`, `--color`.
    #[command(flatten)]
    diagnostics: diagnostics::DiagnosticArgs,
}

/// When to draw the simulation progress bar (only ever on a terminal).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    /// When stderr is a terminal.
    Auto,
    /// Always (still only on a terminal: a bar is never written into a pipe or file).
    Always,
    /// Never.
    Never,
}

fn main() -> ExitCode {
    main_with(std::env::args().collect())
}

/// `onnc-run` on the command line `args` (program name first): also `onnc
/// run` and a link named `onnc-run` to the `onnc` binary.
pub fn main_with(args: Vec<String>) -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    generate::handle_hidden_flags(<Cli as clap::CommandFactory>::command, &args);
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) if e.use_stderr() && diagnostics::wants_json(&args) => {
            diagnostics::emit_clap_error_json(&e);
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    cli.diagnostics.apply();
    onnc_passes::register_all();
    match run(&cli) {
        Ok(code) => code,
        Err(lines) => {
            diagnostics::Failure::from(lines).emit();
            ExitCode::FAILURE
        }
    }
}

fn err(msg: impl Into<String>) -> Vec<String> {
    vec![format!("onnc-run: error: {}", msg.into())]
}

/// Reads a `.npy` input with `onnc-npy` (every numpy dtype onnc holds, both
/// byte orders, Fortran order, v1–v3 headers; sizes checked before allocating).
fn read_npy(path: &Path) -> Result<Tensor, String> {
    onnc_npy::read(path).map_err(|e| e.to_string())
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

/// `--calib`, `--calib-method` and `--uncalibrated` only mean something for an
/// INT8 `--compare-target`; elsewhere they are an error naming the flag.
fn int8_flags_apply(cli: &Cli) -> Result<(), Vec<String>> {
    let given = [
        ("--calib", cli.calib.is_some()),
        ("--calib-method", cli.calib_method.is_some()),
        ("--uncalibrated", cli.uncalibrated),
    ];
    let int8 = matches!(cli.compare_target.as_deref(), Some("nv_small" | "nv_large"));
    match given.iter().find(|(_, on)| *on) {
        Some((flag, _)) if !int8 => Err(err(format!(
            "{flag} applies to --compare-target nv_small or nv_large (INT8), not to {}",
            match &cli.compare_target {
                Some(t) => format!("--compare-target {t} (FP16)"),
                None => "a run without --compare-target".to_string(),
            }
        ))),
        _ => Ok(()),
    }
}

fn run(cli: &Cli) -> Result<ExitCode, Vec<String>> {
    int8_flags_apply(cli)?;
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

    if let Some(code) = run_loadable(cli)? {
        return Ok(code);
    }
    if cli.dimg_out.is_some() || cli.dump_layers.is_some() {
        return Err(err(
            "--dimg-out and --dump-layers apply to NVDLA loadables and nvdla IR",
        ));
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
        let random =
            numerics::random_inputs_within(&graph, seed, cli.max_tensor_bytes).map_err(err)?;
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
    if let Some(target) = &cli.compare_target {
        let choice = int8_scales::Choice {
            dir: cli.calib.clone(),
            method: cli.calib_method.clone(),
        };
        let ok = compare_target::run(
            &graph,
            &cli.model.display().to_string(),
            target,
            &given,
            cli.target_tolerance,
            (!cli.uncalibrated).then_some(&choice),
        )?;
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
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

/// The simulator path: a loadable, or nvdla-dialect IR emitted in memory.
/// `None` when the model is ONNX or onnx-dialect IR.
fn run_loadable(cli: &Cli) -> Result<Option<ExitCode>, Vec<String>> {
    onnc_io::check_inputs(&[cli.model.as_path()]).map_err(|e| err(e.to_string()))?;
    let bytes = std::fs::read(&cli.model)
        .map_err(|e| err(format!("cannot read '{}': {e}", cli.model.display())))?;
    let file = cli.model.display().to_string();
    let is_mlir = cli
        .model
        .extension()
        .is_some_and(|e| e == "mlir" || e == "mlirbc");
    let bytes = if loadable::is_loadable(&cli.model, &bytes) {
        bytes
    } else if is_mlir && std::str::from_utf8(&bytes).is_ok_and(|t| t.contains("\"nvdla.")) {
        numerics::emit_nvdla_ir(&bytes, &file)?
    } else {
        return Ok(None);
    };
    if cli.random_inputs.is_some() || !cli.input.is_empty() || cli.compare_pipeline.is_some() {
        return Err(err("loadables take --inputs DIR (input_<k>.pb binds input k); --input, --random-inputs and --compare-pipeline are for ONNX and onnx IR"));
    }
    let mut inputs = Vec::new();
    if let Some(dir) = &cli.inputs {
        for k in 0.. {
            let p = dir.join(format!("input_{k}.pb"));
            if !p.exists() {
                break;
            }
            inputs.push(Some(read_input_file(&p).map_err(err)?));
        }
        if inputs.is_empty() {
            return Err(err(format!("'{}' holds no input_0.pb", dir.display())));
        }
    }
    let ok = loadable::run(loadable::Request {
        bytes,
        file: &file,
        inputs,
        outputs: cli.outputs.as_deref(),
        expected: cli.expected.as_deref().map(|d| (d, cli.rtol, cli.atol)),
        dimg_out: cli.dimg_out.as_deref(),
        dump_layers: cli.dump_layers.as_deref(),
        config: cli.nvdla_config.as_deref(),
        progress: cli.progress != Progress::Never,
    })?;
    Ok(Some(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }))
}
