//! Replays every committed cargo-fuzz corpus file (`fuzz/corpus/<target>/`)
//! through the fuzz target's own entry point (`fuzz/entry.rs`, included
//! here), on stable Rust in the ordinary suite: errors are fine, a panic
//! names the file. Fuzzing itself: `docs/fuzzing.md`.

use std::path::PathBuf;

#[path = "../fuzz/entry.rs"]
mod entry;

#[path = "../../../test/support/fuzz_replay.rs"]
mod fuzz_replay;

/// Replays `fuzz/corpus/<target>/` through `f`.
fn replay(target: &str, f: fn(&[u8])) {
    fuzz_replay::replay(env!("CARGO_MANIFEST_DIR"), target, f);
}

#[test]
fn loadable_corpus_never_panics() {
    replay("loadable", entry::run);
}

/// The corpus was minimized against the golden loadables (its seeds), which
/// stay in `test/data/nvdla-golden/` only: replay them too.
#[test]
fn golden_seeds_never_panic() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test/data/nvdla-golden");
    let n = fuzz_replay::replay_files(&dir, |p| p.to_string_lossy().ends_with("_fbuf"), entry::run);
    assert_eq!(n, 10, "the ten golden loadables");
}
