//! The graph executor: [`run_graph`] runs a loaded, normalized
//! [`onnc_onnx::Graph`] node by node through [`crate::run_op_with`].
//!
//! In: the graph and its runtime inputs by name. Out: the graph outputs by
//! name, in declaration order.
//!
//! Initializers are borrowed, not copied. Each intermediate tensor is freed
//! right after the last node that reads it. Nodes are in the normalized
//! (modern) operand form `onnc_onnx` produces, so they run with
//! [`onnc_onnx::NORMALIZED_OPSET`] semantics.
//!
//! ```
//! use onnc_onnx::{Graph, Node, ValueInfo, Dim};
//! use onnc_tensor::{DType, Tensor};
//! let x = ValueInfo { name: "x".into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] };
//! let y = ValueInfo { name: "y".into(), dtype: DType::F32, dims: vec![Dim::Fixed(2)] };
//! let graph = Graph {
//!     inputs: vec![x],
//!     outputs: vec![y],
//!     nodes: vec![Node::new("r", "Relu", &["x"], &["y"])],
//!     ..Graph::default()
//! };
//! let feed = Tensor::from_f32(vec![2], vec![-1.0, 3.0]).unwrap();
//! let out = onnc_interp::run_graph(&graph, &[("x".into(), feed)]).unwrap();
//! assert_eq!(out[0].1.as_f32().unwrap(), &[0.0, 3.0]);
//! ```

use crate::{run_op_with, Error, OpOptions, Result};
use onnc_onnx::{Dim, Graph, Node};
use onnc_tensor::Tensor;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// Runs `graph` on `inputs` and returns its outputs in order.
pub fn run_graph(graph: &Graph, inputs: &[(String, Tensor)]) -> Result<Vec<(String, Tensor)>> {
    run_graph_observed(graph, inputs, &mut |_, _| {})
}

/// Like [`run_graph`], calling `observe(node, outputs)` after every node —
/// for dumping or comparing intermediate values.
pub fn run_graph_observed(
    graph: &Graph,
    inputs: &[(String, Tensor)],
    observe: &mut dyn FnMut(&Node, &[Tensor]),
) -> Result<Vec<(String, Tensor)>> {
    run(graph, inputs, observe, Storage::Exact)
}

/// Like [`run_graph`], but every `f32` value is stored in FP16: the inputs
/// and initializers are rounded to FP16 (to nearest, ties to even) before
/// the run and every node's `f32` outputs right after it; the arithmetic
/// inside a node stays `f32`.
///
/// Out: the outputs of the graph as an implementation that keeps each ONNX
/// value in FP16 computes them, the reference an FP16 accelerator's error is
/// judged against (`onnc-run --compare-target`).
pub fn run_graph_fp16_storage(
    graph: &Graph,
    inputs: &[(String, Tensor)],
) -> Result<Vec<(String, Tensor)>> {
    run(graph, inputs, &mut |_, _| {}, Storage::Fp16)
}

/// Like [`run_graph`], but every `f32` value named in `scales` (graph
/// inputs and node outputs, by ONNX value name) is stored in INT8 with
/// that scale: `s · clamp(round(x / s), −128, 127)`, rounding half away
/// from zero; values without a scale and the initializers stay `f32`.
///
/// Out: the outputs as an implementation that keeps each calibrated
/// activation in INT8 computes them: what INT8's own rounding and
/// clipping cost on this model, the yardstick of an INT8 loadable's error
/// (`onnc-run --compare-target nv_small`, `onnc compile --check-sim`).
pub fn run_graph_int8_storage(
    graph: &Graph,
    inputs: &[(String, Tensor)],
    scales: &HashMap<String, f32>,
) -> Result<Vec<(String, Tensor)>> {
    run(graph, inputs, &mut |_, _| {}, Storage::Int8(scales))
}

