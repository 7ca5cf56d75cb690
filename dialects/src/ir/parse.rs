//! Parsing MLIR text with file-named locations.

use melior::{ir::Module, Context, StringRef};
use mlir_sys::{MlirContext, MlirOperation, MlirStringRef};

extern "C" {
    fn onncParseModule(context: MlirContext, source: MlirStringRef, name: MlirStringRef) -> MlirOperation;
}

/// Parses `source` (MLIR text) into a module whose locations name `file_name`.
///
/// In: text such as `func.func @f(%a: tensor<1xf32>) { ... }` (top-level ops
/// are wrapped in an implicit `builtin.module`, as mlir-opt does).
/// Out: the verified module, or `None` after the parser or the IRDL verifier
/// emitted diagnostics on the context (capture them with `DiagnosticCapture`).
pub fn parse_module<'c>(context: &'c Context, source: &str, file_name: &str) -> Option<Module<'c>> {
    parse_module_bytes(context, source.as_bytes(), file_name)
}

/// [`parse_module`] for bytes: MLIR text or MLIR bytecode (recognized by its
/// magic), which need not be UTF-8.
pub fn parse_module_bytes<'c>(context: &'c Context, source: &[u8], file_name: &str) -> Option<Module<'c>> {
    let raw_source = MlirStringRef { data: source.as_ptr() as *const std::os::raw::c_char, length: source.len() };
    // SAFETY: the context is alive and both buffers outlive the call; the
    // returned operation is owned by us and is a `builtin.module` or null.
    let raw = unsafe { onncParseModule(context.to_raw(), raw_source, StringRef::new(file_name).to_raw()) };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: the operation is a module we own; `from_raw` takes ownership.
    let module = unsafe { Module::from_raw(mlir_sys::mlirModuleFromOperation(raw)) };
    Some(module)
}
