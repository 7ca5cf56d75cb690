//! Held-out labelled data and the top-1 accuracy of the simulated NNIE
//! network against the float network.
//!
//! In: a folder in the layout of the INT8 accuracy check
//! (`test/data/int8-classifiers`): `test_x.npy`, float32 `[N, ...]` — N
//! samples, each the model's one input with its batch axis (of size 1)
//! dropped or kept — and `test_y.npy`, integer `[N]` class labels. Out:
//! [`Labelled`] (one [`DataSet`] per sample, the labels) and, from the
//! float and simulated outputs of each sample, an [`Accuracy`]: how many
//! samples each run classifies right (argmax of the one output, `[1, K]` or
//! `[1, K, 1, 1]`) and on how many the two agree. Ties go to the lower class;
//! an output with a NaN counts as wrong.
//!
//! ```no_run
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let data = onnc_nnie::frontend::load_labelled(std::path::Path::new("heldout"), &g).unwrap();
//! assert_eq!(data.sets.len(), data.labels.len());
//! ```

use std::path::Path;

use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};
use serde::{Deserialize, Serialize};

use super::data::DataSet;
use crate::error::{NnieError, Result};

/// The samples file of a labelled folder.
pub const SAMPLES_FILE: &str = "test_x.npy";
/// The labels file of a labelled folder.
pub const LABELS_FILE: &str = "test_y.npy";

/// Labelled samples: one set per sample and its class.
#[derive(Debug, Clone)]
pub struct Labelled {
    /// One input set per sample.
    pub sets: Vec<DataSet>,
    /// The class of each sample.
    pub labels: Vec<i64>,
}

/// Top-1 counts over a labelled folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accuracy {
    /// Samples run.
    pub samples: usize,
    /// Right in float (the reference interpreter).
    pub float_correct: usize,
    /// Right with NNIE's 8-bit quantization simulated.
    pub nnie_correct: usize,
    /// The two choose the same class.
    pub agree: usize,
}

impl Accuracy {
    /// Float top-1 in percent.
    pub fn float_percent(&self) -> f64 {
        percent(self.float_correct, self.samples)
    }
    /// Simulated NNIE top-1 in percent.
    pub fn nnie_percent(&self) -> f64 {
        percent(self.nnie_correct, self.samples)
    }

    /// Counts one sample given the two outputs and its label.
    pub fn add(&mut self, float: &Tensor, nnie: &Tensor, label: i64) -> Result<()> {
        let f = class(float)?;
        let q = class(nnie)?;
        self.samples += 1;
        self.float_correct += usize::from(f == Some(label));
        self.nnie_correct += usize::from(q == Some(label));
        self.agree += usize::from(f.is_some() && f == q);
        Ok(())
    }
}

