//! Passes over the `onnx` dialect.

pub mod functions;
pub mod graph_simplify;
pub mod simplify;

/// The old path of [`functions`] (`onnx::functions::main_function`), kept for
/// callers outside this crate until they move to `onnx::functions`.
pub use functions as rebuild;
