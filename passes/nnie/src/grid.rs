//! Clip values on NNIE's `2^(k/16)` grid, and the offset `z`.
//!
//! In: a positive real clip value `c` (a calibrated max-abs, a percentile, a
//! value read from a clip table). Out: a [`ClipValue`] — an integer grid index
//! `k = 16·log2(c)` — and from it the offset `z = k − 127` of the 8-bit code.
//!
//! Why a grid: `nnie_mapper` takes the clip value `c`, not `z`, and only
//! accepts values from its `gfpq_param_table_8bit.txt`, whose rule is that
//! `16·log2(c)` is an integer (MQBench `docs/.../nnie.rst`).
//!
//! **Rounding direction.** [`SnapMode::Nearest`] (the default) rounds
//! `16·log2(c)` to the nearest integer, i.e. rounds `c` to the nearest grid
//! point *in the log domain*. This is exactly the rounding in the seed's
//! `z = round(16·log2 c) − 127`, so snapping never changes the `z` the
//! quantizer would compute from the raw `c`: a model fake-quantized with the
//! raw clip (as MQBench trains it) and the deployed snapped clip use the same
//! 256 levels. Ties cannot occur (`2^((2j+1)/32)` is irrational, so no float
//! equals it), and the comparison is exact (see `exact.rs`).
//! [`SnapMode::Up`] (never clips more than `c`, at most 4.4% coarser) and
//! [`SnapMode::Down`] are available for callers who prefer them.
//!
//! **Ranges.** `k` is accepted in [`CLIP_INDEX_MIN`]`..=`[`CLIP_INDEX_MAX`] —
//! equivalently `z` in [`Z_MIN`]`..=`[`Z_MAX`] — the range in which all 255 non-zero
//! levels `±2^((z+i)/16)` are normal, finite `f32` numbers. The real SDK table
//! is narrower but not public; callers with the table can check membership.
//!
//! **Bit width.** Only 8-bit is defined (the seed's formula hard-codes 127 and
//! its code table is 8-bit). [`Bits::Sixteen`] returns
//! [`NnieError::Unsupported`]: neither the seed nor the research notes give a
//! primary source for NNIE's 16-bit code (`[compile_mode] 1`).
//!
//! ```
//! use onnc_nnie::{Bits, ClipValue, SnapMode};
//! let c = ClipValue::snap(6.0, SnapMode::Nearest).unwrap();
//! assert_eq!(c.index(), 41);               // 16*log2(6) = 41.36
//! assert_eq!(c.z(), 41 - 127);
//! assert!((c.value() - 2f64.powf(41.0 / 16.0)).abs() < 1e-12);
//! assert_eq!(ClipValue::snap(6.0, SnapMode::Up).unwrap().index(), 42);
//! assert!(c.z_for(Bits::Sixteen).is_err());
//! ```

use crate::error::{NnieError, Result};
use crate::exact::{log2x32_f32, log2x32_f64, Log2x32};
use crate::pow2::{pow2_16ths_f32, pow2_16ths_f64};

/// Largest magnitude code of the 8-bit format: `c = 2^((z + 127)/16)`.
pub const MAX_CODE_MAGNITUDE: i64 = 127;

/// Smallest accepted offset: the smallest level `2^(z/16)` is `2^-126`, the
/// smallest normal `f32`.
pub const Z_MIN: i64 = -2016;

/// Largest accepted offset: the largest level `2^((z+127)/16) = 2^127.9375`
/// still fits in `f32`.
pub const Z_MAX: i64 = 2047 - MAX_CODE_MAGNITUDE;

/// Smallest accepted grid index `16·log2(c)` (`Z_MIN + 127`).
pub const CLIP_INDEX_MIN: i64 = Z_MIN + MAX_CODE_MAGNITUDE;

/// Largest accepted grid index `16·log2(c)` (`Z_MAX + 127`).
pub const CLIP_INDEX_MAX: i64 = Z_MAX + MAX_CODE_MAGNITUDE;

/// How a real clip value is moved onto the `2^(k/16)` grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SnapMode {
    /// `k = round(16·log2 c)` — the seed's own rounding; keeps `z` unchanged.
    #[default]
    Nearest,
    /// `k = ceil(16·log2 c)` — the snapped clip is `≥ c` (no extra saturation).
    Up,
    /// `k = floor(16·log2 c)` — the snapped clip is `≤ c`.
    Down,
}

