//! Feature-cube layout and weight sizes (research/nvdla.md §5).
//!
//! In: a shape, a precision and a [`Config`]. Out: a [`Placement`] with the
//! line/surface strides and the byte size of the cube (pool `None`, offset 0),
//! or the byte size of a weight blob.
//!
//! A feature cube `[N, C, H, W]` is stored as ⌈C/g⌉ surfaces of `H` lines of
//! `W` memory atoms, where `g = mem_atom_bytes / bytes-per-element` channels
//! share one atom. So `line_stride = W·atom`, `surf_stride = line_stride·H`,
//! `size = N·surf_stride·⌈C/g⌉`. Shapes of rank < 4 are read as
//! `[N, C] → [N, C, 1, 1]`, `[C] → [1, C, 1, 1]`, `[N, C, H] → [N, C, H, 1]`.
//!
//! ```
//! use onnc_nvdla::{Config, ConfigName, Precision};
//! use onnc_nvdla::plan::cube_layout;
//! let full = Config::get(ConfigName::NvFull);
//! // 20 fp16 channels → 2 surfaces of 24 lines of 24 atoms (32 B).
//! let p = cube_layout(&[1, 20, 24, 24], Precision::Fp16, &full);
//! assert_eq!((p.line_stride, p.surf_stride, p.size), (768, 18432, 36864));
//! ```

use crate::config::Config;
use crate::program::{Placement, Precision, Tensor};

/// `shape` as `[N, C, H, W]` (see the module doc; rank > 4 folds the trailing
/// dimensions into `W`).
pub fn nchw(shape: &[usize]) -> [usize; 4] {
    match shape {
        [] => [1, 1, 1, 1],
        [c] => [1, *c, 1, 1],
        [n, c] => [*n, *c, 1, 1],
        [n, c, h] => [*n, *c, *h, 1],
        [n, c, h, rest @ ..] => [*n, *c, *h, rest.iter().product()],
    }
}

/// Channels per memory atom (the surface group) at `precision`.
pub fn group(precision: Precision, config: &Config) -> u64 {
    config.channels_per_atom(precision).max(1) as u64
}

/// `v` rounded up to a multiple of `to` (`to` ≥ 1).
pub fn align_up(v: u64, to: u64) -> u64 {
    v.div_ceil(to) * to
}

/// Line stride, surface stride and size of a cube, unchecked (u64).
pub(crate) fn cube_bytes(
    shape: &[usize],
    precision: Precision,
    config: &Config,
) -> (u64, u64, u64) {
    let [n, c, h, w] = nchw(shape).map(|d| d as u64);
    let line = w * config.mem_atom_bytes as u64;
    let surf = line * h;
    let size = n * surf * c.div_ceil(group(precision, config));
    (line, surf, size)
}

/// The layout of a feature cube of `shape` at `precision` (pool `None`,
/// offset 0). Strides that do not fit in 32 bits saturate at `u32::MAX`;
/// the planner reports such cubes as [`super::Error::TooLarge`].
pub fn cube_layout(shape: &[usize], precision: Precision, config: &Config) -> Placement {
    let (line, surf, size) = cube_bytes(shape, precision, config);
    Placement {
        pool: None,
        offset: 0,
        size,
        line_stride: u32::try_from(line).unwrap_or(u32::MAX),
        surf_stride: u32::try_from(surf).unwrap_or(u32::MAX),
    }
}

/// Bytes of a convolution weight blob: elements · bytes-per-element rounded
/// up to the CBUF entry width (the official compiler's rule for kernels).
/// The planner sizes other weights by how they are used
/// ([`WeightUse::size`]).
pub fn weight_size(t: &Tensor, config: &Config) -> u64 {
    WeightUse::ConvKernel.size(t, config)
}

