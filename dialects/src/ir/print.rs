//! Printing operations to text with mlir-opt's printing options.

use melior::ir::operation::OperationLike;
use mlir_sys::*;
use std::ffi::c_void;

/// The printing flags `onnc-opt` exposes (same meaning as mlir-opt's).
#[derive(Debug, Clone, Default)]
pub struct PrintOptions {
    /// `--mlir-print-op-generic`: every op in generic form.
    pub generic: bool,
    /// `--mlir-print-debuginfo`: print `loc(...)`.
    pub debug_info: bool,
    /// `--mlir-pretty-debuginfo`: locations in pretty form (with `debug_info`).
    pub pretty_debug_info: bool,
    /// `--mlir-elide-elementsattrs-if-larger=N`.
    pub elide_elements_larger_than: Option<usize>,
    /// `--mlir-elide-resource-strings-if-larger=N` (in bytes of the hex string).
    pub elide_resources_larger_than: Option<usize>,
    /// `--mlir-print-local-scope`.
    pub local_scope: bool,
    /// `--mlir-print-assume-verified`: print even if the IR does not verify.
    pub assume_verified: bool,
}

unsafe extern "C" fn append(s: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `Vec<u8>` passed below; `s` is valid during the call.
    let out = unsafe { &mut *(data as *mut Vec<u8>) };
    if !s.data.is_null() && s.length > 0 {
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) });
    }
}

/// Prints `op` (usually a module) to a string with `options`.
///
/// In: any operation. Out: its textual form, e.g.
/// `module {\n  func.func @f() {...}\n}\n` (resource blobs follow in a
/// `{-# dialect_resources ... #-}` section when printing a module).
pub fn print_op<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, options: &PrintOptions) -> String {
    let mut out = Vec::new();
    // SAFETY: the flags are created and destroyed here; the op is valid.
    unsafe {
        let flags = mlirOpPrintingFlagsCreate();
        if options.generic {
            mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        if options.debug_info {
            mlirOpPrintingFlagsEnableDebugInfo(flags, true, options.pretty_debug_info);
        }
        if let Some(n) = options.elide_elements_larger_than {
            mlirOpPrintingFlagsElideLargeElementsAttrs(flags, n as isize);
        }
        if let Some(n) = options.elide_resources_larger_than {
            mlirOpPrintingFlagsElideLargeResourceString(flags, n as isize);
        }
        if options.local_scope {
            mlirOpPrintingFlagsUseLocalScope(flags);
        }
        if options.assume_verified {
            mlirOpPrintingFlagsAssumeVerified(flags);
        }
        mlirOperationPrintWithFlags(
            op.to_raw(),
            flags,
            Some(append),
            &mut out as *mut Vec<u8> as *mut c_void,
        );
        mlirOpPrintingFlagsDestroy(flags);
    }
    String::from_utf8_lossy(&out).into_owned()
}
