//! One problem of a compilation: the node (or command-line option), what is
//! wrong and what would fix it.
//!
//! In: a problem found while checking and lowering a graph, or an engine
//! [`Error`] of the layer made from a node. Out: a [`Problem`], printed
//! `node 'n' (Op): what; fix`; [`Error::Problems`] holds every problem of one
//! model, in graph order.
//!
//! ```
//! use onnc_mvu::frontend::Problem;
//! let p = Problem::node("add_3", "Add", "joins two paths", "remove the shortcut");
//! assert_eq!(p.to_string(), "node 'add_3' (Add): joins two paths; remove the shortcut");
//! ```

use std::fmt;

use crate::error::Error;

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
    pub fn engine(node: &str, op: &str, e: &Error) -> Problem {
        let fix = match e {
            Error::Precision { min: 2, .. } => "negative weights are two's complement and need --wprec 2 or more",
            Error::Precision { .. } => "use a precision from 1 to 16 bits",
            Error::Capacity { memory, .. } if memory.starts_with("weights") => {
                "split the layer's output channels over several layers (one MVU each), lower --wprec, \
                 or pass --no-ram-check to reproduce BARVINN's generator, which checks no capacities"
            }
            Error::Capacity { .. } => {
                "lower --aprec/--oprec or use fewer channels (layers are split into bands of rows \
                 and columns down to one output pixel), or pass --no-ram-check to reproduce BARVINN's generator"
            }
            Error::RegisterOverflow { .. } => {
                "use fewer channels, a smaller input width or lower precisions so the register fits"
            }
            Error::KernelTooWide { .. } => "use a kernel no wider than the unpadded input",
            Error::FractionalColumns { .. } => {
                "choose a stride that divides iW - kW + 1 (BARVINN's countdown needs a whole column count)"
            }
            Error::WeightRange { .. } => "raise --wprec or requantize the weights",
            Error::BlockTooLarge { .. } | Error::PartialSumRange { .. } => {
                "lower --wprec/--aprec, raise --quant-msb (a windowed split needs output bits above the dropped ones), \
                 or give the layer fewer input channels (features) or a smaller kernel"
            }
            Error::PoolWindows { .. } => {
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
