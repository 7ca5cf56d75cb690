//! Passes over the `onnx` dialect.

pub mod graph_simplify;
pub mod simplify;
