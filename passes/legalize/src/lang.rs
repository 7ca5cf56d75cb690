//! The e-graph language: ONNX operator applications with their attributes.
//!
//! In: [`onnc_onnx::Node`]s and graph values. Out: [`ENode`]s — one per
//! operator application, graph input, weight reference or output projection.
//!
//! * `Apply(op)` carries the operator name, domain, **all attributes** (in a
//!   hashable encoding, [`AttrKey`]), its number of results, its display
//!   name and the names of the source nodes it was made from. Children are
//!   the operands; an absent optional operand is an [`Op::Absent`] leaf.
//! * `Weight(name)` refers to a tensor in the analysis' weight table
//!   ([`crate::analysis::Weights`]); tensor data never enters the e-graph.
//! * Multi-result operators (e.g. `Split`) form a *tuple* e-class; result
//!   `k` is `Proj(k)` of it.
//! * `Outputs` ties the graph outputs into one root.
//!
//! ```
//! use onnc_legalize::lang::{ENode, Op, OpKey};
//! let relu = OpKey::new("Relu", "", Default::default(), 1, "r1", &["r1"]);
//! assert_eq!(relu.op_type.as_str(), "Relu");
//! let leaf = ENode::leaf(Op::Input("x".into()));
//! assert!(leaf.children.is_empty());
//! ```

use egg::{Id, Language, Symbol};
use onnc_tensor::{Attr, Attrs, DType, Data, Tensor};
use std::fmt;
use std::sync::Arc;

/// An attribute value in a hashable, totally ordered form (floats by bit pattern).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum AttrKey {
    Int(i64),
    Float(u32),
    String(String),
    Ints(Vec<i64>),
    Floats(Vec<u32>),
    Strings(Vec<String>),
    /// A tensor attribute: ONNX dtype code, shape, little-endian bytes.
    Tensor(i32, Vec<usize>, Vec<u8>),
}

impl AttrKey {
    /// The key of an attribute value.
    pub fn of(a: &Attr) -> AttrKey {
        match a {
            Attr::Int(v) => AttrKey::Int(*v),
            Attr::Float(v) => AttrKey::Float(v.to_bits()),
            Attr::String(v) => AttrKey::String(v.clone()),
            Attr::Ints(v) => AttrKey::Ints(v.clone()),
            Attr::Floats(v) => AttrKey::Floats(v.iter().map(|f| f.to_bits()).collect()),
            Attr::Strings(v) => AttrKey::Strings(v.clone()),
            Attr::Tensor(t) => {
                AttrKey::Tensor(t.dtype().onnx_code(), t.shape().to_vec(), t.to_le_bytes())
            }
        }
    }

    /// The attribute value back.
    pub fn to_attr(&self) -> Attr {
        match self {
            AttrKey::Int(v) => Attr::Int(*v),
            AttrKey::Float(v) => Attr::Float(f32::from_bits(*v)),
            AttrKey::String(v) => Attr::String(v.clone()),
            AttrKey::Ints(v) => Attr::Ints(v.clone()),
            AttrKey::Floats(v) => Attr::Floats(v.iter().map(|b| f32::from_bits(*b)).collect()),
            AttrKey::Strings(v) => Attr::Strings(v.clone()),
            AttrKey::Tensor(code, shape, bytes) => {
                let dtype = DType::from_onnx(*code).unwrap_or(DType::U8);
                match Tensor::from_le_bytes(dtype, shape.clone(), bytes) {
                    Ok(t) => Attr::Tensor(t),
                    Err(_) => Attr::Tensor(
                        Tensor::new(vec![0], Data::U8(vec![]))
                            .unwrap_or_else(|_| Tensor::full(DType::U8, vec![0], 0.0)),
                    ),
                }
            }
        }
    }
}

/// An operator application's identity: everything but its operands.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpKey {
    /// ONNX operator name (`Conv`), or an onnc target op (`ChannelShuffle` in domain `onnc`).
    pub op_type: Symbol,
    /// Domain; `""` is ONNX's default domain.
    pub domain: Symbol,
    /// Attributes sorted by name.
    pub attrs: Vec<(Symbol, AttrKey)>,
    /// Number of results; more than one makes the e-class a tuple read through [`Op::Proj`].
    pub n_out: usize,
    /// The node name the extracted node gets (made unique on extraction).
    pub name: Symbol,
    /// The input-graph nodes this application was derived from (sorted, deduplicated).
    pub sources: Vec<Symbol>,
}

