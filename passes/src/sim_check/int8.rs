//! INT8 loadables in the simulator check: per-tensor scales in, real
//! values out.
//!
//! In: the ONNX graph and its per-tensor scales as a calibrator or a
//! per-tensor table gives them (keyed by ONNX value names, `real = scale ·
//! q`). Out: the loadable compiled with those scales (for the per-layer
//! table), the scale every program tensor is stored in, the inputs the
//! simulator takes (`x / s_x`; it rounds half away from zero and saturates
//! to INT8, as a runtime quantizing with the same scale does), and outputs
//! and surfaces turned back into real values (`q · s`).
//!
//! How an INT8 loadable lays its tensors out (`nvdla-load-ctable`,
//! `onnc_nvdla::ctable::apply_scales`): a network input is an INT8 cube in
//! its own scale (CDMA's input converter is left at identity); every
//! tensor an SDP or EMU writes is in its own scale (the output converter
//! maps the accumulator unit to it); PDP, views, BDMA and RUBIK outputs
//! keep their input's scale; the members of a Concat with a scale are
//! written in the Concat's. [`stored_scales`] follows the same rules.

use onnc_nvdla::ctable::{
    apply_scales, parse_nvidia_calibtable, write_nvidia_calibtable, TensorScales,
};
use onnc_nvdla::{Engine, Precision, Program, TensorId, TensorKind};
use onnc_onnx::Graph;
use onnc_tensor::{DType, Tensor};
use std::collections::HashMap;

/// INT8's budget: an output's (and a layer's) RMS error may be this
/// fraction of the reference's RMS ([`super::metric::Metric::Rms`]).
/// Measured (docs/quantization.md, *Checked in the simulator*): the digit
/// classifiers on 10 of their calibration inputs, every calibration method,
/// reach 0.075 at the logits (dwsep, entropy and percentile) and 0.05 at a
/// layer; an input quantized with a scale 25 % off what the loadable was
/// compiled for gives 0.225 (`classifiers_test.rs`). 0.15 is twice the
/// worst correct case.
pub const INT8_TOLERANCE: f64 = 0.15;

fn err(m: impl std::fmt::Display) -> Vec<String> {
    vec![format!("error: {m}")]
}

/// The name the program gives the value `v`: the import names a node's
/// result after the node, so a value made by node `n` is `n`; graph
/// inputs and outputs, and values of unnamed nodes, keep their names.
pub fn program_name(graph: &Graph, v: &str) -> String {
    if graph.outputs.iter().any(|o| o.name == v) {
        return v.to_string();
    }
    graph
        .nodes
        .iter()
        .find(|n| !n.name.is_empty() && n.outputs.first().is_some_and(|o| o == v))
        .map_or_else(|| v.to_string(), |n| n.name.clone())
}

/// The ONNX values the program `p` stores in INT8, with the scale each is
/// stored in (`stored`, from [`stored_scales`]): every activation, input
/// and output surface with a scale, named by its ONNX value (a tensor
/// named after its node is that node's first output). What the
/// interpreter's INT8 storage quantizes to give an INT8 loadable's
/// yardstick (`onnc_interp::run_graph_int8_storage`): values the loadable
/// keeps inside a fused layer (a conv's accumulator before its BN and
/// ReLU) are not stored and are not quantized.
pub fn stored_values(p: &Program, stored: &[Option<f64>], graph: &Graph) -> HashMap<String, f32> {
    let by_node: HashMap<&str, &str> = graph
        .nodes
        .iter()
        .filter(|n| !n.name.is_empty())
        .filter_map(|n| Some((n.name.as_str(), n.outputs.first()?.as_str())))
        .collect();
    let mut out = HashMap::new();
    for (t, tensor) in p.tensors.iter().enumerate() {
        let surface = matches!(
            tensor.kind,
            TensorKind::Activation | TensorKind::Input(_) | TensorKind::Output(_)
        );
        let Some(scale) = stored.get(t).copied().flatten().filter(|_| surface) else {
            continue;
        };
        let value = by_node
            .get(tensor.name.as_str())
            .copied()
            .unwrap_or(tensor.name.as_str());
        out.entry(value.to_string()).or_insert(scale as f32);
    }
    out
}

