//! Float and simulated-quantized runs of the graph (onnc-interp kernels).
//!
//! In: the legalized graph, input sets, and (for the quantized run) the
//! calibrated layers. Out: [`float_run`] — graph outputs per set and a
//! [`Calibrator`] fed with every watched value (layer inputs) per set;
//! [`quant_run`] — graph outputs per set with NNIE's quantization simulated:
//! every data input of a quantized layer goes through
//! [`fake_quantize`](crate::fake_quantize) with the layer's clip for it, and
//! Conv/Fc weights are fake-quantized with the weight clip (the bias stays
//! float). Everything else runs in f32 exactly as the float run does.
//!
//! ```no_run
//! # use onnc_nnie::frontend::{float_run, DataSet};
//! # let (graph, sets): (onnc_onnx::Graph, Vec<DataSet>) = unimplemented!();
//! let watch = ["x".to_string()].into_iter().collect();
//! let (calib, outputs) = float_run(&graph, &sets, &watch, Default::default()).unwrap();
//! assert!(calib.layer("x").is_some());
//! ```

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use onnc_interp::{run_graph_observed, run_op_with, OpOptions};
use onnc_onnx::Graph;
use onnc_tensor::{Attr, Tensor};

use onnc_calib::ProgressBar;
use rayon::prelude::*;

use super::data::DataSet;
use super::layer::{Layer, LayerKind};
use crate::calib::{CalibConfig, Calibrator};
use crate::code::LogQuantizer;
use crate::error::{NnieError, Result};
use crate::fake_quant::fake_quantize;
use crate::grid::ClipValue;
use crate::histogram::AbsHistogram;

/// Outputs of one run: `(graph output name, value)` in declaration order.
pub type Outputs = Vec<(String, Tensor)>;

fn interp(e: impl std::fmt::Display) -> NnieError {
    NnieError::Interp(e.to_string())
}

fn f32s(t: &Tensor) -> Result<&[f32]> {
    t.as_f32()
        .map_err(|e| NnieError::Interp(format!("expected f32 data: {e}")))
}

/// Run every set in float; observe the values named in `watch` (one batch
/// per set) into a calibrator.
///
/// The sets run in parallel (rayon's current pool, a few sets at a time so
/// only their watched values are held), and their batches reach the
/// calibrator in set order: the result, and which error is returned (the
/// first failing set's), are the same whatever the thread count.
pub fn float_run(
    graph: &Graph,
    sets: &[DataSet],
    watch: &BTreeSet<String>,
    config: CalibConfig,
) -> Result<(Calibrator, Vec<Outputs>)> {
    float_run_with(graph, sets, watch, config, &ProgressBar::hidden())
}

/// [`float_run`] ticking `progress` once per finished set.
pub fn float_run_with(
    graph: &Graph,
    sets: &[DataSet],
    watch: &BTreeSet<String>,
    config: CalibConfig,
    progress: &ProgressBar,
) -> Result<(Calibrator, Vec<Outputs>)> {
    let mut calib = Calibrator::new(config)?;
    let mut all = Vec::with_capacity(sets.len());
    for chunk in sets.chunks(sets_in_flight()) {
        let runs: Vec<Result<(Watched, Outputs)>> = chunk
            .par_iter()
            .map(|set| {
                let r = run_watching(graph, set, watch);
                progress.inc(1);
                r
            })
            .collect();
        let runs: Vec<(Watched, Outputs)> = runs.into_iter().collect::<Result<_>>()?;
        let batches: Vec<Vec<(&str, &[f32])>> = runs
            .iter()
            .map(|(seen, _)| {
                seen.iter()
                    .map(|(n, t)| Ok((n.as_str(), f32s(t)?)))
                    .collect::<Result<_>>()
            })
            .collect::<Result<_>>()?;
        calib.observe_sets(&batches)?;
        all.extend(runs.into_iter().map(|(_, outs)| outs));
    }
    Ok((calib, all))
}

/// How many sets run at once: a few per thread for load balance; the
/// results do not depend on it (sets are merged in order).
pub(crate) fn sets_in_flight() -> usize {
    2 * rayon::current_num_threads().max(1)
}

