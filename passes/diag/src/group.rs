//! Grouping of repeated causes: diagnostics that differ only in the node
//! they name (same severity, file, op type, message and fix) print once.
//!
//! In: diagnostics in the order to report them (graph order). Out:
//! [`Item`]s in the same order, a group standing where its first member
//! stood.

use crate::Diagnostic;
use std::collections::HashMap;

/// One printed entry.
#[derive(Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// A diagnostic on its own.
    One(&'a Diagnostic),
    /// `first` and the other nodes with the same cause, in order.
    Group {
        /// The first member (it gives the message).
        first: &'a Diagnostic,
        /// The other members' node names.
        others: Vec<&'a str>,
    },
}

/// Groups `diags`; a diagnostic without node or op type stands alone.
pub fn group(diags: &[Diagnostic]) -> Vec<Item<'_>> {
    type Key<'a> = (
        crate::Severity,
        Option<&'a str>,
        &'a str,
        &'a str,
        Option<&'a str>,
    );
    let mut items: Vec<Item> = Vec::new();
    let mut open: HashMap<Key, usize> = HashMap::new();
    for d in diags {
        let (Some(node), Some(op)) = (d.node.as_deref(), d.op.as_deref()) else {
            items.push(Item::One(d));
            continue;
        };
        let key = (
            d.severity,
            d.file.as_deref(),
            op,
            d.message.as_str(),
            d.fix.as_deref(),
        );
        match open.get(&key) {
            Some(&i) => {
                let item = &mut items[i];
                if let Item::One(first) = *item {
                    *item = Item::Group {
                        first,
                        others: vec![node],
                    };
                } else if let Item::Group { others, .. } = item {
                    others.push(node);
                }
            }
            None => {
                open.insert(key, items.len());
                items.push(Item::One(d));
            }
        }
    }
    items
}
