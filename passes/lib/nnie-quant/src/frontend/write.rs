//! Atomic package output: all files appear in the directory at once, or none.
//!
//! In: a target directory and `(file name, bytes)` pairs. Out: the directory
//! holding exactly those files, built in a sibling temporary directory and
//! renamed into place (an existing directory is replaced the same way).
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

fn io(p: &Path, e: std::io::Error) -> NnieError {
    NnieError::Io(format!("{}: {e}", p.display()))
}

/// Write `files` into `dir` atomically (see the module doc).
pub fn write_dir_atomic(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    let leaf = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| NnieError::Io(format!("{}: not a directory name", dir.display())))?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io(&parent, e))?;
    let tmp = parent.join(format!(".{leaf}.tmp-{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| io(&tmp, e))?;
    }
    std::fs::create_dir(&tmp).map_err(|e| io(&tmp, e))?;
    let fill = || -> Result<()> {
        for (name, bytes) in files {
            let p = tmp.join(name);
            std::fs::write(&p, bytes).map_err(|e| io(&p, e))?;
        }
        Ok(())
    };
    if let Err(e) = fill() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if dir.exists() {
        let old = parent.join(format!(".{leaf}.old-{}", std::process::id()));
        std::fs::rename(dir, &old).map_err(|e| io(dir, e))?;
        std::fs::rename(&tmp, dir).map_err(|e| io(dir, e))?;
        std::fs::remove_dir_all(&old).map_err(|e| io(&old, e))?;
    } else {
        std::fs::rename(&tmp, dir).map_err(|e| io(dir, e))?;
    }
    Ok(files.iter().map(|(n, _)| dir.join(n)).collect())
}
