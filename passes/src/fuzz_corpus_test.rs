//! Replays the committed `mlir` fuzz corpus (`fuzz/corpus/mlir/`) through the
//! fuzz target's own entry point (`fuzz/entry.rs`) in the ordinary suite:
//! errors are fine, a panic names the file. Fuzzing itself: docs/fuzzing.md.

#[path = "../fuzz/entry.rs"]
mod entry;

#[path = "../../test/support/fuzz_replay.rs"]
mod fuzz_replay;

#[test]
fn mlir_corpus_never_panics() {
    fuzz_replay::replay(env!("CARGO_MANIFEST_DIR"), "mlir", entry::run);
}
