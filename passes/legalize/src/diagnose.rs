//! Diagnostics: every op that no rule made legal, at once.
//!
//! In: the e-graph, the target's [`NodeCosts`] and the target. Out: one
//! [`Violation`] per illegal op of the graph that has the *fewest* illegal
//! ops (extracted with [`NodeCosts::violation_counts`]), so the user sees
//! every op that needs attention and no op a rule already made legal.
//! An op is not blamed when a rule made it legal given legal inputs
//! ([`innocent`]): its only fault is an illegal producer, reported in its
//! own right. (A depthwise Conv after a Sigmoid nv_small cannot run was
//! reported as "depthwise Conv is not supported": its per-channel split
//! reads the Sigmoid once per piece, so counting violations per tree kept
//! it unsplit.) Each
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
use crate::lang::ENode;
use crate::legality::{judge, Verdict};
use crate::target::Target;
use egg::Id;
use std::collections::{BTreeMap, BTreeSet, HashMap};
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
        if innocent(eg, costs, &sel.choice, id, n) {
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

/// Whether e-class `class`, whose chosen e-node `chosen` is illegal, has
/// another e-node legal in itself whose inputs are all legal once
/// everything `chosen` reads (its inputs and what computes them, in the
/// selection `choice`) is taken as legal: then the rules made the op legal
/// and only what feeds it is at fault.
fn innocent(
    eg: &Graph,
    costs: &NodeCosts,
    choice: &BTreeMap<Id, ENode>,
    class: Id,
    chosen: &ENode,
) -> bool {
    let mut upstream: BTreeSet<Id> = BTreeSet::new();
    let mut stack: Vec<Id> = chosen.children.iter().map(|c| eg.find(*c)).collect();
    while let Some(id) = stack.pop() {
        if id != class && upstream.insert(id) {
            if let Some(n) = choice.get(&id) {
                stack.extend(n.children.iter().map(|c| eg.find(*c)));
            }
        }
    }
    let mut memo: HashMap<Id, bool> = HashMap::new();
    eg[class].nodes.iter().any(|m| {
        m != chosen
            && costs.get(m).is_finite()
            && m.children
                .iter()
                .all(|c| legal_given(eg, costs, eg.find(*c), &upstream, &mut memo, 0))
    })
}

/// How deep [`legal_given`] follows inputs before it gives up (says not
/// legal: the op is then blamed, as before), bounding its stack.
const MAX_DEPTH: usize = 2048;

/// Whether e-class `id` has a legal e-node tree whose leaves are constants,
/// graph inputs or `frontier` classes (a cycle, or more than
/// [`MAX_DEPTH`] levels, counts as not legal).
fn legal_given(
    eg: &Graph,
    costs: &NodeCosts,
    id: Id,
    frontier: &BTreeSet<Id>,
    memo: &mut HashMap<Id, bool>,
    depth: usize,
) -> bool {
    if frontier.contains(&id) {
        return true;
    }
    if depth > MAX_DEPTH {
        return false;
    }
    if let Some(&known) = memo.get(&id) {
        return known;
    }
    memo.insert(id, false); // in progress: a cycle through here is no way out
    let ok = eg[id].nodes.iter().any(|m| {
        costs.get(m).is_finite()
            && m.children
                .iter()
                .all(|c| legal_given(eg, costs, eg.find(*c), frontier, memo, depth + 1))
    });
    memo.insert(id, ok);
    ok
}
