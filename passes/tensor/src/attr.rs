//! [`Attr`]: an ONNX attribute value, the form attributes take between the
//! importer, the interpreter and the `ir` layer.

use crate::Tensor;
use std::collections::BTreeMap;

/// One attribute value. Lists keep ONNX's order.
///
/// In MLIR these become `i64` integer attributes, `f32` float attributes,
/// string attributes, `array<i64: …>`, `array<f32: …>`, arrays of strings and
/// elements attributes respectively.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Attr {
    Int(i64),
    Float(f32),
    String(String),
    Ints(Vec<i64>),
    Floats(Vec<f32>),
    Strings(Vec<String>),
    Tensor(Tensor),
}

impl Attr {
    /// The integer, if this is `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Attr::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The float, if this is `Float` (or an `Int`, widened, as ONNX tools often write).
    pub fn as_float(&self) -> Option<f32> {
        match self {
            Attr::Float(v) => Some(*v),
            Attr::Int(v) => Some(*v as f32),
            _ => None,
        }
    }

    /// The string, if this is `String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::String(v) => Some(v),
            _ => None,
        }
    }

    /// The integers, if this is `Ints`.
    pub fn as_ints(&self) -> Option<&[i64]> {
        match self {
            Attr::Ints(v) => Some(v),
            _ => None,
        }
    }

    /// The floats, if this is `Floats`.
    pub fn as_floats(&self) -> Option<&[f32]> {
        match self {
            Attr::Floats(v) => Some(v),
            _ => None,
        }
    }

    /// The tensor, if this is `Tensor`.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Attr::Tensor(v) => Some(v),
            _ => None,
        }
    }

    /// A short name of the kind, for error messages (`"int"`, `"ints"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Attr::Int(_) => "int",
            Attr::Float(_) => "float",
            Attr::String(_) => "string",
            Attr::Ints(_) => "ints",
            Attr::Floats(_) => "floats",
            Attr::Strings(_) => "strings",
            Attr::Tensor(_) => "tensor",
        }
    }
}

/// Attributes by name, sorted (deterministic iteration).
pub type Attrs = BTreeMap<String, Attr>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_only_answer_for_their_kind() {
        assert_eq!(Attr::Int(3).as_int(), Some(3));
        assert_eq!(Attr::Int(3).as_float(), Some(3.0));
        assert_eq!(Attr::Float(0.5).as_int(), None);
        assert_eq!(Attr::Ints(vec![1, 2]).as_ints(), Some(&[1, 2][..]));
        assert_eq!(Attr::String("x".into()).kind(), "string");
    }
}
