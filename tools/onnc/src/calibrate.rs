//! `onnc compile --target nv_full|nv_large|nv_small --calib DIR`: the
//! built-in INT8 calibrator (`onnc-calib`) over the calibration sets, its
//! per-tensor scales handed to the NVDLA register derivation
//! (`nvdla-load-ctable{format=nvidia}`, the same path as a calibtable from
//! NVIDIA's tools).
//!
//! In: the parsed command line (`--calib DIR`, `--calib-method`, the image
//! preprocessing flags, `--input-shape`; or a file: `--load-calib FILE`
//! with `--calib-format`, `--load-ctable`, `--load-calibtable`; and
//! `--save-calib FILE`, `--allow-uncalibrated`). Out: a [`Plan`]: the
//! `nvdla-load-ctable` pass to run (a temporary calibtable JSON
//! `{"<tensor>": {"scale": s, "min": -127·s, "max": 127·s, "offset": 0}}`
//! for scales computed here, deleted when the plan drops) and the scales to
//! save; a note on stderr with the method, the number of sets and of
//! tensors; errors name the file or option at fault.
//!
//! Rules: one source at most; an INT8 configuration (nv_large, nv_small)
//! with none is an error that says how to calibrate, unless
//! `--allow-uncalibrated` or `--gen-ctable` (the template of ONNC's
//! workflow): identity scales, and a warning.

use std::io::Write;
use std::path::Path;

use onnc_calib::{CalibSource, Options, Preprocess};
use onnc_nvdla::ctable::{
    load_calib, save_calib, CalibFormat, Calibration as Loaded, SaveOptions, TensorScale,
    TensorScales,
};
use onnc_nvdla::Program;

use crate::cli::Compile;

fn fail(m: impl std::fmt::Display) -> Vec<String> {
    vec![format!("error: {m}")]
}

/// The image preprocessing the flags ask for.
pub fn preprocess(c: &Compile) -> Result<Preprocess, Vec<String>> {
    let mut p = Preprocess::default();
    if let Some(r) = &c.resize {
        p.resize = r.parse().map_err(|e| fail(format!("--resize: {e}")))?;
    }
    if let Some(s) = c.pixel_scale {
        p.scale = s;
    }
    if let Some(m) = &c.mean {
        p.mean = Preprocess::parse_triplet("mean", m).map_err(|e| fail(format!("--mean: {e}")))?;
    }
    if let Some(s) = &c.std {
        p.std = Preprocess::parse_triplet("std", s).map_err(|e| fail(format!("--std: {e}")))?;
    }
    if let Some(o) = &c.channel_order {
        p.order = o
            .parse()
            .map_err(|e| fail(format!("--channel-order: {e}")))?;
    }
    Ok(p)
}

/// Calibrates on `dir`: per-tensor scales keyed by ONNX value names.
fn calibrate(
    c: &Compile,
    g: &onnc_onnx::Graph,
    dir: &std::path::Path,
) -> Result<TensorScales, Vec<String>> {
    let file = c.model.display().to_string();
    if !dir.is_dir() {
        return Err(fail(format!(
            "--calib '{}' is not a directory (give a folder of test_data_set_*/input_*.pb sets, .npy files or images)",
            dir.display()
        )));
    }
    let method = c
        .calib_method
        .parse()
        .map_err(|e: onnc_calib::CalibError| fail(format!("--calib-method: {e}")))?;
    let source = CalibSource::detect(dir, preprocess(c)?).map_err(fail)?;
    let cal = onnc_calib::calibrate(
        g,
        &source,
        &Options {
            method,
            progress: c.progress_wanted(),
        },
    )
    .map_err(|e| fail(format!("{file}: calibration: {e}")))?;
    let mut scales = TensorScales::new(&format!("{}", dir.display()), "calib");
    // A TensorRT cache written from these scales names the algorithm.
    scales.header = Some(format!("TRT-8601-{}", cal.method.trt_algorithm()));
    scales.method = Some(cal.method.to_string());
    for (name, &s) in &cal.scales {
        scales.entries.insert(name.clone(), TensorScale::new(s));
    }
    if !c.quiet {
        crate::common::diagnostics::emit_messages(
            &[format!(
                "{file}: note: calibrated {} tensors on {} sets from '{}' ({})",
                cal.scales.len(),
                cal.sets,
                dir.display(),
                cal.method
            )],
            None,
        );
    }
    Ok(scales)
}

/// The ONNX graph of the model, with `--input-shape` applied.
fn graph(c: &Compile) -> Result<onnc_onnx::Graph, Vec<String>> {
    let shapes = crate::common::input_shape::canonical(&c.input_shape)
        .map_err(|e| vec![e])?
        .iter()
        .filter_map(|s| onnc_onnx::Options::parse_input_shape(s))
        .collect::<Vec<_>>();
    onnc_passes::numerics::load_graph(&c.model, &shapes)
}

