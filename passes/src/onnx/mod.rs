//! Passes over the `onnx` dialect.

pub mod graph_simplify;
pub mod rebuild;
pub mod simplify;
