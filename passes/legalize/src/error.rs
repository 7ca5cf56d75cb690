//! The crate's one error type.
//!
//! In: failures while building, saturating or extracting. Out: [`Error`],
//! whose `Display` names the node(s) and the target.
//!
//! ```
//! let e = onnc_legalize::Error::UnknownTarget("nv_tiny".into());
//! assert_eq!(e.to_string(), "unknown target 'nv_tiny' (expected nv_full, nv_large, nv_small, nnie or mvu)");
//! ```

use crate::diagnose::Violation;
use crate::report::StopReason;

/// Result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: the target name is not one we know.
    #[error("unknown target '{0}' (expected nv_full, nv_large, nv_small, nnie or mvu)")]
    UnknownTarget(String),
    /// Bad input: the graph is malformed (an operand used before it is defined…).
    #[error("node '{node}': {message}")]
    Graph {
        /// The node (empty for graph-level problems).
        node: String,
        /// What is wrong.
        message: String,
    },
    /// Bad input for the target: ops no rule made legal, all of them.
    #[error("{} op(s) cannot run on {target}:\n{}", violations.len(), violations.iter().map(|v| format!("  {v}")).collect::<Vec<_>>().join("\n"))]
    Illegal {
        /// The target.
        target: String,
        /// Every violation, sorted by node name.
        violations: Vec<Violation>,
        /// Why saturation stopped: anything but [`StopReason::Saturated`]
        /// means some rewrites were never tried, so an op listed may have a
        /// legal form the run did not reach ([`StopReason::incomplete`]).
        stop: StopReason,
    },
    /// A bug: extraction produced no selection for a needed value.
    #[error("internal error (a bug in onnc-legalize): {0}")]
    Internal(String),
}
