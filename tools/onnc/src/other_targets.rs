//! `onnc compile --target mvu|nnie`: import → onnx-simplify → onnc-legalize
//! on the in-memory IR, then the target's level change (`convert-onnx-to-mvu`,
//! `convert-onnx-to-nnie`), writing the output directory atomically from
//! the `mvu` or `nnie` level.
//!
//! In: the parsed command line. Out: the directory (`-o`, default
//! `<model>.mvu/` or `<model>.nnie/`), with `--report R.json` the report
//! (same schema as NVDLA's), and a summary on stdout (with `--report`, the
//! per-layer table too); on failure every problem with its node, and
//! nothing written.

use crate::{cli::Compile, common::diagnostics::Failure, pipeline::Compilation, stages};
use onnc_passes::pipeline::Module;
use std::path::PathBuf;
use std::time::Instant;

/// The legalized graph of the model for `target`: import, `onnx-simplify`
/// and `onnc-legalize` on the in-memory IR (no MLIR unless `--dump-ir-after-all`
/// asks for text), and the number of stages done.
fn legalized_graph(
    c: &Compile,
    target: &str,
    total: usize,
) -> Result<(onnc_onnx::Graph, usize), Failure> {
    let mut s = Compilation::import(
        &c.model,
        &c.input_shape,
        c.dump_ir_after_all.clone(),
        c.progress_wanted(),
        total,
    )?;
    s.run("onnx-simplify", "onnx-simplify")?;
    s.run(
        "onnc-legalize",
        &format!("onnc-legalize{{target={target}}}"),
    )?;
    match s.module {
        Module::Onnx(graph) => Ok((graph, 3)),
        Module::Nvdla(_) | Module::Mvu(_) | Module::Nnie(_) => {
            Err(vec!["internal error: legalization left the ONNX level".to_string()].into())
        }
    }
}

fn out_dir(c: &Compile, ext: &str) -> PathBuf {
    c.output
        .clone()
        .unwrap_or_else(|| c.model.with_extension(ext))
}

fn file_of(c: &Compile) -> String {
    c.model.display().to_string()
}

/// BARVINN MVU: configuration table, header, assembly, weights, test vectors.
pub fn compile_mvu(c: &Compile) -> Result<(), Failure> {
    crate::outputs::check_dir(c, &out_dir(c, "mvu"))?;
    crate::outputs::check(c, &[c.report.as_ref()])?;
    let opts = mvu_options(c);
    let file = file_of(c);
    let (graph, done) = legalized_graph(c, "mvu", 4).map_err(|f| {
        if f.stopped.as_deref() != Some(stages::stopped_in("onnc-legalize").as_str()) {
            return f;
        }
        // Every check in one round: the code generator's on what
        // legalization accepts.
        let lowering = |m: Module| match m {
            Module::Onnx(g) => match onnc_mvu::compile(&g, &opts) {
                Ok(_) => Vec::new(),
                Err(e) => mvu_messages(&file, e)
                    .iter()
                    .flat_map(|m| onnc_diag::parse_all(m))
                    .collect(),
            },
            Module::Nvdla(_) | Module::Mvu(_) | Module::Nnie(_) => Vec::new(),
        };
        crate::one_round::check(c, "onnc-legalize{target=mvu}", &lowering)
    })?;
    let mut opts = opts;
    if let (Some(_), Some(_)) = (&c.calib, c.quant_msb) {
        return Err(vec![
            "error: give --calib (a quantizer MSB per layer from calibration inputs) or --quant-msb (one for every layer), not both".to_string(),
        ]
        .into());
    }
    if let Some(dir) = &c.calib {
        opts.calibration = crate::mvu_calib::codes(dir, &graph, opts.aprec)?;
    }
    let start = Instant::now();
    // The one level change: onnx → mvu (convert-onnx-to-mvu with the
    // command line's code-generator options); emission reads the mvu level.
    let mut module = Module::Onnx(graph.clone());
    let mut diags = onnc_passes::pipeline::Diags::new();
    let converted = onnc_passes::mvu::convert::with_options(opts).run(&mut module, &mut diags);
    let problems: Vec<String> = diags
        .take()
        .iter()
        .filter(|d| d.severity == onnc_dialects::ir::Severity::Error)
        .map(|d| format!("{file}: error: {}", d.message))
        .collect();
    if converted.is_ok() && problems.is_empty() {
        dump_mvu_level(c, &module, &file)?;
    }
    let compiled = match (converted, module) {
        (Ok(()), Module::Mvu(m)) if problems.is_empty() => m.compiled,
        _ if !problems.is_empty() => return Err(problems.into()),
        (_, m) => {
            return Err(vec![format!(
                "internal error: convert-onnx-to-mvu ended at the {} level, not mvu",
                m.level()
            )]
            .into())
        }
    };
    let dir = out_dir(c, "mvu");
    let files = compiled
        .write_dir(&dir)
        .map_err(|e| mvu_messages(&file, e))?;
    if c.progress_wanted() {
        writer_progress(done + 1, "mvu codegen", &dir, start);
    }
    let mut text = format!(
        "{}wrote {} files to {}\n",
        compiled.table_text(),
        files.len(),
        dir.display()
    );
    if let Some(path) = &c.report {
        let origins = crate::report::origin::load(&c.model, &c.input_shape)?;
        let r = crate::report::mvu::build(&c.model, &compiled, &graph, &origins);
        crate::report::write(path, &r)?;
        text += &table(&r)?;
    }
    Ok(crate::outputs::print(&text)?)
}

