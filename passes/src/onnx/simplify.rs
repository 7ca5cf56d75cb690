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

use crate::{export::onnx::graph_from_func, import::onnx::build_main_func, onnx::graph_simplify};
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};
use onnc_dialects::{
    ir,
    pass_api::{OptionKind, OptionSpec, PassBody, PassFailed, PassOptions, PassRegistration},
};

/// Registration of `onnx-simplify`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "onnx-simplify",
    summary: "Infer static shapes, fold constants, drop Identity/inference Dropout and dead ops",
    anchor: "builtin.module",
    options: &[OptionSpec {
        name: "fold-limit",
        kind: OptionKind::Int { min: 0, max: i64::MAX },
        default: "268435456",
        help: "largest folded result in elements; larger results stay as ops",
    }],
    factory: |o: &PassOptions| Ok(Box::new(Simplify { fold_limit: o.int("fold-limit") as usize })),
};

struct Simplify {
    fold_limit: usize,
}

impl PassBody for Simplify {
    fn run(&self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let Ok(region) = module.region(0) else { return Ok(()) };
        let Some(body) = region.first_block() else { return Ok(()) };
        let mut funcs = Vec::new();
        let mut op = body.first_operation();
        while let Some(o) = op {
            if o.name().as_string_ref().as_str() == Ok("func.func") && o.region(0).is_ok_and(|r| r.first_block().is_some()) {
                funcs.push(o);
            }
            op = o.next_in_block();
        }
        let mut failed = false;
        for func in funcs {
            let loc = func.location();
            let name = func.attribute("sym_name").ok().and_then(ir::str_attr).unwrap_or_default();
            let mut graph = match graph_from_func(&func) {
                Ok(g) => g,
                Err(errors) => {
                    for (at, e) in errors {
                        ir::emit_error(at, &format!("onnx-simplify: {e}"));
                    }
                    failed = true;
                    continue;
                }
            };
            if let Err(e) = graph_simplify::simplify(&mut graph, self.fold_limit) {
                ir::emit_error(loc, &format!("onnx-simplify: {e}"));
                failed = true;
                continue;
            }
            let built = ir::with_context(&module, |context| {
                build_main_func(context, graph, &name, &name).map(|new_func| {
                    body.insert_operation_before(func, new_func);
                })
            });
            match built {
                Ok(()) => {
                    ir::erase_if_unused(func);
                }
                Err(e) => {
                    for m in e.0 {
                        ir::emit_error(loc, &format!("onnx-simplify: {m}"));
                    }
                    failed = true;
                }
            }
        }
        if failed {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}
