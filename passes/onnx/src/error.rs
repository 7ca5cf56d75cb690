//! The crate's one error type, [`Error`]. Every variant about a node names the
//! node and its operator; [`Error::File`] adds the file (or `<memory>`).
//! Nothing here is a bug report: every variant is bad input or I/O.

/// What went wrong reading, validating or inferring an ONNX model.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Context: the file the inner error is about.
    #[error("{file}: {source}")]
    File {
        /// Path (or `<memory>` for [`crate::decode`]).
        file: String,
        /// The error.
        source: Box<Error>,
    },
    /// Reading a file failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file has no bytes.
    #[error("the file is empty")]
    Empty,
    /// The bytes are not an ONNX protobuf (truncated, garbage or text).
    #[error("not a binary ONNX model: {reason}")]
    Decode {
        /// Why (the protobuf decoder's words, or a hint such as "looks like text").
        reason: String,
    },
    /// `ModelProto.ir_version` is not supported.
    #[error("IR version {version} is not supported (supported: {min}–{max})")]
    IrVersion {
        /// Found.
        version: i64,
        /// Oldest supported.
        min: i64,
        /// Newest supported.
        max: i64,
    },
    /// An operator set is newer than this importer knows.
    #[error("opset {version} of domain '{domain}' is newer than the newest supported ({newest})")]
    OpsetTooNew {
        /// Domain (`""` = default ONNX domain).
        domain: String,
        /// Found.
        version: i64,
        /// Newest supported for that domain.
        newest: i64,
    },
    /// The model has no graph.
    #[error("the model has no graph")]
    NoGraph,
    /// The graph has no nodes.
    #[error("graph '{graph}' has no nodes")]
    NoNodes {
        /// Graph name.
        graph: String,
    },
    /// A graph input or output type is missing or not a storable tensor type.
    #[error("value '{name}': {reason}")]
    ValueType {
        /// Value name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A tensor (initializer, attribute, `input_k.pb`) is malformed.
    #[error("tensor '{name}': {reason}")]
    Tensor {
        /// Tensor name.
        name: String,
        /// What is wrong (size mismatch, bad external data, …).
        reason: String,
    },
    /// A node reads a value nothing produces.
    #[error(
        "node '{node}' ({op}): input '{input}' is not a graph input, initializer or node output"
    )]
    Dangling {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// The missing value.
        input: String,
    },
    /// A graph output is produced by nothing.
    #[error("graph output '{name}' is not produced by any node, input or initializer")]
    DanglingOutput {
        /// Output name.
        name: String,
    },
    /// Two producers for one value.
    #[error("value '{name}' is defined twice (by {first} and by {second})")]
    DuplicateOutput {
        /// Value name.
        name: String,
        /// First definer (node, input or initializer description).
        first: String,
        /// Second definer.
        second: String,
    },
    /// The graph has a cycle.
    #[error("the graph has a cycle through nodes {nodes:?}")]
    Cycle {
        /// Nodes on or behind the cycle (no topological order exists for them).
        nodes: Vec<String>,
    },
    /// An attribute has the wrong kind.
    #[error("node '{node}' ({op}): attribute '{attr}' must be {expected}, got {actual}")]
    AttrType {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// Attribute.
        attr: String,
        /// Wanted kind.
        expected: &'static str,
        /// Found kind.
        actual: String,
    },
    /// A required attribute is missing.
    #[error("node '{node}' ({op}): required attribute '{attr}' is missing")]
    MissingAttr {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// Attribute.
        attr: String,
    },
    /// An attribute value is out of range or inconsistent.
    #[error("node '{node}' ({op}): attribute '{attr}': {reason}")]
    BadAttr {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// Attribute.
        attr: String,
        /// What is wrong.
        reason: String,
    },
    /// Wrong number of inputs or outputs.
    #[error("node '{node}' ({op}): {reason}")]
    Arity {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// What is wrong.
        reason: String,
    },
    /// Shape or type inference found an inconsistency.
    #[error("node '{node}' ({op}): {reason}")]
    Infer {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// What is wrong.
        reason: String,
    },
    /// The output type depends on values not known statically (e.g. a
    /// non-constant `axes` input). Loading and [`crate::infer_graph`] treat
    /// this as "type unknown", not as a failure.
    #[error("node '{node}' ({op}): output type cannot be inferred statically: {reason}")]
    Unknowable {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// Why.
        reason: String,
    },
    /// The operator is known but the model's opset is outside the supported range.
    #[error("node '{node}' ({op}): opset {opset} is not supported for this operator (supported: {min}–{max})")]
    OpOpset {
        /// Node name.
        node: String,
        /// Operator.
        op: String,
        /// The model's opset for the domain.
        opset: i64,
        /// Oldest supported.
        min: i64,
        /// Newest supported.
        max: i64,
    },
    /// An `--input-shape` override does not fit the model.
    #[error("input shape override for '{name}': {reason}")]
    InputShape {
        /// Input name.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

impl Error {
    /// This error with the file it is about.
    pub fn in_file(self, file: impl Into<String>) -> Error {
        match self {
            e @ Error::File { .. } => e,
            e => Error::File {
                file: file.into(),
                source: Box::new(e),
            },
        }
    }

    /// The innermost error (without [`Error::File`] context).
    pub fn kind(&self) -> &Error {
        match self {
            Error::File { source, .. } => source.kind(),
            e => e,
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Helpers that build node-scoped errors.
pub(crate) fn infer_err(node: &crate::Node, reason: impl Into<String>) -> Error {
    Error::Infer {
        node: node.name.clone(),
        op: node.op_type.clone(),
        reason: reason.into(),
    }
}

pub(crate) fn unknowable(node: &crate::Node, reason: impl Into<String>) -> Error {
    Error::Unknowable {
        node: node.name.clone(),
        op: node.op_type.clone(),
        reason: reason.into(),
    }
}

pub(crate) fn attr_err(node: &crate::Node, attr: &str, reason: impl Into<String>) -> Error {
    Error::BadAttr {
        node: node.name.clone(),
        op: node.op_type.clone(),
        attr: attr.into(),
        reason: reason.into(),
    }
}

pub(crate) fn arity_err(node: &crate::Node, reason: impl Into<String>) -> Error {
    Error::Arity {
        node: node.name.clone(),
        op: node.op_type.clone(),
        reason: reason.into(),
    }
}
