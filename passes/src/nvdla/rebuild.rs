//! The shared shape of `nvdla`-level passes: function → [`Program`] →
//! transform → function.
//!
//! In: a `builtin.module` with `nvdla.config`, a pass name and a transform
//! `&mut Program → Result<(), messages>`. Out: every function with a body
//! rebuilt from the transformed program (same name), or errors at the ops
//! the conversion blamed and at the function for the transform's messages.
//!
//! ```text
//! rebuild_programs(module, "nvdla-plan-memory", |p| plan(p, &opts).map(|_| ()).map_err(|e| vec![e.to_string()]))
//! ```

use super::{from_ir::program_from_func, to_ir::build_func};
use crate::onnx::rebuild::functions;
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};
use onnc_dialects::{ir, pass_api::PassFailed};
use onnc_nvdla::Program;

/// Runs `transform` on the program of every function and rebuilds each.
pub fn rebuild_programs(
    module: OperationRef<'_, '_>,
    pass: &str,
    mut transform: impl FnMut(&mut Program, &str) -> Result<(), Vec<String>>,
) -> Result<(), PassFailed> {
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut failed = false;
    for func in functions(&module) {
        let floc = func.location();
        let name = func
            .attribute("sym_name")
            .ok()
            .and_then(ir::str_attr)
            .unwrap_or_default();
        let mut program = match program_from_func(&func) {
            Ok(p) => p,
            Err(errors) => {
                for (at, e) in errors {
                    ir::emit_error(at, &format!("{pass}: {e}"));
                }
                failed = true;
                continue;
            }
        };
        if let Err(messages) = transform(&mut program, &name) {
            for m in messages {
                ir::emit_error(floc, &format!("{pass}: {m}"));
            }
            failed = true;
            continue;
        }
        let built = ir::with_context(&module, |context| {
            build_func(context, &program, &name).map(|f| {
                body.insert_operation_before(func, f);
            })
        });
        match built {
            Ok(_) => {
                ir::erase_if_unused(func);
            }
            Err(e) => {
                ir::emit_error(
                    floc,
                    &format!("{pass}: rebuilding the function failed: {e}"),
                );
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

/// Like [`rebuild_programs`] but read-only: the functions are left as they are.
pub fn read_programs(
    module: OperationRef<'_, '_>,
    pass: &str,
    mut read: impl FnMut(&Program, &str) -> Result<(), Vec<String>>,
) -> Result<(), PassFailed> {
    let mut failed = false;
    for func in functions(&module) {
        let floc = func.location();
        let name = func
            .attribute("sym_name")
            .ok()
            .and_then(ir::str_attr)
            .unwrap_or_default();
        match program_from_func(&func) {
            Ok(p) => {
                if let Err(messages) = read(&p, &name) {
                    for m in messages {
                        ir::emit_error(floc, &format!("{pass}: {m}"));
                    }
                    failed = true;
                }
            }
            Err(errors) => {
                for (at, e) in errors {
                    ir::emit_error(at, &format!("{pass}: {e}"));
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
