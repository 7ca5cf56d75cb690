//! Exporters: our dialects back to foreign model formats.

pub mod onnx;
