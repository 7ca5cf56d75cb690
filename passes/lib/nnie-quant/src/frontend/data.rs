//! Calibration and evaluation inputs in the ONNX test-data layout.
//!
//! In: a directory holding `input_<k>.pb` (one set) or `test_data_set_*/`
//! sub-directories each holding `input_<k>.pb` (several sets); `input_<k>`
//! feeds the `k`-th graph input. Out: the sets in order (sub-directories by
//! their trailing number, then name), each checked against the graph's input
//! types, with the files they came from.
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let sets = onnc_nnie::frontend::load_test_data(std::path::Path::new("calib"), &g).unwrap();
//! assert!(!sets.is_empty());
//! ```

use std::path::{Path, PathBuf};

use onnc_onnx::Graph;
use onnc_tensor::Tensor;

use crate::error::{NnieError, Result};

/// One set of graph inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSet {
    /// `(graph input name, value)` in graph-input order.
    pub inputs: Vec<(String, Tensor)>,
    /// The files read, in the same order.
    pub files: Vec<PathBuf>,
}

fn io(path: &Path, e: impl std::fmt::Display) -> NnieError {
    NnieError::Data(format!("{}: {e}", path.display()))
}

fn number(name: &str) -> Option<u64> {
    let digits: String = name
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// Load every set under `dir` (see the module doc).
pub fn load_test_data(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    if dir.join("input_0.pb").is_file() {
        return Ok(vec![load_set(dir, graph)?]);
    }
    let mut subdirs = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let p = e.map_err(|e| io(dir, e))?.path();
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if p.is_dir() && name.starts_with("test_data_set") {
            subdirs.push((number(&name), name, p));
        }
    }
    if subdirs.is_empty() {
        return Err(NnieError::Data(format!(
            "{}: no input_0.pb and no test_data_set_*/ directories; expected the ONNX test-data layout (input_<k>.pb feeds graph input k)",
            dir.display()
        )));
    }
    subdirs.sort();
    subdirs
        .into_iter()
        .map(|(_, _, p)| load_set(&p, graph))
        .collect()
}

fn load_set(dir: &Path, graph: &Graph) -> Result<DataSet> {
    let mut set = DataSet {
        inputs: Vec::new(),
        files: Vec::new(),
    };
    for (k, vi) in graph.inputs.iter().enumerate() {
        let path = dir.join(format!("input_{k}.pb"));
        if !path.is_file() {
            return Err(NnieError::Data(format!(
                "{}: missing; graph input {k} `{}` needs a value",
                path.display(),
                vi.name
            )));
        }
        let (_, t) = onnc_onnx::read_tensor_pb(&path).map_err(|e| io(&path, e))?;
        let want = vi.type_info();
        if want.static_shape().as_deref() != Some(t.shape()) || want.dtype != t.dtype() {
            return Err(NnieError::Data(format!(
                "{}: holds {}, graph input `{}` is {want}",
                path.display(),
                onnc_onnx::TypeInfo::of(&t),
                vi.name
            )));
        }
        set.inputs.push((vi.name.clone(), t));
        set.files.push(path);
    }
    Ok(set)
}

/// `n` deterministic sets of uniform `[0, 1)` values (xorshift64, seed 1),
/// for evaluating a model when no data was given (MQBench clip tables).
pub fn synthetic_sets(graph: &Graph, n: usize) -> Result<Vec<DataSet>> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut sets = Vec::new();
    for _ in 0..n {
        let mut set = DataSet {
            inputs: Vec::new(),
            files: Vec::new(),
        };
        for vi in &graph.inputs {
            let shape = vi.type_info().static_shape().ok_or_else(|| {
                NnieError::Data(format!("graph input `{}` has no static shape", vi.name))
            })?;
            let vals = (0..shape.iter().product::<usize>())
                .map(|_| next())
                .collect();
            let t = Tensor::from_f32(shape, vals).map_err(|e| NnieError::Data(e.to_string()))?;
            set.inputs.push((vi.name.clone(), t));
        }
        sets.push(set);
    }
    Ok(sets)
}