impl OpKey {
    /// A key from parts.
    pub fn new(
        op_type: &str,
        domain: &str,
        attrs: Attrs,
        n_out: usize,
        name: &str,
        sources: &[&str],
    ) -> OpKey {
        let mut s: Vec<Symbol> = sources.iter().map(|s| Symbol::from(*s)).collect();
        s.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        s.dedup();
        OpKey {
            op_type: op_type.into(),
            domain: domain.into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (Symbol::from(k.as_str()), AttrKey::of(v)))
                .collect(),
            n_out,
            name: name.into(),
            sources: s,
        }
    }

    /// The attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&AttrKey> {
        self.attrs
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .map(|(_, v)| v)
    }

    /// Integer attribute `name`.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            AttrKey::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// Float attribute `name`.
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attr(name)? {
            AttrKey::Float(v) => Some(f32::from_bits(*v)),
            AttrKey::Int(v) => Some(*v as f32),
            _ => None,
        }
    }

    /// Integer-list attribute `name`.
    pub fn ints(&self, name: &str) -> Option<&[i64]> {
        match self.attr(name)? {
            AttrKey::Ints(v) => Some(v),
            _ => None,
        }
    }

    /// String attribute `name`.
    pub fn string(&self, name: &str) -> Option<&str> {
        match self.attr(name)? {
            AttrKey::String(v) => Some(v),
            _ => None,
        }
    }

    /// The attributes as ONNX values.
    pub fn to_attrs(&self) -> Attrs {
        self.attrs
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_attr()))
            .collect()
    }

    /// Whether the op is marked to run on the target's CPU path ([`crate::DEVICE_ATTR`] = `"cpu"`).
    pub fn on_cpu(&self) -> bool {
        self.string(crate::DEVICE_ATTR) == Some("cpu")
    }

    /// The same key with attribute `name` set to `value`.
    pub fn with_attr(&self, name: &str, value: AttrKey) -> OpKey {
        let mut k = self.clone();
        let sym = Symbol::from(name);
        match k.attrs.iter_mut().find(|(n, _)| *n == sym) {
            Some(slot) => slot.1 = value,
            None => {
                k.attrs.push((sym, value));
                k.attrs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
            }
        }
        k
    }
}

/// What an e-node is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// A graph input, by name.
    Input(Symbol),
    /// A constant tensor in the weight table, by name (input initializers and tensors rules made).
    Weight(Symbol),
    /// An absent optional operand.
    Absent,
    /// An operator application.
    Apply(Arc<OpKey>),
    /// Result `k` of a multi-result application (one child: the tuple).
    Proj(usize),
    /// The root: the graph outputs in order.
    Outputs,
}

/// An e-node: an [`Op`] and its operand e-classes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ENode {
    /// What the node is.
    pub op: Op,
    /// Operands.
    pub children: Vec<Id>,
}

impl ENode {
    /// A node without operands.
    pub fn leaf(op: Op) -> ENode {
        ENode {
            op,
            children: vec![],
        }
    }

    /// The application key, if this is an `Apply`.
    pub fn key(&self) -> Option<&OpKey> {
        match &self.op {
            Op::Apply(k) => Some(k),
            _ => None,
        }
    }

    /// Whether this is an application of `op_type` (default or onnc domain).
    pub fn is_op(&self, op_type: &str) -> bool {
        self.key().is_some_and(|k| k.op_type.as_str() == op_type)
    }
}

/// What egg indexes e-classes by ([`Language::discriminant`]): the kind of
/// an e-node and, for an application, its operator name only. Keying the
/// index by the whole [`OpKey`] (which holds the node name) gave every node
/// an index entry of its own; this gives one per operator, so a rule finds
/// whether its operator occurs at all without scanning the e-graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// [`Op::Input`].
    Input,
    /// [`Op::Weight`].
    Weight,
    /// [`Op::Absent`].
    Absent,
    /// [`Op::Apply`] of this operator (`OpKey::op_type`).
    Apply(Symbol),
    /// [`Op::Proj`].
    Proj,
    /// [`Op::Outputs`].
    Outputs,
}

impl Language for ENode {
    type Discriminant = OpKind;

    fn discriminant(&self) -> OpKind {
        match &self.op {
            Op::Input(_) => OpKind::Input,
            Op::Weight(_) => OpKind::Weight,
            Op::Absent => OpKind::Absent,
            Op::Apply(k) => OpKind::Apply(k.op_type),
            Op::Proj(_) => OpKind::Proj,
            Op::Outputs => OpKind::Outputs,
        }
    }

    fn matches(&self, other: &Self) -> bool {
        self.op == other.op && self.children.len() == other.children.len()
    }

    fn children(&self) -> &[Id] {
        &self.children
    }

    fn children_mut(&mut self) -> &mut [Id] {
        &mut self.children
    }
}

impl fmt::Display for ENode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.op {
            Op::Input(s) => write!(f, "input:{s}"),
            Op::Weight(s) => write!(f, "weight:{s}"),
            Op::Absent => f.write_str("absent"),
            Op::Apply(k) => write!(f, "{}", k.op_type),
            Op::Proj(i) => write!(f, "proj{i}"),
            Op::Outputs => f.write_str("outputs"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attr_keys_round_trip() {
        for a in [
            Attr::Int(3),
            Attr::Float(0.5),
            Attr::Ints(vec![1, 2]),
            Attr::String("x".into()),
            Attr::Floats(vec![1.5]),
        ] {
            assert_eq!(AttrKey::of(&a).to_attr(), a);
        }
    }

    #[test]
    fn with_attr_keeps_sorted_order() {
        let k = OpKey::new("Softmax", "", Attrs::new(), 1, "s", &["s"]);
        let k = k
            .with_attr("z", AttrKey::Int(1))
            .with_attr("a", AttrKey::Int(2));
        let names: Vec<&str> = k.attrs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "z"]);
    }
}
