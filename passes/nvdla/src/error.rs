//! The crate's one error type: every way lowering, planning, emitting,
//! executing a [`Program`](crate::Program) or loading a calibration table can
//! fail.
//!
//! In: what went wrong, where. Out: an [`Error`] whose message names the node
//! (`onnx.Add 'add1'`), hardware layer (`layer 'conv1' (nvdla.sdp)`, `sdp op
//! 'conv1'`), tensor or calibration file and key, says what is wrong and what
//! would fix it. The variants are grouped by the stage that reports them:
//!
//! | stage | variants |
//! |---|---|
//! | `lower` | [`Error::Lower`] (every [`Problem`] of one run) |
//! | `plan` | [`Error::ConcatMemberIsInput`] … [`Error::Internal`]; [`Error::NotPlaced`], [`Error::Overlap`], [`Error::Misaligned`], [`Error::BadPlacement`] from `plan::check` |
//! | `emit` | [`Error::Unplaced`], [`Error::Attr`], [`Error::Op`], [`Error::Tensor`], [`Error::Unsupported`] |
//! | `exec` | [`Error::NotModelled`], [`Error::Program`], [`Error::Input`] |
//! | `ctable` | [`Error::Json`] … [`Error::Io`], [`Error::Several`] |
//!
//! ```
//! use onnc_nvdla::Error;
//! let e = Error::Unplaced { tensor: "conv1_out".into() };
//! assert!(e.to_string().contains("conv1_out"));
//! let e = Error::Unaligned {
//!     op: "nvdla.slice 'split1' (op 3)".into(),
//!     tensor: "s".into(),
//!     c_start: 8,
//!     group: 16,
//! };
//! assert!(e.to_string().contains("multiple of 16"));
//! ```

use crate::lower::Problem;

