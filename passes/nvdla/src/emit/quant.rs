//! Element encoding of weights: `f32` → the engine's precision, little endian.
//!
//! In: a real value, a [`Precision`] and a power-of-two exponent `s`. Out:
//! the bytes of one element.
//!
//! * FP16: IEEE half of the value (the `half` crate, round to nearest); `s`
//!   is ignored.
//! * INT8 / INT16: `q = clamp(round_half_away(w · 2^s))` to the type's range
//!   (saturation, as the hardware's converters do). Who picks `s`:
//!   * conv weights: `s = out_cvt.truncate` of the conv (CACC shifts the
//!     accumulated sum right by that much, so `Σ x·q >> s ≈ Σ x·w`);
//!   * SDP ALU operands (type `add`, row 0 of `both`): `s = −shift_value`
//!     of the sub-unit (the ALU shifts the operand left by `shift_value`);
//!   * SDP MUL operands (type `mul`, row 1 of `both`): `s = truncate` of the
//!     sub-unit (the product is shifted right by `truncate`).
//!
//! Any further scaling (input scales) is calibration's job: it is folded
//! into the converter registers by `ctable`, never here.
//!
//! ```
//! use onnc_nvdla::emit::quant::encode;
//! use onnc_nvdla::Precision;
//! assert_eq!(encode(1.0, Precision::Fp16, 0), vec![0x00, 0x3c]);
//! assert_eq!(encode(0.75, Precision::Int8, 2), vec![3]);
//! assert_eq!(encode(1000.0, Precision::Int8, 0), vec![127]);
//! ```

use crate::program::Precision;

/// Encodes one element.
pub fn encode(w: f32, p: Precision, s: i32) -> Vec<u8> {
    let mut out = Vec::with_capacity(2);
    push(&mut out, w, p, s);
    out
}

/// Appends one element to `out`.
pub fn push(out: &mut Vec<u8>, w: f32, p: Precision, s: i32) {
    let at = out.len();
    out.resize(at + p.bytes(), 0);
    put(&mut out[at..], w, p, s);
}

/// Writes one element into `out` (exactly `p.bytes()` long).
#[inline]
pub fn put(out: &mut [u8], w: f32, p: Precision, s: i32) {
    match p {
        Precision::Fp16 => out.copy_from_slice(&half::f16::from_f32(w).to_le_bytes()),
        Precision::Int8 => out[0] = quantize(w, s, i8::MIN.into(), i8::MAX.into()) as i8 as u8,
        Precision::Int16 => out.copy_from_slice(
            &(quantize(w, s, i16::MIN.into(), i16::MAX.into()) as i16).to_le_bytes(),
        ),
    }
}

fn quantize(w: f32, s: i32, lo: i64, hi: i64) -> i64 {
    let v = (f64::from(w) * 2f64.powi(s)).round();
    if v.is_nan() {
        return 0;
    }
    (v.max(lo as f64).min(hi as f64)) as i64
}
