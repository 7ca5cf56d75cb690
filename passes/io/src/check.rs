//! Checks every output of a run before anything is written: an output that
//! is an input, a file output that is a directory, a missing parent folder.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::error::Error;
use crate::temp::parent_of;

/// What an output path is expected to become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// One file (`-` allowed for stdout).
    File,
    /// A directory of files (NNIE package, MVU configuration).
    Dir,
}

/// Refuses, before any output is written, an output that:
/// * is the same file (device and inode) as one of `inputs`;
/// * is a directory where a file is expected, or a non-directory where a
///   directory is expected;
/// * lies in a folder that does not exist.
///
/// In: the outputs with their kinds, and the input files of the run.
/// Out: the first problem, naming the path and what would fix it.
pub fn check_outputs(outputs: &[(&Path, OutputKind)], inputs: &[&Path]) -> Result<(), Error> {
    let ids: Vec<(u64, u64)> = inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| (m.dev(), m.ino()))
        .collect();
    for (i, &(out, kind)) in outputs.iter().enumerate() {
        if out == Path::new("-") {
            continue;
        }
        if outputs[..i].iter().any(|(o, _)| *o == out) {
            return Err(Error::refused(
                out,
                "it is named for two outputs; give each output its own path",
            ));
        }
        match std::fs::metadata(out) {
            Ok(m) => {
                if ids.contains(&(m.dev(), m.ino())) && m.is_file() {
                    return Err(Error::refused(
                        out,
                        "it is also an input of this run; writing it would destroy the input — choose another output path",
                    ));
                }
                if kind == OutputKind::File && m.is_dir() {
                    return Err(Error::refused(out, "it is a directory; name a file"));
                }
                if kind == OutputKind::Dir && !m.is_dir() {
                    return Err(Error::refused(
                        out,
                        "it exists and is not a directory; this target writes a directory — choose a new path",
                    ));
                }
            }
            Err(_) => {
                let parent = parent_of(out);
                if !parent.is_dir() {
                    return Err(Error::refused(
                        out,
                        format!(
                            "the folder '{}' does not exist; create it first",
                            parent.display()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Refuses input files that are not regular files (FIFOs, devices,
/// sockets, directories) before anything opens them: reading a FIFO with no
/// writer blocks forever, a device may never end. `-` (stdin) is allowed.
///
/// In: the input paths. Out: the first one refused, saying what it is.
pub fn check_inputs(inputs: &[&Path]) -> Result<(), Error> {
    for &p in inputs {
        if p == Path::new("-") {
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_file() => {}
            Ok(m) => {
                use std::os::unix::fs::FileTypeExt;
                let t = m.file_type();
                let what = if m.is_dir() {
                    "a directory"
                } else if t.is_fifo() {
                    "a FIFO"
                } else if t.is_char_device() || t.is_block_device() {
                    "a device"
                } else if t.is_socket() {
                    "a socket"
                } else {
                    "not a regular file"
                };
                return Err(Error::unreadable(
                    p,
                    format!("it is {what}; give a regular file (or '-' for standard input)"),
                ));
            }
            Err(e) => return Err(Error::unreadable(p, e.to_string())),
        }
    }
    Ok(())
}
