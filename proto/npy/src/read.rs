//! [`read`] a `.npy` file from disk, or [`parse`] one from memory.
//!
//! Order of checks: the path is a regular file (a FIFO is never opened); the
//! preamble and header parse; the element count and byte size are checked
//! arithmetic; the byte size equals what the file holds after the header.
//! Only then is the data buffer allocated and read.

use crate::header::{parse_dict, preamble};
use crate::{data, NpyError};
use onnc_tensor::Tensor;
use std::io::Read;
use std::path::Path;

/// Reads the `.npy` file at `path`. Errors name the file.
pub fn read(path: &Path) -> Result<Tensor, NpyError> {
    let name = |mut e: NpyError| {
        e.path = path.display().to_string();
        e
    };
    let meta = std::fs::metadata(path).map_err(|e| name(NpyError::new(e.to_string())))?;
    if !meta.is_file() {
        return Err(name(NpyError::new(
            "it is not a regular file (a FIFO, device or directory); give a .npy file",
        )));
    }
    let mut file = std::fs::File::open(path).map_err(|e| name(NpyError::new(e.to_string())))?;
    from_reader(&mut file, meta.len()).map_err(name)
}

/// Parses a whole `.npy` file held in memory. Errors name `<memory>`.
pub fn parse(bytes: &[u8]) -> Result<Tensor, NpyError> {
    from_reader(&mut &bytes[..], bytes.len() as u64)
}

/// Reads a `.npy` stream of `total` bytes.
fn from_reader(r: &mut impl Read, total: u64) -> Result<Tensor, NpyError> {
    let io = |e: std::io::Error| NpyError::new(format!("cannot read: {e}"));
    let mut head = [0u8; 12];
    let got = read_up_to(r, &mut head).map_err(io)?;
    let (version, start, len) = preamble(&head[..got])?;
    let data_start = start + len;
    if (data_start as u64) > total {
        return Err(NpyError::new(format!(
            "the file ends inside the header ({total} bytes, header up to byte {data_start})"
        )));
    }
    let mut text = head[start.min(got)..got].to_vec();
    text.resize(len, 0);
    let already = got.saturating_sub(start).min(len);
    r.read_exact(&mut text[already..]).map_err(io)?;
    let h = parse_dict(version, &text, data_start)?;
    let (shape, bytes) = sizes(&h)?;
    let present = total - data_start as u64;
    if bytes as u64 != present {
        return Err(NpyError::new(format!(
            "the header announces shape {:?} of {} ({bytes} bytes) but the file holds {present} bytes of data; the file is truncated or not what numpy wrote",
            h.shape, h.dtype
        )));
    }
    let mut buf = vec![0u8; bytes];
    r.read_exact(&mut buf).map_err(io)?;
    data::tensor(&h, shape, buf)
}

/// The shape as `usize`s and the data's byte size, checked arithmetic.
fn sizes(h: &crate::Header) -> Result<(Vec<usize>, usize), NpyError> {
    let too_big = || {
        NpyError::new(format!(
            "shape {:?} of {} is larger than memory can hold",
            h.shape, h.dtype
        ))
    };
    let mut bytes = h.dtype.size();
    let mut shape = Vec::with_capacity(h.shape.len());
    for &d in &h.shape {
        let d = usize::try_from(d).map_err(|_| too_big())?;
        bytes = bytes.checked_mul(d).ok_or_else(too_big)?;
        shape.push(d);
    }
    Ok((shape, bytes))
}

/// Fills as much of `buf` as the stream has; returns how many bytes.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
