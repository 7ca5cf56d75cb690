//! The BARVINN MVU back end as a pass: `convert-onnx-to-mvu`.

pub mod convert;
