//! The staged pipeline behind `onnc compile`: import, then one MLIR pass
//! pipeline per stage, each optionally dumped and reported on a progress line.
//!
//! In: the model path, the input shapes, a dump directory, whether to show
//! progress. Out: a module after the stages run; on failure every
//! diagnostic of the failed stage and its name ([`stopped_in`]).
//! Each stage is also a `tracing` span (`stage{name=...}`) with a `done`
//! event carrying its time (`RUST_LOG=info`, or `onnc compile -vv`).
//!
//! ```text
//! [1/5] import          model.onnx                 12 ms
//! [2/5] onnx-simplify                              40 ms
//! ```

use crate::{cli::Progress, common::diagnostics::Failure};
use melior::{ir::Module, Context};
use onnc_dialects::{ir, verify};
use onnc_passes::{import::onnx::import_model, io::write_atomic};
use std::{io::IsTerminal, path::PathBuf, time::Instant};

/// A module being compiled, stage by stage.
pub struct Stages<'c> {
    context: &'c Context,
    capture: ir::DiagnosticCapture<'c>,
    /// The module.
    pub module: Module<'c>,
    dump: Option<PathBuf>,
    progress: bool,
    step: usize,
    total: usize,
}

/// `stopped in legalization`: the summary's words for a failed stage.
pub fn stopped_in(stage: &str) -> String {
    let what = match stage {
        "import" => "import",
        "onnx-simplify" => "simplification",
        "onnc-legalize" => "legalization",
        "convert-onnx-to-nvdla" => "lowering",
        "nvdla-load-ctable" => "calibration",
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
        eprintln!("[{step}/{total}] {name:<24} {detail:<32} {ms:>8.1} ms");
    }
}

impl<'c> Stages<'c> {
    /// Loads and imports the model (stage 1 of `total`).
    pub fn import(
        context: &'c Context,
        model: &std::path::Path,
        shapes: &[String],
        dump: Option<PathBuf>,
        progress: bool,
        total: usize,
    ) -> Result<Self, Vec<String>> {
        let start = Instant::now();
        let file = model.display().to_string();
        let _span = tracing::info_span!("stage", name = "import", file = %file).entered();
        let loaded = load(model, shapes)?;
        let capture = ir::DiagnosticCapture::attach(context);
        let module = import_model(context, loaded, &file).map_err(|e| e.0)?;
        if !verify::verify_module(&module) {
            let mut m = vec![format!("{file}: error: the imported IR does not verify:")];
            m.extend(capture.take().iter().map(|d| d.to_string()));
            return Err(m);
        }
        if let Some(d) = &dump {
            std::fs::create_dir_all(d)
                .map_err(|e| vec![format!("error: cannot create '{}': {e}", d.display())])?;
        }
        let mut s = Stages {
            context,
            capture,
            module,
            dump,
            progress,
            step: 0,
            total,
        };
        s.finish_stage("import", &file, start)?;
        Ok(s)
    }

    /// Runs `pipeline` as stage `name`; on failure every diagnostic of the
    /// stage and where it stopped.
    pub fn run(&mut self, name: &str, pipeline: &str) -> Result<(), Failure> {
        let start = Instant::now();
        let _span = tracing::info_span!("stage", name).entered();
        tracing::debug!(pipeline, "running");
        let runner =
            ir::PipelineRunner::new(self.context, pipeline, &Default::default()).map_err(|e| {
                Failure::from(vec![format!("internal error: pipeline '{pipeline}': {e}")])
            })?;
        let ok = runner.run(&mut self.module) && verify::verify_module(&self.module);
        if !ok {
            let mut m: Vec<String> = self.capture.take().iter().map(|d| d.to_string()).collect();
            if m.is_empty() {
                m.push(format!("error: stage {name} failed"));
            }
            return Err(Failure::from(m).stopped(stopped_in(name)));
        }
        let messages: Vec<String> = self.capture.take().iter().map(|d| d.to_string()).collect();
        crate::common::diagnostics::emit_messages(&messages, None);
        Ok(self.finish_stage(name, "", start)?)
    }

    /// Counts a stage done without running a pipeline (emission, reports).
    pub fn step(&mut self, name: &str, detail: &str, start: Instant) {
        self.step += 1;
        report_step(self.step, self.total, name, detail, start, self.progress);
    }

    fn finish_stage(
        &mut self,
        name: &str,
        detail: &str,
        start: Instant,
    ) -> Result<(), Vec<String>> {
        let step = self.step + 1;
        self.step(name, detail, start);
        if let Some(d) = &self.dump {
            let path = d.join(format!("{step:02}-{name}.mlir"));
            write_atomic(&path, self.text().as_bytes())
                .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])?;
        }
        Ok(())
    }

    /// The module as text (with locations, resources in full).
    pub fn text(&self) -> String {
        ir::print_op(
            &self.module.as_operation(),
            &ir::PrintOptions {
                debug_info: true,
                ..Default::default()
            },
        )
    }
}
