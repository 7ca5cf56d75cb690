//! `onnc-dce` — erase unused ops of our dialects.
//!
//! Input: any IR → Output: the same IR without dead `onnx`/`nvdla`/`nnie`/
//! `mvu` ops. Our ops are defined in IRDL, which cannot attach MLIR's
//! side-effect interfaces, so upstream `canonicalize` and `symbol-dce` never
//! remove them; this pass does, knowing they are all free of side effects.
//!
//! Before:
//! ```mlir
//! %a = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
//! %b = "onnx.sigmoid"(%a) : (tensor<4xf32>) -> tensor<4xf32>   // unused
//! return %a : tensor<4xf32>
//! ```
//! After `--pass-pipeline='builtin.module(func.func(onnc-dce))'`:
//! ```mlir
//! %a = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
//! return %a : tensor<4xf32>
//! ```
//!
//! Options: `dialects` — comma-separated namespaces whose ops may be erased
//! (default `onnx,nvdla,nnie,mvu`); an unknown namespace is an option error.
//!
//! Preconditions: none. Runs on any op (module or function). One sweep per
//! block in reverse order erases whole dead chains.
//! Failure modes: none; ops with regions are never erased.

use crate::walk::{dialect_of, for_each_block, ops_of};
use melior::ir::{operation::OperationLike, OperationRef};
use onnc_dialects::{
    ir,
    pass_api::{OptionKind, OptionSpec, PassBody, PassFailed, PassOptions, PassRegistration},
};

/// The dialects whose ops carry no side effects.
pub const PURE_DIALECTS: [&str; 4] = ["onnx", "nvdla", "nnie", "mvu"];

/// Registration of `onnc-dce`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "onnc-dce",
    summary: "Erase unused ops of the onnx, nvdla, nnie and mvu dialects",
    anchor: "",
    options: &[OptionSpec {
        name: "dialects",
        kind: OptionKind::Str,
        default: "onnx,nvdla,nnie,mvu",
        help: "comma-separated dialects whose unused ops are erased",
    }],
    factory: make,
};

fn make(options: &PassOptions) -> Result<Box<dyn PassBody>, String> {
    let mut dialects = Vec::new();
    for d in options
        .str("dialects")
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        if !PURE_DIALECTS.contains(&d) {
            return Err(format!(
                "'{d}' is not one of onnc's dialects ({})",
                PURE_DIALECTS.join(", ")
            ));
        }
        dialects.push(d.to_string());
    }
    Ok(Box::new(Dce { dialects }))
}

struct Dce {
    dialects: Vec<String>,
}

impl PassBody for Dce {
    fn run(&self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for_each_block(&root, &mut |block| {
            for op in ops_of(block).into_iter().rev() {
                if op.region_count() == 0 && self.dialects.contains(&dialect_of(&op)) {
                    ir::erase_if_unused(op);
                }
            }
        });
        Ok(())
    }
}
