//! Where each `.dimg` value belongs: the dump order of nvdla_runtime.
//!
//! In: an output shape (batch 1, rank ≤ 4) and a [`DumpOrder`]. Out: for
//! every dump index its `(c, h, w)` position, and so the permutation that
//! turns a dump into an NCHW tensor.
//!
//! nvdla_runtime's `--rawdump` walks the output surface channel by channel,
//! then row by row, then column by column, reading each element at its
//! surface address (so atom packing, channel padding and line/surface
//! strides never appear in the dump): [`DumpOrder::Chw`], i.e.
//! `i = (c·H + h)·W + w`. [`DumpOrder::FeatureCube`] is the surface's own
//! memory order (`NCxHWx`, padding lanes skipped); it is kept only to show
//! that the anchors refute it.
//!
//! ```
//! use onnc_nvdla_dimg::{Cube, DumpOrder};
//! let cube = Cube::from_shape(&[1, 20, 2, 3]).unwrap();
//! assert_eq!(cube.position(DumpOrder::Chw, 7), Some((1, 0, 1)));
//! // In the surface's memory order index 7 is channel 7 of pixel (0, 0).
//! let fc = DumpOrder::FeatureCube { atom_channels: 16 };
//! assert_eq!(cube.position(fc, 7), Some((7, 0, 0)));
//! assert_eq!(cube.position(DumpOrder::Chw, 120), None);
//! ```

use crate::{Error, Result};

/// An order in which the elements of a `C×H×W` cube are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpOrder {
    /// Channel-major, then row, then column — nvdla_runtime's `--rawdump`
    /// order (and NCHW's own order for batch 1).
    Chw,
    /// The feature-cube memory order: channel groups of `atom_channels`
    /// (16 for FP16 on nv_full), within a group row, then column, then the
    /// channel inside the group; lanes of a partial last group are skipped.
    FeatureCube {
        /// Channels per memory atom.
        atom_channels: usize,
    },
}

/// The `C×H×W` cube NVDLA sees for an output tensor of batch 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cube {
    /// Channels.
    pub c: usize,
    /// Rows.
    pub h: usize,
    /// Columns.
    pub w: usize,
}

impl Cube {
    /// The cube of an ONNX shape: rank 4 is `N×C×H×W`, rank 3 `N×C×H`,
    /// rank 2 `N×C` (missing trailing dimensions are 1); `N` must be 1.
    /// Rank 0 and 1 are `C` channels of one pixel.
    pub fn from_shape(shape: &[usize]) -> Result<Cube> {
        let err = |reason| {
            Err(Error::UnsupportedShape {
                shape: shape.to_vec(),
                reason,
            })
        };
        match shape.len() {
            0 => Ok(Cube { c: 1, h: 1, w: 1 }),
            1 => Ok(Cube {
                c: shape[0],
                h: 1,
                w: 1,
            }),
            2..=4 if shape[0] != 1 => err("nvdla_runtime dumps a single batch"),
            2..=4 => Ok(Cube {
                c: shape[1],
                h: shape.get(2).copied().unwrap_or(1),
                w: shape.get(3).copied().unwrap_or(1),
            }),
            _ => err("an NVDLA surface has at most 4 dimensions"),
        }
    }

    /// Elements in the cube (`None` on overflow).
    pub fn len(&self) -> Option<usize> {
        self.c.checked_mul(self.h)?.checked_mul(self.w)
    }

