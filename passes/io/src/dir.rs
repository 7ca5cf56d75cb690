//! Directory outputs (NNIE packages, MVU configurations): built in a
//! temporary sibling, then swapped in whole.

use std::path::{Path, PathBuf};

use rustix::fs::{renameat_with, RenameFlags, CWD};

use crate::error::Error;
use crate::temp;

/// One file of a directory output: a relative path and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirFile {
    /// Path relative to the output directory (sub-folders are created).
    pub name: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// Writes `files` as the directory `dir`.
///
/// In: the target directory; `marker`, a file name that identifies an
/// earlier output of the same kind (an existing non-empty directory without
/// it is refused, so a mistyped `-o ~` never replaces a home folder); the
/// files. Out: the final paths. The directory appears whole or not at all:
/// it is built as `.<dir>.onnc-tmp-<pid>-<n>` and exchanged with the old one
/// in one `renameat2(RENAME_EXCHANGE)`, after which the old content is
/// removed. On any error nothing is left behind and the old directory is
/// untouched.
pub fn write_dir(dir: &Path, marker: &str, files: &[DirFile]) -> Result<Vec<PathBuf>, Error> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    for f in files {
        let p = Path::new(&f.name);
        if p.is_absolute()
            || p.components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(Error::refused(
                dir,
                format!("file name '{}' is not a plain relative path", f.name),
            ));
        }
    }
    let existing = match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => {
            let empty = std::fs::read_dir(dir)
                .map(|mut d| d.next().is_none())
                .unwrap_or(false);
            if !empty && !dir.join(marker).is_file() {
                return Err(Error::refused(
                    dir,
                    format!("it is a non-empty directory that is not an earlier output (no {marker}); choose a new or empty directory"),
                ));
            }
            true
        }
        Ok(_) => return Err(Error::refused(
            dir,
            "it exists and is not a directory; this target writes a directory — choose a new path",
        )),
        Err(_) => false,
    };
    temp::sweep_stale(dir);
    let tmp = temp::fresh(dir);
    let cleanup = |e: Error| {
        let _ = std::fs::remove_dir_all(&tmp);
        e
    };
    std::fs::create_dir(&tmp).map_err(|e| Error::io(&tmp, e))?;
    for f in files {
        let p = tmp.join(&f.name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| cleanup(Error::io(dir.join(&f.name), e)))?;
        }
        std::fs::write(&p, &f.bytes).map_err(|e| cleanup(Error::io(dir.join(&f.name), e)))?;
    }
    if existing {
        match renameat_with(CWD, &tmp, CWD, dir, RenameFlags::EXCHANGE) {
            // `tmp` now holds the old content.
            Ok(()) => {
                let _ = std::fs::remove_dir_all(&tmp);
            }
            // A file system without RENAME_EXCHANGE: move the old aside
            // (under a temporary name a later run sweeps), then rename.
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
                let old = temp::fresh(dir);
                std::fs::rename(dir, &old).map_err(|e| cleanup(Error::io(dir, e)))?;
                if let Err(e) = std::fs::rename(&tmp, dir) {
                    let _ = std::fs::rename(&old, dir);
                    return Err(cleanup(Error::io(dir, e)));
                }
                let _ = std::fs::remove_dir_all(&old);
            }
            Err(e) => return Err(cleanup(Error::io(dir, e.into()))),
        }
    } else {
        std::fs::rename(&tmp, dir).map_err(|e| cleanup(Error::io(dir, e)))?;
    }
    Ok(files.iter().map(|f| dir.join(&f.name)).collect())
}
