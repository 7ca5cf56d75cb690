//! [`ExecError`]: why a program could not be executed.
//!
//! In: the failing op and a reason. Out: a message naming the layer and the
//! engine, e.g. `layer 'conv1' (nvdla.sdp): unsupported: x1_op.act = "lut"`.

use crate::program::Op;

/// Execution failure.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecError {
    /// Something the executor does not model (INT8 converters, RUBIK, LUTs).
    #[error("layer '{layer}' (nvdla.{engine}): unsupported: {what}")]
    Unsupported {
        /// The hardware layer.
        layer: String,
        /// The op name.
        engine: String,
        /// What is not modelled.
        what: String,
    },
    /// The program is inconsistent (missing attribute or operand, shape mismatch).
    #[error("layer '{layer}' (nvdla.{engine}): {message}")]
    Program {
        /// The hardware layer.
        layer: String,
        /// The op name.
        engine: String,
        /// What is wrong.
        message: String,
    },
    /// The inputs do not match the program.
    #[error("{0}")]
    Input(String),
}

impl ExecError {
    pub(crate) fn unsupported(op: &Op, what: impl Into<String>) -> ExecError {
        ExecError::Unsupported {
            layer: op.hw_layer.clone(),
            engine: op.engine.op_name().into(),
            what: what.into(),
        }
    }

    pub(crate) fn program(op: &Op, message: impl Into<String>) -> ExecError {
        ExecError::Program {
            layer: op.hw_layer.clone(),
            engine: op.engine.op_name().into(),
            message: message.into(),
        }
    }
}
