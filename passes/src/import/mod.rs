//! Importers: foreign model formats into our dialects.

pub mod onnx;
pub mod wide;
