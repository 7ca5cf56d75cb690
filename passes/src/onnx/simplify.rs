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
//! How: each function is turned into an ONNX graph (`crate::export::onnx`),
//! simplified (`graph_simplify`: folding with the reference interpreter's
//! kernels, forwarding removal, DCE) and rebuilt by the importer, which runs
//! shape and type inference on every value. Node locations are kept.
//!
//! Options: `fold-limit` — the largest folded result, in elements (default
//! 268435456); bigger results stay as ops.
//! Preconditions: the functions contain only `onnx` ops and `arith.constant`.
//! Failure modes: another dialect's op in a function (reported at the op);
//! a constant computation the interpreter rejects (reported at the function).

use crate::{
    onnx::{graph_simplify, rebuild::rebuild_functions},
    pipeline::{Diags, Module, Pass},
};
use melior::ir::OperationRef;
use onnc_dialects::pass_api::{
    OptionKind, OptionSpec, PassBody, PassFailed, PassOptions, PassRegistration,
};

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
    factory: |o: &PassOptions| Ok(Box::new(Simplify::new(o))),
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
        graph_simplify::simplify(graph, self.fold_limit).map_err(|e| {
            diags.error(None, format!("onnx-simplify: {e}"));
            PassFailed
        })?;
        crate::pipeline::names::settle(graph, "onnx-simplify", diags)
    }
}

impl PassBody for Simplify {
    fn run(&self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        rebuild_functions(module, "onnx-simplify", |mut graph, _, _| {
            graph_simplify::simplify(&mut graph, self.fold_limit)
                .map(|_| graph)
                .map_err(|e| vec![(None, format!("onnx-simplify: {e}"))])
        })
    }
}
