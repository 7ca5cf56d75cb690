//! The data part: byte order and Fortran order into a C-ordered tensor.
//!
//! In: a [`Header`] and exactly the data bytes it announces. Out: a
//! [`Tensor`] whose elements are in C (row-major) order, as onnc expects.

use crate::{Header, NpyError};
use onnc_tensor::{Data, Tensor};

/// Builds the tensor; `bytes.len()` has been checked against the header.
pub(crate) fn tensor(
    h: &Header,
    shape: Vec<usize>,
    mut bytes: Vec<u8>,
) -> Result<Tensor, NpyError> {
    let size = h.dtype.size();
    if h.big_endian {
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
    if h.fortran_order && shape.len() > 1 {
        bytes = fortran_to_c(&shape, size, &bytes);
    }
    let data = Data::from_le_bytes(h.dtype, &bytes).map_err(|e| NpyError::new(e.to_string()))?;
    Tensor::new(shape, data).map_err(|e| NpyError::new(e.to_string()))
}

/// Reorders column-major elements of `shape` (each `size` bytes) into row-major.
fn fortran_to_c(shape: &[usize], size: usize, src: &[u8]) -> Vec<u8> {
    // Fortran strides, in elements: the first axis is contiguous.
    let mut strides = Vec::with_capacity(shape.len());
    let mut s = 1usize;
    for &d in shape {
        strides.push(s);
        s *= d; // cannot overflow: the product was checked by the caller
    }
    let mut out = Vec::with_capacity(src.len());
    let mut idx = vec![0usize; shape.len()];
    let n = src.len() / size;
    let mut from = 0usize; // Fortran offset of `idx`
    for _ in 0..n {
        out.extend_from_slice(&src[from * size..(from + 1) * size]);
        // Next C-order index: the last axis runs fastest.
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            from += strides[k];
            if idx[k] < shape[k] {
                break;
            }
            from -= strides[k] * idx[k];
            idx[k] = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_2x3_becomes_row_major() {
        // [[0,1,2],[3,4,5]] in column-major order is 0,3,1,4,2,5.
        let src: Vec<u8> = [0u8, 3, 1, 4, 2, 5].to_vec();
        assert_eq!(fortran_to_c(&[2, 3], 1, &src), vec![0, 1, 2, 3, 4, 5]);
        // 2x2x2 with two-byte elements.
        let c: Vec<u16> = (0..8).collect();
        let f: Vec<u16> = [0, 4, 2, 6, 1, 5, 3, 7].to_vec();
        let fb: Vec<u8> = f.iter().flat_map(|v| v.to_le_bytes()).collect();
        let cb: Vec<u8> = c.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(fortran_to_c(&[2, 2, 2], 2, &fb), cb);
        assert_eq!(fortran_to_c(&[2, 0, 3], 1, &[]), Vec::<u8>::new());
    }
}