fn percent(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// Whether `dir` is a labelled folder (it holds [`SAMPLES_FILE`]).
pub fn is_labelled(dir: &Path) -> bool {
    dir.join(SAMPLES_FILE).is_file()
}

fn data_err(path: &Path, what: String) -> NnieError {
    NnieError::Data(format!("{}: {what}", path.display()))
}

/// The class a `[1, K]` or `[1, K, 1, 1]` output chooses (`None` with a NaN).
fn class(t: &Tensor) -> Result<Option<i64>> {
    let s = t.shape();
    let k = match s {
        [1, k] | [1, k, 1, 1] => *k,
        _ => {
            return Err(NnieError::Data(format!(
                "--eval needs a classifier: the output has shape {s:?}, not class scores [1, K]"
            )))
        }
    };
    let v = t.cast(DType::F32);
    let v = v.as_f32().map_err(|e| NnieError::Data(e.to_string()))?;
    if v.iter().any(|x| x.is_nan()) {
        return Ok(None);
    }
    let mut best = 0;
    for i in 1..k {
        if v[i] > v[best] {
            best = i;
        }
    }
    Ok(Some(best as i64))
}

/// Reads `dir/test_x.npy` and `dir/test_y.npy` for `graph` (see the module doc).
pub fn load_labelled(dir: &Path, graph: &Graph) -> Result<Labelled> {
    let xs = dir.join(SAMPLES_FILE);
    let ys = dir.join(LABELS_FILE);
    let [input] = graph.inputs.as_slice() else {
        return Err(data_err(
            &xs,
            format!(
                "labelled samples feed a model with one input; this one has {}",
                graph.inputs.len()
            ),
        ));
    };
    let shape = input.type_info().static_shape().ok_or_else(|| {
        data_err(
            &xs,
            format!("graph input `{}` has no static shape", input.name),
        )
    })?;
    let x = onnc_npy::read(&xs).map_err(|e| NnieError::Data(e.to_string()))?;
    let y = onnc_npy::read(&ys).map_err(|e| {
        NnieError::Data(format!(
            "{e} (a labelled folder holds {SAMPLES_FILE} and {LABELS_FILE})"
        ))
    })?;
    let n = x.shape().first().copied().unwrap_or(0);
    let per: usize = shape.iter().product();
    let fits = !x.shape().is_empty()
        && (x.shape()[1..] == shape[..]
            || (shape.first() == Some(&1) && x.shape()[1..] == shape[1..]));
    if x.dtype() != DType::F32 || !fits || n == 0 {
        return Err(data_err(
            &xs,
            format!(
                "holds {:?} {:?}; input `{}` takes {:?} f32, so the samples file must be f32 [N, {}] with N ≥ 1",
                x.dtype(),
                x.shape(),
                input.name,
                shape,
                shape
                    .iter()
                    .skip(usize::from(shape.first() == Some(&1)))
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let labels: Vec<i64> = match y.dtype() {
        DType::I64 | DType::I32 | DType::I16 | DType::I8 | DType::U8 | DType::U16 | DType::U32 => y
            .cast(DType::I64)
            .as_i64()
            .map_err(|e| data_err(&ys, e.to_string()))?
            .to_vec(),
        other => {
            return Err(data_err(
                &ys,
                format!("holds {other:?} labels; give integer class indices"),
            ))
        }
    };
    if y.shape().iter().product::<usize>() != n || y.shape().first() != Some(&n) {
        return Err(data_err(
            &ys,
            format!(
                "holds {:?} labels for {n} samples in {SAMPLES_FILE}; give one label per sample, shape [{n}]",
                y.shape()
            ),
        ));
    }
    let values = x.as_f32().map_err(|e| data_err(&xs, e.to_string()))?;
    let sets = values
        .chunks(per)
        .map(|chunk| {
            let t = Tensor::from_f32(shape.clone(), chunk.to_vec())
                .map_err(|e| data_err(&xs, e.to_string()))?;
            Ok(DataSet {
                inputs: vec![(input.name.clone(), t)],
                files: vec![xs.clone()],
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Labelled { sets, labels })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[f32]) -> Tensor {
        Tensor::from_f32(vec![1, v.len()], v.to_vec()).unwrap()
    }

    #[test]
    fn counts_right_answers_and_agreement() {
        let mut a = Accuracy::default();
        a.add(&t(&[0.1, 0.9]), &t(&[0.2, 0.8]), 1).unwrap(); // both right
        a.add(&t(&[0.9, 0.1]), &t(&[0.2, 0.8]), 0).unwrap(); // float right
        a.add(&t(&[0.5, 0.5]), &t(&[f32::NAN, 0.0]), 1).unwrap(); // tie → 0; NaN wrong
        assert_eq!(
            a,
            Accuracy {
                samples: 3,
                float_correct: 2,
                nnie_correct: 1,
                agree: 1
            }
        );
        assert!((a.float_percent() - 200.0 / 3.0).abs() < 1e-12);
        let e = a
            .add(
                &Tensor::from_f32(vec![2, 2], vec![0.0; 4]).unwrap(),
                &t(&[1.0]),
                0,
            )
            .unwrap_err();
        assert!(e.to_string().contains("not class scores"), "{e}");
    }
}
