//! The execution errors' constructors: [`Error::NotModelled`] and
//! [`Error::Program`] for one op.
//!
//! In: the failing op and a reason. Out: an error naming the layer and the
//! engine, e.g. `layer 'conv1' (nvdla.sdp): unsupported: x1_op.act = "lut"`.

use crate::program::Op;
use crate::Error;

impl Error {
    /// Something the executor does not model (INT8 converters, RUBIK, LUTs) in `op`.
    pub(crate) fn not_modelled(op: &Op, what: impl Into<String>) -> Error {
        Error::NotModelled {
            layer: op.hw_layer.clone(),
            engine: op.engine.op_name().into(),
            what: what.into(),
        }
    }

    /// `op` is inconsistent (missing attribute or operand, shape mismatch).
    pub(crate) fn program(op: &Op, message: impl Into<String>) -> Error {
        Error::Program {
            layer: op.hw_layer.clone(),
            engine: op.engine.op_name().into(),
            message: message.into(),
        }
    }
}
