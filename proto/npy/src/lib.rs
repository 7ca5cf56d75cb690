//! `onnc-npy` — reading NumPy `.npy` files into [`onnc_tensor::Tensor`]s.
//!
//! In: a `.npy` file as `numpy.save` writes it (format versions 1.0, 2.0
//! and 3.0). Out: a tensor in C order, or an [`NpyError`] naming the file,
//! what is wrong and what to do instead.
//!
//! Supported element types (the types onnc's tensors hold): `f2 f4 f8`,
//! `i1 i2 i4 i8`, `u1 u2 u4 u8` and `b1`, little- or big-endian (`<`, `>`,
//! `=`, `|`). Fortran-ordered arrays (`np.asfortranarray`) are transposed
//! into C order. Refused: object arrays (pickles), structured dtypes,
//! complex, strings, datetimes.
//!
//! The file is untrusted: the header is at most [`MAX_HEADER_BYTES`], the
//! element count and byte size are checked arithmetic, and the byte size
//! must equal what the file holds after the header before any data buffer
//! is allocated — a header claiming 2^40 elements in a 100-byte file is an
//! error, not an allocation abort. A FIFO or device is refused before it is
//! opened.
//!
//! ```
//! let dict = b"{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }\n";
//! let mut file = b"\x93NUMPY\x01\x00".to_vec();
//! file.extend((dict.len() as u16).to_le_bytes());
//! file.extend(dict);
//! file.extend([0, 1, 0, 2]); // big-endian 1, 2
//! let t = onnc_npy::parse(&file).unwrap();
//! assert_eq!(t.shape(), &[2]);
//! assert_eq!(t.data().to_i64_vec(), vec![1, 2]);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod data;
mod error;
mod header;
mod read;

pub use error::NpyError;
pub use header::{Header, MAX_HEADER_BYTES};
pub use read::{parse, read};
