//! Phase 3 of loading: structural validation and topological sorting.
//!
//! In: a converted [`Graph`]. Out: the same graph with nodes topologically
//! sorted (stable: file order wherever the dependencies allow), or the first
//! problem found: a value defined twice, a node input or graph
//! output nothing defines, or a cycle.

use crate::{Error, Graph, Result};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Checks `g` and sorts its nodes.
pub(crate) fn validate(g: &mut Graph) -> Result<()> {
    // Producer node index per value (None = graph input or initializer).
    let mut defs: HashMap<&str, (Option<usize>, String)> = HashMap::new();
    let sources = g
        .inputs
        .iter()
        .map(|v| (v.name.as_str(), None, "a graph input".to_string()))
        .chain(
            g.initializers
                .iter()
                .map(|(n, _)| (n.as_str(), None, "an initializer".to_string())),
        );
    let produced = g.nodes.iter().enumerate().flat_map(|(i, n)| {
        n.outputs.iter().filter(|o| !o.is_empty()).map(move |o| {
            (
                o.as_str(),
                Some(i),
                format!("node '{}' ({})", n.name, n.op_type),
            )
        })
    });
    for (name, producer, who) in sources.chain(produced) {
        if let Some((_, first)) = defs.get(name) {
            return Err(Error::DuplicateOutput {
                name: name.into(),
                first: first.clone(),
                second: who,
            });
        }
        defs.insert(name, (producer, who));
    }

    let n = g.nodes.len();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for (i, node) in g.nodes.iter().enumerate() {
        for input in node.inputs.iter().flatten() {
            match defs.get(input.as_str()) {
                None => {
                    return Err(Error::Dangling {
                        node: node.name.clone(),
                        op: node.op_type.clone(),
                        input: input.clone(),
                    })
                }
                Some((Some(p), _)) => {
                    users[*p].push(i);
                    pending[i] += 1;
                }
                Some((None, _)) => {}
            }
        }
    }
    for o in &g.outputs {
        if !defs.contains_key(o.name.as_str()) {
            return Err(Error::DanglingOutput {
                name: o.name.clone(),
            });
        }
    }

    // Kahn's algorithm, always taking the ready node earliest in the file.
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&i| pending[i] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(i)) = ready.pop() {
        order.push(i);
        for &u in &users[i] {
            pending[u] -= 1;
            if pending[u] == 0 {
                ready.push(Reverse(u));
            }
        }
    }
    if order.len() != n {
        let nodes = (0..n)
            .filter(|&i| pending[i] > 0)
            .map(|i| g.nodes[i].name.clone())
            .collect();
        return Err(Error::Cycle { nodes });
    }
    drop(defs);
    let mut slots: Vec<Option<crate::Node>> =
        std::mem::take(&mut g.nodes).into_iter().map(Some).collect();
    g.nodes = order.into_iter().filter_map(|i| slots[i].take()).collect();
    Ok(())
}
