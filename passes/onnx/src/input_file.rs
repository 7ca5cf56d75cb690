//! Opening input files safely: only regular files, and only the bytes asked for.
//!
//! In: a path named by a user or by a model (the model itself, a
//! `TensorProto` `.pb`, an external-data `location`). Out: its bytes, or an
//! `std::io::Error` whose message says what the path is and what to give
//! instead.
//!
//! Rules (docs/reliability.md, "Policies"):
//! * a path that is not a regular file (FIFO, device, socket, directory) is
//!   refused **before it is opened** — opening a FIFO with no writer blocks
//!   forever, and a device may never end;
//! * a slice (`offset`, `length`) of a file is read with one seek and one
//!   exact read after checking `offset + length` against the file's size, so
//!   a 64 GiB sparse external-data file costs `length` bytes, not 64 GiB.

use prost::bytes::Bytes;
use std::fs::File;
use std::io::{Error, ErrorKind, Read, Seek, SeekFrom};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

/// What a non-regular file type is, in words.
fn kind_of(t: std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading if it is a regular file (symlinks followed).
///
/// The type is checked with `stat` before `open`, so a FIFO is never opened,
/// and again on the open file, so a path swapped in between is caught.
/// Returns the file and its size in bytes.
pub(crate) fn open_regular(path: &Path) -> Result<(File, u64), Error> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refused(meta.file_type()));
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refused(meta.file_type()));
    }
    Ok((file, meta.len()))
}

fn refused(t: std::fs::FileType) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("it is {}; give a regular file", kind_of(t)),
    )
}

/// Reads all of the regular file at `path` (see [`open_regular`]) into one
/// shared buffer.
pub(crate) fn read_regular(path: &Path) -> Result<Bytes, Error> {
    let (mut file, len) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(Bytes::from(bytes))
}

/// A slice of a regular file that does not fit in it.
#[derive(Debug)]
pub(crate) struct OutOfRange {
    /// The file's size in bytes.
    pub size: u64,
}

/// Reads `length` bytes (all that follow `offset` when `None`) at `offset`
/// of the regular file at `path`: one seek and one exact read, never more
/// than the slice. `Ok(Err(..))` when the slice does not fit in the file.
pub(crate) fn read_slice(
    path: &Path,
    offset: u64,
    length: Option<u64>,
) -> Result<Result<Vec<u8>, OutOfRange>, Error> {
    let (mut file, size) = open_regular(path)?;
    let end = match length {
        Some(l) => offset.checked_add(l),
        None => Some(size),
    };
    let len = match end {
        Some(end) if offset <= size && end <= size => end - offset,
        _ => return Ok(Err(OutOfRange { size })),
    };
    let len = usize::try_from(len)
        .map_err(|_| Error::new(ErrorKind::OutOfMemory, "slice larger than memory"))?;
    let mut bytes = vec![0u8; len];
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(&mut bytes)?;
    Ok(Ok(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("onnc-onnx-input-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn directories_and_fifos_are_refused_without_opening() {
        let d = scratch("kinds");
        let e = read_regular(&d).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let fifo = d.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            // Would block forever if it were opened.
            let e = read_regular(&fifo).unwrap_err();
            assert!(e.to_string().contains("a FIFO"), "{e}");
            let e = read_slice(&fifo, 0, Some(4)).unwrap_err();
            assert!(e.to_string().contains("a FIFO"), "{e}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn slices_are_checked_against_the_size() {
        let d = scratch("slice");
        let f = d.join("w.bin");
        std::fs::write(&f, b"0123456789").unwrap();
        assert_eq!(read_slice(&f, 2, Some(3)).unwrap().unwrap(), b"234");
        assert_eq!(read_slice(&f, 4, None).unwrap().unwrap(), b"456789");
        assert_eq!(read_slice(&f, 10, Some(0)).unwrap().unwrap(), b"");
        assert_eq!(read_slice(&f, 8, Some(3)).unwrap().unwrap_err().size, 10);
        assert_eq!(read_slice(&f, 11, None).unwrap().unwrap_err().size, 10);
        assert!(read_slice(&f, u64::MAX, Some(2)).unwrap().is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_sparse_64_gib_file_costs_only_the_slice() {
        let d = scratch("sparse");
        let f = d.join("weights.bin");
        let file = File::create(&f).unwrap();
        if file.set_len(64 << 30).is_ok() {
            let b = read_slice(&f, (64 << 30) - 32, Some(32)).unwrap().unwrap();
            assert_eq!(b, vec![0u8; 32]);
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
