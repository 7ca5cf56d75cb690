//! Loadable verifier: the rules of research/nvdla.md §1–§2.
//!
//! In: a [`Loadable`] and [`VerifyOptions`] (ABI, memory atom size). Out: a
//! list of [`Violation`]s, each naming the list, index and field, the rule
//! and what is wrong. Empty means clean. Errors break loading or execution
//! with the NVIDIA runtime/firmware; warnings are departures from what the
//! official compiler writes that the runtime tolerates.
//!
//! Rules live in one file per area: `container.rs` (lists, ids, memory,
//! bindings, blobs, relocs), `dla.rs` (network desc, dependency graph),
//! `engines.rs` (per-processor limits), `cube.rs` (data cubes), `emu.rs` (EMU tasks).
//! The README lists every rule id.

mod container;
mod cube;
mod dla;
mod emu;
mod engines;

use crate::abi::Abi;
use crate::model::Loadable;

/// How bad a violation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The runtime or firmware rejects or mis-executes the loadable.
    Error,
    /// Tolerated by the runtime, but not what a well-formed loadable has.
    Warning,
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Violation {
    /// Error or warning.
    pub severity: Severity,
    /// Stable kebab-case rule id, e.g. `bind-id`, `pdp-kernel`.
    pub rule: &'static str,
    /// Where: list, index and field, e.g. `memory_list[12].bind_id`.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{sev}[{}] {}: {}",
            self.rule, self.location, self.message
        )
    }
}

/// Verifier settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Descriptor ABI.
    pub abi: Abi,
    /// Memory atom in bytes: 32 on nv_full/nv_large, 8 on nv_small.
    /// Addresses and strides of DRAM cubes must be multiples of it.
    pub atom_size: u32,
}

/// Default atom: 8 bytes, the smallest configuration, so that the alignment
/// rules hold on every configuration.
pub const DEFAULT_ATOM_SIZE: u32 = 8;

impl VerifyOptions {
    /// Options for `abi` with the default 8-byte atom.
    pub fn new(abi: Abi) -> Self {
        VerifyOptions {
            abi,
            atom_size: DEFAULT_ATOM_SIZE,
        }
    }
}

/// Collects violations.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    pub(crate) out: Vec<Violation>,
}

impl Sink {
    pub(crate) fn error(
        &mut self,
        rule: &'static str,
        location: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Error, rule, location, message);
    }

    pub(crate) fn warn(
        &mut self,
        rule: &'static str,
        location: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.push(Severity::Warning, rule, location, message);
    }

    fn push(
        &mut self,
        severity: Severity,
        rule: &'static str,
        location: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.out.push(Violation {
            severity,
            rule,
            location: location.into(),
            message: message.into(),
        });
    }
}

/// Verifies `l` with `abi` and the default atom size.
pub fn verify(l: &Loadable, abi: Abi) -> Vec<Violation> {
    verify_with(l, &VerifyOptions::new(abi))
}

/// Verifies `l` with explicit options.
pub fn verify_with(l: &Loadable, opts: &VerifyOptions) -> Vec<Violation> {
    let mut s = Sink::default();
    container::check(l, &mut s);
    for (t, task) in l.task_list.iter().enumerate() {
        match crate::layout::task_descs(l, task, opts.abi) {
            crate::layout::TaskDescs::Dla(d) => dla::check(l, t, &d, opts, &mut s),
            crate::layout::TaskDescs::Emu(d) => emu::check(l, t, &d, opts, &mut s),
            crate::layout::TaskDescs::Other(_) => {}
        }
    }
    s.out
}