/// [`run_graph_observed`] with the values stored as `storage` says (what
/// [`run_graph_fp16_storage`] and [`run_graph_int8_storage`] do), so a
/// caller can read every node's stored outputs: a per-layer yardstick.
pub fn run_graph_stored_observed(
    graph: &Graph,
    inputs: &[(String, Tensor)],
    storage: Storage,
    observe: &mut dyn FnMut(&Node, &[Tensor]),
) -> Result<Vec<(String, Tensor)>> {
    run(graph, inputs, observe, storage)
}

/// How the executor stores the `f32` values it produces.
#[derive(Clone, Copy)]
pub enum Storage<'s> {
    /// As computed.
    Exact,
    /// Rounded to FP16.
    Fp16,
    /// Quantized to INT8 with the scale of each named value.
    Int8(&'s HashMap<String, f32>),
}

impl Storage<'_> {
    /// `t`, the value named `name`, as this storage keeps it.
    fn store(self, name: &str, t: Tensor) -> Tensor {
        match self {
            Storage::Exact => t,
            Storage::Fp16 => to_fp16(&t).unwrap_or(t),
            Storage::Int8(scales) => match scales.get(name) {
                Some(&s) => to_int8(&t, s).unwrap_or(t),
                None => t,
            },
        }
    }
}

/// `t` quantized to INT8 with scale `s` and back, when it is an `f32`
/// tensor and `s` a positive finite scale (`None` otherwise).
fn to_int8(t: &Tensor, s: f32) -> Option<Tensor> {
    if !(s.is_finite() && s > 0.0) {
        return None;
    }
    let v = t.as_f32().ok()?;
    let q = v
        .iter()
        .map(|&x| (x / s).round().clamp(-128.0, 127.0) * s)
        .collect();
    Tensor::from_f32(t.shape().to_vec(), q).ok()
}

/// `t` with every value rounded to FP16 when it is an `f32` tensor; other
/// types are returned as they are (`None`).
fn to_fp16(t: &Tensor) -> Option<Tensor> {
    let v = t.as_f32().ok()?;
    let rounded = v.iter().map(|&x| half::f16::from_f32(x).to_f32()).collect();
    Tensor::from_f32(t.shape().to_vec(), rounded).ok()
}

