//! The emitter's one error type.
//!
//! In: what went wrong while turning a planned [`Program`](crate::Program)
//! into a loadable. Out: an [`EmitError`] that names the tensor, op or
//! attribute, says what is wrong and what would fix it. Example:
//!
//! ```
//! use onnc_nvdla::emit::EmitError;
//! let e = EmitError::Unplaced { tensor: "conv1_out".into() };
//! assert!(e.to_string().contains("conv1_out"));
//! ```

use thiserror::Error;

/// Why a program could not be emitted.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EmitError {
    /// A tensor that lives in memory has no placement.
    #[error(
        "tensor '{tensor}' has no memory placement; run the planner (plan::plan) before emitting"
    )]
    Unplaced {
        /// Tensor name.
        tensor: String,
    },
    /// An op lacks a required attribute, or it has the wrong kind or value.
    #[error("{engine} op '{hw_layer}': attribute '{attr}' {problem}")]
    Attr {
        /// Engine name (`conv`, `sdp`, ...).
        engine: String,
        /// The op's hardware layer.
        hw_layer: String,
        /// Attribute name, as in the dialect.
        attr: String,
        /// What is wrong and what is expected.
        problem: String,
    },
    /// An op's operands or shapes do not fit what the engine needs.
    #[error("{engine} op '{hw_layer}': {problem}")]
    Op {
        /// Engine name.
        engine: String,
        /// The op's hardware layer.
        hw_layer: String,
        /// What is wrong and what would fix it.
        problem: String,
    },
    /// A tensor's placement or shape cannot be encoded.
    #[error("tensor '{tensor}': {problem}")]
    Tensor {
        /// Tensor name.
        tensor: String,
        /// What is wrong and what would fix it.
        problem: String,
    },
    /// A feature the emitter does not implement.
    #[error("not supported: {0}")]
    Unsupported(String),
}

/// The emitter's result type.
pub type Result<T> = std::result::Result<T, EmitError>;
