//! The front end's error: every problem found in one model, each naming the
//! node (or command-line option), what is wrong and what would fix it.
//!
//! In: problems collected while checking and lowering a graph. Out:
//! [`CompileError`], whose `Display` prints one problem per line, in graph order.
//!
//! ```
//! use onnc_mvu::frontend::{CompileError, Problem};
//! let e = CompileError::from(vec![
//!     Problem::option("--wprec", "17 bits is outside 1..=16", "use a precision from 1 to 16"),
//!     Problem::node("add_3", "Add", "joins two paths", "remove the shortcut"),
//! ]);
//! assert_eq!(e.to_string(),
//!     "2 problems:\n  --wprec: 17 bits is outside 1..=16; use a precision from 1 to 16\n  \
//!      node 'add_3' (Add): joins two paths; remove the shortcut");
//! ```

use std::fmt;

use crate::error::MvuError;

/// One thing wrong with the model or the options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The ONNX node (or, for options and graph-level problems, `None`).
    pub node: Option<String>,
    /// The node's op type, or the option / graph item the problem is about.
    pub subject: String,
    /// What is wrong.
    pub what: String,
    /// What would fix it.
    pub fix: String,
}

impl Problem {
    /// A problem at node `node` of type `op`.
    pub fn node(node: &str, op: &str, what: impl Into<String>, fix: impl Into<String>) -> Problem {
        Problem {
            node: Some(node.into()),
            subject: op.into(),
            what: what.into(),
            fix: fix.into(),
        }
    }

    /// A problem with an option (`--aprec`) or a graph-level item (`graph input 'x'`).
    pub fn option(subject: &str, what: impl Into<String>, fix: impl Into<String>) -> Problem {
        Problem {
            node: None,
            subject: subject.into(),
            what: what.into(),
            fix: fix.into(),
        }
    }

    /// An engine error for the layer made from node `node` (`op`), with a fix
    /// chosen by the kind of error.
    pub fn engine(node: &str, op: &str, e: &MvuError) -> Problem {
        let fix = match e {
            MvuError::Precision { min: 2, .. } => "negative weights are two's complement and need --wprec 2 or more",
            MvuError::Precision { .. } => "use a precision from 1 to 16 bits",
            MvuError::Capacity { memory, .. } if memory.starts_with("weights") => {
                "split the layer's output channels over several layers (one MVU each), lower --wprec, \
                 or pass --no-ram-check to reproduce BARVINN's generator, which checks no capacities"
            }
            MvuError::Capacity { .. } => {
                "lower --aprec/--oprec or use fewer channels (layers are split into bands of rows \
                 and columns down to one output pixel), or pass --no-ram-check to reproduce BARVINN's generator"
            }
            MvuError::RegisterOverflow { .. } => {
                "use fewer channels, a smaller input width or lower precisions so the register fits"
            }
            MvuError::KernelTooWide { .. } => "use a kernel no wider than the unpadded input",
            MvuError::FractionalColumns { .. } => {
                "choose a stride that divides iW - kW + 1 (BARVINN's countdown needs a whole column count)"
            }
            MvuError::WeightRange { .. } => "raise --wprec or requantize the weights",
            MvuError::BlockTooLarge { .. } | MvuError::PartialSumRange { .. } => {
                "lower --wprec/--aprec, raise --quant-msb (a windowed split needs output bits above the dropped ones), \
                 or give the layer fewer input channels (features) or a smaller kernel"
            }
            MvuError::PoolWindows { .. } => {
                "use a pooling whose windows all lie inside the conv's output (no pads, floor mode), or run it on the host"
            }
            _ => "check the layer's shapes and weights",
        };
        // The engine message starts with "layer `name`: "; the node name is printed by Display.
        let msg = e.to_string();
        let what = msg
            .split_once(": ")
            .map_or(msg.as_str(), |(_, rest)| rest)
            .to_string();
        Problem::node(node, op, what, fix)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.node {
            Some(n) => write!(
                f,
                "node '{n}' ({}): {}; {}",
                self.subject, self.what, self.fix
            ),
            None => write!(f, "{}: {}; {}", self.subject, self.what, self.fix),
        }
    }
}

/// Everything wrong with one compilation (never empty), or an I/O failure
/// while writing the output directory.
#[derive(Debug)]
pub enum CompileError {
    /// Problems in the model or the options, in graph order.
    Problems(Vec<Problem>),
    /// Writing the output directory failed (nothing was left behind).
    Io {
        /// The path being written.
        path: std::path::PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl CompileError {
    /// The problems (empty for an I/O error).
    pub fn problems(&self) -> &[Problem] {
        match self {
            CompileError::Problems(p) => p,
            CompileError::Io { .. } => &[],
        }
    }
}

impl From<Vec<Problem>> for CompileError {
    fn from(p: Vec<Problem>) -> Self {
        CompileError::Problems(p)
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Problems(p) if p.len() == 1 => write!(f, "{}", p[0]),
            CompileError::Problems(p) => {
                write!(f, "{} problems:", p.len())?;
                for x in p {
                    write!(f, "\n  {x}")?;
                }
                Ok(())
            }
            CompileError::Io { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for CompileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompileError::Io { source, .. } => Some(source),
            CompileError::Problems(_) => None,
        }
    }
}
