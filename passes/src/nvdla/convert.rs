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

use crate::pipeline::{mlir_face, Diags, Module, NvdlaModule, Pass};
use onnc_dialects::pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration};
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
    factory: |o: &PassOptions| mlir_face::body("convert-onnx-to-nvdla", o),
};

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
                for problem in e.problems() {
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
