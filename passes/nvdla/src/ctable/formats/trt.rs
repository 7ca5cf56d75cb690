//! TensorRT's INT8 calibration cache (text), read and written.
//!
//! ```text
//! TRT-8601-EntropyCalibration2
//! data: 3f9839e4
//! conv1: 3c010a14
//! ```
//!
//! * Line 1: `TRT-<version>-<algorithm>` (version `major·1000 + minor·100 +
//!   patch`, algorithm `EntropyCalibration2`, `MinMaxCalibration`, ...);
//!   kept in [`TensorScales::header`].
//! * Then one `<tensor name>: <hex>` per line: the hex digits are the
//!   big-endian IEEE-754 bits of the `f32` scale (`amax / 127`), so
//!   `3f9839e4` is 1.1892667. Writers pad to 8 digits; some tools do not,
//!   so 1 to 8 digits are read. The name is everything before the last `:`.
//! * Symmetric only (offset 0); empty lines are skipped.
//!
//! In: the text and its file name. Out: [`TensorScales`] keyed by tensor,
//! or an error naming the file, line and name.

use super::super::json::clip;
use super::super::scales::{check_scale, TensorScale, TensorScales};
use super::detect::is_trt_header;
use crate::Error;

/// The header written when the table has none.
pub const DEFAULT_HEADER: &str = "TRT-8601-EntropyCalibration2";

/// Reads a TensorRT calibration cache.
pub(super) fn read(text: &str, file: &str) -> Result<TensorScales, Error> {
    let at = |line: usize, message: String| Error::Entry {
        file: file.into(),
        place: format!("line {line}"),
        message,
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let header = lines.next().map(|(_, l)| l.trim_end()).unwrap_or("");
    if !is_trt_header(header) {
        return Err(at(
            1,
            format!(
                "expected a header line such as '{DEFAULT_HEADER}', got '{}'",
                clip(header)
            ),
        ));
    }
    let mut out = TensorScales::new(file, "trt-cache");
    out.header = Some(header.to_string());
    let mut errors = Vec::new();
    for (n, line) in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let Some((name, hex)) = line.rsplit_once(':') else {
            errors.push(at(
                n,
                format!(
                    "expected '<tensor name>: <hex f32 bits>', got '{}'",
                    clip(line)
                ),
            ));
            continue;
        };
        let hex = hex.trim();
        let bits = (1..=8)
            .contains(&hex.len())
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
            .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(bits) = bits else {
            errors.push(at(
                n,
                format!(
                    "tensor '{}': '{}' is not 1 to 8 hex digits (the f32 scale's bits, e.g. 3c010a14)",
                    clip(name),
                    clip(hex)
                ),
            ));
            continue;
        };
        if name.is_empty() {
            errors.push(at(n, "the tensor name before ':' is empty".into()));
            continue;
        }
        let scale = f32::from_bits(bits);
        if let Err(m) = check_scale(scale) {
            errors.push(at(n, format!("tensor '{}' ({hex}): {m}", clip(name))));
            continue;
        }
        if let Err(e) = out.insert(name, TensorScale::new(scale), &format!("line {n}")) {
            errors.push(e);
        }
    }
    Error::collect(file, errors)?;
    Ok(out)
}

/// Writes a TensorRT calibration cache: the header, then one line per
/// tensor in name order with the scale's bits as 8 lower-case hex digits.
pub(super) fn write(t: &TensorScales, header: Option<&str>) -> Result<String, Error> {
    let header = header.or(t.header.as_deref()).unwrap_or(DEFAULT_HEADER);
    let fail = |name: &str, message: String| Error::Entry {
        file: t.file.clone(),
        place: format!("tensor '{}'", clip(name)),
        message,
    };
    if !is_trt_header(header) {
        return Err(fail(
            "<header>",
            format!("header '{}' is not TRT-<digits>-<algorithm>", clip(header)),
        ));
    }
    let mut s = format!("{header}\n");
    for (name, e) in &t.entries {
        if name.is_empty() || name.contains(['\n', '\r']) {
            return Err(fail(
                name,
                "a TensorRT cache cannot hold an empty name or one with a line break".into(),
            ));
        }
        if e.offset != 0 {
            return Err(fail(
                name,
                format!(
                    "offset {} cannot be written: a TensorRT cache is symmetric (offset 0)",
                    e.offset
                ),
            ));
        }
        s += &format!("{name}: {:08x}\n", e.scale.to_bits());
    }
    Ok(s)
}