/// How an op reads a weight tensor, which decides its size and alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WeightUse {
    /// Used by no op: packed bytes, 32-byte aligned.
    Unused,
    /// An SDP `per_kernel` operand (`[1, K, 1, 1]` or `[2, K, 1, 1]`):
    /// elements·bpe rounded up to the memory atom.
    PerKernel,
    /// Read as a feature cube (SDP `per_point` operand, or any other engine):
    /// [`cube_layout`] size, with strides.
    Cube,
    /// A convolution kernel: [`weight_size`], aligned to the CBUF entry width.
    ConvKernel,
}

/// Alignment of every weight offset, in bytes.
pub const WEIGHT_ALIGN: u64 = 32;

/// Unit of a convolution's weight data: the emitter pads every kernel set to
/// 128 bytes (the weight DMA's burst, as in the official compiler) or to the
/// CBUF entry width when that is larger.
pub fn conv_granule(config: &Config) -> u64 {
    (config.cbuf_entry_bytes as u64).max(128)
}

impl WeightUse {
    /// Bytes the weight occupies when used this way.
    pub fn size(self, t: &Tensor, config: &Config) -> u64 {
        let raw = t.elements() as u64 * t.precision.bytes() as u64;
        match self {
            WeightUse::Unused => align_up(raw, WEIGHT_ALIGN),
            WeightUse::PerKernel => align_up(raw, config.mem_atom_bytes as u64),
            WeightUse::Cube => cube_bytes(&t.shape, t.precision, config).2,
            WeightUse::ConvKernel => align_up(raw, conv_granule(config)),
        }
    }

    /// Alignment of the weight's offset in the pool.
    pub fn align(self, config: &Config) -> u64 {
        match self {
            WeightUse::ConvKernel => WEIGHT_ALIGN.max(conv_granule(config)),
            _ => WEIGHT_ALIGN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ConfigName;
    use crate::program::TensorKind;

    fn weight(shape: &[usize], p: Precision) -> Tensor {
        let n = shape.iter().product();
        Tensor {
            name: "w".into(),
            shape: shape.to_vec(),
            precision: p,
            kind: TensorKind::Weight(vec![0.0; n].into()),
            place: None,
        }
    }

    #[test]
    fn int8_on_small_groups_eight_channels_per_atom() {
        let small = Config::get(ConfigName::NvSmall);
        let p = cube_layout(&[1, 9, 3, 5], Precision::Int8, &small);
        assert_eq!((p.line_stride, p.surf_stride, p.size), (40, 120, 240));
    }

    #[test]
    fn two_d_shapes_are_one_by_one_cubes() {
        let full = Config::get(ConfigName::NvFull);
        assert_eq!(
            cube_layout(&[1, 1000], Precision::Fp16, &full),
            cube_layout(&[1, 1000, 1, 1], Precision::Fp16, &full)
        );
        assert_eq!(
            cube_layout(&[1, 1000], Precision::Fp16, &full).size,
            63 * 32
        );
    }

    #[test]
    fn weights_round_to_entry_atom_or_cube_by_use() {
        let full = Config::get(ConfigName::NvFull);
        let conv = weight(&[3, 3, 3, 3], Precision::Fp16); // 162 B
        assert_eq!(weight_size(&conv, &full), 256);
        let bias = weight(&[1, 20, 1, 1], Precision::Fp16); // 40 B
        assert_eq!(WeightUse::PerKernel.size(&bias, &full), 64);
        assert_eq!(WeightUse::Cube.size(&bias, &full), 64); // 2 surfaces of one atom
        assert_eq!(WeightUse::ConvKernel.align(&full), 128);
        // nv_small's CBUF entry is 8 bytes, but kernels still come in 128-byte units.
        assert_eq!(
            WeightUse::ConvKernel.align(&Config::get(ConfigName::NvSmall)),
            128
        );
        assert_eq!(
            weight_size(
                &weight(&[2, 2, 1, 1], Precision::Int8),
                &Config::get(ConfigName::NvSmall)
            ),
            128
        );
    }
}
