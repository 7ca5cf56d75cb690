//! `onnc-dialects` — the IR contract of onnc.
//!
//! - `onnx.irdl.mlir`, `nvdla.irdl.mlir`, `nnie.irdl.mlir`, `mvu.irdl.mlir`
//!   (beside this crate's `Cargo.toml`): the four dialects, in IRDL, loaded
//!   into every context; the same files load into `mlir-opt-22 --irdl-file`.
//! - [`ir`]: the only module with `unsafe` and raw `mlir-sys` calls (context,
//!   diagnostics, parse/print, pass registration, `dense_resource`).
//! - [`pass_api`]: how a pass declares its flag, anchor and options.
//! - [`verify`]: semantic rules IRDL cannot state (shape arithmetic, register
//!   ranges), run by `onnc-opt` after parsing and after the pipeline.
//!
//! ```
//! use onnc_dialects::{ir, verify};
//! let ctx = ir::new_context().unwrap();
//! let capture = ir::DiagnosticCapture::attach(&ctx);
//! let text = r#"func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
//!   %y = "onnx.relu"(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
//!   return %y : tensor<1x4xf32>
//! }"#;
//! let module = ir::parse_module(&ctx, text, "relu.mlir").expect("valid IR");
//! assert!(verify::verify_module(&module));
//! assert!(capture.take().is_empty());
//! ```
#![warn(missing_docs)]

pub mod ir;
pub mod pass_api;
pub mod schema;
pub mod verify;
