//! `onnc-opt`'s pipeline runner: parse once, convert once, run in memory,
//! convert back once.
//!
//! In: an MLIR context, a parsed module, a `--pass-pipeline` and mlir-opt's
//! instrumentation flags. The pipeline is cut into runs
//! ([`segments::split`]): each run of consecutive in-memory passes converts
//! the module's functions once ([`crate::pipeline::functions::read`], one
//! [`crate::pipeline::Module`] per function), runs every pass on every
//! function, and writes them back once; MLIR's pass manager runs the rest
//! (upstream passes, `func.func(...)` nests, `onnc-verify`, `onnc-dce`,
//! `convert-onnx-to-mvu`). A pipeline without an in-memory pass is one MLIR
//! run, exactly as before.
//!
//! Out: `Ok(true)` when every pass succeeded (the module holds the result),
//! `Ok(false)` after a pass failed (its diagnostics emitted at the ops it
//! blamed), `Err` for a pipeline that does not parse (MLIR's message).
//!
//! ```text
//! opt::check(&context, pipeline)?;                  // before parsing the input
//! let ok = opt::run(&context, &mut module, pipeline, &options)?;
//! ```

pub mod dump;
pub mod segments;

use super::{functions, parse::parse_entries, pass::PassFailed};
use dump::{Dumper, Timing};
use melior::{
    ir::{operation::OperationLike, Module, OperationRef},
    Context,
};
use onnc_dialects::ir::{PipelineOptions, PipelineRunner};
use segments::Segment;
use std::time::Instant;

/// Checks `pipeline` with MLIR's parser (names, nesting, anchors) and each
/// pass's options, without running anything. `Err` is MLIR's message.
pub fn check(context: &Context, pipeline: &str) -> Result<(), String> {
    PipelineRunner::new(context, pipeline, &PipelineOptions::default()).map(|_| ())
}

/// Runs `pipeline` on `module` (see the module doc).
pub fn run<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    pipeline: &str,
    options: &PipelineOptions,
) -> Result<bool, String> {
    let runs = segments::split(pipeline);
    if !runs.iter().any(|s| matches!(s, Segment::Memory(_))) {
        let runner = PipelineRunner::new(context, pipeline, options)?;
        return Ok(runner.run(module));
    }
    let mut dumper = Dumper::new(options);
    for run in runs {
        let ok = match run {
            Segment::Mlir(text) => {
                let runner = PipelineRunner::new(context, &text, &dumper.mlir_options())?;
                let ok = runner.run(module);
                drop(runner);
                dumper.collect();
                ok
            }
            Segment::Memory(entries) => {
                let mut timing = Timing::default();
                let ok = run_memory(&module.as_operation(), &entries, &mut dumper, &mut timing)?;
                if options.timing {
                    eprint!("{}", timing.report());
                }
                ok
            }
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Writes the in-memory functions back when the MLIR module is behind them.
fn sync<'c>(
    module: &OperationRef<'c, '_>,
    fns: &[functions::Function<'c>],
    stale: &mut bool,
    flag: &str,
) -> Result<(), PassFailed> {
    if *stale {
        functions::write(module, fns, flag)?;
        *stale = false;
    }
    Ok(())
}

/// One run of in-memory passes: read, run each pass on every function
/// (dumping as asked), write back, verify.
fn run_memory<'c>(
    module: &OperationRef<'c, '_>,
    entries: &[String],
    dumper: &mut Dumper,
    timing: &mut Timing,
) -> Result<bool, String> {
    let mut steps = Vec::new();
    for e in entries {
        steps.extend(parse_entries(e)?);
    }
    let Some((first, _)) = steps.first() else {
        return Ok(true);
    };
    let first_flag = first.registration.flag;
    let start = Instant::now();
    let Ok(mut fns) = functions::read(module, first.input, first_flag) else {
        dumper.failed(first_flag, module);
        return Ok(false);
    };
    timing.add("(MLIR to memory)", start.elapsed());
    let mut stale = false;
    for (entry, pass) in &steps {
        let flag = entry.registration.flag;
        let wants_mlir = dumper.before_all() || dumper.after_change() || dumper.after_failure();
        if wants_mlir && sync(module, &fns, &mut stale, flag).is_err() {
            return Ok(false);
        }
        if dumper.before_all() {
            dumper.before(flag, module);
        }
        let before = dumper.after_change().then(|| dumper.text(module));
        let start = Instant::now();
        let ok = functions::apply(module, flag, &**pass, &mut fns);
        timing.add(flag, start.elapsed());
        if !ok {
            dumper.failed(flag, module);
            return Ok(false);
        }
        stale = true;
        if dumper.after_all() || before.is_some() {
            if sync(module, &fns, &mut stale, flag).is_err() {
                return Ok(false);
            }
            if before.is_none_or(|b| b != dumper.text(module)) {
                dumper.after(flag, module);
            }
        }
    }
    let last = steps
        .last()
        .map_or(first_flag, |(e, _)| e.registration.flag);
    let start = Instant::now();
    if sync(module, &fns, &mut stale, last).is_err() {
        return Ok(false);
    }
    timing.add("(memory to MLIR)", start.elapsed());
    Ok(module.verify())
}
