//! The in-memory pass: a function of the module that edits it in place.

use super::{Diags, Module};
pub use onnc_dialects::pass_api::PassFailed;

/// One pass instance (its options already parsed).
pub trait Pass: Send + Sync {
    /// Runs on `module`, editing it in place. On failure, record the reasons
    /// in `diags` first, then return `Err(PassFailed)`; the module may then
    /// be left half-edited and must not be used further. Warnings and
    /// remarks go to `diags` too.
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed>;
}
