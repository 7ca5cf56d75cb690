//! Attribute schemas ([`AttrSpec`]) and typed getters that name the node and
//! attribute on a wrong kind.
//!
//! In: a [`Node`] and the attribute name. Out: the value (or its ONNX default),
//! or [`Error::AttrType`].

use crate::{Error, Node, Result};
use onnc_tensor::Attr;

/// The kind an attribute must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AttrKind {
    Int,
    Float,
    String,
    Ints,
    Floats,
    Strings,
    Tensor,
}

impl AttrKind {
    /// The spelling used in error messages (matches [`Attr::kind`]).
    pub fn name(self) -> &'static str {
        match self {
            AttrKind::Int => "int",
            AttrKind::Float => "float",
            AttrKind::String => "string",
            AttrKind::Ints => "ints",
            AttrKind::Floats => "floats",
            AttrKind::Strings => "strings",
            AttrKind::Tensor => "tensor",
        }
    }
}

/// An ONNX default value, stored statically.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)]
pub enum Default {
    /// No static default (required, optional, or computed by the operator's normalizer).
    None,
    Int(i64),
    Float(f32),
    Str(&'static str),
    Ints(&'static [i64]),
}

impl Default {
    fn to_attr(self) -> Option<Attr> {
        Some(match self {
            Default::None => return None,
            Default::Int(v) => Attr::Int(v),
            Default::Float(v) => Attr::Float(v),
            Default::Str(v) => Attr::String(v.to_string()),
            Default::Ints(v) => Attr::Ints(v.to_vec()),
        })
    }
}

/// One attribute of an operator.
#[derive(Debug, Clone, Copy)]
pub struct AttrSpec {
    /// Attribute name.
    pub name: &'static str,
    /// Required kind.
    pub kind: AttrKind,
    /// ONNX default, materialized when absent.
    pub default: Default,
    /// Opsets (inclusive) in which the attribute exists; outside them it is
    /// neither type-checked nor materialized.
    pub opsets: (i64, i64),
}

/// An attribute present in every opset.
pub const fn attr(name: &'static str, kind: AttrKind, default: Default) -> AttrSpec {
    AttrSpec {
        name,
        kind,
        default,
        opsets: (1, i64::MAX),
    }
}

/// An attribute present in opsets `from..=until`.
pub const fn attr_in(
    name: &'static str,
    kind: AttrKind,
    default: Default,
    from: i64,
    until: i64,
) -> AttrSpec {
    AttrSpec {
        name,
        kind,
        default,
        opsets: (from, until),
    }
}

/// Checks every listed attribute's kind (widening an int where a float is
/// expected) and materializes static defaults.
pub(crate) fn check_and_fill(node: &mut Node, specs: &[AttrSpec], opset: i64) -> Result<()> {
    for s in specs
        .iter()
        .filter(|s| s.opsets.0 <= opset && opset <= s.opsets.1)
    {
        match node.attrs.get_mut(s.name) {
            Some(v) => {
                if s.kind == AttrKind::Float {
                    if let Attr::Int(i) = v {
                        *v = Attr::Float(*i as f32);
                    }
                }
                if s.kind == AttrKind::Floats {
                    if let Attr::Ints(i) = v {
                        *v = Attr::Floats(i.iter().map(|&x| x as f32).collect());
                    }
                }
                if v.kind() != s.kind.name() {
                    let v = v.clone();
                    return Err(wrong_kind(node, s.name, s.kind, &v));
                }
            }
            None => {
                if let Some(d) = s.default.to_attr() {
                    node.attrs.insert(s.name.to_string(), d);
                }
            }
        }
    }
    Ok(())
}

fn wrong_kind(node: &Node, name: &str, kind: AttrKind, v: &Attr) -> Error {
    Error::AttrType {
        node: node.name.clone(),
        op: node.op_type.clone(),
        attr: name.to_string(),
        expected: kind.name(),
        actual: v.kind().to_string(),
    }
}

/// Integer attribute, or `default` when absent.
pub fn int(node: &Node, name: &str, default: i64) -> Result<i64> {
    match node.attrs.get(name) {
        None => Ok(default),
        Some(Attr::Int(v)) => Ok(*v),
        Some(v) => Err(wrong_kind(node, name, AttrKind::Int, v)),
    }
}

/// Float attribute (ints widen), or `default` when absent.
pub fn float(node: &Node, name: &str, default: f32) -> Result<f32> {
    match node.attrs.get(name) {
        None => Ok(default),
        Some(v) => v
            .as_float()
            .ok_or_else(|| wrong_kind(node, name, AttrKind::Float, v)),
    }
}

/// String attribute, or `default` when absent.
pub fn string<'a>(node: &'a Node, name: &str, default: &'a str) -> Result<&'a str> {
    match node.attrs.get(name) {
        None => Ok(default),
        Some(Attr::String(v)) => Ok(v),
        Some(v) => Err(wrong_kind(node, name, AttrKind::String, v)),
    }
}

/// Integer-list attribute, if present.
pub fn ints(node: &Node, name: &str) -> Result<Option<Vec<i64>>> {
    match node.attrs.get(name) {
        None => Ok(None),
        Some(Attr::Ints(v)) => Ok(Some(v.clone())),
        Some(v) => Err(wrong_kind(node, name, AttrKind::Ints, v)),
    }
}

/// Float-list attribute (int lists widen), if present.
pub fn floats(node: &Node, name: &str) -> Result<Option<Vec<f32>>> {
    match node.attrs.get(name) {
        None => Ok(None),
        Some(Attr::Floats(v)) => Ok(Some(v.clone())),
        Some(Attr::Ints(v)) => Ok(Some(v.iter().map(|&x| x as f32).collect())),
        Some(v) => Err(wrong_kind(node, name, AttrKind::Floats, v)),
    }
}

/// Required integer attribute.
pub fn req_int(node: &Node, name: &str) -> Result<i64> {
    match node.attrs.get(name) {
        None => Err(missing(node, name)),
        Some(_) => int(node, name, 0),
    }
}

/// Required integer-list attribute.
pub fn req_ints(node: &Node, name: &str) -> Result<Vec<i64>> {
    ints(node, name)?.ok_or_else(|| missing(node, name))
}

/// [`Error::MissingAttr`] for `name`.
pub fn missing(node: &Node, name: &str) -> Error {
    Error::MissingAttr {
        node: node.name.clone(),
        op: node.op_type.clone(),
        attr: name.to_string(),
    }
}
