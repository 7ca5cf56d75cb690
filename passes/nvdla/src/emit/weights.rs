//! Weight layouts the engines read: direct-convolution kernels and SDP
//! operands.
//!
//! In: a weight tensor's `f32` values (row-major in its ONNX shape), the
//! target [`Config`], the precision and the quantization exponent (see
//! [`super::quant`]). Out: the bytes of its blob.
//!
//! **Direct-convolution weights** (nvdla/doc `format.rst`, "Basic Weight for
//! Direct Convolution"): kernels are cut into groups of `atomic_k` kernels
//! (int8) or `atomic_k / 2` (int16, fp16); each kernel into `1×1×atomic_c`
//! channel cubes (64 channels on nv_full, 8 on nv_small; the last cube of a
//! kernel is short, not zero-filled). Inside a group the cubes are scanned
//! `C' → K → W → H → C` (channel-in-cube fastest, channel block slowest),
//! groups follow each other compactly, and the whole is zero-padded to a
//! multiple of 128 bytes. So for `K=2, C=1, R=S=2` (one group) the order is
//! `w[0,0,0,0] w[1,0,0,0] w[0,0,0,1] w[1,0,0,1] w[0,0,1,0] …`.
//!
//! **SDP operands** (`format.rst`, bias / batch-normalization / element-wise
//! data): per-kernel data is `K` elements back to back; a `both` operand
//! (`[2, K, 1, 1]`: row 0 ALU, row 1 MUL) interleaves the pair per channel
//! (`a0 m0 a1 m1 …`); per-point data is a feature cube (`1×1×cpa` atoms
//! scanned W → H → channel block, channels padded with zeros to the atom)
//! whose element is the pair when both are used.
//!
//! ```
//! use onnc_nvdla::emit::weights::conv_dc;
//! use onnc_nvdla::{Config, ConfigName, Precision};
//! let cfg = Config::get(ConfigName::NvFull);
//! let w = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]; // K=2, C=1, R=2, S=2
//! let b = conv_dc(&w, [2, 1, 2, 2], &cfg, Precision::Int8, 0);
//! assert_eq!(&b[..8], &[1, 5, 2, 6, 3, 7, 4, 8]);
//! assert_eq!(b.len(), 128);
//! ```

use rayon::prelude::*;

use super::quant::put;
use crate::config::Config;
use crate::program::{Precision, Weights};

/// Weight blobs and sizes are multiples of this (firmware `conv.c` check).
pub const WEIGHT_GRANULE: usize = 128;

/// A weight's values by index, read where they are (no copy).
pub trait Values: Sync {
    /// Value `i`.
    fn value(&self, i: usize) -> f32;

    /// The first and last index in `from..to` whose value is not zero
    /// (either sign; a NaN counts as non-zero), or `None` when all are.
    fn nonzero_span(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let first = (from..to).find(|&i| self.value(i) != 0.0)?;
        let last = (first..to).rev().find(|&i| self.value(i) != 0.0)?;
        Some((first, last))
    }
}

/// Whether a non-zero `f32` (either sign; NaN too) is among the
/// little-endian values in `block` (a multiple of 8 bytes): an OR over
/// 64-bit words, which the compiler turns into vector code.
fn block_has_nonzero(block: &[u8]) -> bool {
    let or = block.chunks_exact(8).fold(0u64, |acc, w| {
        acc | u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
    });
    or & 0x7fff_ffff_7fff_ffff != 0
}

/// Whether the little-endian `f32` in `b` (4 bytes) is non-zero.
fn word_nonzero(b: &[u8]) -> bool {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & 0x7fff_ffff != 0
}

/// Index of the first and last non-zero `f32` of the little-endian values
/// in `bytes`, skipping all-zero blocks of 16 values from each end.
fn span_of_bytes(bytes: &[u8]) -> Option<(usize, usize)> {
    const BLOCK: usize = 64;
    let mut first = None;
    let mut at = 0;
    for block in bytes.chunks(BLOCK) {
        if block.len() < BLOCK || block_has_nonzero(block) {
            if let Some(j) = block.chunks_exact(4).position(word_nonzero) {
                first = Some(at / 4 + j);
                break;
            }
        }
        at += block.len();
    }
    let first = first?;
    let mut end = bytes.len();
    for block in bytes.rchunks(BLOCK) {
        end -= block.len();
        if block.len() < BLOCK || block_has_nonzero(block) {
            if let Some(j) = block.chunks_exact(4).rposition(word_nonzero) {
                return Some((first, end / 4 + j));
            }
        }
    }
    Some((first, first))
}

