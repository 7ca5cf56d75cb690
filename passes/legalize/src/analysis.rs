//! The e-class analysis: type (element type and shape) and constant-ness of
//! every e-class, plus the weight table the e-graph refers to.
//!
//! In: e-nodes as they are added. Out: [`Data`] per e-class, which every rule
//! condition reads (`cx.shape(id)`, `cx.is_const(id)`, `cx.const_value(id)`).
//!
//! Types come from onnc-onnx's per-operator inference
//! ([`onnc_onnx::ops::find`] + [`onnc_onnx::OpSpec::infer`]); small constant
//! operands (shapes, axes, pads) are passed to it by reference. onnc's own
//! target ops (domain `onnc`) are typed here. Two e-classes that merge must
//! agree on their type: a disagreement means a rule is unsound and is
//! recorded in [`TensorAnalysis::unsound`] (tests assert it stays empty).
//!
//! ```
//! use onnc_legalize::analysis::Data;
//! let d = Data::default();
//! assert!(d.types.is_empty() && !d.konst);
//! ```

use crate::lang::{ENode, Op};
use egg::{Analysis, DidMerge, EGraph, Id, Symbol};
use onnc_onnx::{Dim, Node, TypeInfo};
use onnc_tensor::Tensor;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The e-graph type used throughout the crate.
pub type Graph = EGraph<ENode, TensorAnalysis>;

/// Largest constant (in elements) evaluated on demand for a rule or for inference.
pub const MAX_EVAL_ELEMENTS: usize = 1 << 28;

/// What is known about an e-class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Data {
    /// Result types: one for a value class, `n_out` for a tuple class; empty when unknown.
    pub types: Vec<TypeInfo>,
    /// Whether the value depends on constants only.
    pub konst: bool,
}

impl Data {
    /// The type of a value class.
    pub fn ty(&self) -> Option<&TypeInfo> {
        if self.types.len() == 1 {
            self.types.first()
        } else {
            None
        }
    }

    /// The static shape of a value class.
    pub fn shape(&self) -> Option<Vec<usize>> {
        self.ty()?.static_shape()
    }
}

/// The constant tensors e-nodes refer to by name: the input graph's
/// initializers (moved in, not copied) and the tensors rules create.
#[derive(Debug, Default)]
pub struct Weights {
    /// Name → tensor, plus whether it came from the input graph.
    pub map: BTreeMap<Symbol, (Arc<Tensor>, bool)>,
    /// Names in insertion order (output order of initializers).
    pub order: Vec<Symbol>,
}

impl Weights {
    /// Adds a tensor under `name`, or under `name#k` when `name` holds a different tensor.
    /// Returns the name used.
    pub fn insert(&mut self, name: &str, t: Tensor, original: bool) -> Symbol {
        let mut candidate = name.to_string();
        let mut k = 1;
        loop {
            let sym = Symbol::from(candidate.as_str());
            match self.map.get(&sym) {
                None => {
                    self.map.insert(sym, (Arc::new(t), original));
                    self.order.push(sym);
                    return sym;
                }
                Some((existing, _)) if **existing == t => return sym,
                Some(_) => {
                    k += 1;
                    candidate = format!("{name}#{k}");
                }
            }
        }
    }

    /// The tensor named `name`.
    pub fn get(&self, name: Symbol) -> Option<&Arc<Tensor>> {
        self.map.get(&name).map(|(t, _)| t)
    }
}

/// The analysis: graph input types, the weight table and bookkeeping for rules.
#[derive(Debug, Default)]
pub struct TensorAnalysis {
    /// Types of graph inputs.
    pub inputs: BTreeMap<Symbol, TypeInfo>,
    /// Constant tensors by name.
    pub weights: Weights,
    /// (rule, e-node, operand sizes) already applied, so a rule does not redo work each iteration.
    pub fired: std::collections::HashSet<(usize, ENode, Vec<usize>)>,
    /// How often each rule changed the e-graph.
    pub fire_counts: BTreeMap<&'static str, usize>,
    /// Type disagreements seen when merging (a non-empty list means a rule is unsound).
    pub unsound: Vec<String>,
}

impl Analysis<ENode> for TensorAnalysis {
    type Data = Data;

    fn make(egraph: &mut Graph, enode: &ENode) -> Data {
        make(egraph, enode)
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let mut changed_a = false;
        let konst = a.konst || b.konst;
        if konst != a.konst {
            a.konst = konst;
            changed_a = true;
        }
        if a.types.is_empty() && !b.types.is_empty() {
            a.types = b.types.clone();
            changed_a = true;
        } else if !b.types.is_empty() && a.types != b.types && !compatible(&a.types, &b.types) {
            self.unsound.push(format!("{:?} vs {:?}", a.types, b.types));
        }
        let changed_b = a.konst != b.konst || a.types != b.types;
        DidMerge(changed_a, changed_b)
    }
}

/// Whether two type lists agree where both are known (symbolic dims match anything).
fn compatible(a: &[TypeInfo], b: &[TypeInfo]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.dtype == y.dtype
                && x.dims.len() == y.dims.len()
                && x.dims.iter().zip(&y.dims).all(|(p, q)| match (p, q) {
                    (Dim::Fixed(m), Dim::Fixed(n)) => m == n,
                    _ => true,
                })
        })
}

