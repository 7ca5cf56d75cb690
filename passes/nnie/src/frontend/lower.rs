//! ONNX graph → NNIE layers: one Caffe layer per node, or a [`Problem`].
//!
//! In: a normalized, legalized [`Graph`], its inferred types and the
//! provenance of each node. Out: [`Lowered`] — the layers in node order, every
//! problem (node, op, what, fix) and warnings. Nothing stops at the first
//! problem: the caller reports them all.
//!
//! | ONNX | layer | conditions |
//! |---|---|---|
//! | Conv | Convolution | 2-D, constant weights/bias, symmetric pads; depthwise → warning |
//! | ConvTranspose | Deconvolution | 2-D, constant weights/bias, symmetric pads, no dilation/output padding; depthwise → warning |
//! | Gemm | InnerProduct | `transA = 0`, constant B and C (`alpha`, `beta` folded in) |
//! | MaxPool, AveragePool | Pooling | 2-D, symmetric pads, no dilation, Caffe's rounded-up output shape equals ONNX's |
//! | GlobalAveragePool, GlobalMaxPool | Pooling (global) | |
//! | Add, Sum, Mul, Max | Eltwise | ≥ 2 non-constant inputs of the output's shape |
//! | Concat | Concat | non-constant inputs, at most 16 |
//! | Resize | Upsample | constant scales `[1, 1, 2, 2]` (or sizes = 2×), mode `nearest` |
//! | Relu, LeakyRelu | ReLU | |
//! | Softmax | Softmax | |
//! | Reshape, Flatten | Reshape `[0, c, h, w]` | batch kept, rank 2..4 |
//! | Transpose | Permute | `perm = (0, 2, 3, 1)` |
//! | Sigmoid, Tanh, Slice, Split, Mul/Add by a scalar, Mul by a per-channel gate, BatchNormalization | see `lower_ops.rs` | |
//!
//! ```
//! use onnc_nnie::frontend::lower;
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! use onnc_tensor::DType;
//! let vi = |n: &str| ValueInfo { name: n.into(), dtype: DType::F32, dims: [1, 2, 4, 4].map(Dim::Fixed).to_vec() };
//! let g = Graph { inputs: vec![vi("x")], outputs: vec![vi("y")],
//!                 nodes: vec![Node::new("e", "Erf", &["x"], &["y"])], ..Graph::default() };
//! let types = onnc_onnx::infer_graph(&g).unwrap();
//! let out = lower(&g, &types, &[]);
//! assert_eq!(out.problems[0].node, "e");
//! assert!(out.problems[0].what.contains("Erf"));
//! ```

use std::collections::HashMap;

use onnc_onnx::{Graph, Node, TypeInfo};
use onnc_tensor::{Attr, Tensor};

use super::layer::{EltwiseOp, Hw, Layer, LayerKind};
use crate::error::Problem;

/// The result of lowering.
#[derive(Debug, Clone, Default)]
pub struct Lowered {
    /// Layers in node order.
    pub layers: Vec<Layer>,
    /// Every reason the graph cannot run on NNIE.
    pub problems: Vec<Problem>,
    /// Findings that do not stop compilation (e.g. depthwise convolution).
    pub warnings: Vec<String>,
}

/// Lower every node of `graph`; `provenance[i]` are the source nodes of node
/// `i` (may be empty: then the node's own name).
pub fn lower(
    graph: &Graph,
    types: &HashMap<String, TypeInfo>,
    provenance: &[Vec<String>],
) -> Lowered {
    let mut out = Lowered::default();
    for vi in &graph.inputs {
        let shape = vi.type_info().static_shape();
        if !matches!(&shape, Some(s) if s.len() == 4) || vi.dtype != onnc_tensor::DType::F32 {
            out.problems.push(Problem {
                node: vi.name.clone(),
                op: "graph input".into(),
                what: format!(
                    "input is {}, NNIE needs a static 4-D f32 NCHW input",
                    vi.type_info()
                ),
                fix: "export the model with a fixed N×C×H×W float input (or pass --input-shape)"
                    .into(),
            });
        }
    }
    let cx = Cx { graph, types };
    for (i, node) in graph.nodes.iter().enumerate() {
        match cx.lower_node(node, &mut out.warnings) {
            Ok(mut layer) => {
                if let Some(src) = provenance.get(i).filter(|s| !s.is_empty()) {
                    layer.sources = src.clone();
                }
                out.layers.push(layer);
            }
            Err((what, fix)) => out.problems.push(Problem {
                node: node.name.clone(),
                op: node.op_type.clone(),
                what,
                fix,
            }),
        }
    }
    out
}

