//! Lowering ONNX nodes to MVU layers.
//!
//! In: a [`Graph`] that passed [`super::check_joins`] (loaded, simplified and
//! legalized for the MVU), its constant values, and the [`super::CompileOptions`].
//! Out: one [`Lowered`] per `Conv` / `Gemm` / `MatMul` in graph order (the
//! engine [`Layer`], its integer weights, bias, and whether a `Relu` follows),
//! or every problem found.
//!
//! | ONNX | becomes |
//! |---|---|
//! | `Conv` (dilation 1, batch 1, constant weights) | a conv layer; a grouped or depthwise Conv with block-diagonal weights ([`super::groups`]) |
//! | `Gemm` (`transA = 0`, constant `B`), `MatMul` (2-D, constant `B`) | a matmul layer (weights as `[out, in]`; `alpha` folded into them) |
//! | `Relu` after a layer | that layer's ReLU (the MVU's output pipeline) |
//! | `MaxPool` after a Conv (+ `Relu`), `GlobalAveragePool`, `Clip(0, M)` | see [`super::pipeline`] |
//! | any other `MaxPool` (of a `Concat`, a second pooling, a shared activation, cut-short windows) | a pooling layer: an identity conv with the pooler ([`super::pool_layer`]) |
//! | `Reshape`, `Flatten`, `Squeeze`, `Unsqueeze`, `Identity`, `Dropout`, `QuantizeLinear`/`DequantizeLinear` on activations | nothing (data layout / fake quantization only) |
//! | a pooling over one-element windows ([`onnc_onnx::is_identity_pool`]; `onnx-simplify` removes it first) | nothing (the identity) |
//! | channel `Concat` of layer outputs | no layer: its parts share one buffer ([`super::flow`], from [`Wiring`]) |
//! | nodes on constants only (e.g. `DequantizeLinear` of a weight) | folded into the weights |
//! | anything else | a problem naming the node |
//!
//! ```
//! use onnc_mvu::frontend::{compile, CompileOptions};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::{DType, Tensor};
//! let vi = |n: &str, d: &[usize]| ValueInfo { name: n.into(), dtype: DType::F32, dims: d.iter().map(|&x| Dim::Fixed(x)).collect() };
//! let g = Graph {
//!     inputs: vec![vi("x", &[1, 128])],
//!     outputs: vec![vi("y", &[1, 10])],
//!     initializers: vec![("fc.weight".into(), Tensor::from_f32(vec![10, 128], vec![1.0; 1280]).unwrap())],
//!     nodes: vec![Node::new("fc", "Gemm", &["x", "fc.weight"], &["y"]).with_attr("transB", onnc_tensor::Attr::Int(1))],
//!     ..Graph::default()
//! };
//! let c = compile(&g, &CompileOptions { aprec: 2, wprec: 2, oprec: 2, ..CompileOptions::default() }).unwrap();
//! assert_eq!(c.layers()[0].weight_shape(), vec![10, 128]);
//! assert_eq!(c.table().rows[0].countdown, 2 * 1 * 2 * 2); // m_w * m_h * ip * wp
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};

use onnc_onnx::{Graph, Node, TypeInfo};

use super::groups::block_diagonal;
use onnc_tensor::{Attr, Tensor};

use super::chain::Constants;
use super::problem::Problem;
use super::weights::{integer_weights, LayerWeights};
use super::CompileOptions;
use crate::layer::{ConvShape, Layer, MatMulShape, Precision};

/// How a layer node holds its weight operand (for rebuilding test graphs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightLayout {
    /// Conv `[O, I, kH, kW]` or Gemm `transB = 1` `[out, in]`: the layer's own layout.
    AsLayer,
    /// MatMul or Gemm `transB = 0`: `[in, out]`, the transpose of the layer's.
    Transposed,
}

/// One lowered layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Lowered {
    /// ONNX node name (also the layer name).
    pub node: String,
    /// ONNX op type.
    pub op: String,
    /// The engine layer.
    pub layer: Layer,
    /// Integer weights in the layer's layout.
    pub weights: LayerWeights,
    /// Bias per output channel (`Conv` input 2, `beta · C` of `Gemm`), if any.
    pub bias: Option<Vec<f32>>,
    /// A `Relu` follows the layer.
    pub relu: bool,
    /// Layout of the node's weight operand.
    pub layout: WeightLayout,
    /// The value where the layer's output pipeline ends (its last Relu,
    /// MaxPool or Clip, else the layer's own output).
    pub end: String,
    /// `Some(n)`: a global average pooling, computed as the sum of `n` pixels
    /// (an identity convolution over the whole map); the mean is that sum / n.
    pub sum_of: Option<u32>,
}

