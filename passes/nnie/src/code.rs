//! NNIE's 8-bit logarithmic code: encode one `f32` to a byte, decode a byte.
//!
//! In: an offset `z` (from a [`ClipValue`]) and a value `x: f32` or a code
//! byte. Out: the sign-magnitude ("true form") code, or its real value.
//!
//! The definition (seed `nnie.rst`, MQBench `fake_quantize/nnie.py`):
//!
//! ```text
//! z = round(16·log2 c) − 127
//! x <  −2^((z+1)/16 − 1)          →  −2^((clamp(round(16·log2(−x)) − z, 1, 127) + z)/16)   code 0x80|k
//! −2^((z+1)/16 − 1) ≤ x < 2^(z/16 − 1)  →  0                                              code 0x80
//! x ≥  2^(z/16 − 1)               →  +2^((clamp(round(16·log2 x) − z, 0, 127) + z)/16)     code k
//! ```
//!
//! So code `k ∈ [0,127]` is `+2^((z+k)/16)` (note: **0x00 is the smallest
//! positive level, not zero**), `0x80|k` with `k ∈ [1,127]` is
//! `−2^((z+k)/16)`, and `0x80` ("−0") is the only zero. `round` is
//! round-half-up in the log domain, as the seed's table shows
//! (`[2^((z+0.5)/16), 2^((z+1.5)/16))` → `0x01`); ties never happen for real
//! inputs anyway. The doc's `≥` at the positive zero threshold is used (MQBench's
//! code writes `>` there and then leaves `x = 2^(z/16−1)` unquantized — a bug).
//!
//! Every comparison is exact: thresholds are `2^(q/32)` and
//! `floor(32·log2 x)` is computed exactly (`exact.rs`), and levels are
//! correctly rounded (`pow2.rs`). `±inf` saturate to `0x7F`/`0xFF`;
//! NaN is an error.
//!
//! ```
//! use onnc_nnie::{ClipValue, LogQuantizer};
//! let q = LogQuantizer::from_clip(ClipValue::from_index(64).unwrap()); // c = 16, z = -63
//! assert_eq!(q.z(), -63);
//! assert_eq!(q.encode(16.0).unwrap(), 0x7F);
//! assert_eq!(q.decode(0x7F), 16.0);
//! assert_eq!(q.encode(0.0).unwrap(), 0x80);
//! assert_eq!(q.encode(-100.0).unwrap(), 0xFF);
//! assert_eq!(q.decode(0x80), 0.0);
//! assert!((q.decode(0x00) - 2f32.powf(-63.0 / 16.0)).abs() < 1e-9); // 2^(z/16)
//! ```

use crate::error::{NnieError, Result};
use crate::exact::log2x32_f32;
use crate::grid::{unsupported_16bit, Bits, ClipValue, MAX_CODE_MAGNITUDE, Z_MAX, Z_MIN};
use crate::pow2::pow2_16ths_f32;

/// The code of exact zero ("−0").
pub const ZERO_CODE: u8 = 0x80;

/// The sign bit of a code.
pub const SIGN_BIT: u8 = 0x80;

/// An 8-bit NNIE log quantizer with offset `z` (`2^(z/16)` is its smallest
/// positive level, `2^((z+127)/16)` its largest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LogQuantizer {
    z: i32,
}

impl LogQuantizer {
    /// A quantizer with offset `z`; fails outside
    /// [`Z_MIN`](crate::Z_MIN)`..=`[`Z_MAX`](crate::Z_MAX).
    pub fn new(z: i64) -> Result<Self> {
        if !(Z_MIN..=Z_MAX).contains(&z) {
            return Err(NnieError::ZOutOfRange {
                z,
                min: Z_MIN,
                max: Z_MAX,
            });
        }
        Ok(Self { z: z as i32 })
    }

    /// The 8-bit quantizer for a grid clip value (`z = k − 127`).
    pub fn from_clip(clip: ClipValue) -> Self {
        Self { z: clip.z() as i32 }
    }

    /// The quantizer for a clip and bit width; 16-bit is
    /// [`NnieError::Unsupported`].
    pub fn with_bits(clip: ClipValue, bits: Bits) -> Result<Self> {
        match bits {
            Bits::Eight => Ok(Self::from_clip(clip)),
            Bits::Sixteen => Err(unsupported_16bit()),
        }
    }

    /// The offset `z`.
    pub fn z(self) -> i64 {
        i64::from(self.z)
    }

    /// The clip value `c = 2^((z+127)/16)` of this quantizer.
    pub fn clip(self) -> ClipValue {
        // z is validated, so z + 127 is in the clip index range
        ClipValue::from_valid_z(self.z)
    }

    /// Encode one value. NaN is [`NnieError::NotANumber`] (index 0).
    pub fn encode(self, x: f32) -> Result<u8> {
        if x.is_nan() {
            return Err(NnieError::NotANumber { index: 0 });
        }
        Ok(self.encode_non_nan(x))
    }

