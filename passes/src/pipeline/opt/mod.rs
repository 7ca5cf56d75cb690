//! `onnc-opt`'s pipeline runner: parse once, convert once, run in memory,
//! convert back once.
//!
//! In: an MLIR context, a parsed module, a `--pass-pipeline` and mlir-opt's
//! instrumentation flags. The pipeline is cut into runs
//! ([`segments::split`]): each run of consecutive in-memory passes converts
//! the module's functions once ([`crate::pipeline::functions::read`], one
//! [`crate::pipeline::Module`] per function), runs every pass on every
//! function, and writes them back once; MLIR's pass manager runs the rest
//! (upstream passes, `func.func(...)` nests, `onnc-verify`, `onnc-dce`).
//! A pipeline without an in-memory pass is one MLIR run, exactly as before.
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
                    onnc_io::stderr::text(&timing.report());
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
    if dumper.before_all() {
        // Before the conversion, which may fail as part of the first pass.
        dumper.before(first_flag, module);
    }
    let start = Instant::now();
    let Ok(mut fns) = functions::read(module, first.input, first_flag) else {
        dumper.failed(first_flag, module);
        return Ok(false);
    };
    timing.add("(MLIR to memory)", start.elapsed());
    let mut stale = false;
    for (i, (entry, pass)) in steps.iter().enumerate() {
        let flag = entry.registration.flag;
        let wants_mlir = dumper.before_all() || dumper.after_change() || dumper.after_failure();
        if wants_mlir && sync(module, &fns, &mut stale, flag).is_err() {
            return Ok(false);
        }
        if dumper.before_all() && i > 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_dialects::ir;

    /// Two functions; the second's pool is too big for nv_full after a
    /// simplification that runs in memory.
    const TWO: &str = r#"func.func @main_graph(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("r1")
  %b = "onnx.identity"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
func.func @second(%x: tensor<1x4x20x20xf32>) -> tensor<1x4x12x12xf32> {
  %i = "onnx.identity"(%x) : (tensor<1x4x20x20xf32>) -> tensor<1x4x20x20xf32>
  %a = "onnx.max_pool"(%i) {auto_pad = "NOTSET", ceil_mode = 0 : i64, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 9, 9>, pads = array<i64: 0, 0, 0, 0>, storage_order = 0 : i64, strides = array<i64: 1, 1>} : (tensor<1x4x20x20xf32>) -> tensor<1x4x12x12xf32>
  return %a : tensor<1x4x12x12xf32>
}
"#;

    fn run_on(text: &str, pipeline: &str) -> (bool, String, Vec<ir::Diag>) {
        crate::register_all();
        let context = ir::new_context().expect("context");
        let capture = ir::DiagnosticCapture::attach(&context);
        check(&context, pipeline).expect("pipeline parses");
        let mut module = ir::parse_module(&context, text, "two.mlir").expect("parses");
        let ok = run(&context, &mut module, pipeline, &PipelineOptions::default())
            .expect("pipeline parses");
        let printed = ir::print_op(&module.as_operation(), &Default::default());
        drop(module);
        (ok, printed, capture.take())
    }

    #[test]
    fn every_function_runs_through_memory_and_mlir() {
        let (ok, printed, diags) = run_on(
            TWO,
            "builtin.module(onnx-simplify,cse,onnc-legalize{target=nnie report=true})",
        );
        assert!(ok, "{diags:?}");
        assert!(!printed.contains("onnx.identity"), "{printed}");
        assert!(printed.contains("func.func private @declared"), "{printed}");
        let order: Vec<usize> = ["@main_graph", "@declared", "@second"]
            .iter()
            .map(|f| printed.find(f).expect(f))
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{printed}");
        let reports: Vec<&str> = diags
            .iter()
            .filter(|d| d.severity == ir::Severity::Remark)
            .map(|d| d.message.lines().next().unwrap_or(""))
            .collect();
        assert_eq!(
            reports,
            [
                "onnc-legalize report for @main_graph on nnie:",
                "onnc-legalize report for @second on nnie:"
            ]
        );
    }

    #[test]
    fn diagnostics_blame_the_op_in_the_text() {
        let (ok, _, diags) = run_on(
            TWO,
            "builtin.module(onnx-simplify,onnc-legalize{target=nv_full})",
        );
        assert!(!ok);
        let errors: Vec<String> = diags
            .iter()
            .filter(|d| d.severity == ir::Severity::Error)
            .map(|d| format!("{}:{}: {}", d.loc.line, d.loc.col, d.message))
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("9:8: 'MaxPool' cannot run on nv_full"),
            "{errors:?}"
        );
    }

    /// The dump files of a mixed pipeline are numbered as one MLIR pass
    /// manager numbers them (the listing `onnc-opt` gave before in-memory
    /// runs, when every pass ran in MLIR).
    #[test]
    fn tree_dumps_are_numbered_over_the_whole_pipeline() {
        crate::register_all();
        let dir = std::env::temp_dir().join(format!("onnc-opt-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let context = ir::new_context().expect("context");
        let capture = ir::DiagnosticCapture::attach(&context);
        let mut module = ir::parse_module(&context, TWO, "two.mlir").expect("parses");
        let options = PipelineOptions {
            print_before_all: true,
            print_after_all: true,
            print_tree_dir: Some(dir.display().to_string()),
            ..Default::default()
        };
        let pipeline =
            "builtin.module(onnx-simplify,func.func(onnc-dce),cse,onnc-legalize{target=nnie})";
        let ok = run(&context, &mut module, pipeline, &options).expect("parses");
        assert!(ok, "{:?}", capture.take());
        let mut files = Vec::new();
        let mut dirs = vec![dir.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("dir").flatten() {
                if e.path().is_dir() {
                    dirs.push(e.path());
                } else {
                    let rel = e.path().strip_prefix(&dir).expect("inside").to_path_buf();
                    files.push(rel.display().to_string());
                }
            }
        }
        files.sort();
        let m = "builtin_module_no-symbol-name";
        let expected: Vec<String> = [
            "0_onnx-simplify",
            "1_onnx-simplify",
            "2_cse",
            "3_cse",
            "4_onnc-legalize",
            "5_onnc-legalize",
            "func_func_declared/1_0_onnc-dce",
            "func_func_declared/1_1_onnc-dce",
            "func_func_main_graph/1_0_onnc-dce",
            "func_func_main_graph/1_1_onnc-dce",
            "func_func_second/1_0_onnc-dce",
            "func_func_second/1_1_onnc-dce",
        ]
        .iter()
        .map(|f| format!("{m}/{f}.mlir"))
        .collect();
        assert_eq!(files, expected);
        let first =
            std::fs::read_to_string(dir.join(m).join("0_onnx-simplify.mlir")).expect("dump");
        assert!(
            first.starts_with(
                "// -----// IR Dump Before onnx-simplify (onnx-simplify) //----- //\nmodule {"
            ),
            "{first}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_wrong_level_is_reported_at_the_function() {
        let (ok, _, diags) = run_on(TWO, "builtin.module(nvdla-plan-memory)");
        assert!(!ok);
        let d = &diags[0];
        assert_eq!(d.loc.line, 1, "{d}");
        assert!(d.message.starts_with("nvdla-plan-memory: "), "{d}");
    }
}