impl Values for [f32] {
    fn value(&self, i: usize) -> f32 {
        self[i]
    }

    fn nonzero_span(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let first = self[from..to].iter().position(|v| *v != 0.0)?;
        let last = self[from..to].iter().rposition(|v| *v != 0.0)?;
        Some((from + first, from + last))
    }
}

/// Lazily scaled weights (a folded batch normalization): each value is
/// computed as it is read, with the rounding of an eager multiply.
impl Values for onnc_tensor::RowScaled<'_> {
    fn value(&self, i: usize) -> f32 {
        onnc_tensor::RowScaled::value(self, i)
    }
}

/// `f32` values as little-endian bytes where they lie (a [`Weights`]'
/// storage: possibly the model file's bytes, at any alignment, or runs of
/// them for a channel slice), never gathered into a copy.
#[derive(Debug, Clone, Copy)]
pub struct LeF32s<'a>(pub onnc_tensor::LeBytes<'a>);

impl<'a> LeF32s<'a> {
    /// The values of `w`.
    pub fn of(w: &'a Weights) -> LeF32s<'a> {
        LeF32s(w.le_view())
    }

    /// The values in `bytes` (one contiguous run).
    pub fn contiguous(bytes: &'a [u8]) -> LeF32s<'a> {
        LeF32s(onnc_tensor::LeBytes::contiguous(bytes))
    }
}

impl Values for LeF32s<'_> {
    fn value(&self, i: usize) -> f32 {
        let b = self.0.element(i, 4);
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Blocks of bytes skipped at a time when they are contiguous (a kernel
    /// of a dense block-diagonal conv is mostly zeros: scanned element by element,
    /// the chunk decision dominated ShuffleNet's compile).
    fn nonzero_span(&self, from: usize, to: usize) -> Option<(usize, usize)> {
        let Some(bytes) = self.0.as_contiguous() else {
            let first = (from..to).find(|&i| self.value(i) != 0.0)?;
            let last = (first..to).rev().find(|&i| self.value(i) != 0.0)?;
            return Some((first, last));
        };
        let (first, last) = span_of_bytes(&bytes[from * 4..to * 4])?;
        Some((from + first, from + last))
    }
}

/// Kernels per weight group.
pub fn kernels_per_group(cfg: &Config, p: Precision) -> usize {
    if p.bytes() == 1 {
        cfg.atomic_k
    } else {
        (cfg.atomic_k / 2).max(1)
    }
}

/// Rounds `n` up to a multiple of `m`.
pub fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

/// Bytes of the direct-convolution layout of a `[K, C, R, S]` weight
/// (padded to [`WEIGHT_GRANULE`]).
pub fn conv_dc_len([k, c, r, s]: [usize; 4], p: Precision) -> usize {
    round_up(k * c * r * s * p.bytes(), WEIGHT_GRANULE)
}

/// Direct-convolution layout of a `[K, C, R, S]` weight.
pub fn conv_dc(w: &[f32], shape: [usize; 4], cfg: &Config, p: Precision, shift: i32) -> Vec<u8> {
    let mut out = vec![0u8; conv_dc_len(shape, p)];
    conv_dc_into(w, shape, cfg, p, shift, &mut out);
    out
}

/// [`conv_dc`] written into `out` (at least [`conv_dc_len`] bytes; the
/// padding is left as it is). Kernel groups are packed in parallel, each
/// into its own bytes, so the result does not depend on the thread count.
pub fn conv_dc_into<V: Values + ?Sized>(
    w: &V,
    [k, c, r, s]: [usize; 4],
    cfg: &Config,
    p: Precision,
    shift: i32,
    out: &mut [u8],
) {
    let kpg = kernels_per_group(cfg, p);
    let cpa = cfg.atomic_c.max(1);
    let eb = p.bytes();
    let per_kernel = c * r * s;
    let used = k * per_kernel * eb;
    if used == 0 {
        return;
    }
    let at =
        |kk: usize, cc: usize, rr: usize, ss: usize| w.value(((kk * c + cc) * r + rr) * s + ss);
    out[..used]
        .par_chunks_mut(kpg * per_kernel * eb)
        .enumerate()
        .for_each(|(gi, group)| {
            let g = gi * kpg;
            let kernels = g..(g + kpg).min(k);
            let mut o = 0;
            for cb in (0..c).step_by(cpa) {
                let chans = cb..(cb + cpa).min(c);
                for rr in 0..r {
                    for ss in 0..s {
                        for kk in kernels.clone() {
                            for cc in chans.clone() {
                                put(&mut group[o..o + eb], at(kk, cc, rr, ss), p, shift);
                                o += eb;
                            }
                        }
                    }
                }
            }
        });
}

/// Per-kernel operand: `rows` rows of `K` values (1 for add or mul, 2 for
/// both), interleaved per kernel; `shifts[row]` per row.
pub fn per_kernel(w: &[f32], rows: usize, k: usize, p: Precision, shifts: &[i32]) -> Vec<u8> {
    let mut out = vec![0u8; rows * k * p.bytes()];
    per_kernel_into(w, rows, k, p, shifts, &mut out);
    out
}

/// [`per_kernel`] written into `out` (`rows · K` elements).
pub fn per_kernel_into<V: Values + ?Sized>(
    w: &V,
    rows: usize,
    k: usize,
    p: Precision,
    shifts: &[i32],
    out: &mut [u8],
) {
    let eb = p.bytes();
    let mut o = 0;
    for kk in 0..k {
        for (row, &shift) in shifts.iter().enumerate().take(rows) {
            put(&mut out[o..o + eb], w.value(row * k + kk), p, shift);
            o += eb;
        }
    }
}

/// Geometry of a feature-format cube: `(line_stride, surf_stride, size)`
/// for `w×h×c` elements of `bytes` bytes, `cpa` channels per atom.
pub fn feature_geometry(
    w: usize,
    h: usize,
    c: usize,
    cpa: usize,
    bytes: usize,
) -> (usize, usize, usize) {
    let line = w * cpa * bytes;
    let surf = line * h;
    (line, surf, surf * c.div_ceil(cpa.max(1)))
}

/// Bytes of a [`per_point`] operand: `(surfaces − 1)·surf + H·line`.
pub fn per_point_len(c: usize, h: usize, cpa: usize, line: usize, surf: usize) -> usize {
    (c.div_ceil(cpa.max(1)).max(1) - 1) * surf + h * line
}

/// Per-point operand `[rows·N, C, H, W]` values (rows 1 or 2) in feature
/// format, `cpa` channels per atom, lines `line` bytes apart and surfaces
/// `surf` bytes apart (the planner's strides; the gaps are zero); each
/// element is `rows` components. The result is [`per_point_len`] bytes.
#[allow(clippy::too_many_arguments)]
pub fn per_point(
    w: &[f32],
    rows: usize,
    [c, h, wd]: [usize; 3],
    cpa: usize,
    p: Precision,
    shifts: &[i32],
    line: usize,
    surf: usize,
) -> Vec<u8> {
    let mut out = vec![0u8; per_point_len(c, h, cpa, line, surf)];
    per_point_into(w, rows, [c, h, wd], cpa, p, shifts, line, surf, &mut out);
    out
}

/// [`per_point`] written into `out` ([`per_point_len`] zeroed bytes: the
/// gaps between lines and surfaces are not written).
#[allow(clippy::too_many_arguments)]
pub fn per_point_into<V: Values + ?Sized>(
    w: &V,
    rows: usize,
    [c, h, wd]: [usize; 3],
    cpa: usize,
    p: Precision,
    shifts: &[i32],
    line: usize,
    surf: usize,
    out: &mut [u8],
) {
    let plane = c * h * wd;
    let cpa = cpa.max(1);
    let eb = p.bytes();
    let px = cpa * rows * eb;
    for (si, cb) in (0..c).step_by(cpa).enumerate() {
        for y in 0..h {
            for x in 0..wd {
                let mut o = si * surf + y * line + x * px;
                for cc in cb..cb + cpa {
                    for (row, &shift) in shifts.iter().enumerate().take(rows) {
                        let (v, s) = if cc < c {
                            (w.value(row * plane + (cc * h + y) * wd + x), shift)
                        } else {
                            (0.0, 0)
                        };
                        put(&mut out[o..o + eb], v, p, s);
                        o += eb;
                    }
                }
            }
        }
    }
}
