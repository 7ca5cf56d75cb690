//! IEEE half rounding (round to nearest, ties to even) of `f32` values.
//!
//! In: an `f32`. Out: the nearest f16 value, as `f32`.
//!
//! ```
//! use onnc_nvdla::exec::round_f16;
//! assert_eq!(round_f16(2049.0), 2048.0);
//! assert_eq!(round_f16(1.0 + 1.0 / 4096.0), 1.0);
//! assert_eq!(round_f16(0.5), 0.5);
//! ```

use half::f16;

/// `v` rounded to the nearest f16.
pub fn round_f16(v: f32) -> f32 {
    f16::from_f32(v).to_f32()
}

/// An f16 bit pattern (a `per_layer` immediate in fp16 mode) as `f32`.
pub(crate) fn from_bits(v: i64) -> f32 {
    f16::from_bits(v as u16).to_f32()
}
