//! Context creation: upstream dialects plus our IRDL dialects.

use super::diag::{Diag, DiagnosticCapture};
use melior::{
    dialect::{DialectHandle, DialectRegistry},
    Context,
};
use mlir_sys::{mlirGetDialectHandle__irdl__, mlirLoadIRDLDialects};

/// The IRDL sources compiled into every binary, as `(file name, text)`.
///
/// In: nothing. Out: the four `dialects/*.irdl.mlir` files, in load order.
pub fn dialect_sources() -> [(&'static str, &'static str); 4] {
    [
        ("onnx.irdl.mlir", include_str!("../../onnx.irdl.mlir")),
        ("nvdla.irdl.mlir", include_str!("../../nvdla.irdl.mlir")),
        ("nnie.irdl.mlir", include_str!("../../nnie.irdl.mlir")),
        ("mvu.irdl.mlir", include_str!("../../mvu.irdl.mlir")),
    ]
}

/// Creates a context with `builtin`, `func`, `arith`, `tensor` and `irdl`
/// loaded, then loads our four IRDL dialects (`onnx`, `nvdla`, `nnie`, `mvu`).
/// Multithreading is off so that passes run in a fixed order.
///
/// Fails only when an IRDL file does not parse or load (a build defect): the
/// error lists the diagnostics.
pub fn new_context() -> Result<Context, Vec<Diag>> {
    let registry = DialectRegistry::new();
    for handle in [
        DialectHandle::func(),
        DialectHandle::arith(),
        DialectHandle::tensor(),
    ] {
        handle.insert_dialect(&registry);
    }
    // SAFETY: the handle getter has no preconditions; the handle is static.
    let irdl = unsafe { DialectHandle::from_raw(mlirGetDialectHandle__irdl__()) };
    irdl.insert_dialect(&registry);
    let context = Context::new_with_registry(&registry, false);
    context.load_all_available_dialects();

    let capture = DiagnosticCapture::attach(&context);
    for (name, text) in dialect_sources() {
        let Some(module) = super::parse::parse_module(&context, text, name) else {
            return Err(capture.take());
        };
        // SAFETY: `module` is a valid, verified module of irdl ops.
        let loaded = unsafe { mlirLoadIRDLDialects(module.to_raw()) };
        if loaded.value == 0 {
            let mut diags = capture.take();
            diags.push(Diag::error_without_location(format!(
                "could not load the IRDL dialects of {name}"
            )));
            return Err(diags);
        }
        // The dynamic dialects built from the IRDL ops are owned by the
        // context and keep no reference into the defining module: upstream
        // `mlir-opt --irdl-file` (`loadIRDLDialects` in MlirOptMain.cpp)
        // holds that module in an `OwningOpRef` that is destroyed as soon as
        // `irdl::loadDialects` returns, before any input is parsed. So it is
        // freed here too, instead of leaking a few hundred kilobytes per
        // context (one per `--split-input-file` chunk).
        drop(module);
    }
    drop(capture);
    Ok(context)
}

extern "C" {
    fn onncContextSetPrintOpOnDiagnostic(context: mlir_sys::MlirContext, enable: bool);
}

/// Whether a diagnostic on an op gets a "see current operation: …" note
/// (on by default; `--verify-diagnostics` turns it off, as in mlir-opt).
pub fn set_print_op_on_diagnostic(context: &Context, enable: bool) {
    // SAFETY: plain setter on a live context.
    unsafe { onncContextSetPrintOpOnDiagnostic(context.to_raw(), enable) }
}

/// Runs `f` with the context that owns `op`, as the `&Context` builders take.
///
/// Passes receive only an operation; this is how they reach its context.
/// Whatever `f` builds must be inserted into the IR before `f` returns.
pub fn with_context<'c, R>(
    op: &melior::ir::OperationRef<'c, '_>,
    f: impl FnOnce(&Context) -> R,
) -> R {
    use melior::ir::operation::OperationLike;
    let handle = op.context();
    // SAFETY: `to_ref` views the handle as a `&Context` (same raw pointer);
    // `handle` lives until `f` returns, and the context itself outlives 'c.
    let context = unsafe { handle.to_ref() };
    f(context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::operation::OperationLike;

    #[test]
    fn our_dialects_are_registered() {
        let ctx = new_context().expect("IRDL files load");
        for op in [
            "onnx.conv",
            "onnx.relu",
            "onnx.custom",
            "nvdla.conv",
            "nvdla.sdp",
            "mvu.conv",
        ] {
            assert!(ctx.is_registered_operation(op), "{op} must be registered");
        }
        assert!(!ctx.is_registered_operation("onnx.Conv"));
    }

    /// The IRDL modules are freed once loaded; the dynamic dialects' own
    /// verifiers must keep working in every later context.
    #[test]
    fn irdl_verifiers_outlive_their_defining_modules() {
        let good = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = \"onnx.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
        let bad = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = \"onnx.relu\"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
        for _ in 0..20 {
            let ctx = new_context().expect("IRDL files load");
            let capture = DiagnosticCapture::attach(&ctx);
            let m = super::super::parse::parse_module(&ctx, good, "good.mlir").expect("parses");
            assert!(m.as_operation().verify(), "a valid relu verifies");
            let m = super::super::parse::parse_module(&ctx, bad, "bad.mlir");
            let rejected = m.is_none_or(|m| !m.as_operation().verify());
            assert!(rejected, "a two-operand relu is refused");
            let diags = capture.take();
            assert!(
                diags
                    .iter()
                    .any(|d| d.message.contains("expects exactly 1 operands")),
                "{diags:?}"
            );
        }
    }
}
