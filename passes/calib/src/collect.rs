//! One pass over the calibration sets: run each through the reference
//! interpreter and fold every activation into the [`Statistics`].
//!
//! In: the graph, a [`CalibSource`], whether to show a progress bar. Out:
//! the merged statistics, or the error of the **first failing set in set
//! order**.
//!
//! Sets run in parallel on rayon's current pool (install a pool to choose
//! the thread count). Each thread folds the sets it runs into its own
//! statistics, read lazily by that thread; the per-thread statistics are
//! then merged. Every merge is exact (integer counts, min, max — see
//! [`crate::Histogram`]), so the result is the same bytes whatever the
//! thread count and scheduling. For the error to be deterministic too, a
//! failing set only stops the sets *after* it: every set before it still
//! runs, so the first failing set is always the one reported.
//!
//! The progress bar ([`crate::progress_bar`]) is drawn on stderr only when
//! asked for and stderr is a terminal.
//!
//! ```no_run
//! use onnc_calib::{collect, CalibSource, Method};
//! let g = onnc_onnx::load("m.onnx", &Default::default()).unwrap().graph;
//! let stats = collect(&g, &CalibSource::TestData("calib".into()), false).unwrap();
//! let entropy = stats.calibration(Method::Entropy);
//! let max = stats.calibration(Method::Max); // no second pass
//! assert_eq!(entropy.scales.len(), max.scales.len());
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};
use rayon::prelude::*;

use crate::error::{CalibError, Result};
use crate::layer_norm::LayerNorm;
use crate::progress::progress_bar;
use crate::psum::PsumGemm;
use crate::psum_conv::PsumConv;
use crate::source::{CalibSource, DataSet, SetPlan};
use crate::stats::Statistics;

/// Fold one tensor into `stats` (float tensors only).
fn observe(
    stats: &mut Statistics,
    name: &str,
    t: &Tensor,
    set: usize,
    data: &DataSet,
) -> Result<()> {
    if !stats.tracks(name) || !t.dtype().is_float() {
        return Ok(());
    }
    let widened;
    let xs = if t.dtype() == DType::F32 {
        t.as_f32()
    } else {
        widened = t.cast(DType::F32);
        widened.as_f32()
    }
    .map_err(|e| CalibError::Model(format!("tensor `{name}`: {e}")))?;
    stats
        .observe(name, xs)
        .map_err(|(index, what)| CalibError::NonFinite {
            tensor: name.to_string(),
            set,
            files: data.files.clone(),
            what,
            index,
        })?;
    Ok(())
}

/// Read set `index`, run it, and fold its activations into `stats`.
fn run_set(
    graph: &Graph,
    source: &CalibSource,
    plan: &SetPlan,
    index: usize,
    stats: &mut Statistics,
) -> Result<()> {
    let data = source.load(plan, graph)?;
    for (name, t) in &data.inputs {
        observe(stats, name, t, index, &data)?;
    }
    let mut failed = None;
    // Gemm operands kept for their partial sums ([`crate::psum`]).
    let gemms: Vec<PsumGemm> = crate::psum::plan(graph)
        .into_iter()
        .filter(|g| stats.tracks(&g.key))
        .collect();
    let convs: Vec<PsumConv> = crate::psum_conv::plan(graph)
        .into_iter()
        .filter(|c| stats.tracks(&c.key))
        .collect();
    let norms: Vec<LayerNorm> = crate::layer_norm::plan(graph)
        .into_iter()
        .filter(|l| l.keys.iter().all(|k| stats.tracks(k)))
        .collect();
    let wanted = |n: &str| {
        gemms.iter().any(|g| g.a == n)
            || convs.iter().any(|c| c.x == n)
            || norms.iter().any(|l| l.x == n)
    };
    let mut kept: HashMap<String, Tensor> = data
        .inputs
        .iter()
        .filter(|(n, _)| wanted(n))
        .cloned()
        .collect();
    onnc_interp::run_graph_observed(graph, &data.inputs, &mut |node, results| {
        if failed.is_some() {
            return;
        }
        for (name, t) in node.outputs.iter().zip(results) {
            if let Err(e) = observe(stats, name, t, index, &data) {
                failed = Some(e);
                return;
            }
            if wanted(name) {
                kept.insert(name.clone(), t.clone());
            }
        }
        for g in gemms
            .iter()
            .filter(|g| graph.nodes[g.node].name == node.name)
        {
            let Some(m) = kept.get(&g.a).and_then(|a| g.extremes(a)) else {
                continue;
            };
            let Ok(t) = Tensor::from_f32(vec![m.len()], m) else {
                continue;
            };
            if let Err(e) = observe(stats, &g.key, &t, index, &data) {
                failed = Some(e);
                return;
            }
        }
        for c in convs
            .iter()
            .filter(|c| graph.nodes[c.node].name == node.name)
        {
            let Some(x) = kept.get(&c.x).filter(|x| c.may_split(x.shape())) else {
                continue;
            };
            let Some(m) = c.extremes(x) else { continue };
            let Ok(t) = Tensor::from_f32(vec![m.len()], m) else {
                continue;
            };
            if let Err(e) = observe(stats, &c.key, &t, index, &data) {
                failed = Some(e);
                return;
            }
        }
        for l in norms
            .iter()
            .filter(|l| graph.nodes[l.node].name == node.name)
        {
            let Some(parts) = kept.get(&l.x).and_then(|x| l.observed(x)) else {
                continue;
            };
            for (key, t) in &parts {
                if let Err(e) = observe(stats, key, t, index, &data) {
                    failed = Some(e);
                    return;
                }
            }
        }
    })
    .map_err(|source| CalibError::Run {
        set: index,
        files: data.files.clone(),
        source,
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    stats.count_set();
    Ok(())
}

type Partial = (Statistics, Option<(usize, CalibError)>);

fn first_error(
    a: Option<(usize, CalibError)>,
    b: Option<(usize, CalibError)>,
) -> Option<(usize, CalibError)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Statistics of every activation over every set (see the module doc).
pub fn collect(graph: &Graph, source: &CalibSource, progress: bool) -> Result<Statistics> {
    let plans = source.plan(graph)?;
    let template = Statistics::for_graph(graph);
    let bar = progress_bar(plans.len(), "calibrating", "sets", progress);
    let first_bad = AtomicUsize::new(usize::MAX);
    // A few pieces per thread: each piece folds into its own statistics
    // (up to 0.5 MiB per tensor), so fewer pieces mean fewer allocations and
    // merges; the result does not depend on the split.
    let min_len = plans
        .len()
        .div_ceil(4 * rayon::current_num_threads())
        .max(1);
    let (stats, err): Partial = plans
        .par_iter()
        .with_min_len(min_len)
        .enumerate()
        .fold(
            || (template.clone(), None),
            |(mut acc, err): Partial, (i, plan)| {
                if i > first_bad.load(Ordering::Relaxed) {
                    return (acc, err);
                }
                match run_set(graph, source, plan, i, &mut acc) {
                    Ok(()) => {
                        bar.inc(1);
                        (acc, err)
                    }
                    Err(e) => {
                        first_bad.fetch_min(i, Ordering::Relaxed);
                        (acc, first_error(err, Some((i, e))))
                    }
                }
            },
        )
        .reduce(
            || (template.clone(), None),
            |(mut a, ea), (b, eb)| {
                a.merge(&b);
                (a, first_error(ea, eb))
            },
        );
    bar.finish_and_clear();
    match err {
        Some((_, e)) => Err(e),
        None => Ok(stats),
    }
}
