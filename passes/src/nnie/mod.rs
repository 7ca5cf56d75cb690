//! The HiSilicon NNIE back end as a pass: `convert-onnx-to-nnie` (the `onnx`
//! level → the `nnie` level) and the `nnie` level's text form.

pub mod convert;
pub mod from_ir;
pub mod package_attrs;
pub mod report_attr;
pub mod to_ir;

#[cfg(test)]
mod level_contract_tests;
#[cfg(test)]
mod roundtrip_tests;