/// Watched values of one set, in the order a sequential run meets them.
type Watched = Vec<(String, Tensor)>;

/// Run one set in float, keeping the watched values (each checked as the
/// calibrator would check it, so a bad value fails here, in its set).
fn run_watching(
    graph: &Graph,
    set: &DataSet,
    watch: &BTreeSet<String>,
) -> Result<(Watched, Outputs)> {
    let mut seen = Vec::new();
    for (name, t) in &set.inputs {
        if watch.contains(name) {
            AbsHistogram::check(f32s(t)?)?;
            seen.push((name.clone(), t.clone()));
        }
    }
    let mut err = None;
    let outs = run_graph_observed(graph, &set.inputs, &mut |node, results| {
        for (name, t) in node.outputs.iter().zip(results) {
            if err.is_none() && watch.contains(name) {
                match f32s(t).and_then(AbsHistogram::check) {
                    Ok(_) => seen.push((name.clone(), t.clone())),
                    Err(e) => err = Some(e),
                }
            }
        }
    })
    .map_err(interp)?;
    match err {
        Some(e) => Err(e),
        None => Ok((seen, outs)),
    }
}

fn fq(t: &Tensor, clip: ClipValue) -> Result<Tensor> {
    let v = fake_quantize(LogQuantizer::from_clip(clip), f32s(t)?)?;
    Tensor::from_f32(t.shape().to_vec(), v).map_err(interp)
}

/// Run one set with NNIE's quantization simulated (see the module doc).
pub fn quant_run(graph: &Graph, layers: &[Layer], set: &DataSet) -> Result<Outputs> {
    quant_run_observed(graph, layers, set, &mut |_, _| Ok(()))
}

/// Run one set in float: the graph outputs, and the values named in `keep`
/// (e.g. the layers' tops) as they were computed.
pub fn float_run_keeping(
    graph: &Graph,
    set: &DataSet,
    keep: &BTreeSet<String>,
) -> Result<(Outputs, HashMap<String, Tensor>)> {
    let mut kept = HashMap::new();
    for (name, t) in &set.inputs {
        if keep.contains(name) {
            kept.insert(name.clone(), t.clone());
        }
    }
    let outs = run_graph_observed(graph, &set.inputs, &mut |node, results| {
        for (name, t) in node.outputs.iter().zip(results) {
            if keep.contains(name) {
                kept.insert(name.clone(), t.clone());
            }
        }
    })
    .map_err(interp)?;
    Ok((outs, kept))
}

/// The fake-quantized weights of every layer that has a weight clip, by
/// layer name: computed once (in parallel over the layers) and shared by
/// every set's quantized run.
pub type QuantWeights<'a> = HashMap<&'a str, Tensor>;

/// [`QuantWeights`] of `layers`; the first failing layer's error.
pub fn quant_weights(layers: &[Layer]) -> Result<QuantWeights<'_>> {
    let each: Vec<Result<Option<(&str, Tensor)>>> = layers
        .par_iter()
        .map(|l| match (&l.weight, l.weight_clip) {
            (Some(w), Some(c)) => Ok(Some((l.name.as_str(), fq(w, c)?))),
            _ => Ok(None),
        })
        .collect();
    let mut out = HashMap::new();
    for e in each {
        if let Some((name, t)) = e? {
            out.insert(name, t);
        }
    }
    Ok(out)
}

/// [`quant_run`], handing every node result to `observe` (value name,
/// tensor) as it is computed; an error from `observe` stops the run.
pub fn quant_run_observed(
    graph: &Graph,
    layers: &[Layer],
    set: &DataSet,
    observe: &mut dyn FnMut(&str, &Tensor) -> Result<()>,
) -> Result<Outputs> {
    quant_run_with(graph, layers, &quant_weights(layers)?, set, observe)
}

