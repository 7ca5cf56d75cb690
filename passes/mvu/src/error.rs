//! The crate's one error type: every way configuring, exporting, compiling,
//! writing or simulating MVU layers can fail.
//!
//! Every engine variant names the layer it comes from, the offending field,
//! the value and the limit it broke, so a caller (e.g. the MLIR lowering) can
//! turn it into a diagnostic at the op's location without re-deriving
//! anything. The variants are grouped by the stage that reports them:
//!
//! | stage | variants |
//! |---|---|
//! | engine (`configure`, `generate`, `export_weights`, `emit`) | [`Error::Precision`] … [`Error::PartialSumRange`] |
//! | front end (`compile`, `assemble`, `write_dir`) | [`Error::Problems`] (every [`Problem`] of one model, each naming the node), [`Error::Io`] |
//! | bias RAM (`frontend::bias_image`) | [`Error::BiasBlocks`], [`Error::BiasRange`] |
//! | functional model (`frontend::simulate`, `calibrate`, `check_splits`) | [`Error::AccumulatorOverflow`], [`Error::DataShape`] |
//!
//! ```
//! use onnc_mvu::{frontend::Problem, Error};
//! let e = Error::Precision { layer: "conv1".into(), field: "wprec", value: 17, min: 1, max: 16 };
//! assert_eq!(e.to_string(),
//!     "layer `conv1`: wprec = 17 bits is outside the supported range 1..=16");
//! assert_eq!(e.layer(), Some("conv1"));
//! let e = Error::from(vec![
//!     Problem::option("--wprec", "17 bits is outside 1..=16", "use a precision from 1 to 16"),
//!     Problem::node("add_3", "Add", "joins two paths", "remove the shortcut"),
//! ]);
//! assert_eq!(e.to_string(),
//!     "2 problems:\n  --wprec: 17 bits is outside 1..=16; use a precision from 1 to 16\n  \
//!      node 'add_3' (Add): joins two paths; remove the shortcut");
//! assert_eq!(e.layer(), None);
//! ```

use std::path::PathBuf;
use std::sync::Arc;

