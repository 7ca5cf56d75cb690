//! `onnc compile --target nv_full|nv_large|nv_small`: import → onnx-simplify
//! → onnc-legalize → convert-onnx-to-nvdla → (nvdla-load-ctable) →
//! nvdla-split-conv → nvdla-plan-memory → loadable (or the final IR with `--emit mlir`, the
//! hardware-layer graph with `--emit dot`).
//!
//! In: the parsed command line. Out: the files it names, written
//! atomically (the report, the memory-plan SVG and CSV beside the output);
//! the per-layer table on stdout with `--report`; messages naming file and
//! node on failure (nothing written).

use crate::{
    cli::Compile, cli::Emit, common::diagnostics::Failure, pictures, pipeline::Compilation, report,
};
use onnc_passes::{io::write_atomic, pipeline::Module, translate::nvdla_emit::abi_option};
use std::time::Instant;

/// Compiles for an NVDLA configuration.
pub fn compile(c: &Compile) -> Result<(), Failure> {
    let abi = abi_option(Some(c.nvdla_abi.as_str())).map_err(|e| vec![format!("error: {e}")])?;
    crate::calibrate::check_sources(c)?;
    let output = c.output.clone().unwrap_or_else(|| {
        c.model.with_extension(match c.emit {
            Emit::Loadable => "nvdla",
            Emit::Mlir => "nvdla.mlir",
            Emit::Dot => "nvdla.dot",
        })
    });
    crate::outputs::check(
        c,
        &[
            Some(&output),
            c.gen_ctable.as_ref(),
            c.report.as_ref(),
            c.save_calib.as_ref(),
            c.memory_svg.as_ref(),
            c.memory_csv.as_ref(),
        ],
    )?;
    let t = c.target.as_str();
    let spec = c.nvdla_spec();
    let plan = crate::calibrate::plan(c)?;
    let calibrate = plan.pass.clone();
    let total = 6 + usize::from(calibrate.is_some()) + 1;
    let progress = c.progress_wanted();
    let mut s = Compilation::import(
        &c.model,
        &c.input_shape,
        c.dump_ir_after_all.clone(),
        progress,
        total,
    )?;
    // The model's own nodes, before simplification renames or removes any.
    let origins = match (&c.report, &s.module) {
        (Some(_), Module::Onnx(g)) => report::origin::Origins::from_graph(g),
        _ => Default::default(),
    };
    s.run("onnx-simplify", "onnx-simplify")?;
    let legalize = format!("onnc-legalize{{target={t}}}");
    let (_, convert) = onnc_passes::numerics::nvdla_spec(&spec);
    let convert = format!("convert-onnx-to-nvdla{{{convert}}}");
    if s.try_run("onnc-legalize", &legalize).is_err() {
        // Every check legalization and the lowering can make, in one round.
        let lowering = crate::one_round::nvdla_lowering(&spec);
        return Err(crate::one_round::check(c, &legalize, &lowering));
    }
    s.run("convert-onnx-to-nvdla", &convert)?;
    if let Some(cal) = &calibrate {
        s.try_run("nvdla-load-ctable", cal).map_err(|m| {
            let tables: Vec<&std::path::PathBuf> =
                [&c.load_ctable, &c.load_calibtable, &c.load_calib]
                    .into_iter()
                    .flatten()
                    .collect();
            crate::calib_span::locate(Failure::from(plan.explain(m)), &tables)
                .stopped(crate::stages::stopped_in("nvdla-load-ctable"))
        })?;
    }
    s.run("nvdla-split-conv", "nvdla-split-conv")?;
    s.run("nvdla-plan-memory", "nvdla-plan-memory")?;

    let start = Instant::now();
    // Emission runs for every --emit: the IR and the picture are written
    // only if emission accepts the program, and the report counts the
    // descriptors it wrote.
    let (loadable, descriptors) = match &s.module {
        Module::Nvdla(n) => crate::packing::emit(&n.program, abi, progress)
            .map_err(|m| Failure::from(m).stopped("stopped in emission"))?,
        m => {
            return Err(Failure::from(vec![format!(
                "internal error: the pipeline ended at the {} level, not nvdla",
                m.level()
            )]))
        }
    };
    let text: Option<Vec<u8>> = match (c.emit, &s.module) {
        (Emit::Loadable, _) => None,
        (Emit::Mlir, _) => Some(s.text()?.into_bytes()),
        (Emit::Dot, Module::Nvdla(n)) => {
            let m = n.memory.unwrap_or_default();
            Some(
                pictures::dot::render(
                    &n.program,
                    &c.model.display().to_string(),
                    &[
                        ("act", m.activation_bytes),
                        ("wt", m.weight_bytes),
                        ("bind", m.bind_bytes),
                    ],
                )
                .into_bytes(),
            )
        }
        (Emit::Dot, _) => unreachable!("checked above"),
    };
    let bytes: &[u8] = text.as_deref().unwrap_or(loadable.bytes());
    let Module::Nvdla(planned) = std::mem::replace(&mut s.module, Module::Onnx(Default::default()))
    else {
        unreachable!("checked above")
    };
    let program = planned.program;
    let memory = planned.memory.unwrap_or_default();
    if c.check_sim || std::env::var_os("ONNC_CHECK_SIM").is_some_and(|v| v == "1") {
        check_sim(
            c,
            &spec,
            plan.scales.as_ref(),
            &loadable,
            c.emit != Emit::Loadable,
        )?;
    }
    crate::calibrate::save(c, &plan, &program)?;
    if let Some(path) = &c.gen_ctable {
        let json = onnc_nvdla::ctable::gen(&program);
        write_atomic(path, json.as_bytes())
            .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])?;
    }
    write_atomic(&output, bytes)
        .map_err(|e| vec![format!("error: cannot write '{}': {e}", output.display())])?;
    s.step(
        match c.emit {
            Emit::Loadable => "emit loadable",
            Emit::Mlir => "emit mlir",
            Emit::Dot => "emit dot",
        },
        &format!("{} ({} bytes)", output.display(), bytes.len()),
        start,
    );
    let title = c.model.display().to_string();
    if let Some(path) = &c.memory_csv {
        write_atomic(path, pictures::memory::csv(&program).as_bytes())
            .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])?;
    }
    if let Some(path) = &c.memory_svg {
        let svg = pictures::memory::svg(
            &program,
            &title,
            memory.activation_bytes,
            memory.activation_lower_bound_bytes,
        );
        write_atomic(path, svg.as_bytes())
            .map_err(|e| vec![format!("error: cannot write '{}': {e}", path.display())])?;
    }
    if let Some(path) = &c.report {
        let memory = report::nvdla::Memory {
            activation_bytes: memory.activation_bytes,
            activation_lower_bound_bytes: memory.activation_lower_bound_bytes,
            weight_bytes: memory.weight_bytes,
            bind_bytes: memory.bind_bytes,
        };
        let r = report::nvdla::build(
            &c.model,
            t,
            &program,
            &descriptors,
            memory,
            (c.emit == Emit::Loadable).then_some(bytes.len()),
            &origins,
        );
        report::write(path, &r)?;
        crate::outputs::print(
            &report::table::render(
                &r,
                crate::cli::ReportView::HwLayers,
                None,
                crate::cli::ReportFormat::Table,
            )
            .map_err(|e| vec![format!("error: {e}")])?,
        )?;
    }
    Ok(())
}

