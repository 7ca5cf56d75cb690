//! The BARVINN MVU hardware the `mvu` dialect is parameterized by, each fact
//! written once: register field widths, RAM sizes and precisions
//! ([`fields`]), the ranges of the dialect's integer attributes
//! ([`ranges`]) and the formulas that derive a layer's address-generator
//! registers and countdown from its shape ([`formulas`], and [`pooled`] for
//! a conv whose outputs the MVU max-pools).
//!
//! In: nothing (constants) or a layer's shape in 64-channel blocks and its
//! precisions. Out: widths, inclusive ranges, register arrays. Both the
//! dialect's verifier (`onnc-dialects`) and the MVU back end (`onnc-mvu`,
//! which re-exports the constants as `onnc_mvu::limits`) read them, so the
//! dialect crate depends on no back end and a range or formula is stated
//! in one place.
//!
//! Sources: `obilaniu/MVU` `verification/lib/mvu/mvu_pkg.sv` at `bfab134`
//! (the commit BARVINN pins as `deps/MVU`), BARVINN `vsrc/barvinn.sv`,
//! `hossein1387/MVU_Code_Gen` `Generator.py` (research targets.md §A.3–§A.6).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod checked;
pub mod fields;
pub mod formulas;
pub mod pooled;
pub mod ranges;

pub use formulas::{blocks, conv_countdown, conv_registers, matmul_registers, ConvJob, Registers};
pub use pooled::{pooled_registers, PoolWindow};
