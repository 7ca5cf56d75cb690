//! Calibration sets in the ONNX test-data layout.
//!
//! In: a folder holding `input_<k>.pb` (one set) or `test_data_set_*/`
//! sub-folders each holding `input_<k>.pb` (one set each); `input_<k>.pb`
//! is a serialized `TensorProto` feeding graph input `k`. Out: the set
//! folders in order (sub-folders by their trailing number, then name), and
//! each set read and checked against the graph inputs (element type and
//! every fixed dimension).
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let sets = onnc_calib::load_test_data(std::path::Path::new("calib"), &g).unwrap();
//! assert!(!sets.is_empty());
//! ```

use std::path::{Path, PathBuf};

use onnc_onnx::Graph;

use crate::error::{CalibError, Result};
use crate::inputs::fit;
use crate::source::DataSet;

/// The trailing decimal number of a name (`test_data_set_12` → 12).
pub(crate) fn trailing_number(name: &str) -> Option<u64> {
    let digits: String = name
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// Whether `dir` is in the ONNX test-data layout.
pub fn is_test_data(dir: &Path) -> bool {
    dir.join("input_0.pb").is_file()
        || std::fs::read_dir(dir).is_ok_and(|r| {
            r.flatten().any(|e| {
                e.path().is_dir() && e.file_name().to_string_lossy().starts_with("test_data_set")
            })
        })
}

/// The set folders under `dir`, in set order.
pub fn set_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    if dir.join("input_0.pb").is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut subdirs = Vec::new();
    let rd = std::fs::read_dir(dir).map_err(|e| CalibError::input(dir, e.to_string()))?;
    for e in rd {
        let p = e.map_err(|e| CalibError::input(dir, e.to_string()))?.path();
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if p.is_dir() && name.starts_with("test_data_set") {
            subdirs.push((trailing_number(&name), name, p));
        }
    }
    if subdirs.is_empty() {
        return Err(CalibError::input(
            dir,
            "no input_0.pb and no test_data_set_*/ folders; expected the ONNX test-data layout (input_<k>.pb feeds graph input k)",
        ));
    }
    subdirs.sort();
    Ok(subdirs.into_iter().map(|(_, _, p)| p).collect())
}

/// Read one set folder: `input_<k>.pb` for every graph input `k`.
pub fn load_set(dir: &Path, graph: &Graph) -> Result<DataSet> {
    let mut set = DataSet::default();
    for (k, vi) in graph.inputs.iter().enumerate() {
        let path = dir.join(format!("input_{k}.pb"));
        if !path.is_file() {
            return Err(CalibError::input(
                &path,
                format!("missing; graph input {k} `{}` needs a value", vi.name),
            ));
        }
        let (_, t) = onnc_onnx::read_tensor_pb(&path)
            .map_err(|e| CalibError::input(&path, e.to_string()))?;
        set.inputs
            .push((vi.name.clone(), fit(&path, t, vi, false)?));
        set.files.push(path);
    }
    Ok(set)
}

/// Read every set under `dir` (see the module doc).
pub fn load_test_data(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    set_dirs(dir)?.iter().map(|d| load_set(d, graph)).collect()
}