use crate::frontend::Problem;
use crate::frontend::BIAS_RAM_WORDS;

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong while configuring, exporting, compiling,
/// writing or simulating MVU layers (see the module doc).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    // ---- engine ----
    /// A precision is outside what the MVU supports.
    #[error(
        "layer `{layer}`: {field} = {value} bits is outside the supported range {min}..={max}"
    )]
    Precision {
        /// Layer name.
        layer: String,
        /// `aprec`, `wprec` or `oprec`.
        field: &'static str,
        /// The requested number of bits.
        value: u32,
        /// Smallest allowed value.
        min: u32,
        /// Largest allowed value.
        max: u32,
    },
    /// A shape field (channels, spatial size, kernel, stride, padding, rows) is out of range.
    #[error("layer `{layer}`: {field} = {value} is outside the accepted range {min}..={max}")]
    Shape {
        /// Layer name.
        layer: String,
        /// Which shape field.
        field: &'static str,
        /// The given value.
        value: u64,
        /// Smallest allowed value.
        min: u64,
        /// Largest allowed value.
        max: u64,
    },
    /// The kernel does not fit in the (unpadded) input row the MVU walks.
    #[error("layer `{layer}`: kernel width {kernel} exceeds the input width {width}; the MVU schedule needs iW - fW + 1 >= 1")]
    KernelTooWide {
        /// Layer name.
        layer: String,
        /// Kernel width `fW`.
        kernel: u32,
        /// Input width `iW`.
        width: u32,
    },
    /// `(iW - fW + 1) / sW` is not an integer and [`crate::FractionalColumns::Reject`] is in force.
    #[error("layer `{layer}`: output columns (iW - fW + 1) / sW = {numerator} / {stride} is not an integer (BARVINN's countdown formula needs it to be)")]
    FractionalColumns {
        /// Layer name.
        layer: String,
        /// `iW - fW + 1`.
        numerator: u64,
        /// Horizontal stride `sW`.
        stride: u32,
    },
    /// A computed register value does not fit its hardware field.
    #[error("layer `{layer}`: {field} = {value} does not fit its {bits}-bit field (allowed {min}..={max})")]
    RegisterOverflow {
        /// Layer name.
        layer: String,
        /// Register and index, e.g. `ijump[0]` or `countdown`.
        field: String,
        /// The computed value.
        value: i128,
        /// Width of the field in bits.
        bits: u32,
        /// Smallest representable value.
        min: i128,
        /// Largest representable value.
        max: i128,
    },
    /// A tensor does not fit the MVU RAM it has to live in.
    #[error("layer `{layer}`: {memory} needs {needed} words but holds {capacity}")]
    Capacity {
        /// Layer name.
        layer: String,
        /// `input activations (data RAM)`, `output activations (data RAM)` or `weights (weight RAM)`.
        memory: &'static str,
        /// Words the layer needs.
        needed: u64,
        /// Words the RAM holds.
        capacity: u64,
    },
    /// The number of weights does not match the layer's weight shape.
    #[error("layer `{layer}`: got {got} weights but the weight shape {shape:?} holds {expected}")]
    WeightCount {
        /// Layer name.
        layer: String,
        /// Elements implied by the shape.
        expected: usize,
        /// Elements given.
        got: usize,
        /// The weight shape (ONNX layout).
        shape: Vec<usize>,
    },
    /// An integer weight is not representable at the layer's weight precision.
    #[error("layer `{layer}`: weight #{index} = {value} does not fit {bits}-bit {signedness} (allowed {min}..={max})")]
    WeightRange {
        /// Layer name.
        layer: String,
        /// Flat index (ONNX layout) of the weight.
        index: usize,
        /// The value.
        value: i64,
        /// Weight precision.
        bits: u32,
        /// `signed` or `unsigned`.
        signedness: &'static str,
        /// Smallest representable value.
        min: i64,
        /// Largest representable value.
        max: i64,
    },
    /// A float weight given to the quantizer is NaN or infinite.
    #[error("layer `{layer}`: weight #{index} is not finite")]
    NonFiniteWeight {
        /// Layer name.
        layer: String,
        /// Flat index of the weight.
        index: usize,
    },
    /// Two outputs of one bundle would get the same file name.
    #[error("layer `{layer}`: output file `{file}` is already produced by another layer")]
    DuplicateFile {
        /// Layer name.
        layer: String,
        /// The clashing file name.
        file: String,
    },
    /// A weight image was given for a layer the table does not contain.
    #[error("layer `{layer}`: not in the configuration table")]
    UnknownLayer {
        /// Layer name.
        layer: String,
    },
    /// A pooled layer whose edge windows are cut by padding or ceil mode.
    #[error(
        "layer `{layer}`: max pooling {kernel:?} with pads {pads:?}{} has edge windows cut short; \
         their jobs need other loop lengths and pointers than the whole windows, which the program \
         generator does not emit",
        if *ceil_mode { " and ceil_mode" } else { "" }
    )]
    PoolWindows {
        /// Layer name.
        layer: String,
        /// Pool window.
        kernel: [u32; 2],
        /// Pool pads.
        pads: [u32; 4],
        /// ONNX ceil mode.
        ceil_mode: bool,
    },
    /// One 64-channel output block of a convolution exceeds the weight RAM,
    /// and so does one kernel row over all its input channels, so no split
    /// over input channels or kernel rows fits either.
    #[error(
        "layer `{layer}`: one 64-channel output block needs {needed} weight-RAM words \
         (iC·fH·fW·wprec), more than the {capacity}, and even one kernel row over all input \
         channels needs {per_input_block} (iC·fW·wprec), so no split over input channels or \
         kernel rows fits"
    )]
    BlockTooLarge {
        /// Layer name.
        layer: String,
        /// Words one output block needs.
        needed: u64,
        /// Weight RAM words.
        capacity: u64,
        /// Words one kernel row over all input blocks needs.
        per_input_block: u64,
    },
    /// A matmul's or convolution's output block exceeds the weight RAM and
    /// no input split exists: a partial sum leaves 16 signed bits and no
    /// windowed split stays within one output LSB, or the sum of the partials
    /// would not fit the weight RAM.
    #[error(
        "layer `{layer}`: one 64-{} output block needs {needed} weight-RAM words \
         ({}), more than the {capacity}; split into {parts} parts of its {parts_of}, {}",
        if *conv { "channel" } else { "feature" },
        if *conv { "iC·fH·fW·wprec" } else { "in_blocks·wprec" },
        if *bound > *limit {
            format!("a partial sum still reaches {bound}, beyond the 16 signed bits (≤ {limit}) in which the MVU adds partial sums exactly, and no windowed split at this quantizer MSB stays within one output LSB (a higher --quant-msb may allow one)")
        } else {
            format!("the sum of the partials needs {parts} weight-RAM words per output block, more than the {capacity}")
        }
    )]
    PartialSumRange {
        /// Layer name.
        layer: String,
        /// Words one whole output block needs.
        needed: u64,
        /// Weight RAM words.
        capacity: u64,
        /// Parts tried last.
        parts: u64,
        /// The largest partial sum at that split.
        bound: u64,
        /// The largest exact partial (2^15 − 1).
        limit: u64,
        /// A convolution, else a matmul.
        conv: bool,
        /// What the parts divide: `input features`, `input channels` or
        /// `kernel rows`.
        parts_of: &'static str,
    },
    // ---- front end ----
    /// Problems in the model or the options (never empty), in graph order.
    #[error("{}", problems_message(.0))]
    Problems(Vec<Problem>),
    /// Writing the output directory failed (nothing was left behind).
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The path being written.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: IoError,
    },
    // ---- bias RAM ----
    /// A bias with more output blocks than bias-RAM words.
    #[error("the bias of {channels} output channels needs {blocks} bias-RAM words, more than the {BIAS_RAM_WORDS} (6-bit address)")]
    BiasBlocks {
        /// Output channels.
        channels: usize,
        /// 64-channel blocks.
        blocks: usize,
    },
    /// A bias value outside the scaler's 27-bit post-add operand.
    #[error("output channel {channel}'s bias is {value} accumulator units, outside the scaler's 27-bit operand (|c| < 2^26)")]
    BiasRange {
        /// Output channel.
        channel: usize,
        /// Its bias in accumulator units.
        value: i64,
    },
    // ---- functional model ----
    /// An accumulator value left the 27-bit range.
    #[error("layer '{layer}': accumulator value {value} exceeds the MVU's 27-bit accumulator")]
    AccumulatorOverflow {
        /// Layer (piece) name.
        layer: String,
        /// The value.
        value: i64,
    },
    /// The data reaching a layer does not have the layer's input shape.
    #[error("layer '{layer}': {what}")]
    DataShape {
        /// Layer name.
        layer: String,
        /// What does not match.
        what: String,
    },
}