/// With `--dump-ir-after-all D`: the `mvu` level after `convert-onnx-to-mvu`
/// as `D/04-convert-onnx-to-mvu.mlir` (the stages before it wrote 01..03).
/// A level the dialect cannot hold (a register beyond its field, which the
/// configuration files can still hold) gets a warning instead of a file.
fn dump_mvu_level(c: &Compile, module: &Module, file: &str) -> Result<(), Failure> {
    let Some(d) = &c.dump_ir_after_all else {
        return Ok(());
    };
    let context = crate::stages::new_context()?;
    match onnc_passes::pipeline::text::print(&context, module, file) {
        Ok(text) => {
            let path = d.join("04-convert-onnx-to-mvu.mlir");
            onnc_passes::io::write_atomic(&path, text.as_bytes()).map_err(|e| {
                Failure::from(vec![format!(
                    "error: cannot write '{}': {e}",
                    path.display()
                )])
            })?;
        }
        Err(e) => {
            for m in e {
                onnc_io::stderr::line(&format!(
                    "warning: --dump-ir-after-all: the mvu level has no dialect text: {m}"
                ));
            }
        }
    }
    Ok(())
}

/// The MVU code generator's options from the command line.
fn mvu_options(c: &Compile) -> onnc_mvu::CompileOptions {
    onnc_mvu::CompileOptions {
        aprec: c.aprec,
        wprec: c.wprec,
        oprec: c.oprec,
        per_channel: c.per_channel,
        seed: c.seed,
        check_capacity: !c.no_ram_check,
        quant_msb: c.quant_msb,
        ..Default::default()
    }
}

/// The per-layer table of `r`.
fn table(r: &crate::report::Report) -> Result<String, Vec<String>> {
    crate::report::table::render(
        r,
        crate::cli::ReportView::HwLayers,
        None,
        crate::cli::ReportFormat::Table,
    )
    .map_err(|e| vec![format!("error: {e}")])
}

fn mvu_messages(file: &str, e: onnc_mvu::Error) -> Vec<String> {
    match e {
        onnc_mvu::Error::Problems(ps) => ps.iter().map(|p| format!("{file}: error: {p}")).collect(),
        other => vec![format!("{file}: error: {other}")],
    }
}