/// Bit width of the NNIE code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bits {
    /// 8-bit sign-magnitude log code (the only one with a public definition).
    #[default]
    Eight,
    /// 16-bit (`[compile_mode] 1`); definition not public — always rejected.
    Sixteen,
}

/// A clip value on the grid: `c = 2^(index/16)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipValue {
    index: i32,
}

impl ClipValue {
    /// The clip value `2^(index/16)`; fails outside
    /// [`CLIP_INDEX_MIN`]`..=`[`CLIP_INDEX_MAX`].
    pub fn from_index(index: i64) -> Result<Self> {
        if !(CLIP_INDEX_MIN..=CLIP_INDEX_MAX).contains(&index) {
            return Err(NnieError::ClipOutOfRange {
                index,
                min: CLIP_INDEX_MIN,
                max: CLIP_INDEX_MAX,
            });
        }
        Ok(Self {
            index: index as i32,
        })
    }

    /// The clip value whose 8-bit offset is `z` (`index = z + 127`).
    pub fn from_z(z: i64) -> Result<Self> {
        if !(Z_MIN..=Z_MAX).contains(&z) {
            return Err(NnieError::ZOutOfRange {
                z,
                min: Z_MIN,
                max: Z_MAX,
            });
        }
        Self::from_index(z + MAX_CODE_MAGNITUDE)
    }

    /// From an offset already checked against `Z_MIN..=Z_MAX`.
    pub(crate) fn from_valid_z(z: i32) -> Self {
        Self {
            index: z + MAX_CODE_MAGNITUDE as i32,
        }
    }

    /// Snap a real `f32` clip value onto the grid (exact rounding).
    pub fn snap(c: f32, mode: SnapMode) -> Result<Self> {
        if !(c.is_finite() && c > 0.0) {
            return Err(NnieError::InvalidClip {
                value: f64::from(c),
            });
        }
        Self::from_index(Self::rounded(log2x32_f32(c), mode))
    }

    /// Snap a real `f64` clip value onto the grid (exact rounding).
    pub fn snap_f64(c: f64, mode: SnapMode) -> Result<Self> {
        if !(c.is_finite() && c > 0.0) {
            return Err(NnieError::InvalidClip { value: c });
        }
        Self::from_index(Self::rounded(log2x32_f64(c), mode))
    }

    fn rounded(l: Log2x32, mode: SnapMode) -> i64 {
        match mode {
            SnapMode::Nearest => l.round16(),
            SnapMode::Up => l.ceil16(),
            SnapMode::Down => l.floor16(),
        }
    }

    /// If `c` is (the `f64` or the `f32` rounding of) a grid value, that grid
    /// value. Use it to check that a clip table is already snapped.
    pub fn exact_from_f64(c: f64) -> Option<Self> {
        let v = Self::snap_f64(c, SnapMode::Nearest).ok()?;
        let on_grid = v.value() == c || f64::from(v.value_f32()) == c;
        on_grid.then_some(v)
    }

    /// The grid index `k = 16·log2(c)`.
    pub fn index(self) -> i64 {
        i64::from(self.index)
    }

    /// The 8-bit offset `z = k − 127`; `2^(z/16)` is the smallest positive level.
    pub fn z(self) -> i64 {
        self.index() - MAX_CODE_MAGNITUDE
    }

    /// The offset for a bit width; 16-bit is [`NnieError::Unsupported`].
    pub fn z_for(self, bits: Bits) -> Result<i64> {
        match bits {
            Bits::Eight => Ok(self.z()),
            Bits::Sixteen => Err(unsupported_16bit()),
        }
    }

    /// `c = 2^(k/16)`, correctly rounded to `f64` (what clip tables store).
    pub fn value(self) -> f64 {
        pow2_16ths_f64(self.index())
    }

    /// `c = 2^(k/16)`, correctly rounded to `f32`; equal to the largest level
    /// `decode(0x7F)` of the quantizer built from this clip.
    pub fn value_f32(self) -> f32 {
        pow2_16ths_f32(self.index())
    }
}

