//! Lazy per-row scaling: a tensor whose values are another tensor's times
//! one factor per row, computed only when someone asks for them.
//!
//! In: an `f32` tensor (the base, shared, not copied) and one `f32` factor
//! per row, a row being the `numel / rows` consecutive elements of one
//! index of the outermost axis (an output channel of a `[K, C, R, S]`
//! kernel). Out: a [`Tensor`] of the base's shape whose element `i` is
//! `base[i] · scale[i / per]`, rounded once in `f32`, exactly what an eager
//! multiply gives. Reading it through [`Tensor::data`] or
//! [`Tensor::le_bytes`] computes and keeps the values; [`Tensor::row_scaled`]
//! reads them without that copy, which is how a weight packer applies a
//! folded batch normalization while it writes the output format, the only
//! full pass over the weights.
//!
//! ```
//! use onnc_tensor::Tensor;
//! let w = Tensor::from_f32(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
//! let s = w.scale_rows(vec![10.0, 0.5]).unwrap();
//! let r = s.row_scaled().unwrap();
//! assert_eq!((r.value(1), r.value(2)), (20.0, 1.5));
//! assert!(!s.is_copied_out());
//! assert_eq!(s.as_f32().unwrap(), &[10.0, 20.0, 1.5, 2.0]);
//! ```

use std::sync::Arc;

use crate::{DType, Data, Error, Result, Tensor};

/// The storage of a lazily scaled tensor.
#[derive(Debug)]
pub(crate) struct Scaled {
    /// The values scaled: `f32`, contiguous (bytes or typed data).
    base: Tensor,
    /// One factor per row.
    scale: Arc<[f32]>,
    /// Elements per row.
    per: usize,
}

impl Scaled {
    /// The view of the values.
    fn view(&self) -> RowScaled<'_> {
        RowScaled {
            bytes: self.base.le_bytes(),
            scale: &self.scale,
            per: self.per,
        }
    }

    /// Every value, computed.
    pub(crate) fn compute(&self) -> Data {
        let v = self.view();
        let mut out = Vec::with_capacity(v.len());
        for o in 0..v.rows() {
            out.extend(v.row(o));
        }
        Data::F32(out)
    }
}

/// The values of a lazily scaled tensor, read where the base's lie and
/// multiplied as they are read (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct RowScaled<'a> {
    /// The base's little-endian `f32` bytes.
    bytes: &'a [u8],
    scale: &'a [f32],
    per: usize,
}

impl<'a> RowScaled<'a> {
    /// Number of values.
    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Number of rows (factors).
    pub fn rows(&self) -> usize {
        self.scale.len()
    }

    /// Values per row.
    pub fn per_row(&self) -> usize {
        self.per
    }

    /// Value `i`: `base[i] · scale[i / per]`. Panics past the end.
    pub fn value(&self, i: usize) -> f32 {
        let b = &self.bytes[i * 4..i * 4 + 4];
        f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * self.scale[i / self.per]
    }

    /// The values of row `o`, in order. Panics past the last row.
    pub fn row(&self, o: usize) -> impl Iterator<Item = f32> + 'a {
        let s = self.scale[o];
        self.bytes[o * self.per * 4..(o + 1) * self.per * 4]
            .chunks_exact(4)
            .map(move |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * s)
    }
}

impl Tensor {
    /// This tensor's values times `scale[o]` for every element of row `o`
    /// (index `o` of the outermost axis), computed lazily: nothing is read
    /// or allocated here when this tensor is `f32` over contiguous storage
    /// (a model file's bytes or typed data); otherwise the product is
    /// computed now, with the same rounding. In: `scale` with one factor
    /// per row (`numel` a multiple of its length, which is not zero). Out:
    /// the scaled tensor, of this shape, or an error for a non-`f32` tensor
    /// or a factor count that does not divide the elements into rows.
    pub fn scale_rows(&self, scale: Vec<f32>) -> Result<Tensor> {
        if self.dtype() != DType::F32 {
            return Err(Error::WrongDType {
                expected: DType::F32,
                actual: self.dtype(),
            });
        }
        let n = self.numel();
        if scale.is_empty() || n % scale.len() != 0 {
            return Err(Error::ShapeMismatch {
                shape: vec![scale.len(), n.checked_div(scale.len()).unwrap_or(0)],
                expected: scale.len() * n.checked_div(scale.len()).unwrap_or(0),
                actual: n,
            });
        }
        let scaled = Scaled {
            per: n / scale.len(),
            scale: scale.into(),
            base: self.clone(),
        };
        if self.is_derived() {
            let data = scaled.compute();
            return Tensor::new(self.shape().to_vec(), data);
        }
        Ok(Tensor::from_scaled(self.shape().to_vec(), scaled))
    }

