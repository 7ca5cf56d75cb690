//! The NVDLA back end, free of MLIR.
//!
//! A legalized ONNX graph ([`onnc_onnx::Graph`]) is lowered to a [`Program`]:
//! hardware layers ([`Op`], one per engine job, registers as named attributes
//! spelled exactly as the `nvdla` dialect's attributes) over feature cubes
//! ([`Tensor`]). Every later stage reads and rewrites a `Program`:
//!
//! ```text
//! Graph ──lower──▶ Program ──plan──▶ Program(+placements) ──emit──▶ Loadable
//!                     │  ▲                    │
//!                     │  └── ctable::load ────┤── exec::run (FP16 semantics)
//!                     └──── ctable::gen ──────┘
//! ```
//!
//! The MLIR side (`onnc-passes`) converts a `Program` to and from `nvdla`
//! dialect IR, so each stage is also an `onnc-opt` pass.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// The hardware configurations (crate `onnc-nvdla-hw`, shared with the
/// dialect's verifiers).
pub use onnc_nvdla_hw::config;
pub mod cbuf;
pub mod ctable;
pub mod emit;
mod error;
pub mod exec;
pub mod grouped_kernel;
pub mod ideal;
pub mod lower;
pub mod plan;
pub mod program;
pub mod qrecord;
pub mod registers;

pub use error::{Error, Result};

pub use config::{Config, ConfigName};
pub use program::{
    Engine, Op, Placement, Pool, Precision, Program, Tensor, TensorId, TensorKind, Value, Weights,
};
