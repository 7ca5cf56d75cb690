//! Shared numeric primitives of the NVDLA datapaths (nvdla-arith.md §2).
//!
//! Everything here is a pure function of its arguments, bit-exact with
//! NVIDIA's C-model helpers:
//! * [`int`] — integer shifts with round-half-away-from-zero (RHAZ, the
//!   `ac_fixed` `AC_RND_INF` mode) and two's-complement saturation.
//! * [`float`] — the custom floating-point add / multiply / compare / ReLU of
//!   `nvdla_float.h`, generic over the formats fp16, fp17 and fp32
//!   ([`float::Fmt`]). Values are bit patterns in the low bits of a `u32`.
//! * [`cvt`] — conversions between those formats and integers
//!   (`Fp16ToFp32`, `Fp32ToFp16`, `Fp16ToFp17`, …, `Int17ToFp16`,
//!   `Fp16ToInt16`), with the C-model's quirks: infinities saturate to the
//!   largest finite value, NaNs keep their low mantissa bits.
//! * [`half`] — plain IEEE fp16 helpers for host-side code (DIMG output,
//!   EMU ops): exact fp16 → f32 and the `half.h` round-to-nearest,
//!   ties-away-from-zero f32 → fp16.

pub mod cvt;
pub mod float;
pub mod half;
pub mod int;