/// How the layers of a graph connect, as [`lower_graph`]'s walk finds them
/// (read by [`super::flow`], which places every activation in the data RAM).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wiring {
    /// The value each layer reads (its data input, named as in the graph), by layer.
    pub inputs: Vec<String>,
    /// Each `Concat`: node name, output value, input values (in order).
    pub concats: Vec<(String, String, Vec<String>)>,
    /// Layout-only ops (and identity poolings): output value → input value.
    pub aliases: BTreeMap<String, String>,
    /// Nodes folded into a layer's output pipeline (`Relu`, `MaxPool`, `Clip`).
    pub pipeline: BTreeSet<String>,
    /// The graph output value.
    pub output: String,
    /// Each pipeline stage's output value → its node.
    pub stages: BTreeMap<String, String>,
}

/// What the walk knows about the graph.
pub(super) struct Cx<'a> {
    graph: &'a Graph,
    types: HashMap<String, TypeInfo>,
    values: BTreeMap<String, Tensor>,
    producer: BTreeMap<&'a str, &'a Node>,
    opts: &'a CompileOptions,
}

pub(super) fn ints_attr(node: &Node, name: &str) -> Option<Vec<i64>> {
    node.attrs
        .get(name)
        .and_then(Attr::as_ints)
        .map(<[i64]>::to_vec)
}

pub(super) fn int_attr(node: &Node, name: &str, default: i64) -> i64 {
    node.attrs
        .get(name)
        .and_then(Attr::as_int)
        .unwrap_or(default)
}

fn float_attr(node: &Node, name: &str, default: f32) -> f32 {
    node.attrs
        .get(name)
        .and_then(Attr::as_float)
        .unwrap_or(default)
}

fn u32s(v: &[i64]) -> Option<Vec<u32>> {
    v.iter().map(|&x| u32::try_from(x).ok()).collect()
}

impl<'a> Cx<'a> {
    pub(super) fn shape(&self, value: &str) -> Option<Vec<usize>> {
        self.types.get(value).and_then(TypeInfo::static_shape)
    }

    /// A constant operand's value (initializer or folded constant subgraph).
    pub(super) fn constant(&self, value: &str) -> Option<&Tensor> {
        self.graph
            .initializer(value)
            .or_else(|| self.values.get(value))
    }

    /// The name the weight file takes: the initializer behind `value`.
    fn weight_name(&self, value: &str) -> String {
        match self.producer.get(value) {
            Some(n) if self.graph.initializer(value).is_none() => n
                .input(0)
                .map_or_else(|| value.to_string(), |v| self.weight_name(v)),
            _ => value.to_string(),
        }
    }

    /// Integer codes and scales when `value` is `DequantizeLinear(initializer, scale, zp)`
    /// with a per-tensor scale or per-channel scales on axis 0.
    fn dq_codes(&self, value: &str) -> Option<(Vec<i64>, Vec<f32>)> {
        let n = self
            .producer
            .get(value)
            .filter(|n| n.op_type == "DequantizeLinear")?;
        let x = self.graph.initializer(n.input(0)?)?;
        let scale = self.constant(n.input(1)?)?;
        let zp = n
            .input(2)
            .and_then(|z| self.constant(z))
            .map(|t| t.data().to_i64_vec());
        let codes = x.data().to_i64_vec();
        let scales: Vec<f32> = scale
            .data()
            .to_f64_vec()
            .iter()
            .map(|&s| s as f32)
            .collect();
        let channels = *x.shape().first()?;
        let per = codes.len() / channels.max(1);
        match scales.len() {
            1 => {
                let z = zp.as_ref().and_then(|z| z.first().copied()).unwrap_or(0);
                Some((codes.iter().map(|&c| c - z).collect(), scales))
            }
            k if k == channels && int_attr(n, "axis", 1) == 0 => {
                let z = |c: usize| zp.as_ref().and_then(|z| z.get(c).copied()).unwrap_or(0);
                Some((
                    codes
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| c - z(i / per.max(1)))
                        .collect(),
                    scales,
                ))
            }
            _ => None,
        }
    }
}

