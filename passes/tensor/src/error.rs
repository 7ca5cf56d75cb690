//! The crate's one error type.

/// What went wrong building or converting a tensor.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The data length does not match the product of the shape.
    #[error("tensor data has {actual} elements but shape {shape:?} needs {expected}")]
    ShapeMismatch {
        /// The shape given.
        shape: Vec<usize>,
        /// Elements the shape needs.
        expected: usize,
        /// Elements supplied.
        actual: usize,
    },
    /// A byte buffer is not a whole number of elements.
    #[error("{len} bytes is not a whole number of {dtype} elements ({size} bytes each)")]
    RaggedBytes {
        /// The element type.
        dtype: crate::DType,
        /// Bytes per element.
        size: usize,
        /// Buffer length.
        len: usize,
    },
    /// An operation needed another element type.
    #[error("expected a {expected} tensor, got {actual}")]
    WrongDType {
        /// Wanted.
        expected: crate::DType,
        /// Found.
        actual: crate::DType,
    },
    /// A slice range outside the tensor.
    #[error("slice {lo}..{hi} of axis {axis} is outside shape {shape:?}")]
    SliceOutOfRange {
        /// The tensor's shape.
        shape: Vec<usize>,
        /// The axis sliced.
        axis: usize,
        /// First index taken.
        lo: usize,
        /// One past the last index taken.
        hi: usize,
    },
    /// The element type has no storage here (e.g. complex, string).
    #[error("element type {0} is not supported")]
    UnsupportedDType(String),
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
