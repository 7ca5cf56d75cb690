//! The imported model: [`Model`], [`Graph`], [`Node`], [`ValueInfo`],
//! [`TypeInfo`] and [`Dim`].
//!
//! In: produced by [`crate::load`] / [`crate::decode`] from an ONNX file.
//! Out: consumed by the MLIR importer (one `onnx.*` op per [`Node`]), the
//! interpreter and [`crate::export`].
//!
//! Invariants after loading: node names are unique; nodes are topologically
//! sorted; every node input names a graph input, an initializer or an earlier
//! node's output; nodes of known operators are in the *normalized* form
//! (see the crate README) with every defaulted attribute materialized.

use onnc_tensor::{Attr, Attrs, DType, Tensor};
use std::collections::BTreeMap;
use std::fmt;

/// One dimension of a shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A known size.
    Fixed(usize),
    /// A symbolic size (`dim_param`), the same symbol meaning the same size.
    Param(String),
    /// Nothing is known.
    Unknown,
}

impl Dim {
    /// The size, if known.
    pub fn fixed(&self) -> Option<usize> {
        match self {
            Dim::Fixed(n) => Some(*n),
            _ => None,
        }
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Fixed(n) => write!(f, "{n}"),
            Dim::Param(p) => f.write_str(p),
            Dim::Unknown => f.write_str("?"),
        }
    }
}

/// The type of a tensor value: element type and shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeInfo {
    /// Element type.
    pub dtype: DType,
    /// Shape; empty for a scalar.
    pub dims: Vec<Dim>,
}

impl TypeInfo {
    /// A type with every dimension known.
    pub fn fixed(dtype: DType, shape: &[usize]) -> TypeInfo {
        TypeInfo {
            dtype,
            dims: shape.iter().map(|&n| Dim::Fixed(n)).collect(),
        }
    }

    /// The type of a tensor value.
    pub fn of(t: &Tensor) -> TypeInfo {
        TypeInfo::fixed(t.dtype(), t.shape())
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The shape when every dimension is known.
    pub fn static_shape(&self) -> Option<Vec<usize>> {
        self.dims.iter().map(Dim::fixed).collect()
    }
}

impl fmt::Display for TypeInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.dims {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.dtype)
    }
}

/// A named graph input or output with its type.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueInfo {
    /// Value name.
    pub name: String,
    /// Element type.
    pub dtype: DType,
    /// Shape.
    pub dims: Vec<Dim>,
}

impl ValueInfo {
    /// A float value `name` of static shape `dims` (what tests and
    /// rewrites that build graphs by hand mostly need).
    pub fn f32(name: &str, dims: &[usize]) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims: dims.iter().map(|&d| Dim::Fixed(d)).collect(),
        }
    }

    /// The value's [`TypeInfo`].
    pub fn type_info(&self) -> TypeInfo {
        TypeInfo {
            dtype: self.dtype,
            dims: self.dims.clone(),
        }
    }
}

/// One operator application.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Unique name; synthesized as `<op_type>_<index>` when the file has none.
    pub name: String,
    /// Operator name, e.g. `Conv`.
    pub op_type: String,
    /// Operator domain; `""` is the default ONNX domain (`ai.onnx` is mapped to `""`).
    pub domain: String,
    /// Operands in order; `None` is an absent optional input.
    pub inputs: Vec<Option<String>>,
    /// Results in order; `""` marks an optional result that is not produced
    /// (trailing ones are dropped).
    pub outputs: Vec<String>,
    /// Attributes (defaults materialized for known operators).
    pub attrs: Attrs,
}

impl Node {
    /// A node in the default domain without attributes.
    pub fn new(name: &str, op_type: &str, inputs: &[&str], outputs: &[&str]) -> Node {
        Node {
            name: name.into(),
            op_type: op_type.into(),
            domain: String::new(),
            inputs: inputs
                .iter()
                .map(|s| {
                    if s.is_empty() {
                        None
                    } else {
                        Some(s.to_string())
                    }
                })
                .collect(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            attrs: Attrs::new(),
        }
    }

    /// The same node with one more attribute.
    pub fn with_attr(mut self, name: &str, value: Attr) -> Node {
        self.attrs.insert(name.into(), value);
        self
    }

    /// The name of input `i`, if present.
    pub fn input(&self, i: usize) -> Option<&str> {
        self.inputs.get(i).and_then(|s| s.as_deref())
    }
}

/// A graph: typed inputs, initializers (weights), nodes and outputs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Graph {
    /// Graph name.
    pub name: String,
    /// Runtime inputs (initializers are never listed here).
    pub inputs: Vec<ValueInfo>,
    /// Graph outputs.
    pub outputs: Vec<ValueInfo>,
    /// Weights and constants, in file order, then constants from `Constant`
    /// nodes and normalization, in node order.
    pub initializers: Vec<(String, Tensor)>,
    /// Nodes, topologically sorted.
    pub nodes: Vec<Node>,
}

impl Graph {
    /// The initializer named `name`.
    pub fn initializer(&self, name: &str) -> Option<&Tensor> {
        self.initializers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    /// The node named `name`.
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.name == name)
    }
}

/// A loaded, validated and normalized ONNX model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    /// `ModelProto.ir_version` as found in the file.
    pub ir_version: i64,
    /// Operator sets by domain (`""` is the default ONNX domain), as found in the file.
    pub opset_imports: BTreeMap<String, i64>,
    /// `producer_name`, and ` producer_version` after a space when present.
    pub producer: String,
    /// The main graph.
    pub graph: Graph,
    /// Non-fatal findings (e.g. an IR version newer than 10), in order.
    pub warnings: Vec<String>,
}

impl Model {
    /// The model's opset for the default ONNX domain (1 when absent).
    pub fn default_opset(&self) -> i64 {
        self.opset_imports.get("").copied().unwrap_or(1)
    }
}
