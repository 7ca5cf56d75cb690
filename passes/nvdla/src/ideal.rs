//! "Ideal INT8 with these scales": the legalized graph run in FP32, every
//! value the loadable stores in INT8 rounded (half away from zero) and
//! saturated to `[−128, 127]` steps of the scale it is stored in, and every
//! Conv/Gemm weight quantized as the compiler quantized it (per output
//! channel `max|w_k| / 127`, or per tensor where the layer fell back).
//! Biases, X1 factors and output converters are exact (FP32): what the
//! simulated loadable adds to this is the implementation's error
//! (`examples/int8_decompose`, `tests/simulate/ideal.rs`).

use std::collections::{BTreeMap, HashMap};

use crate::{Engine, Precision, Program, TensorKind};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Tensor;

/// Values by name.
pub type Values = HashMap<String, Tensor>;

/// How a Conv/Gemm node's weights were quantized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightMode {
    /// One scale per output channel.
    PerChannel,
    /// One scale for the tensor.
    PerTensor,
}

/// The INT8 scale each program tensor is stored in (`None`: not an INT8
/// feature tensor in memory, or no scale recorded). `input_scale` is the
/// graph input's.
pub fn stored_scales(p: &Program, input_scale: f64) -> Vec<Option<f64>> {
    (0..p.tensors.len())
        .map(|t| {
            let tensor = &p.tensors[t];
            let stored = tensor.precision == Precision::Int8
                && matches!(
                    tensor.kind,
                    TensorKind::Activation | TensorKind::Output(_) | TensorKind::Input(_)
                );
            stored.then(|| scale_of(p, t, input_scale)).flatten()
        })
        .collect()
}

fn scale_of(p: &Program, t: usize, input_scale: f64) -> Option<f64> {
    let mut cur = t;
    for _ in 0..=p.ops.len() {
        let Some(i) = p.producer(cur) else {
            return matches!(p.tensors[cur].kind, TensorKind::Input(_)).then_some(input_scale);
        };
        let op = &p.ops[i];
        if let Some(s) = op.float("quant.output_scale") {
            return Some(s);
        }
        if !op.engine.keeps_scale() {
            return None;
        }
        cur = op.inputs.first().copied().flatten()?;
    }
    None
}

/// The weight mode of every ONNX node a program op records one for.
pub fn weight_modes(p: &Program) -> HashMap<String, WeightMode> {
    let mut out = HashMap::new();
    for op in &p.ops {
        let mode = match op.str("quant.weight_scale_mode") {
            Some("per_channel") => WeightMode::PerChannel,
            Some("per_tensor") => WeightMode::PerTensor,
            _ => continue,
        };
        let conv = op
            .inputs
            .first()
            .copied()
            .flatten()
            .and_then(|t| p.producer(t))
            .map(|i| &p.ops[i])
            .filter(|c| c.engine == Engine::Conv);
        for n in op
            .onnx_nodes
            .iter()
            .chain(conv.iter().flat_map(|c| &c.onnx_nodes))
        {
            out.insert(n.clone(), mode);
        }
    }
    out
}

/// `v` rounded half away from zero to a step of `s`, saturated to INT8.
pub fn fake_quant(v: f32, s: f64) -> f32 {
    ((f64::from(v) / s).round().clamp(-128.0, 127.0) * s) as f32
}

/// `w` quantized to ±127 steps of `max|w| / 127` over each slice along
/// `axis` (`PerChannel`) or over the whole tensor.
pub fn quantize_weight(w: &Tensor, axis: usize, mode: WeightMode) -> Result<Tensor, String> {
    let v = w.as_f32().map_err(|e| e.to_string())?;
    let shape = w.shape().to_vec();
    if axis >= shape.len() {
        return Err(format!("axis {axis} of a weight of rank {}", shape.len()));
    }
    let k = shape[axis].max(1);
    let inner: usize = shape[axis + 1..].iter().product();
    let index = |i: usize| (i / inner) % k;
    let mut amax = vec![0f32; k];
    for (i, x) in v.iter().enumerate() {
        let c = match mode {
            WeightMode::PerChannel => index(i),
            WeightMode::PerTensor => 0,
        };
        amax[c] = amax[c].max(x.abs());
    }
    let largest = amax.iter().fold(0f32, |m, &a| m.max(a));
    let scale = |c: usize| {
        let a = if amax[c] > 0.0 { amax[c] } else { largest };
        f64::from(a.max(1e-30)) / 127.0
    };
    let q: Vec<f32> = v
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let c = match mode {
                WeightMode::PerChannel => index(i),
                WeightMode::PerTensor => 0,
            };
            fake_quant(x, scale(c))
        })
        .collect();
    Tensor::from_f32(shape, q).map_err(|e| e.to_string())
}

/// The graph with every Conv/Gemm weight quantized as `modes` says (per
/// channel when a node has no record); how many were quantized per channel
/// and per tensor.
pub fn quantize_weights(
    g: &Graph,
    modes: &HashMap<String, WeightMode>,
) -> Result<(Graph, usize, usize), String> {
    let mut out = g.clone();
    let mut done: BTreeMap<String, Tensor> = BTreeMap::new();
    let (mut chan, mut tensor) = (0, 0);
    for n in &g.nodes {
        let axis = match n.op_type.as_str() {
            "Conv" => 0,
            "Gemm" if n.attrs.get("transB").and_then(|a| a.as_int()) == Some(1) => 0,
            "Gemm" => 1,
            _ => continue,
        };
        let Some(Some(w)) = n.inputs.get(1) else {
            continue;
        };
        let Some(t) = g.initializer(w) else { continue };
        let mode = modes
            .get(&n.name)
            .copied()
            .unwrap_or(WeightMode::PerChannel);
        match mode {
            WeightMode::PerChannel => chan += 1,
            WeightMode::PerTensor => tensor += 1,
        }
        done.insert(w.clone(), quantize_weight(t, axis, mode)?);
    }
    for (name, t) in &mut out.initializers {
        if let Some(q) = done.remove(name) {
            *t = q;
        }
    }
    Ok((out, chan, tensor))
}

