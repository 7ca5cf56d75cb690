//! Which passes run in memory, the level each reads, and how each is built
//! from its options.
//!
//! The registration (flag, options, docs) is the pass's one
//! [`PassRegistration`]; this table adds the in-memory factory and the
//! level the pass expects. MLIR's pass registry knows these passes too (so
//! a pipeline is parsed and checked in one place, and `onnc-opt --help`
//! lists them): there, each is the one adapter [`super::mlir_face`], used
//! only when an MLIR pass manager runs the pass itself.

use super::Pass;
use onnc_dialects::pass_api::{PassOptions, PassRegistration};

/// Builds an in-memory pass from parsed options.
pub type Factory = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// A level of the in-memory IR ([`super::Module`]'s variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `Module::Onnx`: a function of `onnx` ops.
    Onnx,
    /// `Module::Nvdla`: a function of `nvdla` ops in a module with `nvdla.config`.
    Nvdla,
    /// `Module::Mvu`: a function of `mvu` ops (read by `crate::mvu::from_ir`).
    Mvu,
    /// `Module::Nnie`: a function of `nnie` ops with the package attributes
    /// (read by `crate::nnie::from_ir`).
    Nnie,
}

/// A pass that runs on [`super::Module`].
pub struct Entry {
    /// Flag, options and documentation.
    pub registration: &'static PassRegistration,
    /// The in-memory instance.
    pub factory: Factory,
    /// The level it reads (a function of MLIR text is converted to it).
    pub input: Level,
}

/// Every in-memory pass, in pipeline order.
pub fn all() -> &'static [Entry] {
    use crate::{legalize, mvu, nnie, nvdla, onnx};
    static ALL: [Entry; 11] = [
        Entry {
            registration: &onnx::simplify::REGISTRATION,
            factory: onnx::simplify::memory,
            input: Level::Onnx,
        },
        Entry {
            registration: &legalize::pass::REGISTRATION,
            factory: legalize::pass::memory,
            input: Level::Onnx,
        },
        Entry {
            registration: &nvdla::convert::REGISTRATION,
            factory: nvdla::convert::memory,
            input: Level::Onnx,
        },
        Entry {
            registration: &nvdla::ctable::LOAD,
            factory: nvdla::ctable::memory_load,
            input: Level::Nvdla,
        },
        Entry {
            registration: &nvdla::ctable::GEN,
            factory: nvdla::ctable::memory_gen,
            input: Level::Nvdla,
        },
        Entry {
            registration: &nvdla::split::REGISTRATION,
            factory: nvdla::split::memory,
            input: Level::Nvdla,
        },
        Entry {
            registration: &nvdla::plan::REGISTRATION,
            factory: nvdla::plan::memory,
            input: Level::Nvdla,
        },
        Entry {
            registration: &mvu::convert::REGISTRATION,
            factory: mvu::convert::memory,
            input: Level::Onnx,
        },
        Entry {
            registration: &mvu::verify::REGISTRATION,
            factory: mvu::verify::memory,
            input: Level::Mvu,
        },
        Entry {
            registration: &nnie::convert::REGISTRATION,
            factory: nnie::convert::memory,
            input: Level::Onnx,
        },
        Entry {
            registration: &nnie::verify::REGISTRATION,
            factory: nnie::verify::memory,
            input: Level::Nnie,
        },
    ];
    &ALL
}

/// The entry for `flag`.
pub fn find(flag: &str) -> Option<&'static Entry> {
    all().iter().find(|e| e.registration.flag == flag)
}

/// Every in-memory flag.
pub fn flags() -> impl Iterator<Item = &'static str> {
    all().iter().map(|e| e.registration.flag)
}
