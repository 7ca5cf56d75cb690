//! Where calibration inputs come from, and how sets are enumerated and read.
//!
//! In: a [`CalibSource`] and the graph. Out: a [`SetPlan`] per set (cheap:
//! paths only, so that sets are read lazily, in parallel, each by the
//! thread that runs it) and, per plan, the [`DataSet`] fed to the model.
//!
//! [`CalibSource::detect`] picks the layout of a `--calib DIR` from its
//! content: ONNX test data (`input_0.pb` or `test_data_set_*/`), then
//! `.npy` files (or sub-folders of them), then images.
//!
//! ```no_run
//! use onnc_calib::{CalibSource, Preprocess};
//! let src = CalibSource::detect("calib".as_ref(), Preprocess::default()).unwrap();
//! assert!(matches!(src, CalibSource::TestData(_) | CalibSource::Npy(_) | CalibSource::Images(..)));
//! ```

use std::path::{Path, PathBuf};

use onnc_onnx::Graph;
use onnc_tensor::Tensor;

use crate::error::{CalibError, Result};
use crate::images::{self, image_files, IMAGE_EXTENSIONS};
use crate::npy_sets;
use crate::preprocess::Preprocess;
use crate::testdata;

/// One set of graph inputs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataSet {
    /// `(graph input name, value)` in graph-input order.
    pub inputs: Vec<(String, Tensor)>,
    /// The files read, in the same order (empty for in-memory sets).
    pub files: Vec<PathBuf>,
}

/// Calibration inputs.
#[derive(Debug, Clone, PartialEq)]
pub enum CalibSource {
    /// ONNX test data: `DIR/input_<k>.pb` or `DIR/test_data_set_*/input_<k>.pb`
    /// ([`testdata`](crate::testdata)).
    TestData(PathBuf),
    /// `.npy` files ([`npy_sets`](crate::npy_sets)).
    Npy(PathBuf),
    /// A folder of images with their preprocessing ([`images`](crate::images)).
    Images(PathBuf, Preprocess),
    /// Sets already in memory (checked against the graph by the interpreter).
    Sets(Vec<DataSet>),
}

/// One set to read.
#[derive(Debug, Clone, PartialEq)]
pub enum SetPlan {
    /// A test-data folder.
    TestData(PathBuf),
    /// `.npy` files in graph input order.
    Npy(Vec<PathBuf>),
    /// One image.
    Image(PathBuf),
    /// The `i`-th in-memory set.
    Memory(usize),
}

impl CalibSource {
    /// The source a folder holds (see the module doc); images use `pre`.
    pub fn detect(dir: &Path, pre: Preprocess) -> Result<CalibSource> {
        if !dir.is_dir() {
            return Err(CalibError::input(
                dir,
                "is not a folder (give --calib a folder of calibration inputs)",
            ));
        }
        if testdata::is_test_data(dir) {
            return Ok(CalibSource::TestData(dir.to_path_buf()));
        }
        if npy_sets::is_npy_dir(dir) {
            return Ok(CalibSource::Npy(dir.to_path_buf()));
        }
        if !image_files(dir)?.is_empty() {
            return Ok(CalibSource::Images(dir.to_path_buf(), pre));
        }
        Err(CalibError::input(
            dir,
            format!(
                "holds no calibration inputs: expected input_<k>.pb or test_data_set_*/ (ONNX test data), .npy files, or images (.{})",
                IMAGE_EXTENSIONS.join(", .")
            ),
        ))
    }

    /// The sets, in set order; errors for an empty or malformed source.
    pub fn plan(&self, graph: &Graph) -> Result<Vec<SetPlan>> {
        let plans: Vec<SetPlan> = match self {
            CalibSource::TestData(dir) => testdata::set_dirs(dir)?
                .into_iter()
                .map(SetPlan::TestData)
                .collect(),
            CalibSource::Npy(dir) => npy_sets::plan(dir, graph)?
                .into_iter()
                .map(SetPlan::Npy)
                .collect(),
            CalibSource::Images(dir, pre) => {
                pre.validated()?;
                images::image_input(dir, graph, pre)?;
                let files = image_files(dir)?;
                if files.is_empty() {
                    return Err(CalibError::input(
                        dir,
                        format!("no images (.{})", IMAGE_EXTENSIONS.join(", .")),
                    ));
                }
                files.into_iter().map(SetPlan::Image).collect()
            }
            CalibSource::Sets(sets) => (0..sets.len()).map(SetPlan::Memory).collect(),
        };
        if plans.is_empty() {
            return Err(CalibError::Model(
                "the calibration source holds no set".into(),
            ));
        }
        Ok(plans)
    }

    /// Read one planned set.
    pub fn load(&self, plan: &SetPlan, graph: &Graph) -> Result<DataSet> {
        match (self, plan) {
            (_, SetPlan::TestData(dir)) => testdata::load_set(dir, graph),
            (_, SetPlan::Npy(files)) => npy_sets::load_set(files, graph),
            (CalibSource::Images(dir, pre), SetPlan::Image(p)) => {
                let input = images::image_input(dir, graph, pre)?;
                images::load_image(p, &input, pre)
            }
            (CalibSource::Sets(sets), SetPlan::Memory(i)) if *i < sets.len() => {
                Ok(sets[*i].clone())
            }
            _ => Err(CalibError::Model(format!(
                "set plan {plan:?} does not belong to this source"
            ))),
        }
    }
}