/// [`quant_run_observed`] with the layers' weights already fake-quantized
/// ([`quant_weights`]), for running many sets.
pub fn quant_run_with(
    graph: &Graph,
    layers: &[Layer],
    qweights: &QuantWeights<'_>,
    set: &DataSet,
    observe: &mut dyn FnMut(&str, &Tensor) -> Result<()>,
) -> Result<Outputs> {
    let by_node: HashMap<&str, &Layer> = layers.iter().map(|l| (l.name.as_str(), l)).collect();
    let mut env: HashMap<&str, Cow<'_, Tensor>> = HashMap::new();
    for (n, t) in &graph.initializers {
        env.insert(n, Cow::Borrowed(t));
    }
    for (n, t) in &set.inputs {
        env.insert(n, Cow::Borrowed(t));
    }
    let mut last_use: HashMap<&str, usize> = HashMap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        for n in node.inputs.iter().flatten() {
            last_use.insert(n, i);
        }
    }
    let keep: BTreeSet<&str> = graph.outputs.iter().map(|v| v.name.as_str()).collect();
    let opts = OpOptions {
        opset: onnc_onnx::NORMALIZED_OPSET,
        num_outputs: None,
    };
    for (i, node) in graph.nodes.iter().enumerate() {
        let layer = by_node.get(node.name.as_str()).filter(|l| l.is_quantized());
        let mut owned: Vec<Option<Tensor>> = Vec::with_capacity(node.inputs.len());
        for n in &node.inputs {
            let quantized = match (n, layer) {
                (Some(n), Some(l)) => match l.bottoms.iter().position(|b| b == n) {
                    Some(j) => {
                        let clip = *l.input_clips.get(j).ok_or_else(|| {
                            NnieError::Calibration(format!(
                                "layer '{}' has no clip for input `{n}`",
                                l.name
                            ))
                        })?;
                        let v = env.get(n.as_str()).ok_or_else(|| {
                            interp(format!("node '{}': `{n}` undefined", node.name))
                        })?;
                        Some(fq(v, clip)?)
                    }
                    None => None,
                },
                _ => None,
            };
            owned.push(quantized);
        }
        let mut args: Vec<Option<&Tensor>> = Vec::with_capacity(node.inputs.len());
        for (n, q) in node.inputs.iter().zip(&owned) {
            args.push(match (n, q) {
                (_, Some(q)) => Some(q),
                (None, None) => None,
                (Some(n), None) => Some(
                    env.get(n.as_str())
                        .map(Cow::as_ref)
                        .ok_or_else(|| interp(format!("node '{}': `{n}` undefined", node.name)))?,
                ),
            });
        }
        let results = match layer.map(|l| (&l.kind, l)) {
            Some((LayerKind::Conv { .. }, l)) => {
                args[1] = qweights.get(l.name.as_str());
                run_op_with("Conv", &node.attrs, &args, &opts)
            }
            Some((LayerKind::Deconv { .. }, l)) => {
                args[1] = qweights.get(l.name.as_str());
                run_op_with("ConvTranspose", &node.attrs, &args, &opts)
            }
            Some((LayerKind::Fc { .. }, l)) => {
                let mut attrs = onnc_tensor::Attrs::new();
                attrs.insert("transB".into(), Attr::Int(1));
                let fc_args = [args[0], qweights.get(l.name.as_str()), l.bias.as_ref()];
                run_op_with("Gemm", &attrs, &fc_args, &opts)
            }
            _ => run_op_with(&node.op_type, &node.attrs, &args, &opts),
        }
        .map_err(|e| interp(format!("node '{}': {e}", node.name)))?;
        drop(args);
        for (name, t) in node.outputs.iter().zip(results) {
            if !name.is_empty() {
                observe(name, &t)?;
                env.insert(name, Cow::Owned(t));
            }
        }
        for n in node.inputs.iter().flatten() {
            if last_use.get(n.as_str()) == Some(&i)
                && !keep.contains(n.as_str())
                && graph.initializer(n).is_none()
            {
                env.remove(n.as_str());
            }
        }
    }
    graph
        .outputs
        .iter()
        .map(|v| {
            env.get(v.name.as_str())
                .map(|t| (v.name.clone(), t.as_ref().clone()))
                .ok_or_else(|| interp(format!("graph output `{}` was not computed", v.name)))
        })
        .collect()
}
