//! Top-1 accuracy of a classifier: the model in the reference interpreter
//! (FP32) and its loadable in the simulator, on the same labelled inputs.
//!
//! In: the graph, the loadable compiled from it for `target`, the
//! per-tensor scales it was calibrated with (`None` for nv_full), the
//! samples (one input list each) and their labels. Out: each side's class
//! per sample ([`reference_classes`], [`simulated_classes`]: the reference
//! once, the loadables of several calibrations against it) and an
//! [`Accuracy`] ([`score`]): how many samples each gets right and on how
//! many the two agree.
//! The model must have one classifier-shaped output (`[1, K]`, `[1, K, 1,
//! 1]`); anything else is an error naming the output.
//!
//! What `classifiers_test.rs` prints from an [`Accuracy`]:
//!
//! ```text
//! plain.onnx on nv_small, percentile:99.99: FP32 98.17%, INT8 98.00% (600 samples, top-1 agrees on 599)
//! ```

use onnc_nvdla::ctable::TensorScales;
use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};

use super::{argmax, err, int8, is_classifier, sim_inputs, sim_options};

/// Counts over a labelled set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accuracy {
    /// Samples run.
    pub samples: usize,
    /// Right in the reference interpreter.
    pub reference: usize,
    /// Right through the simulator.
    pub simulated: usize,
    /// The two choose the same class.
    pub agree: usize,
}

impl Accuracy {
    /// Reference top-1, in percent.
    pub fn reference_percent(&self) -> f64 {
        percent(self.reference, self.samples)
    }

    /// Simulated top-1, in percent.
    pub fn simulated_percent(&self) -> f64 {
        percent(self.simulated, self.samples)
    }
}

fn percent(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// The reference interpreter's class for every sample (`None` where the
/// scores hold only NaN). Errors name the sample, or an output that is not
/// class scores.
pub fn reference_classes(
    graph: &Graph,
    file: &str,
    samples: &[Vec<(String, Tensor)>],
) -> Result<Vec<Option<usize>>, Vec<String>> {
    let out = single_output(graph, file)?;
    samples
        .iter()
        .enumerate()
        .map(|(k, inputs)| {
            let reference = crate::numerics::run(graph, inputs)
                .map_err(|m| err(format!("{file}: sample {k}: {m}")))?;
            let r = reference[0].1.cast(DType::F32);
            if !is_classifier(r.shape()) {
                return Err(err(format!(
                    "{file}: output '{out}' has shape {:?}, not class scores [1, K]",
                    r.shape()
                )));
            }
            Ok(argmax(r.as_f32().map_err(err)?))
        })
        .collect()
}

fn single_output<'g>(graph: &'g Graph, file: &str) -> Result<&'g str, Vec<String>> {
    match graph.outputs.as_slice() {
        [out] => Ok(&out.name),
        outs => Err(err(format!(
            "{file}: a classifier has one output, this model {}",
            outs.len()
        ))),
    }
}

/// The loadable's class for every sample: `bytes` compiled from `graph`
/// for `target`, INT8 inputs quantized and the output dequantized with
/// `scales` (`None`: FP16).
pub fn simulated_classes(
    graph: &Graph,
    file: &str,
    target: &str,
    bytes: &[u8],
    scales: Option<&TensorScales>,
    samples: &[Vec<(String, Tensor)>],
) -> Result<Vec<Option<usize>>, Vec<String>> {
    let out = single_output(graph, file)?;
    // The INT8 scales of the inputs and of the output.
    let quant = match scales {
        Some(s) => {
            let (_, p) = int8::compile_int8(graph, file, target, "naive", s)?;
            let stored = int8::stored_scales(&p, s, graph);
            let s_out = p.outputs.first().and_then(|&t| stored[t]).ok_or_else(|| {
                err(format!(
                    "{file}: output '{out}' has no INT8 scale in the calibration"
                ))
            })?;
            Some((p, stored, s_out))
        }
        None => None,
    };
    let opts = sim_options(target);
    samples
        .iter()
        .enumerate()
        .map(|(k, inputs)| {
            let at = |m: String| err(format!("{file}: sample {k}: {m}"));
            let feed = match &quant {
                Some((p, stored, _)) => {
                    sim_inputs(graph, &int8::quantize_inputs(p, stored, inputs)?)?
                }
                None => sim_inputs(graph, inputs)?,
            };
            let sim = onnc_nvdla_sim::run::simulate(bytes, &feed, &opts)
                .map_err(|e| at(format!("on {target}: {e}")))?;
            let o = sim
                .tensors
                .first()
                .ok_or_else(|| at("the loadable has no output".into()))?;
            Ok(match &quant {
                Some((_, _, s)) => argmax(&int8::dequantize(&o.values, *s)),
                None => argmax(&o.values),
            })
        })
        .collect()
}

/// Counts the classes against the labels.
pub fn score(
    reference: &[Option<usize>],
    simulated: &[Option<usize>],
    labels: &[usize],
) -> Accuracy {
    let n = labels.len().min(reference.len()).min(simulated.len());
    let right = |c: &[Option<usize>]| (0..n).filter(|&i| c[i] == Some(labels[i])).count();
    Accuracy {
        samples: n,
        reference: right(reference),
        simulated: right(simulated),
        agree: (0..n).filter(|&i| reference[i] == simulated[i]).count(),
    }
}