/// Runs `g` on `inputs`, calling `quant(node, output index, value name)`
/// for the scale to fake-quantize each result with (`None`: kept FP32).
/// Out: every value by name.
pub fn run(
    g: &Graph,
    inputs: &[(String, Tensor)],
    quant: &dyn Fn(&Node, usize, &str) -> Option<f64>,
    input_scale: Option<f64>,
) -> Result<Values, String> {
    run_replacing(g, inputs, quant, input_scale, &HashMap::new()).map(|(env, _)| env)
}

/// [`run`], every value named in `replace` replaced by the given values
/// once computed (the simulator's, dequantized): the values computed from
/// replaced inputs are returned by name beside the environment, so that
/// each layer's own error can be told from what its inputs brought.
pub fn run_replacing(
    g: &Graph,
    inputs: &[(String, Tensor)],
    quant: &dyn Fn(&Node, usize, &str) -> Option<f64>,
    input_scale: Option<f64>,
    replace: &HashMap<String, Vec<f32>>,
) -> Result<(Values, Values), String> {
    let mut local = HashMap::new();
    let mut env: HashMap<String, Tensor> = g.initializers.iter().cloned().collect();
    for (n, t) in inputs {
        let t = match input_scale {
            Some(s) => requant(t, s)?,
            None => t.clone(),
        };
        env.insert(n.clone(), t);
    }
    for node in &g.nodes {
        if !node.domain.is_empty() {
            return Err(format!(
                "{}: domain '{}' not run here",
                node.name, node.domain
            ));
        }
        let args: Vec<Option<&Tensor>> = node
            .inputs
            .iter()
            .map(|i| i.as_ref().and_then(|n| env.get(n)))
            .collect();
        let opts = onnc_interp::OpOptions {
            opset: onnc_onnx::NORMALIZED_OPSET,
            num_outputs: Some(node.outputs.len()),
        };
        let outs = onnc_interp::run_op_with(&node.op_type, &node.attrs, &args, &opts)
            .map_err(|e| format!("{}: {e}", node.name))?;
        for (k, (name, t)) in node.outputs.iter().zip(outs).enumerate() {
            let t = match quant(node, k, name) {
                Some(s) => requant(&t, s)?,
                None => t,
            };
            let t = match replace.get(name) {
                Some(v) if v.len() == t.numel() => {
                    let r = Tensor::from_f32(t.shape().to_vec(), v.clone())
                        .map_err(|e| e.to_string())?;
                    local.insert(name.clone(), t);
                    r
                }
                _ => t,
            };
            env.insert(name.clone(), t);
        }
    }
    Ok((env, local))
}

fn requant(t: &Tensor, s: f64) -> Result<Tensor, String> {
    let Ok(v) = t.as_f32() else {
        return Ok(t.clone());
    };
    let q = v.iter().map(|&x| fake_quant(x, s)).collect();
    Tensor::from_f32(t.shape().to_vec(), q).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_half_away_and_saturate() {
        assert_eq!(fake_quant(0.375, 0.25), 0.5);
        assert_eq!(fake_quant(-0.375, 0.25), -0.5);
        assert_eq!(fake_quant(0.36, 0.25), 0.25);
        assert_eq!(fake_quant(100.0, 0.25), 31.75);
        assert_eq!(fake_quant(-100.0, 0.25), -32.0);
    }

    #[test]
    fn weights_per_channel_keep_small_kernels_and_per_tensor_do_not() {
        // Two kernels of two weights: max 1.27 and 0.0127.
        let w = Tensor::from_f32(vec![2, 2], vec![1.27, -0.5, 0.0127, 0.004]).unwrap();
        let c = quantize_weight(&w, 0, WeightMode::PerChannel).unwrap();
        let c = c.as_f32().unwrap();
        assert!((c[0] - 1.27).abs() < 1e-6 && (c[1] + 0.5).abs() < 0.005);
        assert!((c[2] - 0.0127).abs() < 1e-7 && (c[3] - 0.004).abs() < 0.00005);
        let t = quantize_weight(&w, 0, WeightMode::PerTensor).unwrap();
        let t = t.as_f32().unwrap();
        // One step is 0.01: the second kernel becomes 0.01 and 0.
        assert!((t[2] - 0.01).abs() < 1e-7 && t[3] == 0.0);
        assert!(quantize_weight(&w, 2, WeightMode::PerChannel).is_err());
    }

    #[test]
    fn a_gemm_without_trans_b_is_quantized_along_its_columns() {
        // [in 2, out 2]: column 1 is 100 times smaller than column 0.
        let w = Tensor::from_f32(vec![2, 2], vec![1.0, 0.01, 0.5, 0.005]).unwrap();
        let q = quantize_weight(&w, 1, WeightMode::PerChannel).unwrap();
        let q = q.as_f32().unwrap();
        assert!((q[1] - 0.01).abs() < 1e-7 && (q[3] - 0.005).abs() < 0.00005);
    }
}
