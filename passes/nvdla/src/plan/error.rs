//! The planner's one error type.
//!
//! In: nothing. Out: [`PlanError`], whose messages name the op (`nvdla.<engine>`
//! with its `hw_layer` and position) or tensor, say what is wrong and what
//! would fix it. All variants but [`PlanError::Internal`] are problems in the
//! lowered program (usually the lowering should have inserted a copy).
//!
//! ```
//! use onnc_nvdla::plan::PlanError;
//! let e = PlanError::Unaligned {
//!     op: "nvdla.slice 'split1' (op 3)".into(),
//!     tensor: "s".into(),
//!     c_start: 8,
//!     group: 16,
//! };
//! assert!(e.to_string().contains("multiple of 16"));
//! ```

use thiserror::Error;

/// Why a program cannot be planned, or (from [`super::check`]) why a plan is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
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
    Unplaced {
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
}

/// The planner's result type.
pub type Result<T> = std::result::Result<T, PlanError>;

/// How error messages name an op: `nvdla.concat 'cat1' (op 12)`.
pub fn op_name(p: &crate::Program, index: usize) -> String {
    let o = &p.ops[index];
    format!("nvdla.{} '{}' (op {index})", o.engine, o.hw_layer)
}
