//! `convert-onnx-to-nvdla{config=...}` — legalized `onnx` dialect → `nvdla`
//! dialect hardware layers.
//!
//! Input: `onnx` dialect after `onnx-simplify` and
//! `onnc-legalize{target=<config>}` → Output: `nvdla` dialect (no `onnx.`
//! op left), weights as `arith.constant`, the module carrying
//! `nvdla.config = "<config>"`.
//!
//! Before:
//! ```mlir
//! %c = "onnx.conv"(%x, %w, %b) {...} loc("conv1")
//! %r = "onnx.relu"(%c) loc("relu1")
//! ```
//! After `--pass-pipeline='builtin.module(convert-onnx-to-nvdla{config=nv_full})'`:
//! ```mlir
//! %acc = "nvdla.conv"(%x, %w) {hw_layer = "conv1", in_precision = "fp16", ...} loc(fused["conv1", "relu1"])
//! %y = "nvdla.sdp"(%acc, %b) {hw_layer = "conv1", x1_op.act = "relu", ...} loc(fused["conv1", "relu1"])
//! ```
//!
//! The mapping and the fusions (conv + bias + BN + ReLU/PReLU + residual
//! add into one conv→sdp pair, pooling on PDP, LRN on CDP, softmax on EMU,
//! concat/split/reshape as memory views) live in `onnc_nvdla::lower`.
//! Option: `config` (nv_full|nv_large|nv_small). Preconditions: static
//! shapes, legalized for the same configuration. Failure modes: every node
//! the configuration cannot run is reported at its own location, with what
//! would fix it; then the pass fails and the IR is unchanged.

use super::to_ir::build_func;
use crate::{
    onnx::rebuild::{functions, graph_or_report},
    pipeline::{Diags, Module, NvdlaModule, Pass},
};
use melior::ir::{
    attribute::StringAttribute, block::BlockLike, operation::OperationLike, Attribute,
    OperationRef, RegionLike,
};
use onnc_dialects::{
    ir,
    pass_api::{OptionKind, OptionSpec, PassBody, PassFailed, PassOptions, PassRegistration},
};
use onnc_nvdla::{lower::LowerOptions, Config, ConfigName, Precision};
use std::collections::HashSet;

/// `{atomic_c = 64 : i64, ..., precisions = "int8,int16,fp16"}`: the
/// configuration's parameters, printed beside `nvdla.config` so the IR says
/// what it was planned for (passes read the configuration by its name).
pub fn hw_dictionary(c: &Config) -> String {
    let mut items: Vec<String> = c
        .to_attr_fields()
        .into_iter()
        .map(|(k, v)| format!("{k} = {v} : i64"))
        .collect();
    let precisions: Vec<&str> = c.precisions.iter().map(|p| p.as_str()).collect();
    items.push(format!("precisions = \"{}\"", precisions.join(",")));
    format!("{{{}}}", items.join(", "))
}

/// Registration of `convert-onnx-to-nvdla`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "convert-onnx-to-nvdla",
    summary: "Lower legalized onnx ops to nvdla hardware layers (with fusion)",
    anchor: "builtin.module",
    options: &[
        OptionSpec {
            name: "config",
            kind: OptionKind::Enum(&["nv_full", "nv_large", "nv_small"]),
            default: "nv_full",
            help: "the NVDLA hardware configuration",
        },
        OptionSpec {
            name: "precision",
            kind: OptionKind::Enum(&["auto", "fp16", "int8"]),
            default: "auto",
            help: "the datapath precision: auto is the configuration's own (fp16 on nv_full, int8 on nv_large and nv_small); int8 on nv_full needs calibration (nvdla-load-ctable) like the other configurations",
        },
    ],
    factory: make,
};

fn make(o: &PassOptions) -> Result<Box<dyn PassBody>, String> {
    Ok(Box::new(Convert::from_options(o)?))
}

/// The in-memory `convert-onnx-to-nvdla` (see [`crate::pipeline`]): the
/// module changes level from `onnx` to `nvdla`.
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Convert::from_options(o)?))
}

impl Pass for Convert {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let graph = module.onnx_mut("convert-onnx-to-nvdla").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let nodes: HashSet<&str> = graph.nodes.iter().map(|n| n.name.as_str()).collect();
        let at = |n: &str| Some(n).filter(|n| nodes.contains(n)).map(str::to_string);
        match onnc_nvdla::lower::lower(graph, self.config, &self.lower) {
            Ok(mut program) => {
                for w in onnc_nvdla::lower::weight_values::warnings(&program) {
                    diags.warning(at(&w.node).as_deref(), w.to_string());
                }
                crate::pipeline::program_order::canonical_order(&mut program);
                *module = Module::Nvdla(NvdlaModule {
                    program,
                    memory: None,
                });
                Ok(())
            }
            Err(e) => {
                for problem in &e.problems {
                    diags.error(at(&problem.node).as_deref(), problem.to_string());
                }
                Err(PassFailed)
            }
        }
    }
}

struct Convert {
    config: ConfigName,
    lower: LowerOptions,
}

impl Convert {
    /// The pass from its options; a precision the configuration cannot run
    /// is refused here, when the pipeline is parsed.
    fn from_options(o: &PassOptions) -> Result<Convert, String> {
        let config: ConfigName = o.str("config").parse()?;
        let precision = match o.str("precision") {
            "auto" => None,
            p => Some(Precision::parse(p).ok_or_else(|| format!("unknown precision '{p}'"))?),
        };
        let lower = LowerOptions {
            precision,
            ..Default::default()
        };
        onnc_nvdla::lower::config_for(config, &lower)?;
        Ok(Convert { config, lower })
    }
}

impl PassBody for Convert {
    fn run(&self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let mut built = Vec::new();
        let mut failed = false;
        for func in functions(&module) {
            let floc = func.location();
            let name = func
                .attribute("sym_name")
                .ok()
                .and_then(ir::str_attr)
                .unwrap_or_default();
            let Some((graph, locs)) = graph_or_report(&func, "convert-onnx-to-nvdla") else {
                failed = true;
                continue;
            };
            match onnc_nvdla::lower::lower(&graph, self.config, &self.lower) {
                Ok(program) => {
                    // FP16 weights beyond ±65504 compile, with a warning at the node.
                    for w in onnc_nvdla::lower::weight_values::warnings(&program) {
                        ir::emit_warning(
                            locs.get(&w.node).copied().unwrap_or(floc),
                            &w.to_string(),
                        );
                    }
                    built.push((func, name, program))
                }
                Err(e) => {
                    for problem in &e.problems {
                        let at = locs.get(&problem.node).copied().unwrap_or(floc);
                        ir::emit_error(at, &problem.to_string());
                    }
                    failed = true;
                }
            }
        }
        if failed {
            return Err(PassFailed);
        }
        for (func, name, program) in built {
            let result = ir::with_context(&module, |context| {
                build_func(context, &program, &name).map(|f| {
                    body.insert_operation_before(func, f);
                })
            });
            if let Err(e) = result {
                ir::emit_error(
                    func.location(),
                    &format!("convert-onnx-to-nvdla: building the nvdla function failed: {e}"),
                );
                return Err(PassFailed);
            }
            ir::erase_if_unused(func);
        }
        ir::with_context(&module, |context| {
            ir::set_attribute(
                &module,
                "nvdla.config",
                StringAttribute::new(context, self.config.as_str()).into(),
            );
            if let Some(hw) = Attribute::parse(context, &hw_dictionary(&Config::get(self.config))) {
                ir::set_attribute(&module, "nvdla.hw", hw);
            }
        });
        Ok(())
    }
}
