//! `onnx-simplify` — static shapes, folded constants, no Identity/Dropout, no dead code.
//!
//! Input: `onnx` dialect → Output: `onnx` dialect where, for models with
//! static input shapes, every value has a static ranked type and the only
//! constants left are weights.
//!
//! Before:
//! ```mlir
//! %s = "onnx.constant"() {value = dense<[64, 3, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
//! %w = "onnx.constant_of_shape"(%s) {value = dense<2.0e-02> : tensor<1xf32>} : (tensor<4xi64>) -> tensor<64x3x3x3xf32>
//! %y = "onnx.conv"(%x, %w) {...} : (...) -> tensor<?x?x?x?xf32>
//! %z = "onnx.identity"(%y) : ...
//! ```
//! After `--pass-pipeline='builtin.module(onnx-simplify)'`:
//! ```mlir
//! %w = "onnx.constant"() {value = dense_resource<...> : tensor<64x3x3x3xf32>} : ...
//! %y = "onnx.conv"(%x, %w) {...} : (...) -> tensor<1x64x222x222xf32>
//! ```
//!
//! How: on the in-memory graph (`graph_simplify`: folding with the reference
//! interpreter's kernels, forwarding removal, DCE), then the text form's
//! names and shape inference (`pipeline::names::settle`). Node locations
//! are kept.
//!
//! Options: `fold-limit` — the largest folded result, in elements (default
//! 268435456); bigger results stay as ops.
//! Preconditions: the functions contain only `onnx` ops and `arith.constant`.
//! Failure modes: another dialect's op in a function (reported at the op);
//! a constant computation the interpreter rejects (reported at the function).

use crate::{
    onnx::graph_simplify,
    pipeline::{mlir_face, Diags, Module, Pass},
};
use onnc_dialects::pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration};

/// Registration of `onnx-simplify`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "onnx-simplify",
    summary: "Infer static shapes, fold constants, drop Identity/inference Dropout and dead ops",
    anchor: "builtin.module",
    options: &[OptionSpec {
        name: "fold-limit",
        kind: OptionKind::Int {
            min: 0,
            max: i64::MAX,
        },
        default: "268435456",
        help: "largest folded result in elements; larger results stay as ops",
    }],
    factory: |o: &PassOptions| mlir_face::body("onnx-simplify", o),
};

/// The in-memory `onnx-simplify` (see [`crate::pipeline`]).
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Simplify::new(o)))
}

struct Simplify {
    fold_limit: usize,
}

impl Simplify {
    fn new(o: &PassOptions) -> Simplify {
        Simplify {
            fold_limit: o.int("fold-limit") as usize,
        }
    }
}

impl Pass for Simplify {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let graph = module.onnx_mut("onnx-simplify").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let stats = graph_simplify::simplify(graph, self.fold_limit).map_err(|e| {
            diags.error(None, format!("onnx-simplify: {e}"));
            PassFailed
        })?;
        // A graph reaches a pass with its text form's names (the importer
        // and every ONNX-level pass give it them): one left as it was keeps
        // them, and naming it again is a third of a big graph's simplify.
        if !stats.changed() {
            return Ok(());
        }
        crate::pipeline::names::settle(graph, "onnx-simplify", diags)
    }
}
