//! The crate's one error type.
//!
//! In: nothing. Out: [`Error`], returned by every fallible function of the
//! crate (container reading, descriptor decoding). Malformed input always
//! yields an `Error`, never a panic.

/// Everything that can go wrong while reading a loadable or decoding a
/// descriptor blob.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The FlatBuffers container is malformed (out-of-bounds offset, bad
    /// vtable, truncated vector, …). `at` is the byte offset in the buffer.
    #[error("malformed flatbuffer at byte {at}: {what}")]
    Malformed {
        /// Byte offset in the input where the problem was found.
        at: usize,
        /// What was being read and why it failed.
        what: String,
    },
    /// A required field of a table is absent.
    #[error("required field `{table}.{field}` is missing")]
    MissingField {
        /// Table name in the schema.
        table: &'static str,
        /// Field name in the schema.
        field: &'static str,
    },
    /// A string field is not valid UTF-8.
    #[error("string at byte {at} is not valid UTF-8")]
    BadUtf8 {
        /// Byte offset of the string's contents.
        at: usize,
    },
    /// A descriptor blob or struct has the wrong number of bytes.
    #[error("{what}: expected {expected} bytes, got {got}")]
    BadLength {
        /// The descriptor being decoded.
        what: &'static str,
        /// The length the layout requires (or a multiple of it).
        expected: usize,
        /// The length supplied.
        got: usize,
    },
    /// A loadable cannot be converted to the other ABI without losing
    /// information.
    #[error("cannot convert: {0}")]
    Convert(String),
}

/// `Result` with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
