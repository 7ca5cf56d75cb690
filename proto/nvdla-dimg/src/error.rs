//! The crate's one error type.

use std::path::PathBuf;

/// What went wrong reading a PGM image or a `.dimg` dump.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is a Netpbm image of another kind (`P1`–`P4`, `P6`, `P7`)
    /// or not a Netpbm image at all.
    #[error("not a binary PGM: magic {found:?}, expected \"P5\" (ASCII P2, PBM and PPM are not supported)")]
    NotBinaryPgm {
        /// The first (up to) two bytes, lossily decoded.
        found: String,
    },
    /// A header field (width, height, maxval) is missing, not a decimal
    /// number, or out of range.
    #[error("PGM header: bad {field}: {reason}")]
    BadHeader {
        /// `"width"`, `"height"` or `"maxval"`.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// `maxval` above 255: two bytes per sample, which nvdla_runtime's
    /// 8-bit image path does not read.
    #[error("PGM maxval {0} needs 16-bit samples; only 8-bit PGM (maxval <= 255) is supported")]
    SixteenBit(u32),
    /// The raster is shorter than `width × height` bytes.
    #[error("PGM raster truncated: {expected} bytes expected, {found} present")]
    Truncated {
        /// `width × height`.
        expected: usize,
        /// Bytes after the header.
        found: usize,
    },
    /// Bytes follow the raster (a second image is not supported).
    #[error("{0} unexpected bytes after the PGM raster")]
    TrailingBytes(usize),
    /// A sample exceeds the header's `maxval`.
    #[error("PGM sample {value} at index {index} exceeds maxval {maxval}")]
    SampleAboveMaxval {
        /// Raster index (row-major).
        index: usize,
        /// The sample.
        value: u8,
        /// The header's maxval.
        maxval: u32,
    },
    /// A `.dimg` token is not a decimal float.
    #[error(".dimg value #{index} {token:?} is not a number")]
    BadNumber {
        /// 0-based position among the values.
        index: usize,
        /// The token.
        token: String,
    },
    /// The `.dimg` value count does not match the output shape.
    #[error(".dimg has {found} values but shape {shape:?} has {expected} elements")]
    CountMismatch {
        /// The output shape.
        shape: Vec<usize>,
        /// Its element count.
        expected: usize,
        /// Values in the dump.
        found: usize,
    },
    /// The shape cannot be a single NVDLA surface (rank above 4, or a
    /// batch other than 1: nvdla_runtime dumps one `C×H×W` cube).
    #[error("shape {shape:?} is not a batch-1 tensor of rank <= 4: {reason}")]
    UnsupportedShape {
        /// The shape given.
        shape: Vec<usize>,
        /// Why.
        reason: &'static str,
    },
    /// Building the result tensor failed.
    #[error(transparent)]
    Tensor(#[from] onnc_tensor::Error),
    /// A surface order parameter is invalid (0 channels per atom).
    #[error("invalid dump order: {0}")]
    BadOrder(&'static str),
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