/// Folds every node that reads only constants (`DequantizeLinear` of a weight,
/// a `Transpose` of one, ...) with the interpreter.
fn fold_constants(
    graph: &Graph,
    consts: &Constants,
) -> Result<BTreeMap<String, Tensor>, Vec<Problem>> {
    let mut values: BTreeMap<String, Tensor> = BTreeMap::new();
    for node in &graph.nodes {
        if !node
            .outputs
            .iter()
            .all(|o| o.is_empty() || consts.contains(o))
        {
            continue;
        }
        let value = |n: &str| graph.initializer(n).or_else(|| values.get(n));
        let out = onnc_interp::fold::fold_node(node, value)
            .unwrap_or_else(|| {
                Err(if onnc_interp::fold::foldable(node) {
                    "an input is not a constant".to_string()
                } else {
                    format!("the interpreter does not evaluate {}", node.op_type)
                })
            })
            .map_err(|e| {
                vec![Problem::node(
                    &node.name,
                    &node.op_type,
                    format!("cannot fold this constant node: {e}"),
                    "fold it before compiling (onnx-simplify)",
                )]
            })?;
        for (name, t) in node.outputs.iter().zip(out) {
            values.insert(name.clone(), t);
        }
    }
    Ok(values)
}

/// Lowers every layer of `graph` (constants `consts`), in graph order.
pub fn lower(
    graph: &Graph,
    consts: &Constants,
    opts: &CompileOptions,
) -> Result<Vec<Lowered>, Vec<Problem>> {
    lower_graph(graph, consts, opts).map(|(layers, _)| layers)
}

