//! Atomic package output: all files appear in the directory at once, or none.
//!
//! In: a target directory and `(file name, bytes)` pairs. Out: the directory
//! holding exactly those files. The rules are onnc-io's (`onnc_io::write_dir`):
//! built in a temporary sibling and swapped in whole; an existing directory
//! is replaced only when it is empty or an earlier package (it holds
//! `quant_report.json`); a device or file at the path is refused untouched.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("nnie-write-doc-{}", std::process::id()));
//! let files = vec![("a.txt".to_string(), b"x".to_vec())];
//! let written = onnc_nnie::frontend::write_dir_atomic(&dir, &files).unwrap();
//! assert_eq!(std::fs::read(&written[0]).unwrap(), b"x");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::{Path, PathBuf};

use crate::error::{NnieError, Result};

/// Write `files` into `dir` atomically (see the module doc).
pub fn write_dir_atomic(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    let files: Vec<onnc_io::DirFile> = files
        .iter()
        .map(|(name, bytes)| onnc_io::DirFile {
            name: name.clone(),
            bytes: bytes.clone(),
        })
        .collect();
    onnc_io::write_dir(dir, super::QUANT_REPORT_FILE, &files)
        .map_err(|e| NnieError::Io(e.to_string()))
}
