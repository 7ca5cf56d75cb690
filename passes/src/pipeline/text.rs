//! The text edge: a [`Module`] printed as MLIR, for `--emit mlir` and
//! `--dump-ir-after-all`. Nothing in a compile goes through here unless
//! the user asks for text.
//!
//! In: a context with our dialects, the module, the model's file name (for
//! messages). Out: an MLIR module holding `func.func @main_graph` — for
//! the nvdla level with `nvdla.config`, `nvdla.hw` and, once planned,
//! `nvdla.memory` on the module, for the mvu level with
//! `mvu.total_countdown` — exactly what the MLIR passes of
//! `onnc-opt` print for the same pipeline.

use super::{Module, NvdlaModule};
use crate::blobs::Blobs;
use melior::{
    ir::{attribute::StringAttribute, block::BlockLike, Attribute, Location},
    Context,
};
use onnc_dialects::ir;
use onnc_nvdla::{plan::PlanReport, Config};

/// The function name every level prints under.
pub const MAIN: &str = "main_graph";

/// `{activation_bytes = .. : i64, ...}`: the planner's summary as the
/// module attribute `nvdla.memory`.
pub fn memory_attr_text(r: &PlanReport) -> String {
    format!(
        "{{activation_bytes = {} : i64, activation_lower_bound_bytes = {} : i64, weight_bytes = {} : i64, bind_bytes = {} : i64}}",
        r.activation_bytes, r.activation_lower_bound_bytes, r.weight_bytes, r.bind_bytes
    )
}

/// Builds the MLIR module for `m` in `context`.
pub fn to_mlir<'c>(
    context: &'c Context,
    m: &Module,
    file: &str,
) -> Result<melior::ir::Module<'c>, Vec<String>> {
    let module = melior::ir::Module::new(Location::unknown(context));
    match m {
        Module::Onnx(g) => {
            let func = crate::import::onnx::build_main_func(context, g.clone(), file, MAIN)
                .map_err(|e| e.0)?;
            module.body().append_operation(func);
        }
        Module::Nvdla(NvdlaModule { program, memory }) => {
            let func = crate::nvdla::to_ir::build_func(context, program, MAIN, &Blobs::new())
                .map_err(|e| vec![format!("{file}: internal error: {e}")])?;
            module.body().append_operation(func);
            let op = module.as_operation();
            ir::set_attribute(
                &op,
                "nvdla.config",
                StringAttribute::new(context, program.config.as_str()).into(),
            );
            let hw = crate::nvdla::convert::hw_dictionary(&Config::get(program.config));
            if let Some(a) = Attribute::parse(context, &hw) {
                ir::set_attribute(&op, "nvdla.hw", a);
            }
            if let Some(r) = memory {
                if let Some(a) = Attribute::parse(context, &memory_attr_text(r)) {
                    ir::set_attribute(&op, "nvdla.memory", a);
                }
            }
        }
        Module::Mvu(mvu) => {
            // A level the dialect cannot hold is the user's to change, not
            // an internal error: refuse it at its node.
            let refused = crate::mvu::to_ir::refusals(mvu);
            if !refused.is_empty() {
                return Err(refused
                    .into_iter()
                    .map(|(node, why)| match node {
                        Some(n) => format!("{file}: node '{n}': {why}"),
                        None => format!("{file}: {why}"),
                    })
                    .collect());
            }
            let func = crate::mvu::to_ir::build_func(context, mvu, MAIN, &Blobs::new())
                .map_err(|e| vec![format!("{file}: internal error: {e}")])?;
            module.body().append_operation(func);
            crate::mvu::to_ir::set_total_countdown(&module.as_operation(), mvu.total_countdown());
        }
        Module::Nnie(nnie) => {
            let func = crate::nnie::to_ir::build_func(context, nnie, MAIN, &Blobs::new())
                .map_err(|e| vec![format!("{file}: error: {e}")])?;
            module.body().append_operation(func);
        }
    }
    Ok(module)
}

/// `m` as MLIR text with locations (resources in full).
pub fn print(context: &Context, m: &Module, file: &str) -> Result<String, Vec<String>> {
    let module = to_mlir(context, m, file)?;
    Ok(ir::print_op(
        &module.as_operation(),
        &ir::PrintOptions {
            debug_info: true,
            ..Default::default()
        },
    ))
}
