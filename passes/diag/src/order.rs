//! Graph order: diagnostics sorted by where their node stands in the
//! model (`n9` before `n16`), not by name.
//!
//! In: diagnostics and the model's node names in graph order. Out: the
//! diagnostics, stably sorted: first those about the whole model (no
//! node), then by the position of their node — a merged node `a+b`
//! stands where `a` stands, a node a pass derived from `a` (`a_split0`)
//! where the longest model name it starts with stands — and last those
//! naming a node the model does not have.

use crate::Diagnostic;
use std::collections::HashMap;

/// Sorts `diags` into the order of `nodes`.
pub fn graph_order<'a>(diags: &mut [Diagnostic], nodes: impl IntoIterator<Item = &'a str>) {
    let index: HashMap<&str, usize> = nodes.into_iter().enumerate().map(|(i, n)| (n, i)).collect();
    let position = |node: &str| -> Option<usize> {
        if let Some(&i) = index.get(node) {
            return Some(i);
        }
        if let Some(i) = node.split('+').find_map(|p| index.get(p)) {
            return Some(*i);
        }
        index
            .iter()
            .filter(|(n, _)| !n.is_empty() && node.starts_with(**n))
            .max_by_key(|(n, &i)| (n.len(), std::cmp::Reverse(i)))
            .map(|(_, &i)| i)
    };
    diags.sort_by_cached_key(|d| match d.node.as_deref() {
        None => (0, 0),
        Some(n) => position(n).map_or((2, 0), |p| (1, p)),
    });
}
