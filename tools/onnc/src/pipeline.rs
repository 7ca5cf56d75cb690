//! The in-memory pipeline behind `onnc compile` for NVDLA: load the model
//! once into a [`Module`], run the passes on it in place, stage by stage,
//! and print MLIR only when asked (`--emit mlir`, `--dump-ir-after-all`).
//!
//! In: the model path, the input shapes, a dump directory, whether to show
//! progress. Out: the module after the stages ran; on failure every
//! diagnostic of the stage and the stage's name (rendered by `onnc_diag`:
//! `m.onnx: node 'x' (Op): error: ...`, then `error: N problems; stopped
//! in legalization`). Each stage is a `tracing` span (`stage{name=...}`) with a `done`
//! event carrying its time (`RUST_LOG=info`, or `onnc compile -vv`).
//!
//! ```text
//! [1/5] import          model.onnx                 12 ms
//! [2/5] onnx-simplify                              40 ms
//! ```

use crate::common::diagnostics::Failure;
use melior::Context;
use onnc_passes::{
    io::write_atomic,
    pipeline::{text, Diags, Manager, Module},
};
use std::{path::PathBuf, time::Instant};

/// Runs the passes of `pipeline` as stage `name` on `module`: the
/// warnings and remarks, or every message of the failure (the module must
/// then not be used further).
pub fn run_on(module: &mut Module, name: &str, pipeline: &str) -> Result<Vec<String>, Vec<String>> {
    let mut manager = Manager::new();
    manager
        .add(name, pipeline)
        .map_err(|e| vec![format!("internal error: pipeline '{pipeline}': {e}")])?;
    let mut diags = Diags::new();
    let ran = manager.run(module, &mut diags, |_, _, _| Ok(()));
    let messages: Vec<String> = diags.take().iter().map(|d| d.to_string()).collect();
    match ran {
        Ok(_) => Ok(messages),
        Err(_) if messages.is_empty() => Err(vec![format!("error: stage {name} failed")]),
        Err(_) => Err(messages),
    }
}

/// A model being compiled, stage by stage, in memory.
pub struct Compilation {
    /// The module.
    pub module: Module,
    file: String,
    dump: Option<PathBuf>,
    progress: bool,
    step: usize,
    total: usize,
    /// Created on the first request for text.
    context: Option<Context>,
}

impl Compilation {
    /// Loads the model (stage 1 of `total`): the ONNX file is read, its
    /// shapes inferred (an inconsistent model fails here, naming the file).
    pub fn import(
        model: &std::path::Path,
        shapes: &[String],
        dump: Option<PathBuf>,
        progress: bool,
        total: usize,
    ) -> Result<Self, Vec<String>> {
        let start = Instant::now();
        let file = model.display().to_string();
        let _span = tracing::info_span!("stage", name = "import", file = %file).entered();
        let loaded = crate::stages::load(model, shapes)?;
        let mut graph = loaded.graph;
        onnc_passes::pipeline::names::canonicalize(&mut graph)
            .map_err(|e| vec![format!("{file}: error: {e}")])?;
        if let Some(d) = &dump {
            std::fs::create_dir_all(d)
                .map_err(|e| vec![format!("error: cannot create '{}': {e}", d.display())])?;
        }
        let mut c = Compilation {
            module: Module::Onnx(graph),
            file: file.clone(),
            dump,
            progress,
            step: 0,
            total,
            context: None,
        };
        c.finish_stage("import", &file, start)?;
        Ok(c)
    }

    /// Runs the passes of `pipeline` (`a,b{k=v}`) as stage `name`; on
    /// failure every diagnostic of the stage, and where it stopped
    /// (`stopped in legalization`).
    pub fn run(&mut self, name: &str, pipeline: &str) -> Result<(), Failure> {
        self.try_run(name, pipeline)
            .map_err(|m| Failure::from(m).stopped(crate::stages::stopped_in(name)))
    }

    /// [`Compilation::run`], with the stage's messages as the engines print them.
    pub fn try_run(&mut self, name: &str, pipeline: &str) -> Result<(), Vec<String>> {
        let start = Instant::now();
        let _span = tracing::info_span!("stage", name).entered();
        tracing::debug!(pipeline, "running");
        let messages = run_on(&mut self.module, name, pipeline)?;
        // Warnings and remarks of a stage that succeeded: not with -q
        // (whose log level shows errors only).
        if tracing::enabled!(tracing::Level::WARN) {
            crate::common::diagnostics::emit_messages(&messages, Some(&self.file));
        }
        self.finish_stage(name, "", start)
    }

    /// Counts a stage done without running a pass (emission, reports).
    pub fn step(&mut self, name: &str, detail: &str, start: Instant) {
        self.step += 1;
        crate::stages::report_step(self.step, self.total, name, detail, start, self.progress);
    }

    fn finish_stage(
        &mut self,
        name: &str,
        detail: &str,
        start: Instant,
    ) -> Result<(), Vec<String>> {
        let step = self.step + 1;
        self.step(name, detail, start);
        if let Some(d) = self.dump.clone() {
            let path = d.join(format!("{step:02}-{name}.mlir"));
            let text = self.text()?;
            write_atomic(&path, text.as_bytes())
                .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])?;
        }
        Ok(())
    }

    /// The module as MLIR text (with locations, resources in full).
    pub fn text(&mut self) -> Result<String, Vec<String>> {
        if self.context.is_none() {
            self.context = Some(crate::stages::new_context()?);
        }
        let context = self.context.as_ref().expect("set above");
        text::print(context, &self.module, &self.file)
    }
}
