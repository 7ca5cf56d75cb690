//! The crate's one error type.

/// Why a `.npy` file cannot be read. Display: `'PATH': WHY`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{path}': {why}")]
pub struct NpyError {
    /// The file (`<memory>` for [`crate::parse`]).
    pub path: String,
    /// What is wrong and, where there is one, what to do instead.
    pub why: String,
}

impl NpyError {
    /// An error about `<memory>`; [`crate::read`] renames it to the file.
    pub(crate) fn new(why: impl Into<String>) -> NpyError {
        NpyError {
            path: "<memory>".into(),
            why: why.into(),
        }
    }
}
