//! `onnc-mvu` — the BARVINN MVU code generator, in plain Rust (no MLIR).
//!
//! In: a list of [`Layer`]s (convolutions and matrix multiplies, ONNX shapes,
//! 1–16-bit activation / weight / output precisions) and, per layer, integer
//! weights in ONNX layout (or float weights through [`quantize_weights`]).
//! Out: a [`Table`] with one row of MVU registers per layer (`iShape`, `fShape`
//! in 64-channel blocks, five-level `ilength` / `ijump` / `wlength` / `wjump`,
//! `countdown`, `total_layer_countdown`) and the total countdown, exactly as
//! BARVINN's generator computes them; and the files a BARVINN deployment loads:
//! `mvu_config.json`, `mvu_config.txt`, `mvu_config.h`, `mvu_program.s` and one
//! bit-serial `<weight>.hex` per layer (see [`emit`]).
//!
//! Pipeline: [`check_layer`] → [`conv_schedule`] / [`matmul_schedule`] →
//! [`check_registers`] → [`check_capacity`] (all inside [`configure`] /
//! [`generate`]) → [`emit`]. Every failure is an [`Error`] naming the layer,
//! the field, the value and the limit.
//!
//! ```
//! use onnc_mvu::{generate, ConvShape, Layer, Options, Precision};
//! // First layer of BARVINN's distilled ResNet-18 at 2/2/2 bits.
//! let l = Layer::conv("conv1", ConvShape::new(64, 32, 32, 64, [3, 3]).with_pad(1), Precision::new(2, 2, 2));
//! let t = generate(&[l], &Options::default()).unwrap();
//! let r = &t.rows[0];
//! assert_eq!((r.i_shape, r.f_shape), ([1, 32, 32], [1, 3, 3]));
//! assert_eq!(r.ilength, [0, 3, 2, 2, 0]);
//! assert_eq!(r.ijump, [-132, -132, 60, 2, 0]);
//! assert_eq!(r.wlength, [0, 0, 3, 8, 0]);
//! assert_eq!(r.wjump, [-16, 2, -16, 2, 0]);
//! assert_eq!((r.countdown, r.total_layer_countdown), (1080, 36720));
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod config;
pub mod csr;
pub mod emit;
mod error;
pub mod frontend;
mod layer;
pub mod limits;
mod memory;
mod pool;
mod quant;
mod registers;
mod verify;
mod weights;

pub use config::{configure, generate, Options, Row, Table};
pub use error::{Error, IoError, Result};
pub use frontend::{compile, dialect_attrs, CompileOptions, Compiled, DialectValue};
pub use layer::{ConvShape, Layer, LayerKind, LayerOp, MatMulShape, Pool, Precision};
pub use limits::MvuLimits;
pub use memory::MemoryUse;
pub use pool::pooled_schedule;
pub use quant::{quantize_symmetric, quantize_weights, Granularity, Quantized};
pub use registers::{
    blocks, conv_schedule, matmul_schedule, output_columns, FractionalColumns, RawSchedule,
};
pub use verify::{check_capacity, check_layer, check_registers, CheckedRegisters};
pub use weights::{bit_serial_lines, export_weights, mvu_weight_order, value_range, WeightFile};
