//! The dependency graph of one DLA task (blob `task-<i>-dep_graph`).
//!
//! In: the task's ops in execution order, each with its processor type, the
//! memory regions it reads and writes, and its on-the-fly fused parent.
//! Out: one [`CommonOpDesc`] per op and the task's `op_head`.
//!
//! Rules (research/nvdla.md §2.2, matching NN_L0_0 and the official compiler):
//! * An op `j` *waits for* an earlier op `i` when their memory conflicts:
//!   `j` reads what `i` writes (RAW), writes what `i` reads (WAR) or writes
//!   what `i` writes (WAW). Regions are `(memory, [offset, offset+size))`,
//!   so aliasing views (concat/slice/reshape) and reused activation memory
//!   are covered.
//! * `consumers[t]` of op `i` is the first op of type `t` that waits for
//!   it, event `OP_COMPLETED`. Later waiters of type `t` are ordered behind
//!   that one by the engine's own chain.
//! * `consumers[own type]` is always the next op of the same engine (the
//!   firmware dequeues along it): `OP_COMPLETED` when that op waits for `i`,
//!   else `OP_PROGRAMMED`.
//! * A fused pair (conv → SDP over the accumulator, or SDP → PDP): the parent's
//!   `consumers[child type]` = child with `OP_PROGRAMMED`, the child's
//!   `fused_parent` = parent with `OP_ENABLED`.
//! * `dependency_count` = the number of consumer and fused-parent edges that
//!   point at the op (so a conv counts +1 for its fused SDP). Unused slots
//!   are `(-1, OP_COMPLETED)`.
//!
//! Example (NN_L0_0's first layers): conv0 → sdp1 (fused) → pdp2 → conv3
//! gives conv0 `consumers = [-, 3:PROG, 1:PROG, -, -, -]`, count 1.

use onnc_nvdla_loadable::desc::common::event;
use onnc_nvdla_loadable::desc::container::op_type;
use onnc_nvdla_loadable::desc::{CommonOpDesc, Consumer};

/// A byte range in one memory.
pub(crate) type Region = (u16, u64, u64);

/// What the graph builder needs to know about one op.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Processor type (`op_type::*`).
    pub(crate) ty: u8,
    /// Regions read.
    pub(crate) reads: Vec<Region>,
    /// Regions written.
    pub(crate) writes: Vec<Region>,
    /// Task-local index of the on-the-fly fused parent.
    pub(crate) fused_parent: Option<usize>,
}

fn overlap(a: &Region, b: &Region) -> bool {
    a.0 == b.0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2 && a.2 > 0 && b.2 > 0
}

fn conflicts(i: &Node, j: &Node) -> bool {
    let any = |xs: &[Region], ys: &[Region]| xs.iter().any(|x| ys.iter().any(|y| overlap(x, y)));
    any(&j.reads, &i.writes) || any(&j.writes, &i.reads) || any(&j.writes, &i.writes)
}

const NONE: Consumer = Consumer {
    index: -1,
    event: event::OP_COMPLETED,
    res: 0,
};

