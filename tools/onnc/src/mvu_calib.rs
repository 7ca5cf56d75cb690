//! `onnc compile --target mvu --calib DIR`: the calibration inputs of the
//! MVU's per-layer output windows.
//!
//! In: a folder of ONNX test data (`input_0.pb`, or `test_data_set_*/`) or
//! `.npy` sets, the (legalized) graph and the activation precision `A`.
//! Out: one input's codes per set, in NCHW order, for
//! `onnc_mvu::CompileOptions::calibration`; or errors naming the file and
//! the offending value. The MVU reads unsigned `A`-bit codes, not real
//! numbers (its test input is codes too), so every value must be an integer
//! in `0 ..= 2^A − 1`; images are refused (they would need a scale to
//! become codes, which the MVU flow does not define).

use onnc_calib::{npy_sets, testdata, DataSet};
use onnc_onnx::Graph;
use std::path::Path;

/// The code sets in `dir` (module doc).
pub fn codes(dir: &Path, graph: &Graph, aprec: u32) -> Result<Vec<Vec<i64>>, Vec<String>> {
    let err = |m: String| vec![format!("{}: error: {m}", dir.display())];
    if !dir.is_dir() {
        return Err(err("--calib is not a folder".into()));
    }
    let sets: Vec<DataSet> = if testdata::is_test_data(dir) {
        testdata::load_test_data(dir, graph).map_err(|e| err(e.to_string()))?
    } else if npy_sets::is_npy_dir(dir) {
        let plan = npy_sets::plan(dir, graph).map_err(|e| err(e.to_string()))?;
        plan.iter()
            .map(|files| npy_sets::load_set(files, graph))
            .collect::<Result<_, _>>()
            .map_err(|e| err(e.to_string()))?
    } else {
        return Err(err(
            "holds no MVU calibration inputs: --target mvu takes input codes as ONNX test data (input_0.pb, test_data_set_*/) or .npy sets, not images".into(),
        ));
    };
    if sets.is_empty() {
        return Err(err("holds no calibration set".into()));
    }
    let top = (1i64 << aprec) - 1;
    let mut out = Vec::with_capacity(sets.len());
    for set in &sets {
        let Some((name, t)) = set.inputs.first() else {
            return Err(err("a calibration set has no input".into()));
        };
        let file = set
            .files
            .first()
            .map_or_else(|| dir.display().to_string(), |f| f.display().to_string());
        let values = t.data().to_f64_vec();
        let mut codes = Vec::with_capacity(values.len());
        for (i, &v) in values.iter().enumerate() {
            if v.fract() != 0.0 || !(0.0..=top as f64).contains(&v) {
                return Err(vec![format!(
                    "{file}: error: input '{name}' value {v} at flat index {i} is not an unsigned {aprec}-bit code (an integer in 0..={top}); the MVU reads integer codes, so give codes (e.g. round(x / scale) clamped to the range), or compile without --calib"
                )]);
            }
            codes.push(v as i64);
        }
        out.push(codes);
    }
    Ok(out)
}