type Why = (String, String);

fn why(what: impl Into<String>, fix: impl Into<String>) -> Why {
    (what.into(), fix.into())
}

struct Cx<'a> {
    graph: &'a Graph,
    types: &'a HashMap<String, TypeInfo>,
}

fn ints(node: &Node, name: &str) -> Option<Vec<i64>> {
    node.attrs
        .get(name)
        .and_then(Attr::as_ints)
        .map(<[i64]>::to_vec)
}

fn int(node: &Node, name: &str, default: i64) -> i64 {
    node.attrs
        .get(name)
        .and_then(Attr::as_int)
        .unwrap_or(default)
}

fn hw(v: &[i64], what: &str) -> Result<Hw, Why> {
    match v {
        [h, w] if *h >= 0 && *w >= 0 => Ok([*h as usize, *w as usize]),
        _ => Err(why(
            format!("{what} {v:?} is not 2-D"),
            "NNIE runs 2-D (N×C×H×W) layers only",
        )),
    }
}

/// Symmetric pads `[t, l, b, r]` → `[h, w]`.
fn sym_pads(node: &Node) -> Result<Hw, Why> {
    let p = ints(node, "pads").unwrap_or_else(|| vec![0; 4]);
    let auto = node
        .attrs
        .get("auto_pad")
        .and_then(Attr::as_str)
        .unwrap_or("NOTSET");
    if auto != "NOTSET" && auto != "VALID" {
        return Err(why(
            format!("auto_pad = {auto}"),
            "export with explicit pads (auto_pad = NOTSET)",
        ));
    }
    match p.as_slice() {
        [t, l, b, r] if t == b && l == r => hw(&[*t, *l], "pads"),
        _ => Err(why(
            format!("pads {p:?} are asymmetric; Caffe pads both sides equally"),
            "use symmetric padding, or an explicit Pad folded into the weights' layout",
        )),
    }
}

