//! `onnc-passes` — every pass of onnc, registered by its flag.
//!
//! Each pass is a file whose module doc has the fixed shape (flag, summary,
//! input → output dialects, IR before/after, preconditions, failure modes)
//! and whose `REGISTRATION` constant is the single source for MLIR's pass
//! registry, `onnc-opt --help` and `docs/passes.md`.
//!
//! The name chain: flag `onnc-dce` → `passes/src/onnc/dce.rs` →
//! `test/onnc/dce.mlir` → `docs/passes.md#onnc-dce`.
//!
//! ```
//! onnc_passes::register_all();
//! assert!(onnc_passes::all().iter().any(|p| p.flag == "onnc-dce"));
//! ```
#![warn(missing_docs)]

// The fuzz entry (`fuzz/entry.rs`) names this crate `onnc_passes`; its corpus
// replay compiles it inside the crate's own tests.
#[cfg(test)]
extern crate self as onnc_passes;

pub mod blobs;
mod error;
pub mod export;
pub mod import;
pub mod io;
pub mod legalize;
mod level_text;
pub mod mvu;
pub mod nnie;
pub mod numerics;
pub mod nvdla;
pub mod onnc;
pub mod onnx;
pub mod pipeline;
pub mod sim_check;
pub mod translate;
mod walk;

pub use error::Error;
use onnc_dialects::{ir, pass_api::PassRegistration};

/// Every pass of ours, in `--help` order.
pub fn all() -> &'static [&'static PassRegistration] {
    static ALL: [&PassRegistration; 13] = [
        &onnc::dce::REGISTRATION,
        &onnc::verify::REGISTRATION,
        &onnx::simplify::REGISTRATION,
        &legalize::pass::REGISTRATION,
        &nvdla::convert::REGISTRATION,
        &nvdla::split::REGISTRATION,
        &nvdla::plan::REGISTRATION,
        &nvdla::ctable::LOAD,
        &nvdla::ctable::GEN,
        &mvu::convert::REGISTRATION,
        &mvu::verify::REGISTRATION,
        &nnie::convert::REGISTRATION,
        &nnie::verify::REGISTRATION,
    ];
    &ALL
}

/// Registers MLIR's passes and ours so that textual pipelines can name them.
/// Idempotent.
pub fn register_all() {
    for pass in all() {
        ir::register_pass(pass);
    }
}

/// The `--help` text listing our passes with their options.
pub fn help_text() -> String {
    let mut s =
        String::from("Passes of onnc (use inside --pass-pipeline='builtin.module(...)'):\n");
    for p in all() {
        let anchor = if p.anchor.is_empty() {
            "any op".to_string()
        } else {
            p.anchor.to_string()
        };
        s.push_str(&format!(
            "  {:<28} {} [runs on {anchor}]\n",
            p.flag, p.summary
        ));
        for o in p.options {
            s.push_str(&format!(
                "      {}={:<20} {} (default: {})\n",
                o.name,
                format!("<{}>", o.type_text()),
                o.help,
                if o.default.is_empty() {
                    "\"\""
                } else {
                    o.default
                }
            ));
        }
    }
    s
}

#[cfg(test)]
mod fuzz_corpus_test;

#[cfg(test)]
mod tests {
    /// docs/passes.md documents every pass and every option (no stale docs).
    #[test]
    fn passes_doc_covers_every_pass_and_option() {
        let doc = include_str!("../../docs/passes.md");
        for p in super::all() {
            assert!(
                doc.contains(&format!("## `{}`", p.flag)),
                "docs/passes.md has no section for {}",
                p.flag
            );
            for o in p.options {
                assert!(
                    doc.contains(&format!("`{}`", o.name)),
                    "docs/passes.md misses option {} of {}",
                    o.name,
                    p.flag
                );
            }
        }
    }

    #[test]
    fn flags_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for p in super::all() {
            assert!(seen.insert(p.flag), "duplicate flag {}", p.flag);
            assert!(
                p.flag
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                p.flag
            );
        }
    }
}
