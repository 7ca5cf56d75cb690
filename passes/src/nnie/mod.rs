//! The HiSilicon NNIE back end as a pass: `convert-onnx-to-nnie` (the `onnx`
//! level → the `nnie` level) and the `nnie` level's text form.

pub mod convert;
pub mod to_ir;