/// The error every 16-bit request gets.
pub(crate) fn unsupported_16bit() -> NnieError {
    NnieError::Unsupported(
        "16-bit NNIE quantization: only the 8-bit logarithmic code is publicly defined \
         (MQBench nnie.py/nnie.rst hard-code 127); no primary source defines the 16-bit code"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_is_log_domain_nearest() {
        // 16*log2(6) = 41.36 -> 41; 16*log2(6.2) = 42.12 -> 42
        assert_eq!(ClipValue::snap(6.0, SnapMode::Nearest).unwrap().index(), 41);
        assert_eq!(ClipValue::snap(6.2, SnapMode::Nearest).unwrap().index(), 42);
        assert_eq!(ClipValue::snap(6.0, SnapMode::Up).unwrap().index(), 42);
        assert_eq!(ClipValue::snap(6.0, SnapMode::Down).unwrap().index(), 41);
        // exact grid points are fixed by every mode
        for mode in [SnapMode::Nearest, SnapMode::Up, SnapMode::Down] {
            assert_eq!(ClipValue::snap(4.0, mode).unwrap().index(), 32);
            assert_eq!(ClipValue::snap(0.5, mode).unwrap().index(), -16);
        }
    }

    #[test]
    fn snapping_matches_float_formula_away_from_ties() {
        let mut c = 1e-30f32;
        while c < 1e30 {
            let k = (16.0 * f64::from(c).log2()).round() as i64;
            if (CLIP_INDEX_MIN..=CLIP_INDEX_MAX).contains(&k) {
                assert_eq!(
                    ClipValue::snap(c, SnapMode::Nearest).unwrap().index(),
                    k,
                    "c = {c}"
                );
                assert_eq!(
                    ClipValue::snap_f64(f64::from(c), SnapMode::Nearest)
                        .unwrap()
                        .index(),
                    k
                );
            }
            c *= 1.37;
        }
    }

    #[test]
    fn snapped_value_keeps_z() {
        // z computed from the raw clip equals z of the snapped clip
        for &c in &[0.01f32, 0.3, 1.0, 2.5, 6.0, 17.3, 255.0, 1000.0] {
            let z_raw = (16.0 * f64::from(c).log2()).round() as i64 - 127;
            assert_eq!(ClipValue::snap(c, SnapMode::Nearest).unwrap().z(), z_raw);
        }
    }

    #[test]
    fn invalid_and_out_of_range() {
        for bad in [0.0f32, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                ClipValue::snap(bad, SnapMode::Nearest),
                Err(NnieError::InvalidClip { .. })
            ));
        }
        assert!(ClipValue::from_index(CLIP_INDEX_MAX).is_ok());
        assert!(matches!(
            ClipValue::from_index(CLIP_INDEX_MAX + 1),
            Err(NnieError::ClipOutOfRange { .. })
        ));
        assert!(matches!(
            ClipValue::from_z(Z_MIN - 1),
            Err(NnieError::ZOutOfRange { .. })
        ));
        assert!(ClipValue::snap_f64(1e300, SnapMode::Nearest).is_err());
        // clips below 2^(-1889/16) ~ 2^-118 are rejected: their smallest level would be subnormal
        assert!(ClipValue::snap(1e-38, SnapMode::Nearest).is_err());
    }

    #[test]
    fn range_limits_give_normal_levels() {
        let lo = ClipValue::from_z(Z_MIN).unwrap();
        assert_eq!(pow2_16ths_f32(lo.z()), f32::MIN_POSITIVE);
        let hi = ClipValue::from_z(Z_MAX).unwrap();
        assert!(hi.value_f32().is_finite() && hi.value_f32() > 1e38);
    }

    #[test]
    fn exact_from_f64_recognises_grid_values() {
        let c = ClipValue::from_index(37).unwrap();
        assert_eq!(ClipValue::exact_from_f64(c.value()), Some(c));
        assert_eq!(ClipValue::exact_from_f64(f64::from(c.value_f32())), Some(c));
        assert_eq!(ClipValue::exact_from_f64(c.value() * 1.000001), None);
        assert_eq!(ClipValue::exact_from_f64(-1.0), None);
    }

    #[test]
    fn sixteen_bit_is_unsupported() {
        let c = ClipValue::from_index(0).unwrap();
        assert!(matches!(
            c.z_for(Bits::Sixteen),
            Err(NnieError::Unsupported(_))
        ));
        assert_eq!(c.z_for(Bits::Eight).unwrap(), -127);
    }
}
