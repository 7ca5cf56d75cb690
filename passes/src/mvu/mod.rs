//! The BARVINN MVU back end as a pass: `convert-onnx-to-mvu` (the `onnx`
//! level → the `mvu` level) and the `mvu` level's text form.

pub mod convert;
pub mod layer_attrs;
pub mod to_ir;