/// HiSilicon NNIE: calibrated nnie_mapper package.
pub fn compile_nnie(c: &Compile) -> Result<(), Failure> {
    use onnc_nnie::frontend::{CalibSource, CompileOptions};
    let file = file_of(c);
    let calib = match (&c.calib, &c.mqbench) {
        (Some(_), Some(_)) => {
            return Err(vec!["error: give --calib or --mqbench, not both".to_string()].into())
        }
        (Some(d), None) => CalibSource::from_dir(d).map_err(|e| vec![format!("error: {e}")])?,
        (None, Some(j)) => CalibSource::Mqbench(j.clone()),
        (None, None) => return Err(vec![format!("{file}: error: --target nnie needs calibration data: --calib DIR (input_<k>.pb sets, .npy files or images) or --mqbench FILE.json")].into()),
    };
    let preprocess = nnie_preprocess(c, &calib)?;
    if let Some(e) = &c.eval {
        if !e.is_dir() {
            return Err(vec![format!(
                "error: --eval '{}' is not a directory (give a folder with test_x.npy and test_y.npy, or input_<k>.pb / .npy sets)",
                e.display()
            )]
            .into());
        }
    }
    crate::outputs::check_dir(c, &out_dir(c, "nnie"))?;
    crate::outputs::check(c, &[c.report.as_ref()])?;
    let names = match &calib {
        CalibSource::Mqbench(_) => Some(onnx_names(c)?),
        _ => None,
    };
    let (graph, done) = legalized_graph(c, "nnie", 4).map_err(|f| {
        if f.stopped.as_deref() != Some(stages::stopped_in("onnc-legalize").as_str()) {
            return f;
        }
        // Every check in one round: the NNIE layer mapping's on what
        // legalization accepts.
        let lowering = |m: Module| match m {
            Module::Onnx(g) => nnie_lowering(&file, &g)
                .iter()
                .flat_map(|m| onnc_diag::parse_all(m))
                .collect(),
            Module::Nvdla(_) | Module::Mvu(_) | Module::Nnie(_) => Vec::new(),
        };
        crate::one_round::check(c, "onnc-legalize{target=nnie}", &lowering)
    })?;
    let mut opts = CompileOptions::new(calib);
    opts.bits = c.bits;
    opts.legalize = false; // done above, in MLIR
    opts.preprocess = preprocess;
    opts.eval = c.eval.clone();
    opts.names = names;
    // per-set bars for calibration and evaluation (only on a terminal)
    opts.progress = c.progress_wanted();
    let start = Instant::now();
    // The one level change: onnx → nnie (convert-onnx-to-nnie with the
    // command line's front-end options); the package is written from the
    // nnie level.
    let mut module = Module::Onnx(graph);
    let mut diags = onnc_passes::pipeline::Diags::new();
    let converted = onnc_passes::nnie::convert::with_options(opts).run(&mut module, &mut diags);
    let problems: Vec<String> = diags
        .take()
        .iter()
        .filter(|d| d.severity == onnc_dialects::ir::Severity::Error)
        .map(|d| format!("{file}: error: {}", d.message))
        .collect();
    let compiled = match (converted, module) {
        (Ok(()), Module::Nnie(m)) if problems.is_empty() => m.compiled,
        _ if !problems.is_empty() => return Err(problems.into()),
        (_, m) => {
            return Err(vec![format!(
                "internal error: convert-onnx-to-nnie ended at the {} level, not nnie",
                m.level()
            )]
            .into())
        }
    };
    let warnings: Vec<String> = compiled
        .warnings()
        .iter()
        .map(|w| format!("{file}: warning: {w}"))
        .collect();
    crate::common::diagnostics::emit_messages(&warnings, None);
    let dir = out_dir(c, "nnie");
    let files = compiled
        .write_dir(&dir)
        .map_err(|e| nnie_messages(&file, e))?;
    if c.progress_wanted() {
        writer_progress(done + 1, "nnie package", &dir, start);
    }
    let mut text = format!(
        "{} NNIE layers; simulated 8-bit network against float:\n",
        compiled.layers().len()
    );
    for (name, q) in &compiled.report().outputs {
        text += &format!(
            "  output {name}: cosine {:.6}, max abs error {:.4}, rmse {:.4}\n",
            q.cosine, q.max_abs_err, q.rmse
        );
    }
    if let (Some(a), Some(e)) = (compiled.accuracy(), &c.eval) {
        text += &format!(
            "  top-1 on {} labelled samples in {}: float {:.2}%, NNIE 8-bit (simulated) {:.2}%; the two agree on {}\n",
            a.samples,
            e.display(),
            a.float_percent(),
            a.nnie_percent(),
            a.agree
        );
    }
    text += &format!("wrote {} files to {}\n", files.len(), dir.display());
    if let Some(path) = &c.report {
        let origins = crate::report::origin::load(&c.model, &c.input_shape)?;
        let method = if c.mqbench.is_some() {
            "mqbench"
        } else {
            "ema_max_abs"
        };
        let r = crate::report::nnie::build(&c.model, &compiled, c.bits, method, &origins);
        crate::report::write(path, &r)?;
        text += &table(&r)?;
    }
    Ok(crate::outputs::print(&text)?)
}

