//! The NVDLA back end as passes: lowering from the `onnx` dialect, memory
//! planning and calibration (CTable) on the `nvdla` dialect.
//!
//! Every pass converts the function to an [`onnc_nvdla::Program`]
//! ([`from_ir`]), runs the MLIR-free engine (`passes/nvdla`) and rebuilds
//! the function ([`to_ir`]), so each stage is an `onnc-opt` pass with textual
//! IR before and after.

pub mod convert;
pub mod ctable;
pub mod emit;
pub mod from_ir;
pub mod plan;
pub mod split;
pub mod to_ir;
