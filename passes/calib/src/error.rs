//! The one error type of `onnc-calib`.
//!
//! Every fallible function returns [`Result<T>`]; nothing in this crate
//! panics on bad input. Each variant names what it is about (a file, a
//! graph input, a tensor, an option), says what is wrong and, where there is
//! one, what would fix it.
//!
//! ```
//! use onnc_calib::{CalibError, Method};
//! let e = "percentile:120".parse::<Method>().unwrap_err();
//! assert!(matches!(e, CalibError::Option { .. }));
//! assert!(e.to_string().contains("(0, 100]"));
//! ```

use std::path::{Path, PathBuf};

/// Everything that can go wrong while calibrating.
#[derive(Debug, thiserror::Error)]
pub enum CalibError {
    /// A calibration input file or folder is unusable: missing, unreadable,
    /// undecodable, or its tensor does not fit the model input.
    #[error("{}: {what}", path.display())]
    Input {
        /// The file or folder.
        path: PathBuf,
        /// What is wrong, and what to do instead.
        what: String,
    },

    /// The model cannot be calibrated as it is (e.g. an image folder for a
    /// model whose input is not an image).
    #[error("model: {0}")]
    Model(String),

    /// The reference interpreter failed on one calibration set.
    #[error("calibration set {set} ({}): {source}", first_file(files))]
    Run {
        /// Index of the set, in set order.
        set: usize,
        /// The files the set came from.
        files: Vec<PathBuf>,
        /// The interpreter's error (names the node).
        source: onnc_interp::Error,
    },

    /// An activation holds NaN or an infinity: no finite range exists.
    #[error("calibration set {set} ({}): tensor `{tensor}` holds {what} at element {index}; check the input data and the model's weights", first_file(files))]
    NonFinite {
        /// The activation tensor.
        tensor: String,
        /// Index of the set.
        set: usize,
        /// The files the set came from.
        files: Vec<PathBuf>,
        /// `NaN` or `an infinity`.
        what: &'static str,
        /// Position of the first bad element.
        index: usize,
    },

    /// A bad option value (method name, percentile, preprocessing flag).
    #[error("{key}: {what}")]
    Option {
        /// The option.
        key: String,
        /// What is wrong and which values are accepted.
        what: String,
    },

    /// A weight tensor cannot be given scales.
    #[error("weight `{name}`: {what}")]
    Weight {
        /// The initializer's name.
        name: String,
        /// What is wrong.
        what: String,
    },
}

fn first_file(files: &[PathBuf]) -> String {
    match files {
        [] => "in memory".to_string(),
        [one] => one.display().to_string(),
        [first, rest @ ..] => format!("{} and {} more file(s)", first.display(), rest.len()),
    }
}

impl CalibError {
    /// An [`CalibError::Input`] about `path`.
    pub(crate) fn input(path: &Path, what: impl Into<String>) -> CalibError {
        CalibError::Input {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }

    /// An [`CalibError::Option`] about `key`.
    pub(crate) fn option(key: &str, what: impl Into<String>) -> CalibError {
        CalibError::Option {
            key: key.to_string(),
            what: what.into(),
        }
    }
}

/// `Result` with [`CalibError`].
pub type Result<T> = std::result::Result<T, CalibError>;