/// The image preprocessing for NNIE calibration and its `.cfg`; the flags
/// are refused for tensor data, which is used as it is.
fn nnie_preprocess(
    c: &Compile,
    calib: &onnc_nnie::frontend::CalibSource,
) -> Result<onnc_calib::Preprocess, Vec<String>> {
    use onnc_nnie::frontend::CalibSource;
    let given = [
        (c.resize.is_some(), "--resize"),
        (c.pixel_scale.is_some(), "--pixel-scale"),
        (c.mean.is_some(), "--mean"),
        (c.std.is_some(), "--std"),
        (c.channel_order.is_some(), "--channel-order"),
    ];
    if let CalibSource::TestData(d) | CalibSource::Npy(d) = calib {
        if let Some((_, flag)) = given.iter().find(|(on, _)| *on) {
            return Err(vec![format!(
                "error: {flag} preprocesses calibration images, but '{}' holds tensors (input_<k>.pb or .npy), which are fed as they are; drop {flag}, or calibrate on a folder of images",
                d.display()
            )]);
        }
    }
    crate::calibrate::preprocess(c)?
        .validated()
        .map_err(|e| vec![format!("error: {e}")])
}

/// The model's ONNX node and tensor names mapped to the compile's node
/// names (for MQBench keys).
fn onnx_names(c: &Compile) -> Result<onnc_nnie::frontend::OnnxNames, Vec<String>> {
    use onnc_nnie::frontend::OnnxNames;
    let loaded = stages::load(&c.model, &c.input_shape)?.graph;
    let mut canonical = loaded.clone();
    onnc_passes::pipeline::names::canonicalize(&mut canonical)
        .map_err(|e| vec![format!("{}: error: {e}", c.model.display())])?;
    // canonicalize keeps the nodes in order unless it chains over-wide ones
    Ok(if loaded.nodes.len() == canonical.nodes.len() {
        OnnxNames::new(&loaded, &canonical)
    } else {
        OnnxNames::of(&canonical)
    })
}

/// The NNIE layer mapping's refusals of a legalized graph (every node
/// checked, none calibrated), in the engine's text form.
fn nnie_lowering(file: &str, g: &onnc_onnx::Graph) -> Vec<String> {
    match onnc_onnx::infer_graph(g) {
        Ok(types) => onnc_nnie::frontend::lower(g, &types, &[])
            .problems
            .iter()
            .map(|p| format!("{file}: error: {p}"))
            .collect(),
        Err(e) => vec![format!("{file}: error: shape inference failed: {e}")],
    }
}

fn nnie_messages(file: &str, e: onnc_nnie::NnieError) -> Vec<String> {
    match e {
        onnc_nnie::NnieError::Refused(ps) => {
            ps.iter().map(|p| format!("{file}: error: {p}")).collect()
        }
        other => vec![format!("{file}: error: {other}")],
    }
}

/// The `--progress` line of a back end's last stage (`[4/4] mvu codegen
/// DIR  12.3 ms`): its number, name, output folder and time since `start`.
fn writer_progress(stage: usize, name: &str, dir: &std::path::Path, start: Instant) {
    onnc_io::stderr::line(&format!(
        "[{stage}/4] {name:<24} {:<32} {:>8.1} ms",
        dir.display(),
        start.elapsed().as_secs_f64() * 1e3
    ));
}
