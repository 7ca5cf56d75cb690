//! Replays every committed cargo-fuzz corpus file (`fuzz/corpus/<target>/`)
//! through the fuzz target's own entry point (`fuzz/entry.rs`, included
//! here), on stable Rust in the ordinary suite: errors are fine, a panic
//! names the file. Fuzzing itself: `docs/fuzzing.md`.

#[path = "../fuzz/entry.rs"]
mod entry;

#[path = "../../../test/support/fuzz_replay.rs"]
mod fuzz_replay;

/// Replays `fuzz/corpus/<target>/` through `f`.
fn replay(target: &str, f: fn(&[u8])) {
    fuzz_replay::replay(env!("CARGO_MANIFEST_DIR"), target, f);
}

#[test]
fn onnx_corpus_never_panics() {
    replay("onnx", entry::run);
}