/// Builds the dependency entries and `op_head` of a task.
pub(crate) fn build(nodes: &[Node]) -> (Vec<CommonOpDesc>, [i16; 6]) {
    let n = nodes.len();
    let mut deps: Vec<CommonOpDesc> = (0..n)
        .map(|i| CommonOpDesc {
            index: i as i16,
            roi_index: 0,
            op_type: nodes[i].ty,
            dependency_count: 0,
            reserved0: [0; 3],
            consumers: std::array::from_fn(|_| NONE.clone()),
            fused_parent: NONE.clone(),
        })
        .collect();
    for i in 0..n {
        let waits: Vec<bool> = (0..n)
            .map(|j| j > i && conflicts(&nodes[i], &nodes[j]))
            .collect();
        for t in 0..op_type::NUM {
            let of_type = |j: &usize| usize::from(nodes[*j].ty) == t;
            let first_waiter = (i + 1..n).filter(of_type).find(|&j| waits[j]);
            let slot = if t == usize::from(nodes[i].ty) {
                (i + 1..n).find(of_type).map(|next| {
                    let ev = if first_waiter == Some(next) {
                        event::OP_COMPLETED
                    } else {
                        event::OP_PROGRAMMED
                    };
                    (next, ev)
                })
            } else {
                first_waiter.map(|j| (j, event::OP_COMPLETED))
            };
            if let Some((j, ev)) = slot {
                deps[i].consumers[t] = Consumer {
                    index: j as i16,
                    event: ev,
                    res: 0,
                };
            }
        }
    }
    for (c, node) in nodes.iter().enumerate() {
        if let Some(parent) = node.fused_parent {
            deps[parent].consumers[usize::from(node.ty)] = Consumer {
                index: c as i16,
                event: event::OP_PROGRAMMED,
                res: 0,
            };
            deps[c].fused_parent = Consumer {
                index: parent as i16,
                event: event::OP_ENABLED,
                res: 0,
            };
        }
    }
    let mut incoming = vec![0u32; n];
    for d in &deps {
        for c in d.consumers.iter().chain(std::iter::once(&d.fused_parent)) {
            if c.index >= 0 {
                incoming[c.index as usize] += 1;
            }
        }
    }
    for (d, k) in deps.iter_mut().zip(incoming) {
        d.dependency_count = k.min(255) as u8;
    }
    let mut heads = [-1i16; 6];
    for (t, head) in heads.iter_mut().enumerate().take(op_type::NUM) {
        if let Some(i) = nodes.iter().position(|x| usize::from(x.ty) == t) {
            *head = i as i16;
        }
    }
    (deps, heads)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(ty: u8, reads: &[Region], writes: &[Region], fused: Option<usize>) -> Node {
        Node {
            ty,
            reads: reads.to_vec(),
            writes: writes.to_vec(),
            fused_parent: fused,
        }
    }

    #[test]
    fn lenet_head_matches_the_golden_links() {
        let x = (1, 0, 100);
        let a = (2, 0, 100);
        let b = (2, 100, 100);
        let nodes = [
            node(op_type::CONV, &[x], &[], None),
            node(op_type::SDP, &[], &[a], Some(0)),
            node(op_type::PDP, &[a], &[b], None),
            node(op_type::CONV, &[b], &[], None),
            node(op_type::SDP, &[], &[(2, 300, 10)], Some(3)),
        ];
        let (d, heads) = build(&nodes);
        assert_eq!(heads, [-1, 0, 1, 2, -1, -1]);
        let c = |i: usize, t: u8| {
            (
                d[i].consumers[t as usize].index,
                d[i].consumers[t as usize].event,
            )
        };
        assert_eq!(c(0, op_type::CONV), (3, event::OP_PROGRAMMED));
        assert_eq!(c(0, op_type::SDP), (1, event::OP_PROGRAMMED));
        assert_eq!(c(1, op_type::PDP), (2, event::OP_COMPLETED));
        assert_eq!(c(1, op_type::SDP), (4, event::OP_PROGRAMMED));
        assert_eq!(c(2, op_type::CONV), (3, event::OP_COMPLETED));
        assert_eq!(d[1].fused_parent.index, 0);
        assert_eq!(d[1].fused_parent.event, event::OP_ENABLED);
        let counts: Vec<u8> = d.iter().map(|x| x.dependency_count).collect();
        assert_eq!(counts, [1, 1, 1, 3, 2]);
    }

    #[test]
    fn reuse_of_memory_orders_the_writer_after_the_reader() {
        // pdp reads r, then an sdp overwrites r: the pdp must signal the sdp.
        let r = (2, 0, 64);
        let nodes = [
            node(op_type::PDP, &[r], &[(2, 64, 64)], None),
            node(op_type::SDP, &[(2, 64, 64)], &[r], None),
        ];
        let (d, _) = build(&nodes);
        assert_eq!(d[0].consumers[op_type::SDP as usize].index, 1);
        assert_eq!(d[1].dependency_count, 1);
    }
}
