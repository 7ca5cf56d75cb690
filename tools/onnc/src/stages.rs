//! What every stage of `onnc compile` shares (the stages themselves run on
//! the in-memory IR: [`crate::pipeline::Compilation`]): loading the model,
//! the summary's name of a failed stage ([`stopped_in`]), the progress line
//! of a finished stage ([`report_step`], also a `tracing` event), and the
//! MLIR context used when text is asked for.
//!
//! ```text
//! [1/5] import          model.onnx                 12 ms
//! [2/5] onnx-simplify                              40 ms
//! ```

use crate::cli::Progress;
use melior::Context;
use onnc_dialects::ir;
use std::{io::IsTerminal, time::Instant};

/// `stopped in legalization`: the summary's words for a failed stage.
pub fn stopped_in(stage: &str) -> String {
    let what = match stage {
        "import" => "import",
        "onnx-simplify" => "simplification",
        "onnc-legalize" => "legalization",
        "convert-onnx-to-nvdla" => "lowering",
        "nvdla-load-ctable" => "calibration",
        "nvdla-split-conv" => "CBUF splitting",
        "nvdla-plan-memory" => "memory planning",
        other => other,
    };
    format!("stopped in {what}")
}

/// Whether to print progress lines (`auto`: when stderr is a terminal).
pub fn progress_wanted(mode: Progress) -> bool {
    match mode {
        Progress::Always => true,
        Progress::Never => false,
        Progress::Auto => std::io::stderr().is_terminal(),
    }
}

/// The context every stage runs in (our passes registered).
pub fn new_context() -> Result<Context, Vec<String>> {
    onnc_passes::register_all();
    ir::new_context().map_err(|d| d.iter().map(|d| d.to_string()).collect())
}

/// `file: error: what` for a loader message (which may already name the file).
pub fn as_error(file: &str, message: &str) -> String {
    if message.contains("error:") {
        return message.to_string();
    }
    match message.strip_prefix(&format!("{file}: ")) {
        Some(rest) => format!("{file}: error: {rest}"),
        None => format!("{file}: error: {message}"),
    }
}

/// Loads the model with the `--input-shape` specs (warnings printed), or
/// the loader's message naming the file.
pub fn load(model: &std::path::Path, shapes: &[String]) -> Result<onnc_onnx::Model, Vec<String>> {
    let file = model.display().to_string();
    let mut opts = onnc_onnx::Options::default();
    for spec in crate::common::input_shape::canonical(shapes).map_err(|e| vec![e])? {
        let parsed = onnc_onnx::Options::parse_input_shape(&spec).ok_or_else(|| {
            vec![format!(
                "error: --input-shape '{spec}' is not NAME=DxDx.. with positive dims"
            )]
        })?;
        tracing::debug!(input = %parsed.0, dims = ?parsed.1, "input shape");
        opts.input_shapes.push(parsed);
    }
    let loaded =
        onnc_onnx::load(model, &opts).map_err(|e| vec![as_error(&file, &e.to_string())])?;
    let warnings: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| format!("{file}: warning: {w}"))
        .collect();
    crate::common::diagnostics::emit_messages(&warnings, None);
    Ok(loaded)
}

/// Stage `step` of `total` is done: a `tracing` event, and the progress
/// line `[2/5] onnx-simplify ... 40.0 ms` when `progress`.
pub fn report_step(
    step: usize,
    total: usize,
    name: &str,
    detail: &str,
    start: Instant,
    progress: bool,
) {
    let ms = start.elapsed().as_secs_f64() * 1e3;
    tracing::info!(stage = name, step, of = total, ms = %format!("{ms:.1}"), "done");
    if progress {
        onnc_io::stderr::line(&format!(
            "[{step}/{total}] {name:<24} {detail:<32} {ms:>8.1} ms"
        ));
    }
}
