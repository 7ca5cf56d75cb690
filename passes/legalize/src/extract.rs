//! Extraction: choose one e-node per needed e-class.
//!
//! In: a saturated e-graph, the root (`Outputs`) and the target's
//! [`NodeCosts`]. Out: a [`Selection`] — the chosen e-node of every e-class
//! reachable from the root — and its cost.
//!
//! * [`greedy`]: bottom-up tree cost (own cost + operands' costs, shared
//!   operands counted once per use) — what egg's `Extractor` computes, here
//!   by a Dijkstra-style pass that finalizes each e-class once (egg's
//!   fixpoint iteration is quadratic on long chains whose rewritten forms
//!   improve costs layer by layer).
//! * [`dag`]: starts from the greedy choice and improves it by local search
//!   under the **DAG cost** — the sum of the own costs of the e-classes the
//!   selection actually reaches, each counted once. It switches one e-class
//!   at a time to another e-node (the greedy pass chose a node for every
//!   e-class, so new operands keep theirs), then lets the other consumers of
//!   what became reachable switch to forms that share it; the move is kept
//!   when the DAG cost drops and the selection stays acyclic. It fixes the
//!   typical greedy mistake on shared subgraphs: duplicating a shared
//!   producer into every consumer because each consumer alone looks cheaper.
//!
//! ```
//! use onnc_legalize::ExtractorKind;
//! assert_eq!(ExtractorKind::default(), ExtractorKind::Dag);
//! ```

use crate::analysis::Graph;
use crate::cost::{add, NodeCosts};
use crate::lang::ENode;
use egg::Id;
use std::collections::BTreeMap;

/// Which extractor to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExtractorKind {
    /// Tree-cost greedy.
    Greedy,
    /// Greedy, then DAG-cost local search (default).
    #[default]
    Dag,
}

/// A choice of e-node per e-class, and what it costs.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// The chosen e-node of each canonical e-class (for DAG selections: only the reachable ones matter).
    pub choice: BTreeMap<Id, ENode>,
    /// Best tree cost of each e-class (from the greedy pass).
    pub tree_cost: BTreeMap<Id, f64>,
    /// Cost of the selection from the root (tree cost for greedy, DAG cost for DAG).
    pub cost: f64,
}

/// A heap entry: cost, e-class, e-node index; ordered smallest first.
/// A heap entry: (tree cost, local cost, e-class, e-node position).
///
/// The local cost (own cost + the own costs of the operands' chosen
/// e-nodes) breaks ties between tree costs that are equal only because they
/// saturated at [`crate::cost::SATURATED`] or are so large that an operand's
/// ε rounded away: deep in MobileNetV2 `Max(x, 0)` and `Relu(x)` (one ε
/// apart) tied and the older e-node, `Max`, won in every later block.
#[derive(PartialEq)]
struct Entry(f64, f64, usize, usize);

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Reversed: BinaryHeap is a max-heap.
        other
            .0
            .total_cmp(&self.0)
            .then(other.1.total_cmp(&self.1))
            .then(other.2.cmp(&self.2))
            .then(other.3.cmp(&self.3))
    }
}

/// Greedy tree-cost extraction over every e-class, by Knuth's generalization
/// of Dijkstra's algorithm: an e-node's cost (own + operands') is known once
/// all its operand e-classes are final, and the cheapest known e-class is
/// final. Each e-class is finalized once: O(E log E), deterministic (ties
/// break on the local cost — own cost plus the operands' chosen own costs —
/// then e-class id, then e-node position). Correct because an e-node
/// never costs less than any of its operands (own costs are ≥ ε > 0).
pub fn greedy(eg: &Graph, costs: &NodeCosts, root: Id) -> Selection {
    let size = eg
        .classes()
        .map(|c| usize::from(c.id) + 1)
        .max()
        .unwrap_or(0);
    // users[class] = (user class, user node index) per operand occurrence
    let mut users: Vec<Vec<(usize, usize)>> = vec![vec![]; size];
    let mut pending: Vec<Vec<usize>> = vec![vec![]; size];
    let mut heap = std::collections::BinaryHeap::new();
    let mut ids: Vec<Id> = eg.classes().map(|c| c.id).collect();
    ids.sort();
    for &id in &ids {
        let i = usize::from(id);
        pending[i] = eg[id].nodes.iter().map(|n| n.children.len()).collect();
        for (k, n) in eg[id].nodes.iter().enumerate() {
            if n.children.is_empty() {
                heap.push(Entry(costs.get(n), costs.get(n), i, k));
            }
            for c in &n.children {
                users[usize::from(eg.find(*c))].push((i, k));
            }
        }
    }
    let mut best: Vec<Option<(f64, usize)>> = vec![None; size];
    while let Some(Entry(cost, _, i, k)) = heap.pop() {
        if best[i].is_some() {
            continue;
        }
        best[i] = Some((cost, k));
        for &(u, uk) in &users[i] {
            let p = &mut pending[u][uk];
            *p -= 1;
            if *p == 0 && best[u].is_none() {
                let n = &eg[Id::from(u)].nodes[uk];
                let mut total = costs.get(n);
                let mut local = costs.get(n);
                for c in &n.children {
                    let cid = eg.find(*c);
                    let Some((ct, ck)) = best[usize::from(cid)] else {
                        total = f64::INFINITY;
                        continue;
                    };
                    total = add(total, ct);
                    local = add(local, costs.get(&eg[cid].nodes[ck]));
                }
                heap.push(Entry(total, local, u, uk));
            }
        }
    }
    let mut choice = BTreeMap::new();
    let mut tree_cost = BTreeMap::new();
    for id in ids {
        if let Some((c, k)) = best[usize::from(id)] {
            tree_cost.insert(id, c);
            choice.insert(id, eg[id].nodes[k].clone());
        }
    }
    let cost = tree_cost
        .get(&eg.find(root))
        .copied()
        .unwrap_or(f64::INFINITY);
    Selection {
        choice,
        tree_cost,
        cost,
    }
}

