//! A tiny ONNX graph builder for the differential tests: one op per call,
//! seeded pseudo-random weights, node outputs named after their nodes.
//!
//! In: op types, attributes and shapes. Out: an [`onnc_onnx::Graph`] whose
//! output dims are filled in by [`crate::harness::check`] from the reference
//! run (the builder does no shape inference).

use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::{Attr, DType, Tensor};

/// A graph under construction.
pub struct Net {
    /// The graph so far.
    pub g: Graph,
    seed: u64,
    count: usize,
}

/// `Attr::Ints`.
pub fn ints(v: &[i64]) -> Attr {
    Attr::Ints(v.to_vec())
}

/// Convolution geometry: kernel, stride, pads (top, left, bottom, right),
/// dilation, group.
#[derive(Clone, Copy)]
pub struct ConvGeom {
    pub k: usize,
    pub stride: i64,
    pub pads: [i64; 4],
    pub dilation: i64,
    pub group: usize,
}

impl ConvGeom {
    /// `k×k`, stride 1, "same" padding for odd `k`, no dilation, one group.
    pub fn same(k: usize) -> ConvGeom {
        let p = (k / 2) as i64;
        ConvGeom {
            k,
            stride: 1,
            pads: [p; 4],
            dilation: 1,
            group: 1,
        }
    }
}

impl Net {
    /// A graph named `name` with one f32 input `x` of shape `dims`.
    pub fn new(name: &str, dims: &[usize], seed: u64) -> Net {
        let mut n = Net {
            g: Graph {
                name: name.into(),
                ..Default::default()
            },
            seed,
            count: 0,
        };
        n.input("x", dims);
        n
    }

    /// Adds a graph input.
    pub fn input(&mut self, name: &str, dims: &[usize]) {
        let dims = dims.iter().map(|&d| Dim::Fixed(d)).collect();
        self.g.inputs.push(ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims,
        });
    }

    /// `n` uniform values in `[lo, hi)` (LCG, reproducible from the seed).
    pub fn rand(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n)
            .map(|_| {
                self.seed = self
                    .seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                lo + (hi - lo) * ((self.seed >> 40) as f32 / (1u64 << 24) as f32)
            })
            .collect()
    }

    /// A random initializer; returns its name.
    pub fn init(&mut self, shape: &[usize], lo: f32, hi: f32) -> String {
        let v = self.rand(shape.iter().product(), lo, hi);
        self.constant(shape, v)
    }

    /// An initializer with the given values; returns its name.
    pub fn constant(&mut self, shape: &[usize], v: Vec<f32>) -> String {
        self.count += 1;
        let name = format!("w{}", self.count);
        self.g
            .initializers
            .push((name.clone(), Tensor::from_f32(shape.to_vec(), v).unwrap()));
        name
    }

    /// An int64 initializer (shapes, split sizes, slice bounds).
    pub fn int64(&mut self, v: &[i64]) -> String {
        self.count += 1;
        let name = format!("i{}", self.count);
        self.g.initializers.push((
            name.clone(),
            Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap(),
        ));
        name
    }

    /// Adds node `op` on `inputs` with `attrs` and `outs` outputs; returns
    /// the output names (`<op><k>` and `<op><k>_<i>` for the others).
    pub fn ops(
        &mut self,
        op: &str,
        inputs: &[&str],
        attrs: &[(&str, Attr)],
        outs: usize,
    ) -> Vec<String> {
        self.count += 1;
        let name = format!("{}{}", op.to_lowercase(), self.count);
        let names: Vec<String> = (0..outs)
            .map(|i| {
                if i == 0 {
                    name.clone()
                } else {
                    format!("{name}_{i}")
                }
            })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut node = Node::new(&name, op, inputs, &refs);
        for (k, v) in attrs {
            node = node.with_attr(k, v.clone());
        }
        self.g.nodes.push(node);
        names
    }

    /// [`Net::ops`] with one output.
    pub fn op(&mut self, op: &str, inputs: &[&str], attrs: &[(&str, Attr)]) -> String {
        self.ops(op, inputs, attrs, 1).remove(0)
    }

    /// Conv of `x` (`cin` channels) to `cout` channels; He-scaled weights,
    /// bias in [-0.2, 0.2) when `bias`.
    pub fn conv(&mut self, x: &str, cin: usize, cout: usize, c: ConvGeom, bias: bool) -> String {
        let fan_in = cin / c.group * c.k * c.k;
        let s = (3.0 / fan_in as f32).sqrt();
        let w = self.init(&[cout, cin / c.group, c.k, c.k], -s, s);
        let b = bias.then(|| self.init(&[cout], -0.2, 0.2));
        let mut inputs = vec![x, w.as_str()];
        if let Some(b) = &b {
            inputs.push(b);
        }
        let k = c.k as i64;
        self.op(
            "Conv",
            &inputs,
            &[
                ("kernel_shape", ints(&[k, k])),
                ("strides", ints(&[c.stride, c.stride])),
                ("pads", ints(&[c.pads[0], c.pads[1], c.pads[2], c.pads[3]])),
                ("dilations", ints(&[c.dilation, c.dilation])),
                ("group", Attr::Int(c.group as i64)),
            ],
        )
    }

    /// Inference BatchNormalization with random statistics.
    pub fn bn(&mut self, x: &str, c: usize) -> String {
        let g = self.init(&[c], 0.5, 1.5);
        let b = self.init(&[c], -0.3, 0.3);
        let m = self.init(&[c], -0.3, 0.3);
        let v = self.init(&[c], 0.5, 1.5);
        self.op(
            "BatchNormalization",
            &[x, &g, &b, &m, &v],
            &[("epsilon", Attr::Float(1e-5))],
        )
    }

    /// Pooling `op` (MaxPool, AveragePool) with kernel, strides and pads (t, l, b, r).
    pub fn pool(&mut self, op: &str, x: &str, k: [i64; 2], s: [i64; 2], pads: [i64; 4]) -> String {
        self.op(
            op,
            &[x],
            &[
                ("kernel_shape", ints(&k)),
                ("strides", ints(&s)),
                ("pads", ints(&pads)),
            ],
        )
    }

    /// `Gemm(x, W^T, b)` from `cin` to `cout` features.
    pub fn fc(&mut self, x: &str, cin: usize, cout: usize) -> String {
        let s = (3.0 / cin as f32).sqrt();
        let w = self.init(&[cout, cin], -s, s);
        let b = self.init(&[cout], -0.2, 0.2);
        self.op("Gemm", &[x, &w, &b], &[("transB", Attr::Int(1))])
    }

    /// Declares `name` a graph output (dims filled in later).
    pub fn output(&mut self, name: &str) {
        self.g.outputs.push(ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims: vec![],
        });
    }
}
