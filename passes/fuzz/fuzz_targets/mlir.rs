//! Fuzz target `mlir`: MLIR text through what `onnc-opt` does with it (guarded
//! parse, verifiers, print, reparse) and through each onnc pass alone must
//! fail with diagnostics or succeed with valid IR, never panic or abort.
//! The logic is `../entry.rs`, shared with `src/fuzz_corpus_test.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::run(data));