/// `graph` with every weight a Conv, ConvTranspose, Gemm or MatMul reads
/// (an initializer) quantized as an INT8 loadable stores it: per output
/// channel, `s_c · clamp(round(w / s_c), −127, 127)` with `s_c = max |w_c|
/// / 127` (`onnc_calib::weight_scales`). Per-channel rounding commutes
/// with the per-channel factor batch-norm folding multiplies a kernel by,
/// so quantizing the unfolded weight rounds as the loadable's folded one.
/// Weights that cannot be scaled (not float, NaN) are left as they are.
pub fn with_int8_weights(graph: &Graph) -> Graph {
    let mut g = graph.clone();
    let mut done = std::collections::HashSet::new();
    for node in &graph.nodes {
        for (index, name) in node.inputs.iter().enumerate() {
            let Some(name) = name.as_deref() else {
                continue;
            };
            let Some(w) = graph.initializer(name) else {
                continue;
            };
            let Some(axis) = onnc_calib::channel_axis(node, index, w.rank()) else {
                continue;
            };
            if !done.insert(name.to_string()) {
                continue;
            }
            let Some(q) = quantize_per_channel(name, w, axis) else {
                continue;
            };
            if let Some(slot) = g.initializers.iter_mut().find(|(n, _)| n == name) {
                slot.1 = q;
            }
        }
    }
    g
}

/// `w` quantized per channel along `axis` and back (see
/// [`with_int8_weights`]); `None` when it has no scales.
fn quantize_per_channel(name: &str, w: &Tensor, axis: usize) -> Option<Tensor> {
    let scales = onnc_calib::weight_scales(name, w, axis).ok()?;
    let shape = w.shape().to_vec();
    let inner: usize = shape[axis + 1..].iter().product();
    let channels = shape[axis];
    let values = w.cast(DType::F32);
    let values = values.as_f32().ok()?;
    let q = values
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let s = scales.per_channel[(i / inner.max(1)) % channels.max(1)];
            if s > 0.0 {
                (x / s).round().clamp(-127.0, 127.0) * s
            } else {
                x
            }
        })
        .collect();
    Tensor::from_f32(shape, q).ok()
}

/// `scales` keyed as `onnc compile` hands them to `nvdla-load-ctable`
/// ([`program_name`] of every key; the first entry wins a clash).
pub fn program_keys(scales: &TensorScales, graph: &Graph) -> TensorScales {
    let mut out = scales.clone();
    out.entries.clear();
    for (k, e) in &scales.entries {
        out.entries
            .entry(program_name(graph, k))
            .or_insert_with(|| e.clone());
    }
    out
}

/// Compiles `graph` for the INT8 configuration `target` with `onnc
/// compile`'s pipeline and memory planner `strategy`, the scales applied
/// before planning, as the pass applies a calibtable (written and read back, so every scale
/// is the `f32` the pass sees). Out: the loadable and the program.
pub fn compile_int8(
    graph: &Graph,
    file: &str,
    target: &str,
    strategy: &str,
    scales: &TensorScales,
) -> Result<(Vec<u8>, Program), Vec<String>> {
    let table = write_nvidia_calibtable(&program_keys(scales, graph));
    let keyed = parse_nvidia_calibtable(&table, &scales.file).map_err(err)?;
    crate::numerics::compile_nvdla_calibrated(graph.clone(), file, target, strategy, |p| {
        apply_scales(p, &keyed)
            .map(|_| ())
            .map_err(|e| err(format!("{file}: {e}")))
    })
}

