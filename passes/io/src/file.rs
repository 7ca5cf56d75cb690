//! Single-file outputs: atomic replacement of regular files, in-place
//! writes to devices and FIFOs, `-` for standard output.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::temp;

/// Writes `bytes` to `path` by the rules of the crate doc.
/// In: the output path (`-` = stdout) and the whole content.
/// Out: `Ok` once every byte is written; on error nothing is left behind
/// and an existing regular file at `path` is untouched.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_file_with(path, |w| w.write_all(bytes))
}

/// Like [`write_file`], streaming: `fill` writes the content into the
/// writer it is given (buffered).
pub fn write_file_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    if path == Path::new("-") {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        return fill(&mut out)
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("<stdout>", e));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(Error::refused(
            path,
            "it is a directory; name a file (this output is a single file)",
        )),
        Ok(m) if !m.is_file() => write_in_place(path, fill),
        _ => replace_atomically(path, fill),
    }
}

/// A device, FIFO or socket: open it for writing without creating or
/// truncating, write, flush, and report every error.
fn write_in_place(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let mut w = std::io::BufWriter::new(f);
    fill(&mut w)
        .and_then(|()| w.flush())
        .map_err(|e| Error::io(path, e))
}

/// A regular file or a new path: write a temporary beside it, rename it
/// over the target. No fsync (as LLVM's tools): a crash of the process
/// leaves the old file or the new one; the page cache survives the process.
fn replace_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    temp::sweep_stale(path);
    let tmp = temp::fresh(path);
    let result = (|| {
        let f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        let mut w = std::io::BufWriter::new(f);
        fill(&mut w)?;
        w.flush()?;
        // Keep the permissions of the file being replaced.
        if let Ok(m) = std::fs::metadata(path) {
            let _ = std::fs::set_permissions(&tmp, m.permissions());
        }
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}