/// DAG cost of `choice` from `root`: each reachable e-class's own cost once; ∞ on a cycle or a missing choice.
pub fn dag_cost(eg: &Graph, costs: &NodeCosts, choice: &BTreeMap<Id, ENode>, root: Id) -> f64 {
    // Iterative DFS with colors to detect cycles.
    let mut state: BTreeMap<Id, u8> = BTreeMap::new(); // 1 = on stack, 2 = done
    let mut total = 0.0;
    let mut stack: Vec<(Id, usize)> = vec![(eg.find(root), 0)];
    state.insert(eg.find(root), 1);
    while let Some((id, i)) = stack.pop() {
        let Some(node) = choice.get(&id) else {
            return f64::INFINITY;
        };
        if i < node.children.len() {
            stack.push((id, i + 1));
            let c = eg.find(node.children[i]);
            match state.get(&c) {
                Some(1) => return f64::INFINITY,
                Some(_) => {}
                None => {
                    state.insert(c, 1);
                    stack.push((c, 0));
                }
            }
        } else {
            state.insert(id, 2);
            total = add(total, costs.get(node));
        }
    }
    total
}

/// How many e-classes above the switched one the DAG extractor's cycle check
/// may visit before it declines a switch (classes below it in the current
/// post-order are skipped: they cannot reach it).
pub const CYCLE_CHECK_BUDGET: usize = 4096;

/// Incremental DAG-cost bookkeeping: reference counts of e-classes under a selection.
struct DagState<'a> {
    eg: &'a Graph,
    costs: &'a NodeCosts,
    choice: Vec<Option<ENode>>,
    refc: Vec<u32>,
    total: f64,
    mark: Vec<u32>,
    epoch: u32,
    /// E-classes that became reachable since the last `take_new()`.
    newly: Vec<usize>,
    /// Post-order position (1-based) of each reachable e-class under the
    /// choice when it was last computed; 0 = unknown. If `x` reaches `c`
    /// then `post[x] > post[c]`, which prunes the cycle check.
    post: Vec<u32>,
    root: usize,
}

impl DagState<'_> {
    fn idx(&self, id: Id) -> usize {
        usize::from(self.eg.find(id))
    }

    fn add_ref(&mut self, id: Id) {
        let mut stack = vec![self.idx(id)];
        while let Some(i) = stack.pop() {
            self.refc[i] += 1;
            if self.refc[i] == 1 {
                self.newly.push(i);
                if let Some(n) = &self.choice[i] {
                    self.total += self.costs.get(n);
                    for c in &n.children {
                        stack.push(usize::from(self.eg.find(*c)));
                    }
                }
            }
        }
    }

    fn del_ref(&mut self, id: Id) {
        let mut stack = vec![self.idx(id)];
        while let Some(i) = stack.pop() {
            self.refc[i] = self.refc[i].saturating_sub(1);
            if self.refc[i] == 0 {
                if let Some(n) = &self.choice[i] {
                    self.total -= self.costs.get(n);
                    for c in &n.children {
                        stack.push(usize::from(self.eg.find(*c)));
                    }
                }
            }
        }
    }

    /// Switches e-class `i` to `node`; returns the previous choice.
    fn switch(&mut self, i: usize, node: ENode) -> Option<ENode> {
        let old = self.choice[i].clone()?;
        for c in &node.children {
            self.add_ref(*c);
        }
        self.total += self.costs.get(&node) - self.costs.get(&old);
        self.choice[i] = Some(node);
        for c in &old.children {
            self.del_ref(*c);
        }
        Some(old)
    }

    /// Recomputes the post-order positions under the current choice.
    fn renumber(&mut self) {
        self.post.iter_mut().for_each(|p| *p = 0);
        self.epoch += 1;
        let mut next = 1u32;
        let mut stack: Vec<(usize, usize)> = vec![(self.root, 0)];
        self.mark[self.root] = self.epoch;
        while let Some((i, k)) = stack.pop() {
            let child = self.choice[i]
                .as_ref()
                .and_then(|n| n.children.get(k))
                .map(|c| usize::from(self.eg.find(*c)));
            match child {
                Some(c) => {
                    stack.push((i, k + 1));
                    if self.mark[c] != self.epoch {
                        self.mark[c] = self.epoch;
                        stack.push((c, 0));
                    }
                }
                None => {
                    self.post[i] = next;
                    next += 1;
                }
            }
        }
    }

    /// Whether `target` may be reachable from `node`'s operands under the
    /// current choice. Classes numbered below `target` in the post-order
    /// cannot reach it and are skipped; the search gives up (answers yes)
    /// after [`CYCLE_CHECK_BUDGET`] others, so a switch is never made unchecked.
    fn reaches(&mut self, node: &ENode, target: usize) -> bool {
        self.epoch += 1;
        let mut stack: Vec<usize> = node
            .children
            .iter()
            .map(|c| usize::from(self.eg.find(*c)))
            .collect();
        let mut budget = CYCLE_CHECK_BUDGET;
        let below = self.post[target];
        while let Some(i) = stack.pop() {
            if i == target {
                return true;
            }
            if self.mark[i] == self.epoch
                || (below != 0 && self.post[i] != 0 && self.post[i] < below)
            {
                continue;
            }
            if budget == 0 {
                return true;
            }
            budget -= 1;
            self.mark[i] = self.epoch;
            if let Some(n) = &self.choice[i] {
                stack.extend(n.children.iter().map(|c| usize::from(self.eg.find(*c))));
            }
        }
        false
    }
}

