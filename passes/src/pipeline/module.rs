//! [`Module`]: the one in-memory IR of a compile, at one level.

use onnc_mvu::Compiled;
use onnc_nvdla::{plan::PlanReport, Program};
use onnc_onnx::Graph;

/// The module of a compile: exactly one level at a time.
#[derive(Debug, Clone)]
pub enum Module {
    /// The `onnx` level: an ONNX graph (import, simplification, legalization).
    Onnx(Graph),
    /// The `nvdla` level: hardware layers for one NVDLA configuration.
    Nvdla(NvdlaModule),
    /// The `mvu` level: BARVINN MVU layers with their registers and integer weights.
    Mvu(MvuModule),
    /// The `nnie` level: calibrated NNIE layers and the package made from them.
    Nnie(NnieModule),
}

/// The NNIE level: what `convert-onnx-to-nnie` compiled, as `onnc_nnie`
/// holds it — one calibrated layer per `nnie` op (input and weight clips on
/// the `2^(k/16)` grid), the `nnie_mapper` package files (Caffe net, clip
/// table, `.cfg`, image list and calibration inputs) and the quality report.
#[derive(Debug, Clone)]
pub struct NnieModule {
    /// The compiled network (layers, package, report, warnings).
    pub compiled: onnc_nnie::frontend::Compiled,
    /// Each value's element type and Caffe blob shape as the text types
    /// it: inferred on the legalized graph ([`NnieModule::new`]), or the
    /// types read back from `nnie` text.
    pub types: Box<std::collections::HashMap<String, onnc_onnx::TypeInfo>>,
}

impl NnieModule {
    /// The module of a fresh compile, its value types inferred on the
    /// compiled graph (none when inference fails: the text writer then
    /// names the value without a shape).
    pub fn new(compiled: onnc_nnie::frontend::Compiled) -> Self {
        let types = onnc_onnx::infer_graph(compiled.graph()).unwrap_or_default();
        Self {
            compiled,
            types: Box::new(types),
        }
    }
}

/// The MVU level: what `convert-onnx-to-mvu` compiled, as `onnc_mvu` holds
/// it (one lowered layer per `mvu` op with its integer weights and bias,
/// the pieces and register table the configuration files are made from).
#[derive(Debug, Clone)]
pub struct MvuModule {
    /// The compiled network (layers, registers, table with the total countdown, files).
    pub compiled: Compiled,
    /// The graph input's ONNX name (the function argument's `onnx.name`).
    pub input: String,
}

impl MvuModule {
    /// The network's total countdown (the module's `mvu.total_countdown`).
    pub fn total_countdown(&self) -> u64 {
        self.compiled.table().total_countdown
    }
}

/// The NVDLA level: the program and what passes recorded about it.
#[derive(Debug, Clone)]
pub struct NvdlaModule {
    /// The hardware layers (configuration inside).
    pub program: Program,
    /// The memory planner's summary, once `nvdla-plan-memory` ran
    /// (printed as the module's `nvdla.memory` attribute).
    pub memory: Option<PlanReport>,
}

impl Module {
    /// The level's dialect name (`onnx`, `nvdla`, `mvu`, `nnie`), for messages.
    pub fn level(&self) -> &'static str {
        match self {
            Module::Onnx(_) => "onnx",
            Module::Nvdla(_) => "nvdla",
            Module::Mvu(_) => "mvu",
            Module::Nnie(_) => "nnie",
        }
    }

    /// The ONNX graph, or an error naming `pass` and the level found.
    pub fn onnx_mut(&mut self, pass: &str) -> Result<&mut Graph, String> {
        let level = self.level();
        match self {
            Module::Onnx(g) => Ok(g),
            _ => Err(format!(
                "{pass}: expects the onnx level, but the module is at the {level} level"
            )),
        }
    }

    /// The NVDLA module, or an error naming `pass` and the level found.
    pub fn nvdla_mut(&mut self, pass: &str) -> Result<&mut NvdlaModule, String> {
        let level = self.level();
        match self {
            Module::Nvdla(n) => Ok(n),
            _ => Err(format!(
                "{pass}: expects the nvdla level (run convert-onnx-to-nvdla first), but the module is at the {level} level"
            )),
        }
    }

    /// The MVU module, or an error naming `pass` and the level found.
    pub fn mvu(&self, pass: &str) -> Result<&MvuModule, String> {
        match self {
            Module::Mvu(m) => Ok(m),
            _ => Err(format!(
                "{pass}: expects the mvu level (run convert-onnx-to-mvu first), but the module is at the {} level",
                self.level()
            )),
        }
    }

    /// The NNIE module, or an error naming `pass` and the level found.
    pub fn nnie(&self, pass: &str) -> Result<&NnieModule, String> {
        match self {
            Module::Nnie(m) => Ok(m),
            _ => Err(format!(
                "{pass}: expects the nnie level (run convert-onnx-to-nnie first), but the module is at the {} level",
                self.level()
            )),
        }
    }
}
