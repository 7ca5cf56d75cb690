//! [`Tensor::slice_axis`]: `t[.., lo..hi, ..]` along one axis, without
//! decoding the elements.
//!
//! In: a tensor, an axis and a range. Out: a tensor of the same element
//! type whose `axis` has `hi − lo` entries. A slice that is one contiguous
//! run of a tensor over shared model bytes (every axis before `axis` has
//! one entry, e.g. the output-channel groups of a kernel) refers to those
//! bytes; any other slice of shared bytes refers to them as one run per
//! outer index ([`crate::LeBytes`], read with [`Tensor::le_view`]; gathered
//! only if [`Tensor::le_bytes`] or [`Tensor::data`] is asked for). A slice
//! of typed data, or of a strided slice, copies the bytes it keeps, once.
//! Nothing decodes the source (a 411 MB fully-connected kernel split into
//! CBUF chunks used to be decoded into a second 411 MB `f32` copy first,
//! then copied chunk by chunk).
//!
//! ```
//! use onnc_tensor::Tensor;
//! let t = Tensor::from_f32(vec![2, 3], vec![0., 1., 2., 3., 4., 5.]).unwrap();
//! let s = t.slice_axis(1, 1, 3).unwrap();
//! assert_eq!(s.shape(), &[2, 2]);
//! assert_eq!(s.as_f32().unwrap(), &[1., 2., 4., 5.]);
//! ```

use crate::tensor::Strided;
use crate::{Error, Result, Tensor};

impl Tensor {
    /// The sub-tensor `[.., lo..hi, ..]` along `axis` (see the module docs);
    /// an error when `axis` or the range is outside the shape.
    pub fn slice_axis(&self, axis: usize, lo: usize, hi: usize) -> Result<Tensor> {
        let shape = self.shape();
        if axis >= shape.len() || lo > hi || hi > shape[axis] {
            return Err(Error::SliceOutOfRange {
                shape: shape.to_vec(),
                axis,
                lo,
                hi,
            });
        }
        let size = self.dtype().size();
        let outer: usize = shape[..axis].iter().product();
        let inner: usize = shape[axis + 1..].iter().product::<usize>() * size;
        let block = shape[axis] * inner;
        let mut out_shape = shape.to_vec();
        out_shape[axis] = hi - lo;
        if let Some(raw) = self.shared_raw() {
            if outer == 0 || lo == hi {
                return Tensor::from_shared_le_bytes(self.dtype(), out_shape, bytes::Bytes::new());
            }
            if outer == 1 {
                let bytes = raw.slice(lo * inner..hi * inner);
                return Tensor::from_shared_le_bytes(self.dtype(), out_shape, bytes);
            }
            // One run of the kept entries per outer index, read in place.
            let run = (hi - lo) * inner;
            let base = raw.slice(lo * inner..(outer - 1) * block + hi * inner);
            let strided = Strided {
                base,
                run,
                stride: block,
                count: outer,
            };
            return Ok(Tensor::from_strided(self.dtype(), out_shape, strided));
        }
        let src = self.le_bytes();
        let mut out = Vec::with_capacity(outer * (hi - lo) * inner);
        for o in 0..outer {
            let base = o * block;
            out.extend_from_slice(&src[base + lo * inner..base + hi * inner]);
        }
        Tensor::from_shared_le_bytes(self.dtype(), out_shape, out.into())
    }
}

#[cfg(test)]
mod tests {
    use crate::{DType, Data, Tensor};

    fn iota(shape: &[usize]) -> Tensor {
        let n = shape.iter().product::<usize>();
        Tensor::from_f32(shape.to_vec(), (0..n).map(|v| v as f32).collect()).unwrap()
    }

