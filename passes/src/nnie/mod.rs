//! The HiSilicon NNIE back end as a pass: `convert-onnx-to-nnie` (the `onnx`
//! level → the `nnie` level), the `nnie` level's text form and reader, and
//! `nnie-verify` ([`verify`]).

pub mod convert;
pub mod from_ir;
pub mod package_attrs;
pub mod report_attr;
pub mod to_ir;
pub mod verify;

#[cfg(test)]
mod level_contract_tests;
#[cfg(test)]
mod roundtrip_tests;