    /// Whether the cube has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// The `(c, h, w)` of dump index `i` in `order`; `None` when `i` is out
    /// of range or the order is degenerate (0 channels per atom).
    pub fn position(&self, order: DumpOrder, i: usize) -> Option<(usize, usize, usize)> {
        if i >= self.len()? {
            return None;
        }
        match order {
            DumpOrder::Chw => Some((i / (self.h * self.w), (i / self.w) % self.h, i % self.w)),
            DumpOrder::FeatureCube { atom_channels: 0 } => None,
            DumpOrder::FeatureCube { atom_channels } => {
                // A group wider than C is one partial group; clamping keeps
                // every product below len(). Each full group holds a·H·W values.
                let atom_channels = atom_channels.min(self.c);
                let full = self.h * self.w * atom_channels;
                let group = i / full;
                let g0 = group * atom_channels;
                let lanes = atom_channels.min(self.c - g0);
                let r = i - group * full;
                let pixel = r / lanes;
                Some((g0 + r % lanes, pixel / self.w, pixel % self.w))
            }
        }
    }

    /// For every dump index, the flat NCHW index it belongs to.
    pub fn permutation(&self, order: DumpOrder) -> Result<Vec<usize>> {
        if order == (DumpOrder::FeatureCube { atom_channels: 0 }) {
            return Err(Error::BadOrder(
                "a feature cube needs at least 1 channel per atom",
            ));
        }
        let n = self.len().ok_or(Error::BadOrder("cube size overflows"))?;
        Ok((0..n)
            .filter_map(|i| self.position(order, i))
            .map(|(c, h, w)| (c * self.h + h) * self.w + w)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(
            Cube::from_shape(&[1, 4]).unwrap(),
            Cube { c: 4, h: 1, w: 1 }
        );
        assert_eq!(
            Cube::from_shape(&[1, 2, 3]).unwrap(),
            Cube { c: 2, h: 3, w: 1 }
        );
        assert_eq!(Cube::from_shape(&[]).unwrap(), Cube { c: 1, h: 1, w: 1 });
        assert!(Cube::from_shape(&[2, 1, 1, 1]).is_err());
        assert!(Cube::from_shape(&[1, 1, 1, 1, 1]).is_err());
    }

    #[test]
    fn permutations_are_bijections() {
        for shape in [
            [1, 1, 1, 1],
            [1, 20, 2, 3],
            [1, 35, 4, 5],
            [1, 16, 1, 2],
            [1, 3, 2, 4],
        ] {
            let cube = Cube::from_shape(&shape).unwrap();
            for order in [DumpOrder::Chw, DumpOrder::FeatureCube { atom_channels: 16 }] {
                let mut p = cube.permutation(order).unwrap();
                p.sort_unstable();
                assert_eq!(
                    p,
                    (0..cube.len().unwrap()).collect::<Vec<_>>(),
                    "{shape:?} {order:?}"
                );
            }
        }
        let chw = Cube::from_shape(&[1, 3, 2, 4])
            .unwrap()
            .permutation(DumpOrder::Chw)
            .unwrap();
        assert_eq!(chw, (0..24).collect::<Vec<_>>());
    }

    #[test]
    fn feature_cube_partial_group() {
        // 20 channels: group 0 has 16 lanes, group 1 the last 4.
        let cube = Cube { c: 20, h: 1, w: 2 };
        let fc = DumpOrder::FeatureCube { atom_channels: 16 };
        assert_eq!(cube.position(fc, 16), Some((0, 0, 1)));
        assert_eq!(cube.position(fc, 32), Some((16, 0, 0)));
        assert_eq!(cube.position(fc, 36), Some((16, 0, 1)));
        assert_eq!(cube.position(fc, 39), Some((19, 0, 1)));
        assert!(cube
            .permutation(DumpOrder::FeatureCube { atom_channels: 0 })
            .is_err());
        // Wider than C: one partial group, and no overflow.
        let huge = DumpOrder::FeatureCube {
            atom_channels: usize::MAX,
        };
        let wide = DumpOrder::FeatureCube { atom_channels: 20 };
        assert_eq!(
            cube.permutation(huge).unwrap(),
            cube.permutation(wide).unwrap()
        );
        assert_eq!(Cube { c: 3, h: 1, w: 2 }.position(huge, 4), Some((1, 0, 1)));
    }
}
