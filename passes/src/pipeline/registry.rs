//! Which passes run in memory, and how each is built from its options.
//!
//! The registration (flag, options, docs) is the pass's one MLIR
//! [`PassRegistration`]; this table adds the in-memory factory beside it.

use super::Pass;
use onnc_dialects::pass_api::{PassOptions, PassRegistration};

/// Builds an in-memory pass from parsed options.
pub type Factory = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// A pass that runs on [`super::Module`].
pub struct Entry {
    /// Flag, options and documentation.
    pub registration: &'static PassRegistration,
    /// The in-memory instance.
    pub factory: Factory,
}

/// Every in-memory pass, in pipeline order.
pub fn all() -> &'static [Entry] {
    use crate::{legalize, nvdla, onnx};
    static ALL: [Entry; 5] = [
        Entry {
            registration: &onnx::simplify::REGISTRATION,
            factory: onnx::simplify::memory,
        },
        Entry {
            registration: &legalize::pass::REGISTRATION,
            factory: legalize::pass::memory,
        },
        Entry {
            registration: &nvdla::convert::REGISTRATION,
            factory: nvdla::convert::memory,
        },
        Entry {
            registration: &nvdla::ctable::LOAD,
            factory: nvdla::ctable::memory_load,
        },
        Entry {
            registration: &nvdla::plan::REGISTRATION,
            factory: nvdla::plan::memory,
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
