//! Calibration sets as NumPy `.npy` files.
//!
//! In: a folder. Out: sets of `.npy` files, each file checked against the
//! graph input it feeds (element type, fixed dimensions; a file without the
//! input's leading batch dimension of 1 is accepted, e.g. `[3, 224, 224]`
//! for `[1, 3, 224, 224]`). Two layouts:
//!
//! * **sets in sub-folders**: `DIR/<set>/` holds one file per graph input;
//!   the sub-folders are the sets, ordered by trailing number then name
//!   (`set_2` before `set_10`);
//! * **files directly in `DIR`**: with a one-input model every `.npy` file
//!   is one set, in the same order; with several inputs the files form one
//!   set.
//!
//! Within a set, graph input `k` named `N` is read from `input_<k>.npy` or
//! from `N.npy`, where every character of `N` other than a letter, digit,
//! `_`, `-` or `.` is written `_` (`gpu_0/data_0` → `gpu_0_data_0.npy`).
//! A file that names no input is an error (it would be silently unused).
//! numpy saves `float64` by default: such files are refused with the fix
//! (`arr.astype(np.float32)`), not converted.
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let plan = onnc_calib::npy_sets::plan(std::path::Path::new("calib_npy"), &g).unwrap();
//! let first = onnc_calib::npy_sets::load_set(&plan[0], &g).unwrap();
//! assert_eq!(first.inputs.len(), g.inputs.len());
//! ```

use std::path::{Path, PathBuf};

use onnc_onnx::Graph;

use crate::error::{CalibError, Result};
use crate::inputs::fit;
use crate::source::DataSet;
use crate::testdata::trailing_number;

/// The file name an input may be read from besides `input_<k>.npy`.
pub fn file_name_for(input: &str) -> String {
    let s: String = input
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{s}.npy")
}

fn is_npy(p: &Path) -> bool {
    p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// `(files, sub-folders holding .npy files)` directly in `dir`, each in set order.
fn entries(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let rd = std::fs::read_dir(dir).map_err(|e| CalibError::input(dir, e.to_string()))?;
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for e in rd {
        let p = e.map_err(|e| CalibError::input(dir, e.to_string()))?.path();
        let stem = p
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let key = (trailing_number(&stem), stem, p.clone());
        if is_npy(&p) {
            files.push(key);
        } else if p.is_dir()
            && std::fs::read_dir(&p).is_ok_and(|r| r.flatten().any(|e| is_npy(&e.path())))
        {
            dirs.push(key);
        }
    }
    files.sort();
    dirs.sort();
    let strip = |v: Vec<(Option<u64>, String, PathBuf)>| v.into_iter().map(|(_, _, p)| p).collect();
    Ok((strip(files), strip(dirs)))
}

/// Whether `dir` holds `.npy` files or sub-folders of them.
pub fn is_npy_dir(dir: &Path) -> bool {
    entries(dir).is_ok_and(|(f, d)| !f.is_empty() || !d.is_empty())
}

/// The sets under `dir`: for each set, one file per graph input, in graph
/// input order (see the module doc).
pub fn plan(dir: &Path, graph: &Graph) -> Result<Vec<Vec<PathBuf>>> {
    let (files, dirs) = entries(dir)?;
    match (files.is_empty(), dirs.is_empty()) {
        (true, true) => Err(CalibError::input(
            dir,
            "no .npy files and no sub-folders of .npy files",
        )),
        (false, false) => Err(CalibError::input(
            dir,
            format!(
                "holds both .npy files ({}) and set sub-folders ({}); keep one layout",
                files[0].display(),
                dirs[0].display()
            ),
        )),
        (false, true) if graph.inputs.len() == 1 => {
            Ok(files.into_iter().map(|f| vec![f]).collect())
        }
        (false, true) => Ok(vec![match_inputs(dir, &files, graph)?]),
        (true, false) => dirs
            .iter()
            .map(|d| {
                let (f, _) = entries(d)?;
                match_inputs(d, &f, graph)
            })
            .collect(),
    }
}

/// One file per graph input among `files` (all in `dir`).
fn match_inputs(dir: &Path, files: &[PathBuf], graph: &Graph) -> Result<Vec<PathBuf>> {
    let mut used = vec![false; files.len()];
    let mut out = Vec::new();
    for (k, vi) in graph.inputs.iter().enumerate() {
        let names = [format!("input_{k}.npy"), file_name_for(&vi.name)];
        let found = files.iter().position(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| names.iter().any(|m| m == n))
        });
        match found {
            Some(i) => {
                used[i] = true;
                out.push(files[i].clone());
            }
            None => {
                return Err(CalibError::input(
                    dir,
                    format!(
                        "no {} or {} for graph input {k} `{}`",
                        names[0], names[1], vi.name
                    ),
                ))
            }
        }
    }
    if let Some(i) = used.iter().position(|u| !u) {
        let expected: Vec<String> = graph
            .inputs
            .iter()
            .enumerate()
            .map(|(k, v)| format!("input_{k}.npy or {}", file_name_for(&v.name)))
            .collect();
        return Err(CalibError::input(
            &files[i],
            format!("names no graph input; expected {}", expected.join(", ")),
        ));
    }
    Ok(out)
}

/// Read one set (files in graph input order, as [`plan`] gives them).
pub fn load_set(files: &[PathBuf], graph: &Graph) -> Result<DataSet> {
    let mut set = DataSet::default();
    for (path, vi) in files.iter().zip(&graph.inputs) {
        let t = onnc_npy::read(path).map_err(|e| CalibError::input(path, e.why))?;
        set.inputs.push((vi.name.clone(), fit(path, t, vi, true)?));
        set.files.push(path.clone());
    }
    Ok(set)
}
