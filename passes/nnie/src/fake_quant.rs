//! Tensor-level quantize, dequantize and quantize-dequantize ("fake quant").
//!
//! In: a [`LogQuantizer`] and a flat `f32` tensor (any shape, row-major) or a
//! byte tensor of codes. Out: codes, values, or the values rounded to the
//! quantizer's 256 levels (every byte is a distinct value) — bit-identical on every platform.
//!
//! NaN anywhere is [`NnieError::NotANumber`] with its flat index, reported
//! *before* anything is written (the in-place variant leaves its input
//! untouched on error).
//!
//! ```
//! use onnc_nnie::{fake_quantize, quantize, dequantize, ClipValue, LogQuantizer, SnapMode};
//! let q = LogQuantizer::from_clip(ClipValue::snap(4.0, SnapMode::Nearest).unwrap());
//! let x = [0.0f32, 1.0, -2.0, 100.0];
//! let codes = quantize(q, &x).unwrap();
//! assert_eq!(codes[0], 0x80);
//! assert_eq!(dequantize(q, &codes), fake_quantize(q, &x).unwrap());
//! assert_eq!(fake_quantize(q, &x).unwrap()[3], 4.0); // saturates at c
//! ```

use crate::code::LogQuantizer;
use crate::error::{NnieError, Result};

fn check_no_nan(xs: &[f32]) -> Result<()> {
    match xs.iter().position(|x| x.is_nan()) {
        Some(index) => Err(NnieError::NotANumber { index }),
        None => Ok(()),
    }
}

/// Encode every element.
pub fn quantize(q: LogQuantizer, xs: &[f32]) -> Result<Vec<u8>> {
    check_no_nan(xs)?;
    Ok(xs.iter().map(|&x| q.encode_non_nan(x)).collect())
}

/// Decode every code (every byte is a valid code).
pub fn dequantize(q: LogQuantizer, codes: &[u8]) -> Vec<f32> {
    let levels = q.levels();
    codes.iter().map(|&c| levels[usize::from(c)]).collect()
}

/// `decode(encode(x))` for every element.
pub fn fake_quantize(q: LogQuantizer, xs: &[f32]) -> Result<Vec<f32>> {
    check_no_nan(xs)?;
    let levels = q.levels();
    Ok(xs
        .iter()
        .map(|&x| levels[usize::from(q.encode_non_nan(x))])
        .collect())
}

/// `decode(encode(x))` in place; on error `xs` is unchanged.
pub fn fake_quantize_in_place(q: LogQuantizer, xs: &mut [f32]) -> Result<()> {
    check_no_nan(xs)?;
    let levels = q.levels();
    for x in xs.iter_mut() {
        *x = levels[usize::from(q.encode_non_nan(*x))];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_is_reported_with_index_and_nothing_changes() {
        let q = LogQuantizer::new(-100).unwrap();
        let mut xs = [1.0f32, 2.0, f32::NAN, 3.0];
        assert_eq!(
            fake_quantize_in_place(q, &mut xs),
            Err(NnieError::NotANumber { index: 2 })
        );
        assert_eq!(xs[0], 1.0);
        assert_eq!(quantize(q, &xs), Err(NnieError::NotANumber { index: 2 }));
    }

    #[test]
    fn tensor_ops_agree_with_scalar_ops() {
        let q = LogQuantizer::new(-120).unwrap();
        let xs: Vec<f32> = (-50..50).map(|i| i as f32 * 0.137).collect();
        let fq = fake_quantize(q, &xs).unwrap();
        let mut inplace = xs.clone();
        fake_quantize_in_place(q, &mut inplace).unwrap();
        assert_eq!(fq, inplace);
        for (x, y) in xs.iter().zip(&fq) {
            assert_eq!(q.fake_quant(*x).unwrap(), *y);
        }
        assert_eq!(dequantize(q, &quantize(q, &xs).unwrap()), fq);
        assert!(quantize(q, &[]).unwrap().is_empty());
    }
}
