//! The last step of the NVDLA flow: the `nvdla` function of a module →
//! loadable bytes (used by `onnc-translate --to-nvdla-loadable` and `onnc compile`).
//!
//! In: a module holding the `nvdla` dialect, planned by `nvdla-plan-memory`
//! (unplanned IR is refused), and the descriptor ABI. Out: the loadable's
//! bytes, or messages naming the op (by location) or tensor at fault.
//!
//! ```text
//! let (bytes, program) = emit_module(&module, Abi::Current)?;   // FlatBuffers, "NVDA"
//! ```

use super::from_ir::program_from_func;
use crate::onnx::functions::main_function;
use onnc_dialects::ir::Loc;
use onnc_nvdla::{emit::EmitOptions, Program, TensorKind};
use onnc_nvdla_loadable::Abi;

/// Whether every tensor that lives in memory has a placement.
pub fn is_planned(p: &Program) -> bool {
    p.tensors
        .iter()
        .all(|t| matches!(t.kind, TensorKind::Fused) || t.place.is_some())
}

/// Reads the main function's program. An unplanned program is refused:
/// emission writes what the IR says and plans nothing itself.
pub fn module_program(module: &melior::ir::Module) -> Result<Program, Vec<String>> {
    let p = read_program(module)?;
    if !is_planned(&p) {
        return Err(vec![
            "error: the nvdla IR is not planned: some tensors have no nvdla.mem placement; run nvdla-plan-memory first (--pass-pipeline='builtin.module(...,nvdla-plan-memory)')".to_string(),
        ]);
    }
    Ok(p)
}

/// Reads the main function's program, records the CBUF plans of its convs
/// when it has none (`nvdla-split-conv`) and plans it when it is not
/// planned (for `onnc-run`, which executes IR from any stage after lowering).
pub fn module_program_planned(module: &melior::ir::Module) -> Result<Program, Vec<String>> {
    let mut p = read_program(module)?;
    if p.cbuf.is_empty() {
        onnc_nvdla::emit::split_convs(&mut p)
            .map_err(|e| vec![format!("error: nvdla-split-conv failed: {e}")])?;
    }
    if !is_planned(&p) {
        onnc_nvdla::plan::plan(&mut p, &Default::default())
            .map_err(|e| vec![format!("error: memory planning failed: {e}")])?;
    }
    Ok(p)
}

fn read_program(module: &melior::ir::Module) -> Result<Program, Vec<String>> {
    let op = module.as_operation();
    let func = main_function(&op).map_err(|e| vec![e])?;
    program_from_func(&func).map_err(|errors| {
        errors
            .into_iter()
            .map(|(at, m)| format!("{}: error: {m}", Loc::from_location(at)))
            .collect::<Vec<_>>()
    })
}

/// Emits the module's program as loadable bytes.
pub fn emit_module(
    module: &melior::ir::Module,
    abi: Abi,
) -> Result<(Vec<u8>, Program), Vec<String>> {
    let p = module_program(module)?;
    let bytes = emit_program(&p, abi)?;
    Ok((bytes, p))
}

/// Emits a planned program as loadable bytes (`error: ...` messages when
/// emission refuses it).
pub fn emit_program(p: &Program, abi: Abi) -> Result<Vec<u8>, Vec<String>> {
    Ok(emit_program_counted(p, abi)?.0.into_vec())
}

/// [`emit_program`], also returning the descriptors written per op
/// (indexed like `p.ops`; see [`onnc_nvdla::emit::emit_counted`]). The
/// weights are packed in parallel straight into the returned buffer
/// ([`onnc_nvdla::emit::emit_bytes_counted`]).
pub fn emit_program_counted(
    p: &Program,
    abi: Abi,
) -> Result<(onnc_nvdla_loadable::Reserved, Vec<usize>), Vec<String>> {
    onnc_nvdla::emit::emit_bytes_counted(p, &EmitOptions { abi })
        .map_err(|e| vec![format!("error: {e}")])
}
