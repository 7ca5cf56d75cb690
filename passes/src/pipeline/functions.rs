//! An MLIR module's functions as in-memory modules: converted once on the
//! way in, once on the way out.
//!
//! `onnc-opt` holds one [`Module`] per function with a body (a lit file may
//! hold several; declarations and other top-level ops stay in the MLIR
//! module untouched). [`read`] converts every function to the level a pass
//! expects and keeps where each node was in the text ([`Places`]); the
//! passes then edit the modules in place; [`write`] builds each function
//! again in the MLIR module (same name, same position) and sets the module
//! attributes of the nvdla level (`nvdla.config`, `nvdla.hw` when the level
//! changed, `nvdla.memory` once planned) or of the mvu level
//! (`mvu.total_countdown`, the sum over the module's functions).
//!
//! In: a `builtin.module` operation. Out: the functions, or `Err` after
//! emitting each conversion error at its op, prefixed with the pass that
//! needed the conversion (`onnx-simplify: 'arith.addf' op has no ONNX form`).

use super::{
    diags::Scope, pass::PassFailed, registry::Level, text::memory_attr_text, Diags, Module,
    NvdlaModule,
};
use crate::{
    blobs::{blobs_of_func, Blobs},
    export::onnx::graph_and_locations,
    import::onnx::rebuild_main_func,
    nvdla::{convert::hw_dictionary, from_ir::program_from_func, to_ir::build_func},
    onnx::functions::functions,
};
use melior::ir::{
    attribute::StringAttribute, block::BlockLike, operation::OperationLike, Attribute, Location,
    OperationRef, RegionLike,
};
use onnc_dialects::ir::{self, Severity};
use onnc_nvdla::Config;
use std::collections::HashMap;

/// Where a function's diagnostics go in the text.
pub struct Places<'c> {
    /// Each node (by the name the conversion gave it) at its op.
    nodes: HashMap<String, Location<'c>>,
    /// The function's own location.
    function: Location<'c>,
    /// The module's location.
    module: Location<'c>,
}

/// One function of the module, in memory.
pub struct Function<'c> {
    /// Its symbol name (`main_graph`).
    pub name: String,
    /// Its IR.
    pub module: Module,
    /// The level it was read at (a change means the module attributes of the new level are set).
    pub read_as: Level,
    /// Where its diagnostics go.
    pub places: Places<'c>,
}

fn symbol_name(func: &OperationRef) -> String {
    func.attribute("sym_name")
        .ok()
        .and_then(ir::str_attr)
        .unwrap_or_default()
}

/// The named location of every op of `func` (the nvdla level's ops carry
/// the ONNX nodes they came from: `loc(fused["conv1", "relu1"])`).
fn named_ops<'c>(func: &OperationRef<'c, '_>) -> HashMap<String, Location<'c>> {
    let mut nodes = HashMap::new();
    let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) else {
        return nodes;
    };
    let mut op = block.first_operation();
    while let Some(o) = op {
        let here = o.location();
        if let Some(name) = ir::Loc::from_location(here).name {
            for part in name.split('+') {
                nodes.entry(part.to_string()).or_insert(here);
            }
            nodes.entry(name).or_insert(here);
        }
        op = o.next_in_block();
    }
    nodes
}

/// Converts every function with a body of `module` to `level`. Each
/// conversion error is emitted at its op as `<pass>: <message>`.
pub fn read<'c>(
    module: &OperationRef<'c, '_>,
    level: Level,
    pass: &str,
) -> Result<Vec<Function<'c>>, PassFailed> {
    let mut out = Vec::new();
    let mut failed = false;
    for func in functions(module) {
        let converted = match level {
            Level::Onnx => graph_and_locations(&func).map(|(g, nodes)| (Module::Onnx(g), nodes)),
            Level::Mvu => crate::mvu::from_ir::module_from_func(&func)
                .map(|m| (Module::Mvu(m), named_ops(&func))),
            Level::Nnie => crate::nnie::from_ir::module_from_func(&func)
                .map(|m| (Module::Nnie(m), named_ops(&func))),
            Level::Nvdla => program_from_func(&func).map(|program| {
                let m = Module::Nvdla(NvdlaModule {
                    program,
                    memory: None,
                });
                (m, named_ops(&func))
            }),
        };
        match converted {
            Ok((m, nodes)) => out.push(Function {
                name: symbol_name(&func),
                module: m,
                read_as: level,
                places: Places {
                    nodes,
                    function: func.location(),
                    module: module.location(),
                },
            }),
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
        Ok(out)
    }
}

/// Builds `f` as a `func.func` in `context`.
/// Every level reuses the weight attributes of `blobs` (those of the
/// function it replaces), so its blob names do not change.
fn build<'c>(
    context: &'c melior::Context,
    f: &Function<'c>,
    blobs: &Blobs<'c>,
) -> Result<melior::ir::Operation<'c>, Vec<String>> {
    match &f.module {
        Module::Onnx(g) => {
            let mut g = g.clone();
            g.name = f.name.clone();
            rebuild_main_func(context, g, &f.name, &f.name, blobs).map_err(|e| e.0)
        }
        Module::Nvdla(n) => build_func(context, &n.program, &f.name, blobs).map_err(|e| vec![e]),
        Module::Mvu(m) => {
            crate::mvu::to_ir::build_func(context, m, &f.name, blobs).map_err(|e| vec![e])
        }
        Module::Nnie(m) => {
            crate::nnie::to_ir::build_func(context, m, &f.name, blobs).map_err(|e| vec![e])
        }
    }
}