impl Cx<'_> {
    fn shape(&self, name: &str) -> Option<Vec<usize>> {
        self.types.get(name).and_then(TypeInfo::static_shape)
    }

    fn konst(&self, node: &Node, i: usize, what: &str) -> Result<Option<&Tensor>, Why> {
        match node.input(i) {
            None => Ok(None),
            Some(n) => self.graph.initializer(n).map(Some).ok_or_else(|| {
                why(
                    format!("{what} `{n}` is computed at run time; NNIE needs it constant"),
                    "fold it into an initializer (onnx-simplify) before compiling",
                )
            }),
        }
    }

    fn data(&self, node: &Node) -> Result<Vec<String>, Why> {
        let mut v = Vec::new();
        for n in node.inputs.iter().flatten() {
            if self.graph.initializer(n).is_some() {
                return Err(why(
                    format!(
                        "operand `{n}` is a constant; NNIE's {} takes only feature maps",
                        node.op_type
                    ),
                    "fold the constant into the preceding Conv/Gemm (bias or scale)",
                ));
            }
            v.push(n.clone());
        }
        Ok(v)
    }

    fn lower_node(&self, node: &Node, warnings: &mut Vec<String>) -> Result<Layer, Why> {
        let op = node.op_type.as_str();
        if node.attrs.contains_key(onnc_legalize::DEVICE_ATTR) {
            return Err(why(
                format!("{op} is marked for NNIE's CPU path, which onnc does not emit"),
                "remove it from the network and run it on the host",
            ));
        }
        if !node.domain.is_empty() {
            return Err(why(
                format!("{op} of domain `{}` has no NNIE layer", node.domain),
                "replace it with standard ONNX ops NNIE runs (docs/targets/nnie.md)",
            ));
        }
        let top = node.outputs.first().cloned().unwrap_or_default();
        let x0 = || {
            node.input(0)
                .map(str::to_string)
                .into_iter()
                .collect::<Vec<_>>()
        };
        let layer = |kind, bottoms| Layer::new(&node.name, op, kind, bottoms, &top);
        if let Some(r) = super::lower_ops::batch_norm(self.graph, self.types, node, &top) {
            return r;
        }
        if let Some(r) = super::channel_const::affine(self.graph, self.types, node, &top) {
            return r;
        }
        if let Some(r) = super::lower_ops::lower(self.graph, self.types, node) {
            return r.map(|(kind, bottoms)| layer(kind, bottoms));
        }
        match op {
            "Conv" => self.conv(node, warnings).map(|(kind, w, b)| {
                let mut l = layer(kind, x0());
                l.weight = Some(w);
                l.bias = b;
                l
            }),
            "ConvTranspose" => self.deconv(node, warnings).map(|(kind, w, b)| {
                let mut l = layer(kind, x0());
                l.weight = Some(w);
                l.bias = b;
                l
            }),
            "Gemm" => self.gemm(node).map(|(kind, w, b)| {
                let mut l = layer(kind, x0());
                l.weight = Some(w);
                l.bias = Some(b);
                l
            }),
            "MaxPool" | "AveragePool" => self.pool(node).map(|k| layer(k, x0())),
            "GlobalAveragePool" | "GlobalMaxPool" => Ok(layer(
                LayerKind::Pool {
                    max: op == "GlobalMaxPool",
                    kernel: [1, 1],
                    stride: [1, 1],
                    pad: [0, 0],
                    global: true,
                },
                x0(),
            )),
            "Add" | "Sum" | "Mul" | "Max" => {
                let bottoms = self.data(node)?;
                let out = self.shape(&top);
                if bottoms.len() < 2 || bottoms.iter().any(|b| self.shape(b) != out) {
                    return Err(why(
                        format!("{op} needs two or more inputs of the output's shape (no broadcasting in Eltwise)"),
                        "make the operands the same shape (explicit Expand/Tile before the network's NNIE part)",
                    ));
                }
                let e = match op {
                    "Mul" => EltwiseOp::Prod,
                    "Max" => EltwiseOp::Max,
                    _ => EltwiseOp::Sum,
                };
                Ok(layer(LayerKind::Eltwise { op: e }, bottoms))
            }
            "Concat" => {
                let bottoms = self.data(node)?;
                if bottoms.len() > 16 {
                    return Err(why(
                        format!("Concat of {} inputs; the nnie dialect has 16 slots", bottoms.len()),
                        "split it into a tree of Concats of at most 16 inputs",
                    ));
                }
                let rank = self.shape(&top).map_or(4, |s| s.len()) as i64;
                let a = int(node, "axis", 1);
                let axis = if a < 0 { a + rank } else { a } as usize;
                Ok(layer(LayerKind::Concat { axis }, bottoms))
            }
            "Resize" => self.upsample(node).map(|k| layer(k, x0())),
            "Relu" => Ok(layer(LayerKind::Relu { negative_slope: 0.0 }, x0())),
            "LeakyRelu" => {
                let a = node.attrs.get("alpha").and_then(Attr::as_float).unwrap_or(0.01);
                Ok(layer(LayerKind::Relu { negative_slope: a }, x0()))
            }
            "Softmax" => {
                let rank = self.shape(&top).map_or(2, |s| s.len()) as i64;
                let a = int(node, "axis", -1);
                let axis = if a < 0 { a + rank } else { a } as usize;
                Ok(layer(LayerKind::Softmax { axis }, x0()))
            }
            "Reshape" | "Flatten" => self.reshape(node, &top).map(|k| layer(k, x0())),
            "Transpose" => {
                if ints(node, "perm").as_deref() == Some(&[0, 2, 3, 1][..]) {
                    Ok(layer(LayerKind::Permute, x0()))
                } else {
                    Err(why(
                        format!("Transpose with perm {:?}; NNIE's Permute supports only (0, 2, 3, 1)", ints(node, "perm").unwrap_or_default()),
                        "move the transpose out of the network (pre/post-processing on the host)",
                    ))
                }
            }
            _ => Err(why(
                format!("{op} has no NNIE layer in onnc"),
                "replace it with ops NNIE runs (docs/targets/nnie.md lists them) or move it to the host",
            )),
        }
    }

    fn conv(
        &self,
        node: &Node,
        warnings: &mut Vec<String>,
    ) -> Result<(LayerKind, Tensor, Option<Tensor>), Why> {
        let x = node
            .input(0)
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        if x.len() != 4 {
            return Err(why(
                format!("input shape {x:?} is not N×C×H×W"),
                "NNIE runs 2-D convolutions only",
            ));
        }
        let w = self
            .konst(node, 1, "weight")?
            .ok_or_else(|| why("no weight", "give the Conv its weight"))?;
        let b = self.konst(node, 2, "bias")?;
        let ws = w.shape().to_vec();
        if ws.len() != 4 {
            return Err(why(
                format!("weight shape {ws:?} is not 4-D"),
                "NNIE runs 2-D convolutions only",
            ));
        }
        let kernel = hw(
            &ints(node, "kernel_shape").unwrap_or(vec![ws[2] as i64, ws[3] as i64]),
            "kernel",
        )?;
        let stride = hw(&ints(node, "strides").unwrap_or(vec![1, 1]), "strides")?;
        let dilation = hw(&ints(node, "dilations").unwrap_or(vec![1, 1]), "dilations")?;
        let pad = sym_pads(node)?;
        let group = int(node, "group", 1).max(1) as usize;
        if group > 1 && group == x[1] {
            warnings.push(format!(
                "node '{}' (Conv): depthwise convolution (group = {group}) runs slowly on NNIE and MQBench writes no clip value for it; prefer group = 1",
                node.name
            ));
        }
        let as_f32 = |t: &Tensor| t.cast(onnc_tensor::DType::F32);
        let kind = LayerKind::Conv {
            num_output: ws[0],
            kernel,
            stride,
            pad,
            dilation,
            group,
        };
        Ok((
            kind,
            as_f32(w),
            b.map(|b| as_f32(b).reshape(vec![ws[0]]).unwrap_or_else(|_| as_f32(b))),
        ))
    }

    /// `ConvTranspose` → Deconvolution: 2-D, constant weights `C × O/g × kH × kW`
    /// (Caffe's layout too), symmetric pads, no dilation or output padding.
    fn deconv(
        &self,
        node: &Node,
        warnings: &mut Vec<String>,
    ) -> Result<(LayerKind, Tensor, Option<Tensor>), Why> {
        let x = node
            .input(0)
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        let w = self
            .konst(node, 1, "weight")?
            .ok_or_else(|| why("no weight", "give the ConvTranspose its weight"))?;
        let ws = w.shape().to_vec();
        if x.len() != 4 || ws.len() != 4 {
            return Err(why(
                format!("input {x:?} or weight {ws:?} is not 4-D"),
                "NNIE runs 2-D deconvolutions only",
            ));
        }
        let plain = |name: &str, v: i64| ints(node, name).is_none_or(|a| a.iter().all(|&d| d == v));
        if !plain("dilations", 1)
            || !plain("output_padding", 0)
            || node.attrs.contains_key("output_shape")
        {
            return Err(why(
                "dilation, output_padding or output_shape",
                "export the ConvTranspose with dilations 1 and explicit symmetric pads",
            ));
        }
        let group = int(node, "group", 1).max(1) as usize;
        if group > 1 && group == x[1] {
            warnings.push(format!(
                "node '{}' (ConvTranspose): depthwise deconvolution (group = {group}) runs slowly on NNIE and MQBench writes no clip value for it; prefer group = 1",
                node.name
            ));
        }
        let kind = LayerKind::Deconv {
            num_output: ws[1] * group,
            kernel: hw(
                &ints(node, "kernel_shape").unwrap_or(vec![ws[2] as i64, ws[3] as i64]),
                "kernel",
            )?,
            stride: hw(&ints(node, "strides").unwrap_or(vec![1, 1]), "strides")?,
            pad: sym_pads(node)?,
            group,
        };
        let as_f32 = |t: &Tensor| t.cast(onnc_tensor::DType::F32);
        let b = self.konst(node, 2, "bias")?.map(as_f32);
        Ok((kind, as_f32(w), b))
    }

    fn gemm(&self, node: &Node) -> Result<(LayerKind, Tensor, Tensor), Why> {
        if int(node, "transA", 0) != 0 {
            return Err(why(
                "transA = 1",
                "export the Gemm with transA = 0 (InnerProduct reads x as rows)",
            ));
        }
        let b = self
            .konst(node, 1, "B")?
            .ok_or_else(|| why("no B operand", "give the Gemm its weight"))?;
        let bs = b.shape().to_vec();
        if bs.len() != 2 {
            return Err(why(
                format!("B has shape {bs:?}, not 2-D"),
                "use a 2-D weight",
            ));
        }
        let alpha = node
            .attrs
            .get("alpha")
            .and_then(Attr::as_float)
            .unwrap_or(1.0);
        let beta = node
            .attrs
            .get("beta")
            .and_then(Attr::as_float)
            .unwrap_or(1.0);
        let bv = b.cast(onnc_tensor::DType::F32);
        let bv = bv
            .as_f32()
            .map_err(|e| why(e.to_string(), "use f32 weights"))?;
        let trans_b = int(node, "transB", 0) != 0;
        let (o, k) = if trans_b {
            (bs[0], bs[1])
        } else {
            (bs[1], bs[0])
        };
        let mut w = vec![0f32; o * k];
        for r in 0..o {
            for c in 0..k {
                let v = if trans_b {
                    bv[r * k + c]
                } else {
                    bv[c * o + r]
                };
                w[r * k + c] = alpha * v;
            }
        }
        let mut bias = vec![0f32; o];
        if let Some(c) = self.konst(node, 2, "C")? {
            let cv = c.cast(onnc_tensor::DType::F32);
            let cv = cv
                .as_f32()
                .map_err(|e| why(e.to_string(), "use an f32 bias"))?;
            match cv.len() {
                1 => bias.iter_mut().for_each(|b| *b = beta * cv[0]),
                n if n == o => bias.iter_mut().zip(cv).for_each(|(b, c)| *b = beta * c),
                n => {
                    return Err(why(
                        format!("C has {n} elements; InnerProduct's bias needs 1 or {o}"),
                        "use a per-output bias",
                    ))
                }
            }
        }
        let t = |s: Vec<usize>, v| {
            Tensor::from_f32(s, v).map_err(|e| why(e.to_string(), "report this as a bug"))
        };
        Ok((
            LayerKind::Fc { num_output: o },
            t(vec![o, k], w)?,
            t(vec![o], bias)?,
        ))
    }

    fn pool(&self, node: &Node) -> Result<LayerKind, Why> {
        let op = node.op_type.as_str();
        let kernel = hw(&ints(node, "kernel_shape").unwrap_or_default(), "kernel")?;
        let stride = hw(&ints(node, "strides").unwrap_or(vec![1, 1]), "strides")?;
        let pad = sym_pads(node)?;
        if ints(node, "dilations").is_some_and(|d| d.iter().any(|&v| v != 1)) {
            return Err(why("dilated pooling", "use dilations = 1"));
        }
        if op == "AveragePool" && int(node, "count_include_pad", 0) == 0 && pad != [0, 0] {
            return Err(why(
                "padded AveragePool with count_include_pad = 0; Caffe divides by the padded window",
                "export with count_include_pad = 1 or without padding",
            ));
        }
        let x = node
            .input(0)
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        let y = node
            .outputs
            .first()
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        if x.len() != 4 || y.len() != 4 {
            return Err(why(
                "pooling needs N×C×H×W input and output",
                "NNIE pools 2-D feature maps only",
            ));
        }
        for d in 0..2 {
            let (n, k, s, p) = (x[2 + d], kernel[d], stride[d].max(1), pad[d]);
            let mut caffe = (n + 2 * p).saturating_sub(k).div_ceil(s) + 1;
            if p > 0 && (caffe - 1) * s >= n + p {
                caffe -= 1;
            }
            if caffe != y[2 + d] {
                return Err(why(
                    format!(
                        "{op} with ceil_mode = {} gives {} output rows/cols on axis {}, Caffe's rounded-up pooling gives {caffe}",
                        int(node, "ceil_mode", 0),
                        y[2 + d],
                        2 + d
                    ),
                    "export the pooling with ceil_mode = 1 (NNIE pools round up)",
                ));
            }
        }
        Ok(LayerKind::Pool {
            max: op == "MaxPool",
            kernel,
            stride,
            pad,
            global: false,
        })
    }

    fn upsample(&self, node: &Node) -> Result<LayerKind, Why> {
        let bad = || {
            why(
                "Resize other than 2× nearest-neighbour upsampling",
                "NNIE upsamples by integer factors (nearest, or bilinear with align_corners=False; at most 15 unless a power of two): export such a factor, or resize on the host",
            )
        };
        let mode = node
            .attrs
            .get("mode")
            .and_then(Attr::as_str)
            .unwrap_or("nearest");
        if mode != "nearest" {
            return Err(bad());
        }
        let x = node
            .input(0)
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        let y = node
            .outputs
            .first()
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        let scales_ok = self
            .konst(node, 2, "scales")
            .ok()
            .flatten()
            .is_some_and(|s| s.data().to_f64_vec() == [1.0, 1.0, 2.0, 2.0]);
        let sizes_ok = x.len() == 4 && y == [x[0], x[1], 2 * x[2], 2 * x[3]];
        if (scales_ok || node.input(2).is_none()) && sizes_ok {
            Ok(LayerKind::Upsample { scale: 2 })
        } else {
            Err(bad())
        }
    }

    fn reshape(&self, node: &Node, top: &str) -> Result<LayerKind, Why> {
        let x = node
            .input(0)
            .and_then(|n| self.shape(n))
            .unwrap_or_default();
        let y = self.shape(top).unwrap_or_default();
        if y.len() < 2 || y.len() > 4 || x.first() != y.first() {
            return Err(why(
                format!("reshape {x:?} → {y:?}; NNIE's Reshape keeps the batch and has 4-D shapes"),
                "reshape to N×C×H×W (N unchanged), or move it to the host",
            ));
        }
        let mut shape = [0i64, 1, 1, 1];
        for (i, d) in y.iter().enumerate().skip(1) {
            shape[i] = *d as i64;
        }
        Ok(LayerKind::Reshape { shape })
    }
}
