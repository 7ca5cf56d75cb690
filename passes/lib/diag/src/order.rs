//! Graph order: diagnostics sorted by where their node stands in the
//! model (`n9` before `n16`), not by name.
//!
//! In: diagnostics and the model's node names in graph order. Out: the
//! diagnostics, stably sorted by the position of their node (a merged
//! node `a+b` stands where `a` stands); those without a known node keep
//! their relative order and go first (they concern the whole model).

use crate::Diagnostic;
use std::collections::HashMap;

/// Sorts `diags` into the order of `nodes`.
pub fn graph_order<'a>(diags: &mut [Diagnostic], nodes: impl IntoIterator<Item = &'a str>) {
    let index: HashMap<&str, usize> = nodes.into_iter().enumerate().map(|(i, n)| (n, i)).collect();
    let position = |d: &Diagnostic| -> Option<usize> {
        let node = d.node.as_deref()?;
        index
            .get(node)
            .or_else(|| node.split('+').find_map(|p| index.get(p)))
            .copied()
    };
    diags.sort_by_key(|d| position(d).map_or((0, 0), |p| (1, p)));
}
