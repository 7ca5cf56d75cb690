//! The `ir` layer: the one place where onnc calls MLIR through `unsafe` and
//! raw `mlir-sys`. Everything else in the project uses the safe functions
//! here or melior's safe API.
//!
//! What it offers:
//! - [`new_context`]: an MLIR context with `func`, `arith`, `tensor`, `irdl`
//!   and our four IRDL dialects loaded, threading off (deterministic passes);
//! - [`DiagnosticCapture`]: every diagnostic of a context as a Rust [`Diag`]
//!   with `file:line:col` (or the ONNX node name) and notes;
//! - [`parse_module`]: text → module, with locations naming the source file,
//!   wrapping top-level ops in an implicit module as `mlir-opt` does;
//! - [`print_op`] with [`PrintOptions`] (generic form, debug info, elision of
//!   large elements and resource blobs);
//! - [`emit_error`]/[`emit_warning`]/[`emit_remark`] at a location;
//! - [`register_pass`] (through the C++ shim) and [`PipelineRunner`];
//! - [`dense_resource`]: zero-copy weights as `dense_resource` blobs.
//!
//! ```
//! use onnc_dialects::ir;
//! let ctx = ir::new_context().unwrap();
//! let diags = ir::DiagnosticCapture::attach(&ctx);
//! let m = ir::parse_module(&ctx, "func.func @f() { return }", "x.mlir").unwrap();
//! assert!(ir::print_op(&m.as_operation(), &ir::PrintOptions::default()).contains("func.func @f"));
//! assert!(diags.take().is_empty());
//! ```

mod attr;
mod context;
mod diag;
pub mod guard;
mod mutate;
mod parse;
mod pass;
mod print;
mod query;
mod resource;

pub use attr::{
    attr_to_mlir, elements_to_tensor, elements_to_tensor_or_why, mlir_to_attr, tensor_attr,
    INLINE_TENSOR_LIMIT,
};
pub use context::{dialect_sources, new_context, set_print_op_on_diagnostic, with_context};
pub use diag::{
    emit_error, emit_remark, emit_warning, fused_location, Diag, DiagnosticCapture, Loc, Severity,
};
pub use mutate::{
    erase_if_unused, has_uses, replace_all_uses, results_unused, set_attribute, use_count,
};
pub use parse::{parse_module, parse_module_bytes};
pub use pass::{register_pass, registered_passes, PipelineOptions, PipelineRunner};
pub use print::{print_op, PrintOptions};
pub use query::{
    f32_array_attr, float_attr, func_arg_strings, i32_array_attr, i64_array_attr, int_attr,
    is_dense_array, str_attr, tensor_shape, TensorShape,
};
pub use resource::{dense_resource, resource_to_tensor, tensor_type};
