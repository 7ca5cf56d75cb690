//! Shared by every crate's `tests/fuzz_corpus.rs` (included with `#[path]`):
//! replays committed cargo-fuzz corpus files through a fuzz target's entry
//! point on stable Rust. Errors are fine; a panic names the file.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Runs `f` on every file of `<manifest_dir>/fuzz/corpus/<target>/`; fails
/// listing the files that panicked (and if the folder is empty).
pub fn replay(manifest_dir: &str, target: &str, f: fn(&[u8])) {
    let dir = PathBuf::from(manifest_dir).join("fuzz/corpus").join(target);
    let n = replay_files(&dir, |_| true, f);
    assert!(n > 0, "{} is empty", dir.display());
}

/// Runs `f` on every file of `dir` that `keep` accepts, in name order;
/// fails listing the files that panicked. Out: how many files ran.
pub fn replay_files(dir: &Path, keep: fn(&Path) -> bool, f: fn(&[u8])) -> usize {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && keep(p))
        .collect();
    files.sort();
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
    files.len()
}