/// The problems, one a line after a count (one alone on its line).
fn problems_message(p: &[Problem]) -> String {
    match p {
        [one] => one.to_string(),
        _ => {
            let mut s = format!("{} problems:", p.len());
            for x in p {
                s.push_str(&format!("\n  {x}"));
            }
            s
        }
    }
}

impl Error {
    /// The name of the layer the error is about: `None` for the front end's
    /// problems (each names its node), I/O and bias errors.
    pub fn layer(&self) -> Option<&str> {
        match self {
            Error::Precision { layer, .. }
            | Error::Shape { layer, .. }
            | Error::KernelTooWide { layer, .. }
            | Error::FractionalColumns { layer, .. }
            | Error::RegisterOverflow { layer, .. }
            | Error::Capacity { layer, .. }
            | Error::WeightCount { layer, .. }
            | Error::WeightRange { layer, .. }
            | Error::NonFiniteWeight { layer, .. }
            | Error::DuplicateFile { layer, .. }
            | Error::PoolWindows { layer, .. }
            | Error::BlockTooLarge { layer, .. }
            | Error::PartialSumRange { layer, .. }
            | Error::AccumulatorOverflow { layer, .. }
            | Error::DataShape { layer, .. }
            | Error::UnknownLayer { layer } => Some(layer),
            Error::Problems(_)
            | Error::Io { .. }
            | Error::BiasBlocks { .. }
            | Error::BiasRange { .. } => None,
        }
    }

    /// The front end's problems (empty for any other error).
    pub fn problems(&self) -> &[Problem] {
        match self {
            Error::Problems(p) => p,
            _ => &[],
        }
    }
}

impl From<Vec<Problem>> for Error {
    fn from(p: Vec<Problem>) -> Self {
        Error::Problems(p)
    }
}

/// An OS error, shared so that [`Error`] stays `Clone`; two are equal when
/// their kind and message are.
#[derive(Debug, Clone)]
pub struct IoError(pub Arc<std::io::Error>);

impl From<std::io::Error> for IoError {
    fn from(e: std::io::Error) -> Self {
        IoError(Arc::new(e))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl std::fmt::Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}
