//! The crate's one error type, [`Error`].
//!
//! Bad-input variants name the operator, the input index or attribute, and
//! the expected versus actual value. No kernel panics on a user's tensors or
//! attributes; every rejection is one of these.

use onnc_tensor::DType;

/// What went wrong running an operator or a graph.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operator type has no kernel here.
    #[error("unknown operator `{0}`")]
    UnknownOp(String),
    /// Too few or too many inputs.
    #[error("{op}: expected {expected} inputs, got {actual}")]
    InputCount {
        /// Operator type.
        op: String,
        /// Accepted count, e.g. `"2..=3"`.
        expected: String,
        /// Inputs given.
        actual: usize,
    },
    /// A required input is absent (`None`).
    #[error("{op}: input {index} is required but absent")]
    MissingInput {
        /// Operator type.
        op: String,
        /// Input position.
        index: usize,
    },
    /// An input has a shape the operator cannot take.
    #[error("{op}: input {index} has shape {actual:?}, expected {expected}")]
    InputShape {
        /// Operator type.
        op: String,
        /// Input position.
        index: usize,
        /// What was wanted, in words.
        expected: String,
        /// The shape given.
        actual: Vec<usize>,
    },
    /// An input has an element type the operator (or this interpreter) does not take.
    #[error("{op}: input {index} has element type {actual}, expected {expected}")]
    InputType {
        /// Operator type.
        op: String,
        /// Input position.
        index: usize,
        /// What was wanted, in words.
        expected: String,
        /// The type given.
        actual: DType,
    },
    /// An attribute (or an input standing for one) has a bad kind or value.
    #[error("{op}: attribute `{name}`: {reason}")]
    BadAttr {
        /// Operator type.
        op: String,
        /// Attribute name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A valid ONNX feature this interpreter does not implement.
    #[error("{op}: {what} is not supported")]
    Unsupported {
        /// Operator type.
        op: String,
        /// The feature.
        what: String,
    },
    /// A fed tensor names no graph input.
    #[error("`{0}` is not an input of the graph")]
    UnknownGraphInput(String),
    /// A fed tensor does not match the graph input's declared type.
    #[error("graph input `{name}` is declared {expected}, was fed {actual}")]
    GraphInputType {
        /// The input's name.
        name: String,
        /// Declared type, e.g. `tensor<1x3x224x224xf32>`.
        expected: String,
        /// Fed type.
        actual: String,
    },
    /// A node in a domain other than the default ONNX one.
    #[error("node `{node}`: operator `{op}` of domain `{domain}` is not supported")]
    UnknownDomain {
        /// The node's name.
        node: String,
        /// Operator type.
        op: String,
        /// Its domain.
        domain: String,
    },
    /// A graph input was not fed and has no initializer.
    #[error("graph input `{0}` was not provided")]
    MissingGraphInput(String),
    /// A node reads a value nothing defines (or that was already freed).
    #[error("node `{node}` reads `{value}`, which no earlier node, input or initializer defines")]
    UndefinedValue {
        /// The node's name (or op type when unnamed).
        node: String,
        /// The value name.
        value: String,
    },
    /// A graph output was never computed.
    #[error("graph output `{0}` was never computed")]
    MissingGraphOutput(String),
    /// A node failed; wraps the kernel's error with the node's name.
    #[error("node `{node}`: {source}")]
    Node {
        /// The node's name (or op type when unnamed).
        node: String,
        /// The kernel's error.
        source: Box<Error>,
    },
    /// A tensor could not be built. Kernels check shapes first, so this is a bug.
    #[error("internal error (bug): {0}")]
    Tensor(#[from] onnc_tensor::Error),
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