/// `t` keyed as the program names its tensors: the import names a node's
/// result after the node, so a value `v` made by node `n` is looked up as
/// `n` (graph inputs and outputs, and values of unnamed nodes, keep their
/// names).
fn program_keys(t: &TensorScales, g: &onnc_onnx::Graph) -> TensorScales {
    let mut out = t.clone();
    out.entries.clear();
    for (k, e) in &t.entries {
        let output = g.outputs.iter().any(|o| &o.name == k);
        let key = g
            .nodes
            .iter()
            .find(|n| !output && !n.name.is_empty() && n.outputs.first() == Some(k))
            .map_or(k.clone(), |n| n.name.clone());
        out.entries.entry(key).or_insert_with(|| e.clone());
    }
    out
}

/// `t` renamed for the program, as a temporary NVIDIA calibtable.
fn temp_calibtable(
    t: &TensorScales,
    g: &onnc_onnx::Graph,
) -> Result<tempfile::NamedTempFile, Vec<String>> {
    let text = onnc_nvdla::ctable::write_nvidia_calibtable(&program_keys(t, g));
    let mut tmp = tempfile::Builder::new()
        .prefix("onnc-calib-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| fail(format!("cannot create a temporary calibtable: {e}")))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| fail(format!("cannot write a temporary calibtable: {e}")))?;
    Ok(tmp)
}

/// What calibration a compile does.
#[derive(Default)]
pub struct Plan {
    /// The `nvdla-load-ctable{...}` pass, if any.
    pub pass: Option<String>,
    /// Scales to write with `--save-calib` (computed here or loaded).
    pub scales: Option<TensorScales>,
    /// The computed table's file, alive while the pipeline reads it.
    _tmp: Option<tempfile::NamedTempFile>,
    /// What the user gave (`--calib DIR` or the file), for messages about
    /// the temporary table.
    source: String,
}

impl Plan {
    /// `messages` with the temporary table's path replaced by what the
    /// user gave.
    pub fn explain(&self, messages: Vec<String>) -> Vec<String> {
        match &self._tmp {
            Some(t) => {
                let tmp = t.path().display().to_string();
                messages
                    .into_iter()
                    .map(|m| m.replace(&tmp, &self.source))
                    .collect()
            }
            None => messages,
        }
    }
}

/// MLIR pass-option quoting for a path.
fn quoted(p: &Path) -> String {
    format!(
        "\"{}\"",
        p.display()
            .to_string()
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
    )
}

/// The format `--calib-format` names, if given.
fn named_format(c: &Compile) -> Result<Option<CalibFormat>, Vec<String>> {
    c.calib_format
        .as_deref()
        .map(|f| {
            CalibFormat::parse(f).ok_or_else(|| {
                fail(format!(
                    "--calib-format '{f}' is not one of: {}",
                    CalibFormat::ALL.map(CalibFormat::name).join(", ")
                ))
            })
        })
        .transpose()
}

/// The cheap checks of the calibration flags, before anything runs: one
/// source at most, readable files, a known format.
pub fn check_sources(c: &Compile) -> Result<(), Vec<String>> {
    let sources: Vec<&str> = [
        (c.calib.is_some(), "--calib"),
        (c.load_calib.is_some(), "--load-calib"),
        (c.load_ctable.is_some(), "--load-ctable"),
        (c.load_calibtable.is_some(), "--load-calibtable"),
    ]
    .into_iter()
    .filter_map(|(given, flag)| given.then_some(flag))
    .collect();
    if sources.len() > 1 {
        return Err(fail(format!(
            "give one calibration source, not {}",
            sources.join(" and ")
        )));
    }
    for (flag, path) in [
        ("--load-calib", &c.load_calib),
        ("--load-ctable", &c.load_ctable),
        ("--load-calibtable", &c.load_calibtable),
    ] {
        if let Some(p) = path.as_ref().filter(|p| !p.is_file()) {
            return Err(fail(format!(
                "{flag} '{}' is not a readable file",
                p.display()
            )));
        }
    }
    named_format(c).map(|_| ())
}

/// Chooses the calibration source (see the module doc); call
/// [`check_sources`] first.
pub fn plan(c: &Compile) -> Result<Plan, Vec<String>> {
    let sources = [&c.calib, &c.load_calib, &c.load_ctable, &c.load_calibtable]
        .into_iter()
        .filter(|s| s.is_some())
        .count();
    let format = named_format(c)?;
    let int8 = c.is_nvdla_int8();
    if sources == 0 {
        if c.save_calib.is_some() {
            return Err(fail(
                "--save-calib needs scales: give --calib DIR (calibrate here) or --load-calib FILE",
            ));
        }
        // --gen-ctable writes the template of ONNC's calibration workflow
        // (fill it in, then --load-ctable): uncalibrated on purpose.
        if int8 && !c.allow_uncalibrated && c.gen_ctable.is_none() {
            return Err(vec![format!(
                "{}: error: --target {}{} computes in INT8 and needs calibration: give --calib DIR \
                 (sample inputs: test_data_set_*/input_*.pb, .npy files or images), or \
                 --load-calib FILE (ONNC CTable, NVIDIA calibtable, TensorRT cache, AMCT record); \
                 --allow-uncalibrated compiles with identity scales (wrong numbers, for \
                 structure tests only)",
                c.model.display(),
                c.target.as_str(),
                if c.target == crate::cli::Target::NvFull {
                    " --precision int8"
                } else {
                    ""
                }
            )]);
        }
        if int8 && !c.quiet {
            crate::common::diagnostics::emit_messages(
                &[format!(
                    "{}: warning: compiling for {} without calibration: every \
                     INT8 layer has identity scales (scale 1, truncate 0) and its outputs are \
                     not the model's numbers",
                    c.model.display(),
                    c.target.as_str()
                )],
                None,
            );
        }
        return Ok(Plan::default());
    }
    // Per-tensor scales (computed here, or any per-tensor file) reach the
    // registers as a calibtable keyed by the program's names; a CTable
    // (registers per hardware layer) goes to the pass as it is.
    let per_tensor = match (&c.calib, &c.load_calib, &c.load_ctable, &c.load_calibtable) {
        (Some(dir), ..) => {
            let g = graph(c)?;
            Some((calibrate(c, &g, dir)?, g))
        }
        (_, Some(f), ..) | (_, _, _, Some(f)) => {
            let format = if c.load_calibtable.is_some() {
                Some(CalibFormat::Calibtable)
            } else if c.save_calib.is_some() {
                // --calib-format names the saved format; the loaded one is detected.
                None
            } else {
                format
            };
            match load_calib(f, format).map_err(|e| vec![e.to_string()])? {
                // AMCT records are keyed by layer: the pass maps each layer to
                // its input tensor in the program.
                Loaded::Scales(t) if !t.layer_inputs.is_empty() => {
                    if c.save_calib.is_some() {
                        return Err(fail(format!(
                            "--save-calib: '{}' is keyed by layer (an AMCT record); converting \
                             it to another format is not supported yet — load it with \
                             --load-calib alone",
                            f.display()
                        )));
                    }
                    return Ok(Plan {
                        pass: Some(format!(
                            "nvdla-load-ctable{{file={} format=auto}}",
                            quoted(f)
                        )),
                        scales: None,
                        _tmp: None,
                        source: f.display().to_string(),
                    });
                }
                Loaded::Scales(t) => Some((t, graph(c)?)),
                Loaded::Ctable { .. } if c.save_calib.is_some() => {
                    return Err(fail(format!(
                        "--save-calib: '{}' is an ONNC CTable (registers per hardware layer), \
                         not per-tensor scales; write a CTable with --gen-ctable",
                        f.display()
                    )))
                }
                Loaded::Ctable { .. } => None,
            }
        }
        _ => None,
    };
    let source = match (&c.calib, &c.load_calib, &c.load_ctable, &c.load_calibtable) {
        (Some(d), ..) => format!("--calib {}", d.display()),
        (_, Some(f), ..) | (_, _, Some(f), _) | (_, _, _, Some(f)) => f.display().to_string(),
        _ => String::new(),
    };
    if let Some((scales, g)) = per_tensor {
        let notes: Vec<String> = scales.notes.iter().map(|n| format!("note: {n}")).collect();
        crate::common::diagnostics::emit_messages(&notes, None);
        let tmp = temp_calibtable(&scales, &g)?;
        // The temporary calibtable carries scales only: the method (the
        // built-in calibrator's, or the loaded table's) is passed beside
        // it, and the built-in calibrator's entries for tensors fusion
        // removed are expected, not news.
        let method = onnc_nvdla::ctable::method_of(&scales);
        let mut pass = format!(
            "nvdla-load-ctable{{file={} format=nvidia source={}",
            quoted(tmp.path()),
            quoted(Path::new(&source))
        );
        if let Some(m) = method {
            pass.push_str(&format!(" method={}", quoted(Path::new(&m))));
        }
        if c.calib.is_some() {
            pass.push_str(" unused=ignore");
        }
        pass.push('}');
        return Ok(Plan {
            pass: Some(pass),
            scales: Some(scales),
            _tmp: Some(tmp),
            source,
        });
    }
    let file = c
        .load_calib
        .as_ref()
        .or(c.load_ctable.as_ref())
        .expect("a CTable source");
    Ok(Plan {
        pass: Some(format!(
            "nvdla-load-ctable{{file={} format=ctable}}",
            quoted(file)
        )),
        scales: None,
        _tmp: None,
        source,
    })
}

/// `--save-calib FILE`: the plan's scales in `--calib-format` (default:
/// NVIDIA's calibtable), written atomically.
pub fn save(c: &Compile, plan: &Plan, program: &Program) -> Result<(), Vec<String>> {
    let (Some(path), Some(scales)) = (&c.save_calib, &plan.scales) else {
        return Ok(());
    };
    let format = named_format(c)?.unwrap_or(CalibFormat::Calibtable);
    if format == CalibFormat::Ctable {
        return Err(fail(
            "--save-calib writes per-tensor scales; for ONNC's CTable (registers per hardware \
             layer) use --gen-ctable",
        ));
    }
    let bytes = save_calib(scales, format, Some(program), &SaveOptions::default())
        .map_err(|e| vec![e.to_string()])?;
    onnc_passes::io::write_atomic(path, &bytes)
        .map_err(|e| fail(format!("cannot write '{}': {e}", path.display())))
}