fn make(eg: &Graph, enode: &ENode) -> Data {
    match &enode.op {
        Op::Input(s) => Data {
            types: eg.analysis.inputs.get(s).cloned().into_iter().collect(),
            konst: false,
        },
        Op::Weight(s) => Data {
            types: eg
                .analysis
                .weights
                .get(*s)
                .map(|t| TypeInfo::of(t))
                .into_iter()
                .collect(),
            konst: true,
        },
        Op::Absent => Data {
            types: vec![],
            konst: true,
        },
        Op::Outputs => Data::default(),
        Op::Proj(k) => {
            let t = &eg[enode.children[0]].data;
            Data {
                types: t.types.get(*k).cloned().into_iter().collect(),
                konst: t.konst,
            }
        }
        Op::Apply(key) => {
            let konst =
                !enode.children.is_empty() && enode.children.iter().all(|c| eg[*c].data.konst);
            let types = infer(eg, enode, key).unwrap_or_default();
            Data { types, konst }
        }
    }
}

/// Infers the result types of an application from its operands' data.
fn infer(eg: &Graph, enode: &ENode, key: &crate::lang::OpKey) -> Option<Vec<TypeInfo>> {
    let mut in_types = Vec::with_capacity(enode.children.len());
    let mut consts: Vec<Option<Arc<Tensor>>> = Vec::with_capacity(enode.children.len());
    for c in &enode.children {
        let absent = eg[*c].nodes.iter().any(|n| matches!(n.op, Op::Absent));
        if absent {
            in_types.push(None);
            consts.push(None);
            continue;
        }
        in_types.push(Some(eg[*c].data.ty()?.clone()));
        consts.push(if eg[*c].data.konst {
            const_value_limited(eg, *c, 1 << 16)
        } else {
            None
        });
    }
    if key.domain.as_str() == crate::ONNC_DOMAIN {
        return crate::target_ops::infer(key, &in_types);
    }
    let spec = onnc_onnx::ops::find(key.op_type.as_str(), key.domain.as_str())?;
    let node = to_node(key, enode.children.len());
    let refs: Vec<Option<&Tensor>> = consts.iter().map(|c| c.as_deref()).collect();
    let out = spec.infer(&node, &in_types, &refs).ok()?;
    (out.len() >= key.n_out.max(1)).then(|| out.into_iter().take(key.n_out.max(1)).collect())
}

/// A node with the key's op and attributes and placeholder operand names (for inference).
fn to_node(key: &crate::lang::OpKey, arity: usize) -> Node {
    Node {
        name: key.name.as_str().to_string(),
        op_type: key.op_type.as_str().to_string(),
        domain: key.domain.as_str().to_string(),
        inputs: (0..arity).map(|i| Some(format!("in{i}"))).collect(),
        outputs: (0..key.n_out).map(|i| format!("out{i}")).collect(),
        attrs: key.to_attrs(),
    }
}

/// The value of a constant e-class, evaluated on demand (up to [`MAX_EVAL_ELEMENTS`]).
pub fn const_value(eg: &Graph, id: Id) -> Option<Arc<Tensor>> {
    const_value_limited(eg, id, MAX_EVAL_ELEMENTS)
}

/// The value of a constant e-class if it has at most `limit` elements.
///
/// Weights are returned by reference. `ConstantOfShape`, and the shape-only
/// ops `Reshape`, `Unsqueeze`, `Squeeze`, `Flatten`, `Identity` over
/// constants are evaluated; other constant expressions are not (they are
/// folded by `onnx-simplify` before legalization).
pub fn const_value_limited(eg: &Graph, id: Id, limit: usize) -> Option<Arc<Tensor>> {
    let class = &eg[id];
    if !class.data.konst {
        return None;
    }
    if let Some(shape) = class.data.shape() {
        if shape.iter().product::<usize>() > limit {
            return None;
        }
    }
    for n in &class.nodes {
        if let Op::Weight(s) = n.op {
            return eg.analysis.weights.get(s).cloned();
        }
    }
    let shape = class.data.shape()?;
    for n in &class.nodes {
        let Some(k) = n.key() else { continue };
        match k.op_type.as_str() {
            "ConstantOfShape" => {
                let fill = match k.attr("value").map(|a| a.to_attr()) {
                    Some(onnc_tensor::Attr::Tensor(t)) => (
                        t.data().to_f64_vec().first().copied().unwrap_or(0.0),
                        t.dtype(),
                    ),
                    _ => (0.0, onnc_tensor::DType::F32),
                };
                if fill.1 == onnc_tensor::DType::F32 {
                    let n = shape.iter().product();
                    return Tensor::from_f32(shape, vec![fill.0 as f32; n])
                        .ok()
                        .map(Arc::new);
                }
                return Some(Arc::new(Tensor::full(fill.1, shape, fill.0)));
            }
            "Reshape" | "Unsqueeze" | "Squeeze" | "Flatten" | "Identity" => {
                let src = const_value_limited(eg, *n.children.first()?, limit)?;
                return Tensor::new(shape, src.data().clone()).ok().map(Arc::new);
            }
            _ => {}
        }
    }
    None
}
