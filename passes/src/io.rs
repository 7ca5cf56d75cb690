//! Output files: the rules of `onnc-io` (regular files replaced atomically,
//! devices and FIFOs written in place, nothing half-written), with the
//! `std::io::Result` signature the passes use.

use std::path::Path;

pub use onnc_io::{check_outputs, write_dir, write_file, DirFile, Error, OutputKind};

/// Writes `bytes` to `path` by onnc-io's rules (`-` = standard output).
/// Out: the I/O error; a refusal (a directory named as a file) is an error
/// of kind `Other` whose text says why.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    onnc_io::write_file(path, bytes).map_err(|e| match e {
        Error::Io { source, .. } => source,
        Error::Refused { why, .. } | Error::Unreadable { why, .. } => std::io::Error::other(why),
    })
}
