//! Passes over the `onnx` dialect.

pub mod functions;
pub mod graph_simplify;
pub mod simplify;