/// The scale every tensor of `p` is stored in, `None` for FP16 tensors,
/// weights, accumulators and tensors whose scale the table lacks. `scales`
/// as [`compile_int8`] takes them (keyed by ONNX value names).
pub fn stored_scales(p: &Program, scales: &TensorScales, graph: &Graph) -> Vec<Option<f64>> {
    let keyed = program_keys(scales, graph);
    // The table's entries by tensor; a view's entry tells its input's
    // scale when the input has none (a Gemm's value is a reshape of its SDP's).
    let mut entry: Vec<Option<f64>> = p
        .tensors
        .iter()
        .map(|t| keyed.entries.get(&t.name).map(|e| f64::from(e.scale)))
        .collect();
    for _ in 0..=p.ops.len() {
        let mut changed = false;
        for op in p.ops.iter().filter(|o| {
            matches!(
                o.engine,
                Engine::Pdp | Engine::Reshape | Engine::Slice | Engine::Bdma | Engine::Rubik
            )
        }) {
            if let Some(i) = op.inputs.first().copied().flatten() {
                if entry[i].is_none() && entry[op.output].is_some() {
                    entry[i] = entry[op.output];
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (0..p.tensors.len())
        .map(|t| {
            (p.tensors[t].precision == Precision::Int8 && !p.tensors[t].is_weight())
                .then(|| entry[source(p, t, &entry)])
                .flatten()
        })
        .collect()
}

/// The tensor whose scale `t` is stored in (see the module doc).
fn source(p: &Program, t: TensorId, entry: &[Option<f64>]) -> TensorId {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        match p.producer(cur).map(|i| &p.ops[i]) {
            Some(op) if op.engine == Engine::Concat && entry[cur].is_some() => return cur,
            Some(op) if op.engine.keeps_scale() => match op.inputs.first().copied().flatten() {
                Some(next) => cur = next,
                None => return cur,
            },
            Some(op) if matches!(op.engine, Engine::Sdp | Engine::Emu) => {
                return concat_root(p, cur, entry)
            }
            _ => return cur,
        }
    }
    cur
}

/// A converter writing `t`, a Concat member (or the input of a PDP whose
/// result is one), writes in the outermost Concat's scale that has one:
/// the compiler's own rule (`onnc_nvdla::ctable::unit_root`).
fn concat_root(p: &Program, t: TensorId, entry: &[Option<f64>]) -> TensorId {
    onnc_nvdla::ctable::unit_root(p, t, &|x| entry[x].is_some())
}

/// `inputs` as the INT8 loadable takes them: every graph input stored in
/// INT8 divided by its scale (the simulator rounds and saturates). Errors
/// name an input without a scale.
pub fn quantize_inputs(
    p: &Program,
    stored: &[Option<f64>],
    inputs: &[(String, Tensor)],
) -> Result<Vec<(String, Tensor)>, Vec<String>> {
    inputs
        .iter()
        .map(|(name, t)| {
            let Some(&id) = p.inputs.iter().find(|&&i| p.tensors[i].name == *name) else {
                return Ok((name.clone(), t.clone()));
            };
            if p.tensors[id].precision != Precision::Int8 {
                return Ok((name.clone(), t.clone()));
            }
            let s = stored[id].ok_or_else(|| {
                err(format!(
                    "input '{name}' is INT8 and the calibration has no scale for it"
                ))
            })?;
            let v = t.cast(DType::F32);
            let v = v.as_f32().map_err(err)?;
            let q = v.iter().map(|x| (f64::from(*x) / s) as f32).collect();
            Tensor::from_f32(t.shape().to_vec(), q)
                .map(|q| (name.clone(), q))
                .map_err(err)
        })
        .collect()
}

/// Real values of an INT8 surface: `q · s`.
pub fn dequantize(q: &[f32], s: f64) -> Vec<f32> {
    q.iter().map(|x| (f64::from(*x) * s) as f32).collect()
}

#[cfg(test)]
mod storage_tests {
    use super::*;
    use onnc_onnx::{Dim, Node, ValueInfo};

    fn vi(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims: dims.iter().map(|&d| Dim::Fixed(d)).collect(),
        }
    }

    /// A Conv's kernel is quantized per output channel (kernel 0 by
    /// 1.27 / 127 = 0.01, kernel 1 by 0.127 / 127 = 0.001); the bias and
    /// an initializer a Mul reads are left alone.
    #[test]
    fn conv_weights_are_quantized_per_output_channel() {
        let w = Tensor::from_f32(vec![2, 1, 1, 2], vec![1.27, 0.333, 0.127, -0.0333]).unwrap();
        let b = Tensor::from_f32(vec![2], vec![0.123_456, -0.5]).unwrap();
        let k = Tensor::from_f32(vec![1], vec![0.123_456]).unwrap();
        let graph = Graph {
            name: "g".into(),
            inputs: vec![vi("x", &[1, 1, 1, 2])],
            outputs: vec![vi("z", &[1, 2, 1, 1])],
            initializers: vec![
                ("w".into(), w),
                ("b".into(), b.clone()),
                ("k".into(), k.clone()),
            ],
            nodes: vec![
                Node::new("c", "Conv", &["x", "w", "b"], &["y"]),
                Node::new("m", "Mul", &["y", "k"], &["z"]),
            ],
        };
        let q = with_int8_weights(&graph);
        let qw = q.initializer("w").unwrap().as_f32().unwrap().to_vec();
        let want = [127.0f32 * 0.01, 33.0 * 0.01, 127.0 * 0.001, -33.0 * 0.001];
        for (a, b) in qw.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{qw:?} vs {want:?}");
        }
        assert_eq!(q.initializer("b"), Some(&b));
        assert_eq!(q.initializer("k"), Some(&k));
    }
}
