//! The BARVINN MVU back end as a pass: `convert-onnx-to-mvu` (the `onnx`
//! level → the `mvu` level), the `mvu` level's text form ([`to_ir`]) and
//! its reader ([`from_ir`]: the text back to the level, its files made
//! again from what the text holds) and `mvu-verify` ([`verify`]).

pub mod convert;
pub mod from_ir;
pub mod layer_attrs;
pub mod read_attrs;
pub mod to_ir;
pub mod verify;

#[cfg(test)]
mod round_trip_test;
