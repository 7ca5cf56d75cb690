//! Numeric comparison of tensors for tests: [`compare`] gives a [`Diff`]
//! (largest absolute and relative error, where, and whether shapes, types
//! and NaNs agree); [`Tolerance`] decides pass or fail numpy-style:
//! `|a − e| ≤ atol + rtol·|e|` for every element.
//!
//! ```
//! use onnc_interp::{compare, Tolerance};
//! use onnc_tensor::Tensor;
//! let e = Tensor::from_f32(vec![2], vec![1.0, 2.0]).unwrap();
//! let a = Tensor::from_f32(vec![2], vec![1.0, 2.001]).unwrap();
//! let d = compare(&e, &a);
//! assert_eq!(d.worst_index, Some(1));
//! assert!(Tolerance { rtol: 1e-3, atol: 1e-7 }.check(&e, &a).is_ok());
//! assert!(Tolerance::EXACT.check(&e, &a).is_err());
//! ```

use onnc_tensor::{DType, Tensor};
use std::fmt;

/// How two tensors differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    /// Both shapes are equal.
    pub same_shape: bool,
    /// Both element types are equal.
    pub same_dtype: bool,
    /// Largest `|actual − expected|` (0 when shapes differ).
    pub max_abs: f64,
    /// Largest `|actual − expected| / |expected|` over elements with `expected ≠ 0`.
    pub max_rel: f64,
    /// Flat index of the element with the largest excess over a `rtol = 0`,
    /// `atol = 0` comparison (the largest absolute error); `None` when equal.
    pub worst_index: Option<usize>,
    /// Expected and actual values there.
    pub worst_values: Option<(f64, f64)>,
    /// Elements where exactly one side is NaN.
    pub nan_mismatches: usize,
    /// Elements compared.
    pub count: usize,
}

/// Compares `actual` to `expected` elementwise (as `f64`). NaN equals NaN.
pub fn compare(expected: &Tensor, actual: &Tensor) -> Diff {
    let same_shape = expected.shape() == actual.shape();
    let mut d = Diff {
        same_shape,
        same_dtype: expected.dtype() == actual.dtype(),
        max_abs: 0.0,
        max_rel: 0.0,
        worst_index: None,
        worst_values: None,
        nan_mismatches: 0,
        count: 0,
    };
    if !same_shape {
        return d;
    }
    let e = expected.data().to_f64_vec();
    let a = actual.data().to_f64_vec();
    d.count = e.len();
    for (i, (&x, &y)) in e.iter().zip(&a).enumerate() {
        if x.is_nan() || y.is_nan() {
            if x.is_nan() != y.is_nan() {
                d.nan_mismatches += 1;
                if d.worst_index.is_none() {
                    d.worst_index = Some(i);
                    d.worst_values = Some((x, y));
                }
            }
            continue;
        }
        let abs = if x == y { 0.0 } else { (x - y).abs() };
        if abs > d.max_abs || (abs.is_nan() && !d.max_abs.is_nan()) {
            d.max_abs = abs;
            if d.nan_mismatches == 0 {
                d.worst_index = Some(i);
                d.worst_values = Some((x, y));
            }
        }
        if x != 0.0 {
            d.max_rel = d.max_rel.max(abs / x.abs());
        }
    }
    d
}

/// A numpy-style tolerance: element `i` passes when
/// `|actual − expected| ≤ atol + rtol·|expected|`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Relative part.
    pub rtol: f64,
    /// Absolute part.
    pub atol: f64,
}

/// Why a [`Tolerance::check`] failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The comparison.
    pub diff: Diff,
    /// Elements outside the tolerance.
    pub failing: usize,
    /// The tolerance used.
    pub tolerance: Tolerance,
    /// Shapes and types (expected, actual), for the message.
    pub shapes: (Vec<usize>, Vec<usize>),
    /// Element types (expected, actual).
    pub dtypes: (DType, DType),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.diff;
        if !d.same_shape {
            return write!(
                f,
                "shape {:?} expected, got {:?}",
                self.shapes.0, self.shapes.1
            );
        }
        if !d.same_dtype {
            return write!(
                f,
                "element type {} expected, got {}",
                self.dtypes.0, self.dtypes.1
            );
        }
        write!(
            f,
            "{} of {} elements outside rtol={} atol={} ({} NaN mismatches); max_abs={:e} max_rel={:e}",
            self.failing, d.count, self.tolerance.rtol, self.tolerance.atol, d.nan_mismatches, d.max_abs, d.max_rel
        )?;
        if let (Some(i), Some((e, a))) = (d.worst_index, d.worst_values) {
            write!(f, "; worst at flat index {i}: expected {e}, got {a}")?;
        }
        Ok(())
    }
}

impl Tolerance {
    /// Bit-for-bit (up to NaN equality).
    pub const EXACT: Tolerance = Tolerance {
        rtol: 0.0,
        atol: 0.0,
    };

    /// Checks every element; shapes and element types must match too.
    pub fn check(&self, expected: &Tensor, actual: &Tensor) -> Result<Diff, Box<Mismatch>> {
        let diff = compare(expected, actual);
        let mut failing = 0;
        if diff.same_shape && diff.same_dtype {
            let e = expected.data().to_f64_vec();
            let a = actual.data().to_f64_vec();
            failing = e
                .iter()
                .zip(&a)
                .filter(|(&x, &y)| {
                    if x.is_nan() || y.is_nan() {
                        return x.is_nan() != y.is_nan();
                    }
                    x != y && (x - y).abs() > self.atol + self.rtol * x.abs()
                })
                .count();
        }
        if diff.same_shape && diff.same_dtype && failing == 0 {
            return Ok(diff);
        }
        Err(Box::new(Mismatch {
            diff,
            failing,
            tolerance: *self,
            shapes: (expected.shape().to_vec(), actual.shape().to_vec()),
            dtypes: (expected.dtype(), actual.dtype()),
        }))
    }
}