/// [`lower`], and how the layers connect (what each reads, the `Concat`s,
/// the layout-only aliases and the pipeline nodes).
pub fn lower_graph(
    graph: &Graph,
    consts: &Constants,
    opts: &CompileOptions,
) -> Result<(Vec<Lowered>, Wiring), Vec<Problem>> {
    let types = onnc_onnx::infer_graph(graph).map_err(|e| {
        vec![Problem::option(
            "shape inference",
            e.to_string(),
            "give the graph input a static shape (--input-shape)",
        )]
    })?;
    let values = fold_constants(graph, consts)?;
    let mut producer = BTreeMap::new();
    for n in &graph.nodes {
        for o in &n.outputs {
            producer.insert(o.as_str(), n);
        }
    }
    let cx = Cx {
        graph,
        types,
        values,
        producer,
        opts,
    };
    let mut layers: Vec<Lowered> = Vec::new();
    let mut wiring = Wiring {
        output: graph
            .outputs
            .first()
            .map(|v| v.name.clone())
            .unwrap_or_default(),
        ..Wiring::default()
    };
    let mut problems = Vec::new();
    // The layer whose output each activation value is (through layout-only ops).
    let mut owner: BTreeMap<&str, Option<usize>> = BTreeMap::new();
    // Pooled layers and their MaxPool node (a pooled layer needs a ReLU).
    let mut pooled: Vec<(usize, String)> = Vec::new();
    // How many nodes (and graph outputs) read each value.
    let mut readers: BTreeMap<&str, usize> = BTreeMap::new();
    for v in graph
        .nodes
        .iter()
        .flat_map(|n| n.inputs.iter().flatten())
        .chain(graph.outputs.iter().map(|o| &o.name))
    {
        *readers.entry(v.as_str()).or_default() += 1;
    }
    for node in &graph.nodes {
        if node
            .outputs
            .iter()
            .all(|o| o.is_empty() || consts.contains(o))
        {
            continue;
        }
        let data = node
            .inputs
            .iter()
            .flatten()
            .find(|i| !consts.contains(*i))
            .map(String::as_str);
        let from = data.and_then(|d| owner.get(d).copied().flatten());
        // A pipeline stage must read the layer's current end: the data RAM
        // keeps only a layer's last stage, so an earlier one cannot also
        // feed another node.
        if let (Some(i), Some(d), "Relu" | "MaxPool" | "Clip") = (from, data, node.op_type.as_str())
        {
            if resolve(&wiring, d) != layers[i].end {
                problems.push(Problem::node(
                    &node.name,
                    &node.op_type,
                    format!(
                        "reads '{d}', the output of '{}' before its output pipeline goes on in '{}': the MVU \
                         keeps only a layer's last pipeline stage in the data RAM, so one stage cannot feed \
                         two nodes",
                        layers[i].node,
                        wiring.stages.get(&layers[i].end).map_or("", String::as_str)
                    ),
                    "read the layer's output after its whole pipeline, or compute the branch on the host",
                ));
                continue;
            }
        }
        let mine = match node.op_type.as_str() {
            // Before the pooling arms: a GlobalAveragePool over a 1x1 map is no layer.
            _ if onnc_onnx::is_identity_pool(node, data.and_then(|d| cx.shape(d)).as_deref()) => {
                alias(&mut wiring, node, data);
                from
            }
            "Conv" | "Gemm" | "MatMul" => match lower_layer(&cx, node) {
                Ok(l) => Some(push_layer(&mut wiring, &mut layers, data, l)),
                Err(p) => {
                    problems.extend(p);
                    None
                }
            },
            "Relu" => {
                match from {
                    Some(i) => {
                        layers[i].relu = true;
                        layers[i].layer.relu = true;
                        layers[i].end = node.outputs[0].clone();
                        wiring.pipeline.insert(node.name.clone());
                        wiring.stages.insert(node.outputs[0].clone(), node.name.clone());
                    }
                    None if problems.is_empty() => problems.push(Problem::node(
                        &node.name,
                        "Relu",
                        "does not follow a Conv/Gemm/MatMul; the MVU applies ReLU in a layer's output pipeline",
                        "remove it (the input codes are unsigned already) or move it after a layer",
                    )),
                    None => {}
                }
                from
            }
            "Reshape" | "Flatten" | "Squeeze" | "Unsqueeze" | "Identity" | "Dropout"
            | "QuantizeLinear" | "DequantizeLinear" => {
                alias(&mut wiring, node, data);
                from
            }
            "Concat" => {
                let parts = node
                    .inputs
                    .iter()
                    .flatten()
                    .filter(|i| !consts.contains(*i))
                    .cloned()
                    .collect();
                wiring
                    .concats
                    .push((node.name.clone(), node.outputs[0].clone(), parts));
                None
            }
            "MaxPool"
                if !from.is_some_and(|i| {
                    let sole = data.is_some_and(|d| readers.get(d) == Some(&1));
                    super::pool_layer::folds(node, &layers[i], sole)
                }) =>
            {
                // A pooling of its own: an identity conv with the pooler (pool_layer.rs).
                match super::pool_layer::pool_layer(&cx, node, opts) {
                    Ok(l) => Some(push_layer(&mut wiring, &mut layers, data, l)),
                    Err(p) => {
                        problems.push(p);
                        None
                    }
                }
            }
            "MaxPool" => match super::pipeline::max_pool(node, from.map(|i| &layers[i])) {
                Ok(pool) => {
                    let i = from.unwrap_or_default();
                    layers[i].layer.pool = Some(pool);
                    layers[i].end = node.outputs[0].clone();
                    pooled.push((i, node.name.clone()));
                    wiring.pipeline.insert(node.name.clone());
                    wiring
                        .stages
                        .insert(node.outputs[0].clone(), node.name.clone());
                    from
                }
                Err(p) => {
                    problems.push(p);
                    None
                }
            },
            "GlobalAveragePool" => match super::pipeline::global_average(&cx, node, opts) {
                Ok(l) => Some(push_layer(&mut wiring, &mut layers, data, l)),
                Err(p) => {
                    problems.push(p);
                    None
                }
            },
            "Clip" => {
                match super::pipeline::clip_as_relu(&cx, node, from.map(|i| &layers[i]), opts) {
                    Ok(()) => {
                        let i = from.unwrap_or_default();
                        layers[i].relu = true;
                        layers[i].layer.relu = true;
                        layers[i].end = node.outputs[0].clone();
                        wiring.pipeline.insert(node.name.clone());
                        wiring
                            .stages
                            .insert(node.outputs[0].clone(), node.name.clone());
                        from
                    }
                    Err(p) => {
                        problems.push(p);
                        None
                    }
                }
            }
            op => {
                problems.push(Problem::node(
                    &node.name,
                    op,
                    format!("{op} is not supported by the MVU back end"),
                    "the MVU runs Conv, Gemm/MatMul, Relu, MaxPool, GlobalAveragePool and channel Concat; \
                     remove the op, fold it into the \
                     weights, or run it on the host",
                ));
                None
            }
        };
        for o in &node.outputs {
            owner.insert(o, mine);
        }
    }
    for (i, node) in pooled {
        if !layers[i].relu {
            problems.push(Problem::node(
                &node,
                "MaxPool",
                format!(
                    "pools the outputs of '{}', which has no ReLU: the MVU's pooler starts each window \
                     from 0 (maxpool.v clears its register to 0), so it computes max(0, window), which \
                     differs from MaxPool where a whole window is negative",
                    layers[i].node
                ),
                "put a Relu between the layer and the MaxPool (as VGG and AlexNet have), or run the \
                 pooling on the host",
            ));
        }
    }
    if layers.is_empty() && problems.is_empty() {
        problems.push(Problem::option(
            "graph",
            "has no Conv, Gemm or MatMul",
            "an MVU program needs at least one layer",
        ));
    }
    if problems.is_empty() {
        Ok((layers, wiring))
    } else {
        Err(problems)
    }
}

