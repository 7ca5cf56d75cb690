//! Lowering problems: what is wrong with which node, and what would fix it.
//!
//! In: problems found while lowering. Out: [`Problem`]s, reported together
//! as [`crate::Error::Lower`], whose message lists every problem on its own
//! line.
//!
//! ```
//! use onnc_nvdla::{lower::Problem, Error};
//! let e = Error::Lower { problems: vec![Problem::new("add1", "Add", "needs SDP eltwise", "use nv_full")] };
//! assert_eq!(e.to_string(), "1 problem lowering to NVDLA:\n  onnx.Add 'add1': needs SDP eltwise; fix: use nv_full");
//! ```

use std::fmt;

/// One node the lowering cannot map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The ONNX node's name.
    pub node: String,
    /// The ONNX op type (`onnc.ChannelShuffle` for onnc's own ops).
    pub op_type: String,
    /// What is wrong.
    pub what: String,
    /// What would fix it.
    pub fix: String,
    /// The graph input or output the problem is about, when it is about
    /// the model's boundary (see [`Problem::about`]).
    pub value: Option<String>,
}

impl Problem {
    /// A problem with node `node` of type `op_type`.
    pub fn new(
        node: &str,
        op_type: &str,
        what: impl Into<String>,
        fix: impl Into<String>,
    ) -> Problem {
        Problem {
            node: node.into(),
            op_type: op_type.into(),
            what: what.into(),
            fix: fix.into(),
            value: None,
        }
    }

    /// The same problem, about the graph input or output `value` (a
    /// caller that cut the model tells from it whether the boundary is
    /// the model's or its own).
    pub fn about(mut self, value: &str) -> Problem {
        self.value = Some(value.into());
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.op_type.contains('.') {
            self.op_type.clone()
        } else {
            format!("onnx.{}", self.op_type)
        };
        write!(f, "{op} '{}': {}; fix: {}", self.node, self.what, self.fix)
    }
}

/// The message of [`crate::Error::Lower`]: the count, then one problem a line.
pub(crate) fn lower_message(problems: &[Problem]) -> String {
    let n = problems.len();
    let mut s = format!(
        "{n} problem{} lowering to NVDLA:",
        if n == 1 { "" } else { "s" }
    );
    for p in problems {
        s.push_str(&format!("\n  {p}"));
    }
    s
}
