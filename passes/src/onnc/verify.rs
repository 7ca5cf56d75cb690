//! `onnc-verify` — run onnc's semantic verifiers as a pass.
//!
//! Input: any IR → Output: unchanged. IRDL checks structure while parsing;
//! the Rust rules of `onnc_dialects::verify` (shape arithmetic, attribute
//! widths, register ranges) run here, so a pipeline can check the IR between
//! two passes: `builtin.module(onnc-legalize, onnc-verify, ...)`.
//!
//! Example failure:
//! ```mlir
//! // error: 'onnx.conv' op kernel_shape has 3 entries but an input with 2 spatial axes needs 2
//! %y = "onnx.conv"(%x, %w) {kernel_shape = array<i64: 3, 3, 3>, ...}
//! ```
//!
//! Preconditions: none. Failure modes: any rule violation, reported at the
//! op's location; the pass then fails.

use melior::ir::OperationRef;
use onnc_dialects::{
    pass_api::{PassBody, PassFailed, PassOptions, PassRegistration},
    verify,
};

/// Registration of `onnc-verify`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "onnc-verify",
    summary: "Check onnc's semantic rules (shapes, attribute widths, register ranges)",
    anchor: "",
    options: &[],
    factory: |_: &PassOptions| Ok(Box::new(Verify)),
};

struct Verify;

impl PassBody for Verify {
    fn run(&self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        if verify::verify_op_tree(&root) {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}