fn run(
    graph: &Graph,
    inputs: &[(String, Tensor)],
    observe: &mut dyn FnMut(&Node, &[Tensor]),
    storage: Storage,
) -> Result<Vec<(String, Tensor)>> {
    let rounded: Vec<(String, Tensor)>;
    let inputs = match storage {
        Storage::Exact => inputs,
        _ => {
            rounded = inputs
                .iter()
                .map(|(n, t)| (n.clone(), storage.store(n, t.clone())))
                .collect();
            &rounded[..]
        }
    };
    let mut env: HashMap<&str, Cow<'_, Tensor>> = HashMap::new();
    for (name, t) in &graph.initializers {
        // Weights stay f32 under INT8 storage: the compiler quantizes them
        // per kernel after folding, which this graph does not show.
        let stored = match storage {
            Storage::Fp16 => to_fp16(t).map_or(Cow::Borrowed(t), Cow::Owned),
            Storage::Exact | Storage::Int8(_) => Cow::Borrowed(t),
        };
        env.insert(name, stored);
    }
    for (name, t) in inputs {
        let Some(decl) = graph.inputs.iter().find(|v| &v.name == name) else {
            if graph.initializer(name).is_some() {
                env.insert(name, Cow::Borrowed(t));
                continue;
            }
            return Err(Error::UnknownGraphInput(name.clone()));
        };
        let dims_ok = decl.dims.len() == t.rank()
            && decl
                .dims
                .iter()
                .zip(t.shape())
                .all(|(d, &n)| !matches!(d, Dim::Fixed(k) if *k != n));
        if decl.dtype != t.dtype() || !dims_ok {
            return Err(Error::GraphInputType {
                name: name.clone(),
                expected: decl.type_info().to_string(),
                actual: onnc_onnx::TypeInfo::of(t).to_string(),
            });
        }
        env.insert(name, Cow::Borrowed(t));
    }
    for decl in &graph.inputs {
        if !env.contains_key(decl.name.as_str()) {
            return Err(Error::MissingGraphInput(decl.name.clone()));
        }
    }

    let keep: HashSet<&str> = graph.outputs.iter().map(|v| v.name.as_str()).collect();
    let mut last_use: HashMap<&str, usize> = HashMap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        for name in node.inputs.iter().flatten() {
            last_use.insert(name, i);
        }
    }

    for (i, node) in graph.nodes.iter().enumerate() {
        let onnc_shuffle = node.domain == "onnc" && node.op_type == "ChannelShuffle";
        if !(node.domain.is_empty() || node.domain == "ai.onnx" || onnc_shuffle) {
            return Err(Error::UnknownDomain {
                node: node.name.clone(),
                op: node.op_type.clone(),
                domain: node.domain.clone(),
            });
        }
        let mut args: Vec<Option<&Tensor>> = Vec::with_capacity(node.inputs.len());
        for name in &node.inputs {
            match name {
                None => args.push(None),
                Some(n) => match env.get(n.as_str()) {
                    Some(t) => args.push(Some(t.as_ref())),
                    None => {
                        return Err(Error::UndefinedValue {
                            node: node.name.clone(),
                            value: n.clone(),
                        })
                    }
                },
            }
        }
        let opts = OpOptions {
            opset: onnc_onnx::NORMALIZED_OPSET,
            num_outputs: Some(node.outputs.len()),
        };
        let results = if onnc_shuffle {
            match args.first().copied().flatten() {
                Some(x) => crate::ops::channel_shuffle::run(&node.attrs, x).map(|t| vec![t]),
                None => Err(Error::MissingInput {
                    op: node.op_type.clone(),
                    index: 0,
                }),
            }
        } else {
            run_op_with(&node.op_type, &node.attrs, &args, &opts)
        }
        .map_err(|e| Error::Node {
            node: node.name.clone(),
            source: Box::new(e),
        })?;
        let results: Vec<Tensor> = match storage {
            Storage::Exact => results,
            _ => results
                .into_iter()
                .zip(
                    node.outputs
                        .iter()
                        .map(String::as_str)
                        .chain(std::iter::repeat("")),
                )
                .map(|(t, name)| storage.store(name, t))
                .collect(),
        };
        observe(node, &results);
        let produced = results.len();
        for (name, t) in node.outputs.iter().zip(results) {
            if !name.is_empty()
                && (keep.contains(name.as_str())
                    || last_use.get(name.as_str()).is_some_and(|&j| j > i))
            {
                env.insert(name, Cow::Owned(t));
            }
        }
        if let Some(missing) = node.outputs.iter().skip(produced).find(|n| {
            !n.is_empty() && (keep.contains(n.as_str()) || last_use.contains_key(n.as_str()))
        }) {
            let what = format!("output `{missing}` (only {produced} outputs are computed)");
            return Err(Error::Node {
                node: node.name.clone(),
                source: Box::new(Error::Unsupported {
                    op: node.op_type.clone(),
                    what,
                }),
            });
        }
        for name in node.inputs.iter().flatten() {
            if last_use.get(name.as_str()) == Some(&i) && !keep.contains(name.as_str()) {
                env.remove(name.as_str());
            }
        }
    }

    // Move outputs out of the environment; clone only a name listed twice.
    let mut outs = Vec::with_capacity(graph.outputs.len());
    for (i, v) in graph.outputs.iter().enumerate() {
        let again = graph.outputs[i + 1..].iter().any(|w| w.name == v.name);
        let t = if again {
            env.get(v.name.as_str()).map(|t| t.as_ref().clone())
        } else {
            env.remove(v.name.as_str()).map(Cow::into_owned)
        };
        outs.push((
            v.name.clone(),
            t.ok_or_else(|| Error::MissingGraphOutput(v.name.clone()))?,
        ));
    }
    Ok(outs)
}
