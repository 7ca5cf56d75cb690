//! [`LeBytes`]: a tensor's little-endian element bytes read where they lie,
//! as equal runs at a fixed stride, without gathering them into one buffer.
//!
//! In: a tensor ([`crate::Tensor::le_view`]). Out: its bytes in row-major
//! order, run by run, or element by element. A tensor over contiguous
//! storage is one run; a channel slice of a model-file tensor
//! ([`crate::Tensor::slice_axis`]) is one run per outer index, read from
//! the file's bytes (a 411 MB fully-connected kernel cut into CBUF chunks
//! is not copied).
//!
//! ```
//! use onnc_tensor::{DType, Tensor};
//! let file = bytes::Bytes::from((0u8..24).collect::<Vec<u8>>());
//! let t = Tensor::from_shared_le_bytes(DType::U8, vec![2, 3, 4], file).unwrap();
//! let s = t.slice_axis(1, 1, 2).unwrap(); // t[:, 1:2, :]
//! let v = s.le_view();
//! assert_eq!(v.runs().collect::<Vec<_>>(), [&[4u8, 5, 6, 7][..], &[16, 17, 18, 19]]);
//! assert_eq!(v.element(5, 1), &[17]);
//! assert_eq!(s.le_bytes(), &[4, 5, 6, 7, 16, 17, 18, 19]);
//! ```

/// `count` runs of `run` bytes each; run `o` starts at byte `o · stride` of
/// `base` (see the module docs). `count · run` bytes in all.
#[derive(Debug, Clone, Copy)]
pub struct LeBytes<'a> {
    base: &'a [u8],
    run: usize,
    stride: usize,
    count: usize,
}

impl<'a> LeBytes<'a> {
    /// One contiguous run: all of `bytes`.
    pub fn contiguous(bytes: &'a [u8]) -> LeBytes<'a> {
        LeBytes {
            base: bytes,
            run: bytes.len(),
            stride: bytes.len(),
            count: 1,
        }
    }

    /// `count` runs of `run` bytes, `stride` apart, starting at `base[0]`;
    /// `None` when `base` is too short for them or runs overlap.
    pub fn strided(base: &'a [u8], run: usize, stride: usize, count: usize) -> Option<LeBytes<'a>> {
        let need = match count {
            0 => 0,
            n => (n - 1).checked_mul(stride)?.checked_add(run)?,
        };
        (need <= base.len() && (count <= 1 || run <= stride)).then_some(LeBytes {
            base,
            run,
            stride,
            count,
        })
    }

    /// Total bytes (`count · run`).
    pub fn len(&self) -> usize {
        self.run * self.count
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes when they are one run (no copy), else `None`.
    pub fn as_contiguous(&self) -> Option<&'a [u8]> {
        match self.count {
            0 => Some(&[]),
            1 => Some(&self.base[..self.run]),
            _ if self.run == self.stride => Some(&self.base[..self.len()]),
            _ => None,
        }
    }

    /// Bytes per run.
    pub fn run_len(&self) -> usize {
        self.run
    }

    /// Number of runs.
    pub fn run_count(&self) -> usize {
        self.count
    }

    /// Run `o` (`o < run_count()`).
    pub fn run(&self, o: usize) -> &'a [u8] {
        &self.base[o * self.stride..o * self.stride + self.run]
    }

    /// The runs in order.
    pub fn runs(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + Clone + 'a {
        let v = *self;
        (0..v.count).map(move |o| v.run(o))
    }

    /// The `size` bytes of element `i` (elements of `size` bytes; a run
    /// holds whole elements). Panics past the end.
    pub fn element(&self, i: usize, size: usize) -> &'a [u8] {
        let at = i * size;
        let (o, within) = if self.count <= 1 {
            (0, at)
        } else {
            (at / self.run, at % self.run)
        };
        let start = o * self.stride + within;
        &self.base[start..start + size]
    }

    /// The bytes gathered into one vector (a copy).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for r in self.runs() {
            out.extend_from_slice(r);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_runs_elements_and_bounds() {
        let base: Vec<u8> = (0..10).collect();
        let v = LeBytes::strided(&base, 2, 4, 3).unwrap();
        assert_eq!(v.len(), 6);
        assert_eq!(v.to_vec(), [0, 1, 4, 5, 8, 9]);
        assert_eq!(v.element(1, 2), &[4, 5]);
        assert_eq!(v.element(2, 2), &[8, 9]);
        assert_eq!(v.element(3, 1), &[5]);
        assert!(v.as_contiguous().is_none());
        assert!(LeBytes::strided(&base, 2, 4, 4).is_none(), "past the end");
        assert!(
            LeBytes::strided(&base, 4, 2, 2).is_none(),
            "overlapping runs"
        );
        let whole = LeBytes::strided(&base, 5, 5, 2).unwrap();
        assert_eq!(whole.as_contiguous(), Some(&base[..]));
        let c = LeBytes::contiguous(&base[3..6]);
        assert_eq!((c.run_count(), c.element(1, 1)), (1, &[4u8][..]));
        assert!(LeBytes::strided(&base, 3, 1, 0).unwrap().is_empty());
    }
}