/// Greedy, then DAG-cost local search (at most `passes` sweeps), with
/// incremental reference counting: switching one e-class costs time
/// proportional to the part of the graph that changes reachability.
pub fn dag(eg: &Graph, costs: &NodeCosts, root: Id, passes: usize) -> Selection {
    let mut sel = greedy(eg, costs, root);
    if !sel.cost.is_finite() {
        return sel;
    }
    let size = eg.classes().map(|c| usize::from(c.id)).max().unwrap_or(0) + 1;
    let mut st = DagState {
        eg,
        costs,
        choice: vec![None; size],
        refc: vec![0; size],
        total: 0.0,
        mark: vec![0; size],
        epoch: 0,
        newly: vec![],
        post: vec![0; size],
        root: usize::from(eg.find(root)),
    };
    for (id, n) in &sel.choice {
        st.choice[usize::from(*id)] = Some(n.clone());
    }
    st.add_ref(root);
    st.renumber();
    let mut candidates: Vec<(Id, Vec<ENode>)> = eg
        .classes()
        .filter_map(|c| {
            let alts: Vec<ENode> = c
                .nodes
                .iter()
                .filter(|n| costs.get(n).is_finite())
                .cloned()
                .collect();
            (alts.len() >= 2).then_some((c.id, alts))
        })
        .collect();
    candidates.sort_by_key(|(id, _)| *id);
    let alts_of: BTreeMap<usize, &Vec<ENode>> = candidates
        .iter()
        .map(|(id, a)| (usize::from(*id), a))
        .collect();
    for _ in 0..passes {
        let mut improved = false;
        for (id, alts) in &candidates {
            let i = usize::from(*id);
            for alt in alts {
                if st.refc[i] == 0 || st.choice[i].as_ref() == Some(alt) || st.reaches(alt, i) {
                    continue;
                }
                let before = st.total;
                st.newly.clear();
                let Some(old) = st.switch(i, alt.clone()) else {
                    continue;
                };
                let mut log: Vec<(usize, ENode)> = vec![(i, old)];
                // Follow-up: consumers that could share what just became reachable.
                let fresh: Vec<usize> = std::mem::take(&mut st.newly);
                for n in fresh {
                    let mut parents: Vec<usize> = eg[Id::from(n)]
                        .parents()
                        .map(|p| usize::from(eg.find(p)))
                        .collect();
                    parents.sort_unstable();
                    parents.dedup();
                    for p in parents {
                        if p == i || st.refc[p] == 0 {
                            continue;
                        }
                        let Some(palts) = alts_of.get(&p) else {
                            continue;
                        };
                        for pn in palts.iter() {
                            let uses_n = pn.children.iter().any(|c| usize::from(eg.find(*c)) == n);
                            if !uses_n || st.choice[p].as_ref() == Some(pn) || st.reaches(pn, p) {
                                continue;
                            }
                            let t0 = st.total;
                            let Some(pold) = st.switch(p, pn.clone()) else {
                                continue;
                            };
                            if st.total < t0 - 1e-9 * t0.abs().max(1.0) {
                                log.push((p, pold));
                                break;
                            }
                            st.switch(p, pold);
                        }
                    }
                }
                st.newly.clear();
                if st.total < before - 1e-9 * before.abs().max(1.0) {
                    improved = true;
                    st.renumber();
                } else {
                    for (k, n) in log.into_iter().rev() {
                        st.switch(k, n);
                    }
                    st.total = before;
                }
            }
        }
        if !improved {
            break;
        }
    }
    for (i, n) in st.choice.into_iter().enumerate() {
        if let Some(n) = n {
            sel.choice.insert(Id::from(i), n);
        }
    }
    sel.cost = dag_cost(eg, costs, &sel.choice, root);
    sel
}
