//! The program under construction: tensors by ONNX value name, unique tensor
//! and layer names, and the op constructors every mapping rule shares.
//!
//! In: the configuration and the working graph's shapes. Out: a
//! [`Program`] grown op by op in execution order. Feature shapes become
//! `[N, C, H, W]` cubes ([`cube`]); weights keep their shape and `f32` values.
//!
//! ```
//! use onnc_nvdla::lower::build::{cube, sanitize};
//! assert_eq!(cube(&[1, 1000]), Some(vec![1, 1000, 1, 1]));
//! assert_eq!(cube(&[1, 2, 3, 4, 5]), None);
//! assert_eq!(sanitize("conv1/7x7_s2+bn"), "conv1_7x7_s2_bn");
//! ```

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::Config;
use crate::program::{
    Engine, Op, Precision, Program, Tensor, TensorId, TensorKind, Value, Weights,
};
use crate::registers;

/// The `[N, C, H, W]` cube of an ONNX feature shape (`[N, K]` is `[N, K, 1, 1]`).
pub fn cube(shape: &[usize]) -> Option<Vec<usize>> {
    match shape.len() {
        0 => Some(vec![1, 1, 1, 1]),
        1 => Some(vec![1, shape[0], 1, 1]),
        2..=4 => {
            let mut c = shape.to_vec();
            c.resize(4, 1);
            Some(c)
        }
        _ => None,
    }
}

/// A name with every character outside `[A-Za-z0-9_]` replaced by `_`.
pub fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "layer".into()
    } else {
        s
    }
}

/// The program being built.
pub struct Builder {
    /// The program.
    pub prog: Program,
    /// The configuration.
    pub cfg: Config,
    /// The precision of every op and feature tensor.
    pub prec: Precision,
    ids: FxHashMap<String, TensorId>,
    tensor_names: FxHashSet<String>,
    layers: FxHashSet<String>,
    /// Next LUT index (CDP).
    pub next_lut: i64,
}

impl Builder {
    /// An empty program for `cfg`.
    pub fn new(cfg: Config) -> Builder {
        let prec = cfg.default_precision;
        Builder {
            prog: Program::new(cfg.name),
            cfg,
            prec,
            ids: FxHashMap::default(),
            tensor_names: FxHashSet::default(),
            layers: FxHashSet::default(),
            next_lut: 0,
        }
    }

    fn unique(set: &mut FxHashSet<String>, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 2;
        while set.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        set.insert(name.clone());
        name
    }

    /// A fresh hardware-layer name from an ONNX node name.
    pub fn layer(&mut self, node_name: &str) -> String {
        Self::unique(&mut self.layers, &sanitize(node_name))
    }

    /// Adds a tensor under a unique name derived from `base`.
    pub fn add(
        &mut self,
        base: &str,
        shape: Vec<usize>,
        precision: Precision,
        kind: TensorKind,
    ) -> TensorId {
        let name = Self::unique(&mut self.tensor_names, base);
        self.prog.add_tensor(Tensor {
            name,
            shape,
            precision,
            kind,
            place: None,
        })
    }

    /// The tensor of ONNX feature value `v`, if it exists yet.
    pub fn get(&self, v: &str) -> Option<TensorId> {
        self.ids.get(v).copied()
    }

    /// Binds ONNX value `v` to tensor `t`.
    pub fn bind(&mut self, v: &str, t: TensorId) {
        self.ids.insert(v.to_string(), t);
    }

    /// A new feature tensor for ONNX value `v` with cube `shape`
    /// (an `Output` if `v` is graph output number `out`).
    pub fn feature(&mut self, v: &str, shape: Vec<usize>, out: Option<u16>) -> TensorId {
        let kind = out.map_or(TensorKind::Activation, TensorKind::Output);
        let t = self.add(v, shape, self.prec, kind);
        self.bind(v, t);
        t
    }

    /// A weight tensor.
    pub fn weight(
        &mut self,
        name: &str,
        shape: Vec<usize>,
        values: impl Into<Weights>,
        precision: Precision,
    ) -> TensorId {
        self.add(name, shape, precision, TensorKind::Weight(values.into()))
    }

    /// The precision of SDP operand constants: fp16 in fp16 mode, int16 (bias-width) in int8 mode.
    pub fn operand_precision(&self) -> Precision {
        if self.prec == Precision::Fp16 {
            Precision::Fp16
        } else {
            Precision::Int16
        }
    }

    /// Appends an op with `engine`'s default registers overridden by `set`.
    pub fn push(
        &mut self,
        engine: Engine,
        hw_layer: &str,
        set: Vec<(&str, Value)>,
        inputs: Vec<Option<TensorId>>,
        output: TensorId,
        onnx_nodes: Vec<String>,
    ) -> usize {
        let mut attrs = registers::defaults(engine);
        for (k, v) in set {
            attrs.insert(k.to_string(), v);
        }
        self.prog.ops.push(Op {
            engine,
            hw_layer: hw_layer.to_string(),
            attrs,
            inputs,
            output,
            onnx_nodes,
        });
        self.prog.ops.len() - 1
    }

    /// `Value::Str` of the op precision.
    pub fn prec_value(&self) -> Value {
        Value::Str(self.prec.as_str().into())
    }

    /// The attributes of an `nvdla.sdp` running `units` (X1, X2, Y) at the
    /// data precision, without a LUT: `src_precision`, `dst_precision`,
    /// `lut_index = -1` and each used unit's registers
    /// ([`super::sdp::set_unit_attrs`], `operand_precision[i]` for unit i).
    pub fn sdp_attrs(
        &self,
        units: &[super::sdp::Unit],
        operand_precision: &[crate::program::Precision],
    ) -> Vec<(String, Value)> {
        let mut attrs = BTreeMap::new();
        attrs.insert("src_precision".to_string(), self.prec_value());
        attrs.insert("dst_precision".to_string(), self.prec_value());
        attrs.insert("lut_index".to_string(), Value::Int(-1));
        super::sdp::set_unit_attrs(&mut attrs, units, operand_precision);
        attrs.into_iter().collect()
    }
}
