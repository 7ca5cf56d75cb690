//! Replays every committed cargo-fuzz corpus file (`fuzz/corpus/<target>/`)
//! through the fuzz target's own entry point (`fuzz/entry.rs`, included
//! here), on stable Rust in the ordinary suite: errors are fine, a panic
//! names the file. Fuzzing itself: `docs/fuzzing.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

#[path = "../fuzz/entry.rs"]
mod entry;

/// Runs `f` on every file of `fuzz/corpus/<target>/`; fails listing the files that panicked.
fn replay(target: &str, f: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    let panicked: Vec<String> = files
        .iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap();
            catch_unwind(AssertUnwindSafe(|| f(&bytes))).is_err()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        panicked.is_empty(),
        "{} of {} corpus files panicked: {panicked:#?}",
        panicked.len(),
        files.len()
    );
}

#[test]
fn clip_table_corpus_never_panics() {
    replay("clip_table", entry::run);
}
