//! The MLIR face of an in-memory pass: the one adapter that lets an MLIR
//! pass manager run it.
//!
//! `onnc-opt` never goes through here: it runs consecutive in-memory passes
//! itself ([`super::opt`]) and crosses to MLIR only around upstream passes.
//! An MLIR pass manager that names one of our in-memory passes (a pass
//! nested in another `builtin.module(...)`) runs this adapter: the functions are
//! converted once ([`super::functions::read`]), the pass runs on them, and
//! they are written back — one pass, one round trip.
//!
//! In: the pass's flag and parsed options (its registration's factory calls
//! [`body`]). Out: an MLIR pass body; a failure is emitted at the ops the
//! pass blamed, and the module is left as it was.

use super::{functions, registry, Pass};
use melior::ir::OperationRef;
use onnc_dialects::pass_api::{PassBody, PassFailed, PassOptions};

/// An in-memory pass scheduled by an MLIR pass manager.
struct Face {
    entry: &'static registry::Entry,
    pass: Box<dyn Pass>,
}

/// The MLIR pass body of in-memory pass `flag` with options `o` (the
/// options are checked by the in-memory factory, so a pipeline is refused
/// the same way wherever it runs).
pub fn body(flag: &str, o: &PassOptions) -> Result<Box<dyn PassBody>, String> {
    let entry = registry::find(flag)
        .ok_or_else(|| format!("'{flag}' has no in-memory form (a registration bug)"))?;
    let pass = (entry.factory)(o)?;
    Ok(Box::new(Face { entry, pass }))
}

impl PassBody for Face {
    fn run(&self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let flag = self.entry.registration.flag;
        let mut fns = functions::read(&module, self.entry.input, flag)?;
        if !functions::apply(&module, flag, &*self.pass, &mut fns) {
            return Err(PassFailed);
        }
        functions::write(&module, &fns, flag)
    }
}
