//! The per-tensor scales an INT8 `--compare-target` (nv_small, nv_large)
//! compiles with: the built-in calibrator (`onnc-calib`) run on `--calib
//! DIR`, or on the very inputs being compared.
//!
//! In: the graph, the compared inputs, what the command line asked for
//! ([`Choice`]). Out: scales keyed by ONNX value names (as
//! `onnc compile --calib` hands them to the register derivation), and a
//! note on stderr naming the data and the method.
//!
//! Calibrating on the compared inputs uses the maximum by default: every
//! value of that input is then representable, so the comparison measures
//! INT8 rounding, not the clipping a one-sample entropy threshold would
//! add. It is the best case for this input; `--calib DIR` measures a
//! calibration that did not see it.

use std::path::{Path, PathBuf};

use onnc_calib::{CalibSource, DataSet, Method, Options, Preprocess};
use onnc_nvdla::ctable::{TensorScale, TensorScales};
use onnc_tensor::Tensor;

/// What the command line asked for.
#[derive(Debug, Clone, Default)]
pub struct Choice {
    /// `--calib DIR`: calibration sets (`test_data_set_*`, `.npy` files).
    pub dir: Option<PathBuf>,
    /// `--calib-method`; `None`: entropy with a folder, max on the inputs.
    pub method: Option<String>,
}

/// Calibrates `graph` as `choice` says; see the module doc.
pub fn scales(
    graph: &onnc_onnx::Graph,
    file: &str,
    inputs: &[(String, Tensor)],
    choice: &Choice,
) -> Result<TensorScales, Vec<String>> {
    let fail = |m: String| vec![format!("onnc-run: error: {m}")];
    let default = match choice.dir {
        Some(_) => Method::Entropy,
        None => Method::Max,
    };
    let method = match &choice.method {
        Some(m) => m
            .parse()
            .map_err(|e| fail(format!("--calib-method: {e}")))?,
        None => default,
    };
    let (source, what) = match &choice.dir {
        Some(dir) => (
            source_of(dir).map_err(fail)?,
            format!("'{}'", dir.display()),
        ),
        None => (
            CalibSource::Sets(vec![DataSet {
                inputs: inputs.to_vec(),
                files: Vec::new(),
            }]),
            "the compared inputs".to_string(),
        ),
    };
    let opts = Options {
        method,
        progress: false,
    };
    let cal = onnc_calib::calibrate(graph, &source, &opts)
        .map_err(|e| fail(format!("{file}: calibration: {e}")))?;
    let mut scales = TensorScales::new(&what, "calib");
    scales.method = Some(cal.method.to_string());
    for (name, &s) in &cal.scales {
        scales.entries.insert(name.clone(), TensorScale::new(s));
    }
    onnc_tools::diagnostics::emit_messages(
        &[format!(
            "onnc-run: note: calibrated {} tensors on {} set{} from {what} ({})",
            cal.scales.len(),
            cal.sets,
            if cal.sets == 1 { "" } else { "s" },
            cal.method
        )],
        None,
    );
    Ok(scales)
}

/// The calibration sets of `dir`, with an error naming it when it is not a
/// folder of sets.
fn source_of(dir: &Path) -> Result<CalibSource, String> {
    if !dir.is_dir() {
        return Err(format!(
            "--calib '{}' is not a directory (give a folder of test_data_set_*/input_*.pb sets or .npy files)",
            dir.display()
        ));
    }
    CalibSource::detect(dir, Preprocess::default()).map_err(|e| e.to_string())
}
