//! [`Error`], the crate's one error type: which path, what went wrong,
//! what to do.

use std::path::PathBuf;

/// Why an output could not be written (`cannot write 'PATH': WHAT`) or an
/// input may not be read (`cannot read 'PATH': WHY`).
#[derive(Debug, thiserror::Error)]
pub enum Error {
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
    /// An input refused by [`crate::check_inputs`] before it is opened.
    #[error("cannot read '{}': {why}", path.display())]
    Unreadable {
        /// The input.
        path: PathBuf,
        /// What it is and what to give instead.
        why: String,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn refused(path: impl Into<PathBuf>, why: impl Into<String>) -> Self {
        Error::Refused {
            path: path.into(),
            why: why.into(),
        }
    }

    pub(crate) fn unreadable(path: impl Into<PathBuf>, why: impl Into<String>) -> Self {
        Error::Unreadable {
            path: path.into(),
            why: why.into(),
        }
    }
}