/// `--check-sim`: the loadable against the reference interpreter
/// (`onnc_passes::sim_check`); the verdict on stderr, an error (and nothing
/// written) when an output is beyond the tolerance. FP16 (nv_full): seeded
/// random inputs, FP16's tolerance. INT8 (nv_large, nv_small, nv_full
/// with `--precision int8`): the per-tensor `scales` the compile used (of
/// `--calib DIR` or of a per-tensor `--load-calib` table) quantize the inputs and dequantize
/// outputs and surfaces, with INT8's tolerance; the input is the first
/// calibration set with `--calib`, else seeded random values. Uncalibrated
/// compiles, CTables (registers, no scales) and AMCT layer records are not
/// checked; with --check-sim a note says so.
fn check_sim(
    c: &Compile,
    target: &str,
    scales: Option<&onnc_nvdla::ctable::TensorScales>,
    bytes: &[u8],
    not_written: bool,
) -> Result<(), Vec<String>> {
    use onnc_passes::sim_check;
    if not_written {
        return Ok(());
    }
    let file = c.model.display().to_string();
    let graph = onnc_passes::numerics::load_graph(
        &c.model,
        &crate::common::input_shape::canonical(&c.input_shape)
            .map_err(|e| vec![e])?
            .iter()
            .filter_map(|s| onnc_onnx::Options::parse_input_shape(s))
            .collect::<Vec<_>>(),
    )?;
    let scales = if !c.is_nvdla_int8() {
        None
    } else {
        match scales {
            Some(s) if s.layer_inputs.is_empty() => Some(s),
            _ => {
                if c.check_sim {
                    crate::common::diagnostics::emit_messages(&[format!("{file}: note: --check-sim skipped: {target} computes in INT8 and the compile has no per-tensor scales to convert inputs and outputs with (give --calib DIR or a per-tensor --load-calib table)")], None);
                }
                return Ok(());
            }
        }
    };
    let inputs = match (&scales, &c.calib) {
        (Some(_), Some(dir)) => {
            let source = onnc_calib::CalibSource::detect(dir, crate::calibrate::preprocess(c)?)
                .map_err(|e| vec![format!("error: {e}")])?;
            let first = source
                .plan(&graph)
                .map_err(|e| vec![format!("error: {e}")])?;
            let first = first
                .first()
                .ok_or_else(|| vec![format!("error: --calib '{}' has no set", dir.display())])?;
            source
                .load(first, &graph)
                .map_err(|e| vec![format!("error: {e}")])?
                .inputs
        }
        _ => onnc_passes::numerics::random_inputs_within(&graph, 1, 1 << 30)
            .map_err(|e| vec![format!("error: {file}: --check-sim: {e}")])?,
    };
    let detail = sim_check::Detail::LayersOnFailure;
    // A bar over the simulated layers (hidden off a terminal or with
    // --progress never / -q); its length comes with the first layer.
    let bar = onnc_calib::progress_bar(0, "simulating", "layers", c.progress_wanted());
    let mut on_layer = |l: &onnc_nvdla_sim::run::Layer| {
        bar.set_length(l.total as u64);
        bar.set_position(l.index as u64);
        bar.set_message(format!(
            "{} (task {} op {})",
            l.dump.engine, l.dump.task, l.dump.op
        ));
    };
    let hook: Option<sim_check::OnLayer> = if bar.is_hidden() {
        None
    } else {
        Some(&mut on_layer)
    };
    let tolerance = match &scales {
        Some(_) => sim_check::int8::INT8_TOLERANCE,
        None => sim_check::FP16_TOLERANCE,
    };
    let check = sim_check::check_with(
        &graph, &file, target, &inputs, scales, tolerance, bytes, detail, hook,
    );
    bar.finish_and_clear();
    let check = check?;
    if check.ok {
        tracing::info!("{}", check.text.trim_end());
        Ok(())
    } else {
        Err(vec![format!(
            "error: {file}: the loadable does not compute the model on {target} (--check-sim; nothing written):\n{}",
            check.text.trim_end()
        )])
    }
}
