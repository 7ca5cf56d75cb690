//! `onnc compile --target nv_full|nv_large|nv_small --calib DIR`: the
//! built-in INT8 calibrator (`onnc-calib`) over the calibration sets, its
//! per-tensor scales handed to the NVDLA register derivation
//! (`nvdla-load-ctable{format=nvidia}`, the same path as a calibtable from
//! NVIDIA's tools).
//!
//! In: the parsed command line (`--calib DIR`, `--calib-method`, the image
//! preprocessing flags, `--input-shape`). Out: a temporary calibtable
//! JSON (`{"<tensor>": {"scale": s, "min": -127·s, "max": 127·s,
//! "offset": 0}}`), deleted when the returned handle drops; a note on
//! stderr with the method, the number of sets and of tensors; errors name
//! the file or option at fault.

use std::io::Write;

use onnc_calib::{CalibSource, Options, Preprocess};

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

/// Calibrates on `dir` and writes the scales as a temporary calibtable.
pub fn calibtable(
    c: &Compile,
    dir: &std::path::Path,
) -> Result<tempfile::NamedTempFile, Vec<String>> {
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
    let shapes = crate::common::input_shape::canonical(&c.input_shape)
        .map_err(|e| vec![e])?
        .iter()
        .filter_map(|s| onnc_onnx::Options::parse_input_shape(s))
        .collect::<Vec<_>>();
    let graph = onnc_passes::numerics::load_graph(&c.model, &shapes)?;
    let source = CalibSource::detect(dir, preprocess(c)?).map_err(|e| fail(e))?;
    let cal = onnc_calib::calibrate(
        &graph,
        &source,
        &Options {
            method,
            progress: c.progress_wanted(),
        },
    )
    .map_err(|e| fail(format!("{file}: calibration: {e}")))?;
    let mut table = serde_json::Map::new();
    for (name, &s) in &cal.scales {
        table.insert(
            name.clone(),
            serde_json::json!({
                "scale": s,
                "min": -127.0 * s,
                "max": 127.0 * s,
                "offset": 0,
            }),
        );
    }
    let text = serde_json::to_string_pretty(&serde_json::Value::Object(table))
        .map_err(|e| fail(format!("internal: calibtable: {e}")))?;
    let mut tmp = tempfile::Builder::new()
        .prefix("onnc-calib-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| fail(format!("cannot create a temporary calibtable: {e}")))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| fail(format!("cannot write a temporary calibtable: {e}")))?;
    if !c.quiet {
        eprintln!(
            "note: {file}: calibrated {} tensors on {} sets from '{}' ({})",
            cal.scales.len(),
            cal.sets,
            dir.display(),
            cal.method
        );
    }
    Ok(tmp)
}