    /// The values of a lazily scaled tensor ([`Tensor::scale_rows`]) read
    /// without computing them all, or `None` for any other tensor.
    pub fn row_scaled(&self) -> Option<RowScaled<'_>> {
        self.scaled_store().map(Scaled::view)
    }
}

#[cfg(test)]
mod tests {
    use crate::{DType, Tensor};
    use bytes::Bytes;

    fn file_tensor(values: &[f32], shape: Vec<usize>) -> Tensor {
        let b: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        Tensor::from_shared_le_bytes(DType::F32, shape, Bytes::from(b)).unwrap()
    }

    #[test]
    fn lazy_values_equal_the_eager_product_bit_for_bit() {
        let w: Vec<f32> = (0..24).map(|i| (i as f32 - 11.3) * 0.37).collect();
        let s = [1.0f32 / 3.0, -7.1, 1e-3];
        let t = file_tensor(&w, vec![3, 2, 2, 2]);
        let lazy = t.scale_rows(s.to_vec()).unwrap();
        assert!(
            !lazy.is_copied_out() && !t.is_copied_out(),
            "nothing read yet"
        );
        let eager: Vec<f32> = w
            .chunks(8)
            .zip(s)
            .flat_map(|(c, k)| c.iter().map(move |v| v * k))
            .collect();
        let r = lazy.row_scaled().unwrap();
        assert_eq!((r.len(), r.rows(), r.per_row()), (24, 3, 8));
        let by_value: Vec<f32> = (0..24).map(|i| r.value(i)).collect();
        let by_row: Vec<f32> = (0..3).flat_map(|o| r.row(o)).collect();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&by_value), bits(&eager));
        assert_eq!(bits(&by_row), bits(&eager));
        assert!(!lazy.is_copied_out(), "the view computes nothing ahead");
        assert!(!t.is_copied_out(), "the base is read where it lies");
        assert_eq!(bits(lazy.as_f32().unwrap()), bits(&eager));
        assert!(lazy.is_copied_out(), "data() computes and keeps them");
        assert_eq!(lazy.le_bytes().len(), 96);
        let reshaped = lazy.clone().reshape(vec![24]).unwrap();
        assert!(
            reshaped.row_scaled().is_some(),
            "a reshape keeps the scaling"
        );
        let crate::Data::F32(owned) = reshaped.into_data() else {
            panic!("f32 data")
        };
        assert_eq!(bits(&owned), bits(&eager));
    }

    #[test]
    fn sliced_or_scaled_bases_are_scaled_eagerly_with_the_same_rounding() {
        let w: Vec<f32> = (0..12).map(|i| i as f32 * 0.1 + 0.05).collect();
        let t = file_tensor(&w, vec![2, 3, 2]);
        let slice = t.slice_axis(1, 1, 3).unwrap();
        let s = slice.scale_rows(vec![3.0, 0.3]).unwrap();
        assert!(s.row_scaled().is_none(), "a strided base is multiplied now");
        let want: Vec<f32> = slice
            .as_f32()
            .unwrap()
            .chunks(4)
            .zip([3.0f32, 0.3])
            .flat_map(|(c, k)| c.iter().map(move |v| v * k))
            .collect();
        assert_eq!(s.as_f32().unwrap(), &want[..]);
        let twice = t
            .scale_rows(vec![2.0, 0.5])
            .unwrap()
            .scale_rows(vec![0.1, 3.0])
            .unwrap();
        assert!(twice.row_scaled().is_none());
        let want: Vec<f32> = w
            .chunks(6)
            .zip([(2.0f32, 0.1f32), (0.5, 3.0)])
            .flat_map(|(c, (a, b))| c.iter().map(move |v| v * a * b))
            .collect();
        assert_eq!(twice.as_f32().unwrap(), &want[..]);
    }

    #[test]
    fn wrong_inputs_are_errors() {
        let t = Tensor::from_f32(vec![2, 3], vec![1.0; 6]).unwrap();
        assert!(t.scale_rows(vec![1.0; 4]).is_err(), "4 does not divide 6");
        assert!(t.scale_rows(vec![]).is_err());
        let i = Tensor::from_i64(vec![2], vec![1, 2]).unwrap();
        assert!(i.scale_rows(vec![1.0, 2.0]).is_err(), "f32 only");
        let empty = Tensor::from_f32(vec![2, 0], vec![]).unwrap();
        let e = empty.scale_rows(vec![1.0, 2.0]).unwrap();
        assert_eq!(e.as_f32().unwrap(), &[] as &[f32]);
    }
}
