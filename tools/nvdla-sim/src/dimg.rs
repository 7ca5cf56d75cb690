//! The DIMG file of NVIDIA's regression test app (nvdla-arith.md §13), in
//! its 2018 layout, so that the md5 of the file equals a golden `lead.md5`.
//!
//! In: the output tensor desc and the bytes of its buffer (`size` bytes from
//! the tensor's offset in its memory). Out: the file bytes:
//! `"DIMG"`, u32 version 0, seven u32 {surface format, width, height,
//! channel, line stride, surface stride, size} (little-endian), then the
//! elements repacked in C, H, W order.
//!
//! * Format from the data type, with the 2018 numbering: INT8/UINT8 → 40
//!   (`D_F8_CxHWx_x32_I`, 32 channels of 1 byte per group, **also on
//!   nv_small**, whose real 8-channel atoms are therefore read with the
//!   wrong addressing — the goldens hold exactly that); INT16/UINT16 → 41
//!   (`x16_I`); HALF → 42 (`x16_F`).
//! * Element (c, y, x) is read at ⌊c/X⌋·surface_stride + y·line_stride +
//!   x·X·bpe + (c mod X)·bpe; an element outside `size` is an error.
//! * fp16 "stable hash": the value 32768.0 (0x7800) is written as 0x0000
//!   (the app compares the half with `0x8000` as a number), every NaN as
//!   0x77C0 (`half(31744.0f)`); −0 is kept.

use crate::error::{Error, Result};
use onnc_nvdla_loadable::enums::DataType;
use onnc_nvdla_loadable::TensorDescListEntry;

/// DIMG magic.
pub const MAGIC: &[u8; 4] = b"DIMG";

/// 2018 DIMG surface formats.
pub mod format {
    /// `D_F8_CxHWx_x32_I`.
    pub const F8_X32_I: u32 = 40;
    /// `D_F16_CxHWx_x16_I`.
    pub const F16_X16_I: u32 = 41;
    /// `D_F16_CxHWx_x16_F`.
    pub const F16_X16_F: u32 = 42;
}

/// How many times larger than its buffer a DIMG payload may be (strides
/// that overlap, as with x32 addressing of 8-byte atoms, read bytes twice).
pub const MAX_OVERLAP: u128 = 64;

/// Surface format, channels per group and bytes per element of a data type.
pub fn layout(t: DataType) -> Option<(u32, usize, usize)> {
    match t {
        DataType::INT8 | DataType::UINT8 => Some((format::F8_X32_I, 32, 1)),
        DataType::INT16 | DataType::UINT16 => Some((format::F16_X16_I, 16, 2)),
        DataType::HALF => Some((format::F16_X16_F, 16, 2)),
        _ => None,
    }
}

/// Serialises the output tensor `t` whose buffer holds `buf`.
pub fn write(t: &TensorDescListEntry, buf: &[u8]) -> Result<Vec<u8>> {
    let bad = |what: String| Error::Input(format!("DIMG of tensor '{}': {what}", t.name));
    let (fmt, x, bpe) = layout(t.data_type)
        .ok_or_else(|| bad(format!("data type {} has no DIMG format", t.data_type)))?;
    let dim =
        |v: i32, what: &str| u32::try_from(v).map_err(|_| bad(format!("negative {what} {v}")));
    let (w, h, c) = (
        dim(t.w, "width")?,
        dim(t.h, "height")?,
        dim(t.c, "channel")?,
    );
    let (ls, ss) = (t.strides[1], t.strides[2]);
    let size = t.size.min(buf.len() as u64);
    // Every element lies inside the buffer, but strides may overlap (the
    // nv_small quirk); refuse shapes far larger than the buffer before
    // allocating.
    let elements = u128::from(w) * u128::from(h) * u128::from(c);
    if elements * bpe as u128 > u128::from(size) * MAX_OVERLAP {
        return Err(bad(format!(
            "{elements} elements cannot be read from {size} bytes"
        )));
    }
    let size32 = u32::try_from(t.size).map_err(|_| bad(format!("size {} > 4 GiB", t.size)))?;
    let mut out = Vec::with_capacity(36 + (elements as usize).min(1 << 20) * bpe);
    out.extend_from_slice(MAGIC);
    for v in [0, fmt, w, h, c, ls, ss, size32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let (x, bpe) = (x as u128, bpe as u128);
    for ci in 0..u128::from(c) {
        for y in 0..u128::from(h) {
            for xi in 0..u128::from(w) {
                let off =
                    (ci / x) * u128::from(ss) + y * u128::from(ls) + xi * x * bpe + (ci % x) * bpe;
                if off + bpe > u128::from(size) {
                    return Err(bad(format!(
                        "element (c {ci}, h {y}, w {xi}) at byte {off} is outside the {size}-byte buffer"
                    )));
                }
                let e = &buf[off as usize..(off + bpe) as usize];
                if t.data_type == DataType::HALF {
                    let v = stable_fp16(u16::from_le_bytes([e[0], e[1]]));
                    out.extend_from_slice(&v.to_le_bytes());
                } else {
                    out.extend_from_slice(e);
                }
            }
        }
    }
    Ok(out)
}

/// The test app's fp16 "stable hash" mapping (module docs).
pub fn stable_fp16(h: u16) -> u16 {
    let v = crate::num::half::fp16_to_f32(h);
    if v.is_nan() {
        0x77C0
    } else if v == 32768.0 {
        0
    } else {
        h
    }
}