/// Replaces each function with a body of `module` by its in-memory form
/// (in order: `functions` is what [`read`] returned, edited), and sets the
/// nvdla level's module attributes. A function that cannot be built is
/// reported at its location under `pass` and left as it was.
pub fn write<'c>(
    module: &OperationRef<'c, '_>,
    functions_now: &[Function<'c>],
    pass: &str,
) -> Result<(), PassFailed> {
    let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut failed = false;
    let old = functions(module);
    for (func, f) in old.into_iter().zip(functions_now) {
        let blobs: Blobs = blobs_of_func(&func);
        let built = ir::with_context(module, |context| {
            build(context, f, &blobs).map(|op| {
                body.insert_operation_before(func, op);
            })
        });
        match built {
            Ok(()) => {
                ir::erase_if_unused(func);
            }
            Err(messages) => {
                for m in messages {
                    ir::emit_error(
                        f.places.function,
                        &format!("{pass}: rebuilding the function failed: {m}"),
                    );
                }
                failed = true;
            }
        }
    }
    for f in functions_now {
        let Module::Nvdla(n) = &f.module else {
            continue;
        };
        ir::with_context(module, |context| {
            if f.read_as != Level::Nvdla {
                let config = n.program.config;
                ir::set_attribute(
                    module,
                    "nvdla.config",
                    StringAttribute::new(context, config.as_str()).into(),
                );
                if let Some(hw) = Attribute::parse(context, &hw_dictionary(&Config::get(config))) {
                    ir::set_attribute(module, "nvdla.hw", hw);
                }
            }
            if let Some(r) = &n.memory {
                if let Some(a) = Attribute::parse(context, &memory_attr_text(r)) {
                    ir::set_attribute(module, "nvdla.memory", a);
                }
            }
        });
    }
    let mvu: Vec<u64> = functions_now
        .iter()
        .filter_map(|f| match &f.module {
            Module::Mvu(m) => Some(m.total_countdown()),
            _ => None,
        })
        .collect();
    if !mvu.is_empty() {
        crate::mvu::to_ir::set_total_countdown(module, mvu.iter().sum());
    }
    if failed {
        Err(PassFailed)
    } else {
        Ok(())
    }
}

impl<'c> Places<'c> {
    /// Where a diagnostic at `node` goes: its op, the ops of a merged node
    /// `a+b` (to be fused), else the function or, for [`Scope::Module`], the
    /// module. Never empty.
    fn of(&self, node: Option<&str>, scope: Scope) -> Vec<Location<'c>> {
        if scope == Scope::Module {
            return vec![self.module];
        }
        let Some(node) = node else {
            return vec![self.function];
        };
        if let Some(l) = self.nodes.get(node) {
            return vec![*l];
        }
        let parts: Vec<Location<'c>> = node
            .split('+')
            .filter_map(|p| self.nodes.get(p).copied())
            .collect();
        if parts.is_empty() {
            vec![self.function]
        } else {
            parts
        }
    }
}

fn emit_at(at: Location, severity: Severity, message: &str) {
    match severity {
        Severity::Error => ir::emit_error(at, message),
        Severity::Warning => ir::emit_warning(at, message),
        Severity::Remark | Severity::Note => ir::emit_remark(at, message),
    }
}

/// Emits what an in-memory pass recorded on `f` through MLIR's diagnostics,
/// each at the op it blames (see [`Places`]).
pub fn emit<'c>(module: &OperationRef<'c, '_>, f: &Function<'c>, diags: &mut Diags) {
    for (d, scope) in diags.take_scoped() {
        let at = f.places.of(d.loc.name.as_deref(), scope);
        if let [one] = at.as_slice() {
            emit_at(*one, d.severity, &d.message);
        } else {
            ir::with_context(module, |context| {
                let fused = ir::fused_location(context, &at);
                emit_at(fused, d.severity, &d.message);
            });
        }
    }
}

/// Runs `pass` (reported as `flag`) on every function, each with its own
/// diagnostics, emitted at once. A panic inside the pass becomes an
/// "internal error in pass" diagnostic at the function, as MLIR's pass
/// wrapper reports it. Out: whether it succeeded on all of them; on
/// failure the functions that failed may be half-edited and must not be
/// written back.
pub fn apply<'c>(
    module: &OperationRef<'c, '_>,
    flag: &str,
    pass: &dyn super::Pass,
    functions: &mut [Function<'c>],
) -> bool {
    let mut ok = true;
    for f in functions.iter_mut() {
        let mut diags = Diags::new();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pass.run(&mut f.module, &mut diags)
        }));
        let passed = match result {
            Ok(r) => r.is_ok(),
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                diags.error(
                    None,
                    format!("internal error in pass '{flag}' (a bug): {why}"),
                );
                false
            }
        };
        ok &= passed && !diags.has_errors();
        emit(module, f, &mut diags);
    }
    ok
}
