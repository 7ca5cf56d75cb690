//! `mvu-verify` — check that the `mvu` level is what `onnc-translate
//! --to-mvu-config` would write a configuration from.
//!
//! Input: `mvu` dialect (from `convert-onnx-to-mvu`, in the same pipeline
//! or as text) → Output: unchanged. Read from text, the level goes through
//! the emitter's own reader ([`super::from_ir`]): every attribute the
//! configuration needs is present and typed, precisions are in 1..=16,
//! each register equals what the layer's shape and precisions give, and the
//! layers assemble (split to fit, RAMs, bias image); the text's RAM fit per
//! op is the dialect verifier's, which `onnc-opt` runs on what it parses, as
//! the emitter does. On the level in memory the pass checks the same again:
//! each layer has a dialect form (`onnc_mvu::frontend::dialect_attrs`), its
//! input, output and weights fit one MVU's RAMs ([`onnc_mvu::check_capacity`],
//! the rule the dialect verifier applies to each op, whatever `ram-check`
//! the level was made with), and the layers assemble with the level's
//! options ([`onnc_mvu::frontend::assemble`]).
//!
//! ```text
//! onnc-opt net.mvu.mlir --pass-pipeline='builtin.module(mvu-verify)'
//! // net.mvu.mlir:12:8: error: mvu-verify: attribute 'output_end' is missing
//! ```
//!
//! Preconditions: the module is at the mvu level. Failure modes: each
//! problem is an error at its op (a layer's node location), or at the
//! function when it concerns no op; the pass then fails.

use crate::pipeline::{mlir_face, Diags, Module, Pass};
use onnc_dialects::pass_api::{PassFailed, PassOptions, PassRegistration};
use onnc_mvu::frontend::{assemble, dialect_attrs};
use onnc_mvu::{check_capacity, MemoryUse, MvuLimits};

/// Registration of `mvu-verify`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "mvu-verify",
    summary: "Check that the mvu level is what --to-mvu-config writes from (attributes, registers, RAM fit)",
    anchor: "builtin.module",
    options: &[],
    factory: |o: &PassOptions| mlir_face::body("mvu-verify", o),
};

/// The in-memory `mvu-verify`.
pub fn memory(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Verify))
}

struct Verify;

impl Pass for Verify {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let m = module.mvu("mvu-verify").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let c = &m.compiled;
        for l in c.lowered() {
            if let Err(e) = dialect_attrs(&l.layer) {
                diags.error(
                    Some(&l.node),
                    format!(
                        "mvu-verify: layer '{}' has no mvu dialect form: {e}",
                        l.node
                    ),
                );
            }
            // The footprint's capacity terms do not depend on the columns per job.
            let footprint = MemoryUse::of(&l.layer, 1);
            if let Err(e) = check_capacity(&l.node, &footprint, &MvuLimits::BARVINN) {
                diags.error(Some(&l.node), format!("mvu-verify: {e}"));
            }
        }
        if diags.has_errors() {
            return Err(PassFailed);
        }
        if let Err(e) = assemble(c.lowered().to_vec(), c.options()) {
            for p in e.problems() {
                diags.error(p.node.as_deref(), format!("mvu-verify: {p}"));
            }
            if e.problems().is_empty() {
                diags.error(None, format!("mvu-verify: {e}"));
            }
        }
        if diags.has_errors() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}
