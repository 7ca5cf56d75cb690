//! The one error type of `onnc-nnie`.
//!
//! Every fallible function returns [`Result<T>`]; nothing in this crate panics
//! on bad input (NaN values, clip values off the representable range, malformed
//! JSON or prototxt, mismatched tensor lengths, unsupported bit widths).
//!
//! ```
//! use onnc_nnie::{ClipValue, NnieError, SnapMode};
//! let err = ClipValue::snap(-1.0, SnapMode::Nearest).unwrap_err();
//! assert!(matches!(err, NnieError::InvalidClip { .. }));
//! ```

/// Everything that can go wrong in `onnc-nnie`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NnieError {
    /// A clip value must be a finite number greater than zero.
    #[error("invalid clip value {value}: must be finite and > 0")]
    InvalidClip {
        /// The rejected value.
        value: f64,
    },

    /// The grid index `k = 16·log2(c)` is outside the range whose codes all
    /// decode to normal, finite `f32` values.
    #[error("clip index 16*log2(c) = {index} is outside [{min}, {max}]")]
    ClipOutOfRange {
        /// The rejected index.
        index: i64,
        /// Smallest accepted index.
        min: i64,
        /// Largest accepted index.
        max: i64,
    },

    /// The offset `z` is outside the range whose codes all decode to normal,
    /// finite `f32` values.
    #[error("offset z = {z} is outside [{min}, {max}]")]
    ZOutOfRange {
        /// The rejected offset.
        z: i64,
        /// Smallest accepted offset.
        min: i64,
        /// Largest accepted offset.
        max: i64,
    },

    /// A request this crate cannot honour faithfully (e.g. 16-bit NNIE codes,
    /// whose definition has no public primary source).
    #[error("unsupported: {0}")]
    Unsupported(String),

    /// A tensor element is NaN (infinities saturate and are accepted).
    #[error("element {index} is NaN")]
    NotANumber {
        /// Position of the element in the flat tensor.
        index: usize,
    },

    /// Two tensors that must be compared element-wise differ in length.
    #[error("length mismatch: {left} vs {right} elements")]
    LengthMismatch {
        /// Length of the first tensor.
        left: usize,
        /// Length of the second tensor.
        right: usize,
    },

    /// A calibration statistic was requested before any data was seen, or a
    /// calibration option is out of its domain.
    #[error("calibration: {0}")]
    Calibration(String),

    /// A clip-table JSON document is malformed or has invalid entries.
    #[error("clip table: {0}")]
    ClipTable(String),

    /// A layer name occurs twice where names must be unique.
    #[error("duplicate layer name {0:?}")]
    DuplicateLayer(String),

    /// A Caffe prototxt or caffemodel could not be parsed or encoded.
    #[error("caffe: {0}")]
    Caffe(String),

    /// The model cannot be compiled for NNIE: every problem found, each with
    /// the node, its op, what is wrong and what would fix it.
    #[error("{} problem(s) prevent compiling for nnie:\n{}", .0.len(), .0.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Refused(Vec<Problem>),

    /// Calibration or evaluation data could not be read or does not fit the
    /// model's inputs (the path and what is wrong).
    #[error("data: {0}")]
    Data(String),

    /// Running the model (float or simulated quantized) failed.
    #[error("interpreter: {0}")]
    Interp(String),

    /// Writing a package file failed (path and OS message).
    #[error("io: {0}")]
    Io(String),

    /// A `nnie_mapper` configuration value cannot be written faithfully
    /// (e.g. it contains a line break).
    #[error("mapper config: {0}")]
    MapperConfig(String),
}

/// One reason a model cannot be compiled for NNIE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The ONNX node (its name; the MLIR location `loc("name")`).
    pub node: String,
    /// Its op type.
    pub op: String,
    /// What is wrong.
    pub what: String,
    /// What would fix it.
    pub fix: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "node '{}' ({}): {}; fix: {}",
            self.node, self.op, self.what, self.fix
        )
    }
}

/// `Result` with [`NnieError`].
pub type Result<T> = std::result::Result<T, NnieError>;