    /// The reference: index arithmetic on decoded values.
    fn reference(t: &Tensor, axis: usize, lo: usize, hi: usize) -> Vec<f32> {
        let s = t.shape();
        let v = t.as_f32().unwrap();
        let outer: usize = s[..axis].iter().product();
        let inner: usize = s[axis + 1..].iter().product();
        let mut r = Vec::new();
        for o in 0..outer {
            for a in lo..hi {
                let base = (o * s[axis] + a) * inner;
                r.extend_from_slice(&v[base..base + inner]);
            }
        }
        r
    }

    #[test]
    fn every_axis_and_range_matches_index_arithmetic() {
        let t = iota(&[3, 4, 2, 5]);
        let file = bytes::Bytes::from(t.to_le_bytes());
        let shared = Tensor::from_shared_le_bytes(DType::F32, vec![3, 4, 2, 5], file).unwrap();
        for axis in 0..4 {
            let d = t.shape()[axis];
            for lo in 0..=d {
                for hi in lo..=d {
                    let s = t.slice_axis(axis, lo, hi).unwrap();
                    assert_eq!(s.shape()[axis], hi - lo);
                    assert_eq!(s.as_f32().unwrap(), reference(&t, axis, lo, hi));
                    // The same slice of shared bytes, read in place and gathered.
                    let v = shared.slice_axis(axis, lo, hi).unwrap();
                    assert_eq!(v.shape(), s.shape());
                    assert_eq!(v.le_view().to_vec(), s.to_le_bytes(), "{axis} {lo}..{hi}");
                    assert_eq!(v.le_bytes(), s.to_le_bytes());
                    assert_eq!(v, s);
                }
            }
        }
    }

    #[test]
    fn shared_bytes_are_sliced_without_decoding_or_copying() {
        let t = iota(&[4, 3, 2]);
        let file = bytes::Bytes::from(t.to_le_bytes());
        let shared = Tensor::from_shared_le_bytes(DType::F32, vec![4, 3, 2], file.clone()).unwrap();
        // Axis 0: one contiguous run, referred to in place.
        let head = shared.slice_axis(0, 1, 3).unwrap();
        assert_eq!(head.le_bytes().as_ptr(), file[6 * 4..].as_ptr());
        assert_eq!(head.as_f32().unwrap(), reference(&t, 0, 1, 3));
        // Axis 1: strided, one run per outer index read in place; gathered
        // only when asked for; the source is never decoded.
        let mid = shared.slice_axis(1, 1, 2).unwrap();
        let view = mid.le_view();
        assert_eq!(view.run_count(), 4);
        assert_eq!(view.run(0).as_ptr(), file[2 * 4..].as_ptr());
        assert_eq!(view.run(3).as_ptr(), file[(3 * 6 + 2) * 4..].as_ptr());
        assert!(mid.store_is_undecoded());
        assert_eq!(mid.as_f32().unwrap(), reference(&t, 1, 1, 2));
        assert!(shared.store_is_undecoded());
        // A slice of a slice, and a slice with an empty outer axis.
        let inner = mid.slice_axis(2, 1, 2).unwrap();
        assert_eq!(inner.as_f32().unwrap(), [3.0, 9.0, 15.0, 21.0]);
        let empty =
            Tensor::from_shared_le_bytes(DType::F32, vec![0, 3], bytes::Bytes::new()).unwrap();
        assert_eq!(empty.slice_axis(1, 1, 3).unwrap().shape(), &[0, 2]);
    }

    #[test]
    fn other_element_types_keep_their_bytes() {
        let t = Tensor::new(vec![2, 3], Data::I64(vec![1, -2, 3, -4, 5, -6])).unwrap();
        let s = t.slice_axis(1, 1, 3).unwrap();
        assert_eq!(s.dtype(), DType::I64);
        assert_eq!(s.as_i64().unwrap(), &[-2, 3, 5, -6]);
    }

    #[test]
    fn ranges_outside_the_shape_are_errors() {
        let t = iota(&[2, 3]);
        assert!(t.slice_axis(2, 0, 1).is_err());
        assert!(t.slice_axis(1, 2, 1).is_err());
        assert!(t.slice_axis(1, 0, 4).is_err());
    }
}
