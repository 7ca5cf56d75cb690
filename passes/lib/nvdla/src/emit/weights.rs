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

use super::quant::{push, push_zeros};
use crate::config::Config;
use crate::program::Precision;

/// Weight blobs and sizes are multiples of this (firmware `conv.c` check).
pub const WEIGHT_GRANULE: usize = 128;

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

/// Direct-convolution layout of a `[K, C, R, S]` weight.
pub fn conv_dc(
    w: &[f32],
    [k, c, r, s]: [usize; 4],
    cfg: &Config,
    p: Precision,
    shift: i32,
) -> Vec<u8> {
    let kpg = kernels_per_group(cfg, p);
    let cpa = cfg.atomic_c.max(1);
    let at = |kk: usize, cc: usize, rr: usize, ss: usize| w[((kk * c + cc) * r + rr) * s + ss];
    let mut out = Vec::with_capacity(round_up(w.len() * p.bytes(), WEIGHT_GRANULE));
    for g in (0..k).step_by(kpg) {
        let kernels = g..(g + kpg).min(k);
        for cb in (0..c).step_by(cpa) {
            let chans = cb..(cb + cpa).min(c);
            for rr in 0..r {
                for ss in 0..s {
                    for kk in kernels.clone() {
                        for cc in chans.clone() {
                            push(&mut out, at(kk, cc, rr, ss), p, shift);
                        }
                    }
                }
            }
        }
    }
    out.resize(round_up(out.len(), WEIGHT_GRANULE), 0);
    out
}

/// Per-kernel operand: `rows` rows of `K` values (1 for add or mul, 2 for
/// both), interleaved per kernel; `shifts[row]` per row.
pub fn per_kernel(w: &[f32], rows: usize, k: usize, p: Precision, shifts: &[i32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(w.len() * p.bytes());
    for kk in 0..k {
        for row in 0..rows {
            push(&mut out, w[row * k + kk], p, shifts[row]);
        }
    }
    out
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

/// Per-point operand `[rows·N, C, H, W]` values (rows 1 or 2) in feature
/// format, `cpa` channels per atom, lines `line` bytes apart and surfaces
/// `surf` bytes apart (the planner's strides; the gaps are zero); each
/// element is `rows` components. The result is
/// `(surfaces − 1)·surf + H·line` bytes.
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
    let plane = c * h * wd;
    let cpa = cpa.max(1);
    let surfaces = c.div_ceil(cpa);
    let mut out = vec![0u8; (surfaces.max(1) - 1) * surf + h * line];
    let mut px = Vec::with_capacity(cpa * rows * p.bytes());
    for (s, cb) in (0..c).step_by(cpa).enumerate() {
        for y in 0..h {
            for x in 0..wd {
                px.clear();
                for cc in cb..cb + cpa {
                    for row in 0..rows {
                        if cc < c {
                            push(
                                &mut px,
                                w[row * plane + (cc * h + y) * wd + x],
                                p,
                                shifts[row],
                            );
                        } else {
                            push_zeros(&mut px, 1, p);
                        }
                    }
                }
                let at = s * surf + y * line + x * px.len();
                out[at..at + px.len()].copy_from_slice(&px);
            }
        }
    }
    out
}