/// Why a program could not be lowered, planned, emitted or executed, or a
/// calibration table could not be loaded (see the module doc).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    // ---- lower ----
    /// Every problem found in one lowering run (never empty), in node order.
    #[error("{}", crate::lower::error::lower_message(problems))]
    Lower {
        /// The problems.
        problems: Vec<Problem>,
    },
    // ---- plan ----
    /// A network input is a concat member: its bytes are bound by the
    /// application, so it cannot sit inside another cube.
    #[error("{op}: member '{tensor}' is a network input, which has its own bindable buffer and cannot be placed inside the concat result; copy it first (e.g. an SDP pass-through) in the lowering")]
    ConcatMemberIsInput {
        /// The concat op.
        op: String,
        /// The input tensor.
        tensor: String,
    },
    /// A tensor would be placed inside two different cubes.
    #[error("tensor '{tensor}' is placed by both {first} and {second}; a tensor can be a window of only one cube; copy it for one of them in the lowering")]
    TwoViews {
        /// The tensor.
        tensor: String,
        /// The first op that placed it.
        first: String,
        /// The second op.
        second: String,
    },
    /// A concat member or slice window does not start on a memory-atom surface.
    #[error("{op}: '{tensor}' starts at channel {c_start}, which is not a multiple of {group} (channels per memory atom), so its window is not surface-aligned; pad the preceding channels to a multiple of {group} or copy the data in the lowering")]
    Unaligned {
        /// The concat or slice op.
        op: String,
        /// The member or window.
        tensor: String,
        /// Its first channel in the base cube.
        c_start: u64,
        /// Channels per memory atom.
        group: u64,
    },
    /// A reshape that is not a pure view (the cube layout changes).
    #[error("{op}: reshape from {from:?} to {to:?} changes the feature-cube layout, so it cannot share bytes; only reshapes that keep [N, C, H, W] (such as [N, C, 1, 1] <-> [N, C]) are views; lower this one to a copy (or fold it into the consumer's weights)")]
    ReshapeNotView {
        /// The reshape op.
        op: String,
        /// Input shape.
        from: Vec<usize>,
        /// Output shape.
        to: Vec<usize>,
    },
    /// Shapes or precisions of a virtual op do not fit together.
    #[error("{op}: {detail}")]
    BadViewShape {
        /// The virtual op.
        op: String,
        /// What does not fit, with the values.
        detail: String,
    },
    /// An operand that cannot be placed the way its op needs.
    #[error("{op}: {detail}")]
    BadOperand {
        /// The op.
        op: String,
        /// What is wrong and the fix.
        detail: String,
    },
    /// Two network inputs/outputs would share one bindable buffer.
    #[error("tensors '{first}' and '{second}' would share one bindable buffer (each network input and output needs its own); copy one of them in the lowering")]
    SharedBindBuffer {
        /// One network input/output.
        first: String,
        /// The other.
        second: String,
    },
    /// An activation that no op produces.
    #[error("activation '{tensor}' has no producing op and is not a network input; the lowering must produce it or mark it as an input")]
    NoProducer {
        /// The tensor.
        tensor: String,
    },
    /// A cube too large for the 32-bit stride registers.
    #[error("tensor '{tensor}' with shape {shape:?} needs a {what} of {bytes} bytes, more than the 32-bit stride registers hold; split the layer")]
    TooLarge {
        /// The tensor.
        tensor: String,
        /// Its shape.
        shape: Vec<usize>,
        /// "line stride" or "surface stride".
        what: &'static str,
        /// The bytes needed.
        bytes: u64,
    },
    /// (Checker) a tensor that should have a placement has none.
    #[error("tensor '{tensor}' has no placement; run plan() first")]
    NotPlaced {
        /// The tensor.
        tensor: String,
    },
    /// (Checker) two tensors share bytes while both are live.
    #[error("'{first}' and '{second}' overlap in pool {pool} while both are live: {detail}")]
    Overlap {
        /// One tensor.
        first: String,
        /// The other tensor.
        second: String,
        /// Their byte ranges and live op ranges.
        detail: String,
        /// The pool.
        pool: &'static str,
    },
    /// (Checker) an offset that breaks the alignment rules.
    #[error("tensor '{tensor}' at offset {offset} in pool {pool} is not aligned to {align} bytes")]
    Misaligned {
        /// The tensor.
        tensor: String,
        /// Its offset.
        offset: u64,
        /// Required alignment.
        align: u64,
        /// The pool.
        pool: &'static str,
    },
    /// (Checker) a placement that contradicts the program (wrong size, or a
    /// window that is not where its virtual op puts it).
    #[error("tensor '{tensor}': {detail}")]
    BadPlacement {
        /// The tensor.
        tensor: String,
        /// What differs, with both values.
        detail: String,
    },
    /// A broken invariant of the planner itself (a bug).
    #[error("internal planner error (a bug): {0}")]
    Internal(String),
    // ---- emit ----
    /// A tensor that lives in memory has no placement.
    #[error(
        "tensor '{tensor}' has no memory placement; run the planner (plan::plan) before emitting"
    )]
    Unplaced {
        /// Tensor name.
        tensor: String,
    },
    /// An op lacks a required attribute, or it has the wrong kind or value.
    #[error("{engine} op '{hw_layer}': attribute '{attr}' {problem}")]
    Attr {
        /// Engine name (`conv`, `sdp`, ...).
        engine: String,
        /// The op's hardware layer.
        hw_layer: String,
        /// Attribute name, as in the dialect.
        attr: String,
        /// What is wrong and what is expected.
        problem: String,
    },
    /// An op's operands or shapes do not fit what the engine needs.
    #[error("{engine} op '{hw_layer}': {problem}")]
    Op {
        /// Engine name.
        engine: String,
        /// The op's hardware layer.
        hw_layer: String,
        /// What is wrong and what would fix it.
        problem: String,
    },
    /// A tensor's placement or shape cannot be encoded.
    #[error("tensor '{tensor}': {problem}")]
    Tensor {
        /// Tensor name.
        tensor: String,
        /// What is wrong and what would fix it.
        problem: String,
    },
    /// A feature the emitter does not implement.
    #[error("not supported: {0}")]
    Unsupported(String),
    // ---- exec ----
    /// Something the executor does not model (INT8 converters, RUBIK, LUTs).
    #[error("layer '{layer}' (nvdla.{engine}): unsupported: {what}")]
    NotModelled {
        /// The hardware layer.
        layer: String,
        /// The op name.
        engine: String,
        /// What is not modelled.
        what: String,
    },
    /// The program is inconsistent (missing attribute or operand, shape mismatch).
    #[error("layer '{layer}' (nvdla.{engine}): {message}")]
    Program {
        /// The hardware layer.
        layer: String,
        /// The op name.
        engine: String,
        /// What is wrong.
        message: String,
    },
    /// The inputs do not match the program.
    #[error("{0}")]
    Input(String),
    // ---- ctable ----
    /// The text is not JSON.
    #[error("{file}:{line}:{column}: malformed JSON: {message}")]
    Json {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// `version`, `qinfo` or the top level has the wrong shape.
    #[error("{file}: '{key}': {message}")]
    Structure {
        /// File name.
        file: String,
        /// The key (`version`, `qinfo`, or `<top level>`).
        key: String,
        /// What is wrong and what is expected.
        message: String,
    },
    /// A `<hw_layer>.<BLOCK>` key (or tensor name) the program does not have.
    #[error(
        "{file}: unknown layer key '{key}'{}",
        crate::ctable::error::hint(suggestions)
    )]
    UnknownLayer {
        /// File name.
        file: String,
        /// The key.
        key: String,
        /// Nearest valid keys.
        suggestions: Vec<String>,
    },
    /// A register the block does not have.
    #[error(
        "{file}: '{key}': unknown register '{register}'{}",
        crate::ctable::error::hint(suggestions)
    )]
    UnknownRegister {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// Nearest valid registers of the block.
        suggestions: Vec<String>,
    },
    /// A value outside the register's range.
    #[error("{file}: '{key}': {message}")]
    OutOfRange {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// The range check's message (register, range, value).
        message: String,
    },
    /// A value of the wrong JSON type.
    #[error("{file}: '{key}': register '{register}' must be {expected}, got {found}")]
    WrongType {
        /// File name.
        file: String,
        /// The layer key.
        key: String,
        /// The register.
        register: String,
        /// The expected JSON type.
        expected: String,
        /// The JSON text found.
        found: String,
    },
    /// An NVIDIA calibtable entry that cannot be converted.
    #[error("{file}: tensor '{tensor}': {message}")]
    Calibration {
        /// File name.
        file: String,
        /// The tensor.
        tensor: String,
        /// What is wrong.
        message: String,
    },
    /// A key that appears twice in one JSON object (JSON parsers disagree
    /// on which one wins, so neither is taken).
    #[error("{file}:{}:{}: key '{key}' appears twice in one object (first at line {}, column {}); keep one", second.0, second.1, first.0, first.1)]
    DuplicateKey {
        /// File name.
        file: String,
        /// The key (clipped).
        key: String,
        /// Line and column of the first occurrence.
        first: (usize, usize),
        /// Line and column of the second.
        second: (usize, usize),
    },
    /// A problem at one place of a calibration file (`line 3`, `record 2`).
    #[error("{file}: {place}: {message}")]
    Entry {
        /// File name.
        file: String,
        /// Where in the file (`line 3`, `record 2 (key 'conv1')`).
        place: String,
        /// What is wrong and what would fix it.
        message: String,
    },
    /// Tensors whose scale the program's INT8 converters need and the table
    /// lacks (the first [`crate::ctable::MAX_NAMED`] named, the rest counted).
    #[error(
        "{file}: {}",
        crate::ctable::error::missing_message(tensors, unmatched)
    )]
    MissingScales {
        /// File name.
        file: String,
        /// The tensors, in program order.
        tensors: Vec<String>,
        /// Table entries that name no tensor of the program (with hints).
        unmatched: Vec<String>,
    },
    /// Content that is none of the calibration formats.
    #[error("{file}: not a calibration file: expected one of {expected}; {found}")]
    NotCalibration {
        /// File name.
        file: String,
        /// The formats tried.
        expected: String,
        /// What the content looks like.
        found: String,
    },
    /// A file that cannot be read.
    #[error("cannot read '{file}': {message}")]
    Io {
        /// File name.
        file: String,
        /// The system's message and what was attempted.
        message: String,
    },
    /// More than one problem (the first [`crate::ctable::MAX_LISTED`] listed, the rest counted).
    #[error("{file}: {} problems:{}", errors.len(), crate::ctable::error::list(errors))]
    Several {
        /// File name.
        file: String,
        /// The problems, in key order.
        errors: Vec<Error>,
    },
}

impl Error {
    /// The lowering problems ([`Error::Lower`]); empty for any other error.
    pub fn problems(&self) -> &[Problem] {
        match self {
            Error::Lower { problems } => problems,
            _ => &[],
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
