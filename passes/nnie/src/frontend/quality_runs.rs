//! The quality runs behind `quant_report.json`: every evaluation set in
//! float and with NNIE's quantization simulated, in parallel over the sets.
//!
//! In: the legalized graph, the calibrated layers, the sets, the layer tops
//! to compare, a progress bar. Out: one [`SetRun`] per set, handed to the
//! caller **in set order** (so whatever it accumulates — `f64` sums — is the
//! same bytes whatever the thread count); or the first failing set's error,
//! the same error a one-set-at-a-time loop would give.
//!
//! The layers' weights are fake-quantized once for all sets. Sets run a few at a time ([`super::simulate`]'s `sets_in_flight`), so
//! only their outputs and tops are held at once.

use std::collections::BTreeSet;

use onnc_calib::ProgressBar;
use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};
use rayon::prelude::*;

use super::data::DataSet;
use super::layer::Layer;
use super::simulate::{
    float_run_keeping, quant_run_with, quant_weights, sets_in_flight, Outputs, QuantWeights,
};
use crate::error::Result;
use crate::quality::Accumulator;

/// One set's results.
pub(super) struct SetRun {
    /// Graph outputs of the float run.
    pub float: Outputs,
    /// Graph outputs of the simulated quantized run.
    pub quant: Outputs,
    /// `(top, float values, quantized values)` in the quantized run's node
    /// order; every pair already passed [`Accumulator::check`].
    pub tops: Vec<(String, Vec<f32>, Vec<f32>)>,
}

/// `t` as `f32` values (empty if it cannot be cast).
pub(super) fn f32_values(t: &Tensor) -> Vec<f32> {
    t.cast(DType::F32)
        .as_f32()
        .map(<[f32]>::to_vec)
        .unwrap_or_default()
}

fn run_set(
    graph: &Graph,
    layers: &[Layer],
    qweights: &QuantWeights<'_>,
    set: &DataSet,
    tops: &BTreeSet<String>,
) -> Result<SetRun> {
    let (float, float_tops) = float_run_keeping(graph, set, tops)?;
    let mut pairs = Vec::new();
    let quant = quant_run_with(graph, layers, qweights, set, &mut |name, q| {
        if let Some(f) = float_tops.get(name) {
            let (f, q) = (f32_values(f), f32_values(q));
            Accumulator::check(&f, &q)?;
            pairs.push((name.to_string(), f, q));
        }
        Ok(())
    })?;
    Ok(SetRun {
        float,
        quant,
        tops: pairs,
    })
}

/// Run every set (see the module doc); `each(k, run)` gets set `k`'s
/// results in order, and its error stops the runs.
pub(super) fn quality_runs(
    graph: &Graph,
    layers: &[Layer],
    sets: &[DataSet],
    tops: &BTreeSet<String>,
    progress: &ProgressBar,
    mut each: impl FnMut(usize, SetRun) -> Result<()>,
) -> Result<()> {
    let qweights = quant_weights(layers)?;
    let mut k = 0;
    for chunk in sets.chunks(sets_in_flight()) {
        let runs: Vec<Result<SetRun>> = chunk
            .par_iter()
            .map(|set| {
                let r = run_set(graph, layers, &qweights, set, tops);
                progress.inc(1);
                r
            })
            .collect();
        for run in runs {
            each(k, run?)?;
            k += 1;
        }
    }
    Ok(())
}
