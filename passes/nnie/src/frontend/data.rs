//! Calibration and evaluation inputs in the ONNX test-data layout.
//!
//! In: a directory holding `input_<k>.pb` (one set) or `test_data_set_*/`
//! sub-directories each holding `input_<k>.pb` (several sets); `input_<k>`
//! feeds the `k`-th graph input. Out: the sets in order (sub-directories by
//! their trailing number, then name), each checked against the graph's input
//! types, with the files they came from. The reader is `onnc_calib`'s, shared
//! with the NVDLA calibrator. [`load_npy_sets`] reads `.npy` sets the same
//! way the NVDLA calibrator does.
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let sets = onnc_nnie::frontend::load_test_data(std::path::Path::new("calib"), &g).unwrap();
//! assert!(!sets.is_empty());
//! ```

use std::path::Path;

use onnc_onnx::Graph;
use onnc_tensor::Tensor;

use crate::error::{NnieError, Result};

/// One set of graph inputs (shared with `onnc-calib`).
pub use onnc_calib::DataSet;

/// Load every set under `dir` (see the module doc; `onnc_calib::testdata`).
pub fn load_test_data(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    onnc_calib::load_test_data(dir, graph).map_err(|e| NnieError::Data(e.to_string()))
}

/// Load the `.npy` sets under `dir` (`onnc_calib::npy_sets`: one file per
/// set for a one-input model, or one sub-folder per set), in set order.
pub fn load_npy_sets(dir: &Path, graph: &Graph) -> Result<Vec<DataSet>> {
    let data = |e: onnc_calib::CalibError| NnieError::Data(e.to_string());
    onnc_calib::npy_sets::plan(dir, graph)
        .map_err(data)?
        .iter()
        .map(|files| onnc_calib::npy_sets::load_set(files, graph).map_err(data))
        .collect()
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
