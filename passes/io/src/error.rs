//! [`OutputError`]: which path, what went wrong, what to do.

use std::path::PathBuf;

/// Why an output could not be written. Display: `cannot write 'PATH': WHAT`.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// An I/O error on `path`.
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        /// The output (or its temporary) being written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The output is refused before anything is written.
    #[error("cannot write '{}': {why}", path.display())]
    Refused {
        /// The output path.
        path: PathBuf,
        /// Why, and what would fix it.
        why: String,
    },
}

impl OutputError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        OutputError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn refused(path: impl Into<PathBuf>, why: impl Into<String>) -> Self {
        OutputError::Refused {
            path: path.into(),
            why: why.into(),
        }
    }
}