    /// Encode a value known not to be NaN.
    pub(crate) fn encode_non_nan(self, x: f32) -> u8 {
        let z = self.z();
        if x == 0.0 {
            return ZERO_CODE;
        }
        if x.is_infinite() {
            return if x > 0.0 {
                MAX_CODE_MAGNITUDE as u8
            } else {
                SIGN_BIT | MAX_CODE_MAGNITUDE as u8
            };
        }
        let l = log2x32_f32(x);
        if x > 0.0 {
            // zero iff x < 2^(z/16 - 1) = 2^((2z - 32)/32)
            if !l.ge(2 * z - 32) {
                return ZERO_CODE;
            }
            (l.round16() - z).clamp(0, MAX_CODE_MAGNITUDE) as u8
        } else {
            // zero iff |x| <= 2^((z+1)/16 - 1) = 2^((2z - 30)/32)
            if l.le(2 * z - 30) {
                return ZERO_CODE;
            }
            SIGN_BIT | (l.round16() - z).clamp(1, MAX_CODE_MAGNITUDE) as u8
        }
    }

    /// Decode one code: `0x80` → 0, `k` → `2^((z+k)/16)`, `0x80|k` →
    /// `−2^((z+k)/16)`. Every byte is a valid code.
    pub fn decode(self, code: u8) -> f32 {
        if code == ZERO_CODE {
            return 0.0;
        }
        let magnitude = pow2_16ths_f32(self.z() + i64::from(code & !SIGN_BIT));
        if code & SIGN_BIT != 0 {
            -magnitude
        } else {
            magnitude
        }
    }

    /// `decode(encode(x))`: the seed's `fakequant(x)`.
    pub fn fake_quant(self, x: f32) -> Result<f32> {
        Ok(self.decode(self.encode(x)?))
    }

    /// All 256 decoded values, indexed by code (a lookup table).
    pub fn levels(self) -> [f32; 256] {
        let mut t = [0.0f32; 256];
        for (code, v) in t.iter_mut().enumerate() {
            *v = self.decode(code as u8);
        }
        t
    }

    /// The smallest positive level `2^(z/16)` (code `0x00`).
    pub fn min_positive(self) -> f32 {
        self.decode(0x00)
    }

    /// The largest level `2^((z+127)/16)` (code `0x7F`); `−max_level()` is code `0xFF`.
    pub fn max_level(self) -> f32 {
        self.decode(0x7F)
    }
}

/// The seed's "Integer Number" column: a code read as a sign-magnitude integer
/// (`0x81` → −1, `0x00` → 0, `0x80` → −0 reported as 0, `0x7F` → 127).
pub fn code_to_int(code: u8) -> i16 {
    let magnitude = i16::from(code & !SIGN_BIT);
    if code & SIGN_BIT != 0 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(z: i64) -> LogQuantizer {
        LogQuantizer::new(z).unwrap()
    }

    #[test]
    fn zero_and_signs() {
        let q = q(-100);
        assert_eq!(q.encode(0.0).unwrap(), ZERO_CODE);
        assert_eq!(q.encode(-0.0).unwrap(), ZERO_CODE);
        assert_eq!(q.encode(f32::INFINITY).unwrap(), 0x7F);
        assert_eq!(q.encode(f32::NEG_INFINITY).unwrap(), 0xFF);
        assert!(matches!(
            q.encode(f32::NAN),
            Err(NnieError::NotANumber { .. })
        ));
        assert_eq!(q.decode(ZERO_CODE), 0.0);
        assert!(q.decode(0x00) > 0.0);
        assert_eq!(q.decode(0x85), -q.decode(0x05));
    }

    #[test]
    fn every_code_round_trips() {
        for z in [Z_MIN, -300, -127, -63, 0, 50, Z_MAX] {
            let q = q(z);
            for code in 0u8..=255 {
                let v = q.decode(code);
                assert_eq!(q.encode(v).unwrap(), code, "z = {z}, code = {code:#04x}");
            }
        }
    }

    #[test]
    fn levels_and_clip() {
        let c = ClipValue::from_index(10).unwrap();
        let q = LogQuantizer::from_clip(c);
        assert_eq!(q.max_level(), c.value_f32());
        assert_eq!(q.clip(), c);
        assert_eq!(q.levels()[0x7F], q.max_level());
        assert_eq!(q.levels()[0x80], 0.0);
        assert!(LogQuantizer::with_bits(c, Bits::Sixteen).is_err());
        assert!(LogQuantizer::new(Z_MAX + 1).is_err());
    }

    #[test]
    fn integer_column() {
        assert_eq!(code_to_int(0xFF), -127);
        assert_eq!(code_to_int(0x82), -2);
        assert_eq!(code_to_int(0x81), -1);
        assert_eq!(code_to_int(0x80), 0);
        assert_eq!(code_to_int(0x00), 0);
        assert_eq!(code_to_int(0x01), 1);
        assert_eq!(code_to_int(0x7F), 127);
    }
}
