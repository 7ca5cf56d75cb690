//! Diagnostics: every op that no rule made legal, at once.
//!
//! In: the e-graph, the target's [`NodeCosts`] and the target. Out: one
//! [`Violation`] per illegal op of the graph that has the *fewest* illegal
//! ops (extracted with [`NodeCosts::violation_counts`]), so the user sees
//! every op that needs attention and no op a rule already made legal. Each
//! violation names the input-graph node, its op, the target and the violated
//! limit.
//!
//! ```
//! use onnc_legalize::Violation;
//! let v = Violation { node: "pool9".into(), op: "MaxPool".into(), target: "nv_full".into(),
//!     reason: "MaxPool kernel 9 exceeds nv_full's limit of 8".into() };
//! assert_eq!(v.to_string(), "node 'pool9' (MaxPool): MaxPool kernel 9 exceeds nv_full's limit of 8");
//! ```

use crate::analysis::Graph;
use crate::cost::NodeCosts;
use crate::extract::greedy;
use crate::legality::{judge, Verdict};
use crate::target::Target;
use egg::Id;
use std::collections::BTreeSet;
use std::fmt;

/// An op the target cannot run.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    /// The input-graph node (its name).
    pub node: String,
    /// Its op type.
    pub op: String,
    /// The target.
    pub target: String,
    /// The violated limit, in words.
    pub reason: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node '{}' ({}): {}", self.node, self.op, self.reason)
    }
}

/// Every violation of the graph with the fewest illegal ops, sorted by node
/// name (the caller puts them in graph order).
pub fn diagnose(eg: &Graph, costs: &NodeCosts, root: Id, target: Target) -> Vec<Violation> {
    let counts = costs.violation_counts();
    let sel = greedy(eg, &counts, root);
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![eg.find(root)];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(n) = sel.choice.get(&id) else {
            continue;
        };
        stack.extend(n.children.iter().map(|c| eg.find(*c)));
        if costs.get(n).is_finite() {
            continue;
        }
        if let (Some(k), Verdict::Illegal(reason)) = (n.key(), judge(target, eg, n, &eg[id].data)) {
            let node = k
                .sources
                .first()
                .map(|s| s.as_str().to_string())
                .unwrap_or_else(|| k.name.as_str().to_string());
            out.insert(Violation {
                node,
                op: k.op_type.as_str().to_string(),
                target: target.name().to_string(),
                reason,
            });
        }
    }
    out.into_iter().collect()
}