/// `v` through layout-only ops.
pub(super) fn resolve<'w>(wiring: &'w Wiring, v: &'w str) -> &'w str {
    let mut v = v;
    for _ in 0..=wiring.aliases.len() {
        match wiring.aliases.get(v) {
            Some(a) => v = a,
            None => break,
        }
    }
    v
}

/// Appends a new layer reading `data`; returns its index.
fn push_layer(
    wiring: &mut Wiring,
    layers: &mut Vec<Lowered>,
    data: Option<&str>,
    l: Lowered,
) -> usize {
    wiring.inputs.push(data.unwrap_or_default().to_string());
    layers.push(l);
    layers.len() - 1
}

/// Records the layout-only `node` (output → its data input `data`).
fn alias(wiring: &mut Wiring, node: &Node, data: Option<&str>) {
    if let (Some(o), Some(d)) = (node.outputs.first(), data) {
        wiring.aliases.insert(o.clone(), d.to_string());
    }
}

/// Lowers one Conv / Gemm / MatMul node.
fn lower_layer(cx: &Cx<'_>, node: &Node) -> Result<Lowered, Vec<Problem>> {
    let op = node.op_type.as_str();
    let bad = |what: String, fix: &str| vec![Problem::node(&node.name, op, what, fix)];
    let x = node.input(0).unwrap_or_default();
    let w = node.input(1).unwrap_or_default();
    let Some(wt) = cx.constant(w) else {
        return Err(bad(
            format!("weight operand '{w}' is not a constant"),
            "give the layer constant weights (an initializer)",
        ));
    };
    let Some(xs) = cx.shape(x) else {
        return Err(bad(
            format!("input '{x}' has no static shape"),
            "give the graph input a static shape (--input-shape)",
        ));
    };
    let floats: Vec<f32> = wt.data().to_f64_vec().iter().map(|&v| v as f32).collect();
    let ws = wt.shape().to_vec();
    let opts = cx.opts;
    let prec = Precision::new(opts.aprec, opts.wprec, opts.oprec);
    let (layer, floats, layout, bias) = match op {
        "Conv" => {
            if xs.len() != 4 || ws.len() != 4 {
                return Err(bad(
                    format!("input {xs:?} / weight {ws:?} are not 4-D"),
                    "the MVU runs 2-D convolutions (N x C x H x W)",
                ));
            }
            if xs[0] != 1 {
                return Err(bad(
                    format!("batch is {}; an MVU program runs one image", xs[0]),
                    "compile with batch 1 (--input-shape NAME=1x...)",
                ));
            }
            let groups = int_attr(node, "group", 1);
            if groups < 1
                || xs[1] as i64 % groups != 0
                || ws[0] as i64 % groups != 0
                || ws[1] as i64 * groups != xs[1] as i64
            {
                return Err(bad(
                    format!(
                        "group = {groups} does not divide input {xs:?} / weight {ws:?} into equal groups"
                    ),
                    "give the Conv C and O divisible by group and weights [O, C/group, kH, kW]",
                ));
            }
            let dil = ints_attr(node, "dilations").unwrap_or_else(|| vec![1, 1]);
            if dil.iter().any(|&d| d != 1) {
                return Err(bad(
                    format!("dilations = {dil:?}"),
                    "the MVU runs undilated convolutions",
                ));
            }
            let strides = ints_attr(node, "strides").unwrap_or_else(|| vec![1, 1]);
            let pads = ints_attr(node, "pads").unwrap_or_else(|| vec![0; 4]);
            let dims = u32s(&[
                xs[1] as i64,
                xs[2] as i64,
                xs[3] as i64,
                ws[0] as i64,
                ws[2] as i64,
                ws[3] as i64,
            ]);
            let (Some(d), Some(s), Some(p)) = (dims, u32s(&strides), u32s(&pads)) else {
                return Err(bad(
                    "shape, strides or pads out of range".into(),
                    "check the Conv attributes",
                ));
            };
            if s.len() != 2 || p.len() != 4 {
                return Err(bad(
                    format!("strides {s:?} / pads {p:?} are not 2-D"),
                    "the MVU runs 2-D convolutions",
                ));
            }
            let shape = ConvShape::new(d[0], d[1], d[2], d[3], [d[4], d[5]])
                .with_strides([s[0], s[1]])
                .with_pads([p[0], p[1], p[2], p[3]]);
            let bias = node
                .input(2)
                .and_then(|b| cx.constant(b))
                .map(|t| t.data().to_f64_vec().iter().map(|&v| v as f32).collect());
            // A grouped Conv: one Conv with block-diagonal weights (groups.rs).
            let floats = if groups > 1 {
                block_diagonal(&floats, ws[0], xs[1], groups as usize, ws[2] * ws[3])
            } else {
                floats
            };
            (
                Layer::conv(&node.name, shape, prec),
                floats,
                WeightLayout::AsLayer,
                bias,
            )
        }
        _ => {
            if xs.len() != 2 || ws.len() != 2 {
                return Err(bad(
                    format!("input {xs:?} / weight {ws:?} are not 2-D"),
                    "flatten the input to rows x features before the layer",
                ));
            }
            if op == "Gemm" && int_attr(node, "transA", 0) != 0 {
                return Err(bad(
                    "transA = 1".into(),
                    "the MVU reads the activations as rows; transpose them on the host",
                ));
            }
            let trans_b = op == "Gemm" && int_attr(node, "transB", 0) == 1;
            let (out, inp) = if trans_b {
                (ws[0], ws[1])
            } else {
                (ws[1], ws[0])
            };
            let alpha = if op == "Gemm" {
                float_attr(node, "alpha", 1.0)
            } else {
                1.0
            };
            // The layer's layout is [out, in]; alpha is folded into the weights.
            let mut f = vec![0f32; floats.len()];
            for o in 0..out {
                for i in 0..inp {
                    let v = if trans_b {
                        floats[o * inp + i]
                    } else {
                        floats[i * out + o]
                    };
                    f[o * inp + i] = v * alpha;
                }
            }
            let dims = u32s(&[xs[0] as i64, inp as i64, out as i64]);
            let Some(d) = dims else {
                return Err(bad("shape out of range".into(), "check the layer's shapes"));
            };
            let beta = if op == "Gemm" {
                float_attr(node, "beta", 1.0)
            } else {
                1.0
            };
            let bias = node
                .input(2)
                .and_then(|b| cx.constant(b))
                .filter(|t| t.numel() == out)
                .map(|t| {
                    t.data()
                        .to_f64_vec()
                        .iter()
                        .map(|&v| (v as f32) * beta)
                        .collect()
                });
            if node.input(2).is_some() && bias.is_none() {
                return Err(bad(
                    "bias C is not a constant vector of one value per output".into(),
                    "use a per-output bias",
                ));
            }
            let layout = if trans_b {
                WeightLayout::AsLayer
            } else {
                WeightLayout::Transposed
            };
            (
                Layer::matmul(
                    &node.name,
                    MatMulShape {
                        rows: d[0],
                        in_features: d[1],
                        out_features: d[2],
                    },
                    prec,
                ),
                f,
                layout,
                bias,
            )
        }
    };
    let alpha_one = op == "Conv" || float_attr(node, "alpha", 1.0) == 1.0;
    let codes = if layout == WeightLayout::AsLayer && alpha_one {
        cx.dq_codes(w)
            .map(|(c, s)| match (int_attr(node, "group", 1), ws.as_slice()) {
                (g, [o, _, fh, fw]) if op == "Conv" && g > 1 => {
                    let in_channels = xs.get(1).copied().unwrap_or_default();
                    (block_diagonal(&c, *o, in_channels, g as usize, fh * fw), s)
                }
                _ => (c, s),
            })
    } else {
        None
    };
    let weights = integer_weights(
        &node.name,
        &floats,
        codes.as_ref().map(|(c, s)| (c.as_slice(), s.as_slice())),
        layer.out_channels() as usize,
        opts.wprec,
        opts.per_channel,
    )
    .map_err(|e| vec![Problem::engine(&node.name, op, &e)])?;
    let mut layer = layer.with_weight_name(cx.weight_name(w));
    layer.precision = layer.precision.with_signed_weights(weights.signed);
    if let Some(m) = opts.quant_msb {
        layer = layer.with_quant_msb(m);
    }
    Ok(Lowered {
        node: node.name.clone(),
        op: op.to_string(),
        layer,
        weights,
        bias,
        relu: false,
        layout,
        end: node.outputs[0].clone(),
        sum_of: None,
    })
}
