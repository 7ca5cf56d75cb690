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
//! * The count is a `u8`: an op that more than 255 edges point at keeps,
//!   from each other engine, only the edge of that engine's last producer
//!   (engines complete their ops in order), so the count stays exact.
//!
//! Example (NN_L0_0's first layers): conv0 → sdp1 (fused) → pdp2 → conv3
//! gives conv0 `consumers = [-, 3:PROG, 1:PROG, -, -, -]`, count 1.

use std::collections::BTreeMap;

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

/// Whether two regions share a byte (the rule [`waiters`] implements).
#[cfg(test)]
fn overlap(a: &Region, b: &Region) -> bool {
    a.0 == b.0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2 && a.2 > 0 && b.2 > 0
}

/// Whether `j` must wait for `i`: RAW, WAR or WAW on some byte.
#[cfg(test)]
fn conflicts(i: &Node, j: &Node) -> bool {
    let any = |xs: &[Region], ys: &[Region]| xs.iter().any(|x| ys.iter().any(|y| overlap(x, y)));
    any(&j.reads, &i.writes) || any(&j.writes, &i.reads) || any(&j.writes, &i.writes)
}

const NONE: Consumer = Consumer {
    index: -1,
    event: event::OP_COMPLETED,
    res: 0,
};

/// For each op `i` and processor type `t`: the first later op of type `t`
/// that waits for `i` (memory conflict), and the next op of type `t`.
type PerType = Vec<[Option<usize>; op_type::NUM]>;

/// Which op last painted each byte range of one memory: disjoint pieces
/// `start -> (end, op)`. Painting in descending op order leaves, over any
/// range, the smallest op index that touches it.
#[derive(Default)]
struct Paint {
    pieces: BTreeMap<u64, (u64, usize)>,
}

impl Paint {
    /// Paints `[a, b)` with `op`, replacing whatever covered it.
    fn paint(&mut self, a: u64, b: u64, op: usize) {
        let first = self
            .pieces
            .range(..a)
            .next_back()
            .filter(|(_, (end, _))| *end > a)
            .map(|(&s, _)| s);
        let keys: Vec<u64> = first
            .into_iter()
            .chain(self.pieces.range(a..b).map(|(&s, _)| s))
            .collect();
        for k in keys {
            let (end, v) = self.pieces.remove(&k).expect("listed above");
            if k < a {
                self.pieces.insert(k, (a, v));
            }
            if end > b {
                self.pieces.insert(b, (end, v));
            }
        }
        self.pieces.insert(a, (b, op));
    }

    /// The smallest op painted anywhere in `[a, b)`.
    fn min_in(&self, a: u64, b: u64) -> Option<usize> {
        let before = self
            .pieces
            .range(..a)
            .next_back()
            .filter(|(_, (end, _))| *end > a)
            .map(|(_, (_, v))| *v);
        before
            .into_iter()
            .chain(self.pieces.range(a..b).map(|(_, (_, v))| *v))
            .min()
    }
}

/// [`PerType`] for every op, in one backward sweep: ops are painted into
/// per-type maps of what they read and write, so the first later op of a
/// type that touches a region is a range query, not a scan of the task
/// (a 20k-op task took seconds when every pair was compared).
fn waiters(nodes: &[Node]) -> (PerType, PerType) {
    let n = nodes.len();
    let mut first = vec![[None; op_type::NUM]; n];
    let mut next = vec![[None; op_type::NUM]; n];
    let mut writes: Vec<BTreeMap<u16, Paint>> =
        (0..op_type::NUM).map(|_| BTreeMap::new()).collect();
    let mut reads: Vec<BTreeMap<u16, Paint>> = (0..op_type::NUM).map(|_| BTreeMap::new()).collect();
    let mut last_of_type: [Option<usize>; op_type::NUM] = [None; op_type::NUM];
    let query = |maps: &BTreeMap<u16, Paint>, r: &Region| {
        if r.2 == 0 {
            return None;
        }
        maps.get(&r.0).and_then(|p| p.min_in(r.1, r.1 + r.2))
    };
    for i in (0..n).rev() {
        let node = &nodes[i];
        for t in 0..op_type::NUM {
            // A later writer of anything i touches, or a later reader of what i writes.
            let by_write = node
                .reads
                .iter()
                .chain(&node.writes)
                .filter_map(|r| query(&writes[t], r));
            let by_read = node.writes.iter().filter_map(|r| query(&reads[t], r));
            first[i][t] = by_write.chain(by_read).min();
            next[i][t] = last_of_type[t];
        }
        let t = usize::from(node.ty);
        if t < op_type::NUM {
            for r in node.writes.iter().filter(|r| r.2 > 0) {
                writes[t].entry(r.0).or_default().paint(r.1, r.1 + r.2, i);
            }
            for r in node.reads.iter().filter(|r| r.2 > 0) {
                reads[t].entry(r.0).or_default().paint(r.1, r.1 + r.2, i);
            }
            last_of_type[t] = Some(i);
        }
    }
    (first, next)
}

/// The largest `dependency_count` (a `u8`).
const MAX_COUNT: u32 = 255;

/// Per op, the consumer and fused-parent edges pointing at it.
fn count_incoming(deps: &[CommonOpDesc]) -> Vec<u32> {
    let mut incoming = vec![0u32; deps.len()];
    for d in deps {
        for c in d.consumers.iter().chain(std::iter::once(&d.fused_parent)) {
            if c.index >= 0 {
                incoming[c.index as usize] += 1;
            }
        }
    }
    incoming
}

/// For every op waited on by more than [`MAX_COUNT`] edges (a conv emitted
/// as hundreds of channel chunks or row bands, whose SDPs all write parts
/// of the cube the next op reads), keeps of the
/// `OP_COMPLETED` edges from each other engine only the one from that
/// engine's last producer: an engine completes its ops in queue order, so
/// that producer's completion implies the earlier ones'. Its own engine's
/// chain edge and a fused parent's edge stay. Nets with no such op are
/// untouched (their bytes do not change).
fn keep_last_producers(deps: &mut [CommonOpDesc], incoming: &[u32]) {
    // (consumer, producer type) -> last producer with a completion edge.
    let mut last: BTreeMap<(usize, u8), usize> = BTreeMap::new();
    for (i, d) in deps.iter().enumerate() {
        for (t, c) in d.consumers.iter().enumerate() {
            let j = c.index;
            if j >= 0
                && incoming[j as usize] > MAX_COUNT
                && c.event == event::OP_COMPLETED
                && t != usize::from(d.op_type)
            {
                last.insert((j as usize, d.op_type), i);
            }
        }
    }
    for (i, d) in deps.iter_mut().enumerate() {
        let ty = d.op_type;
        for (t, c) in d.consumers.iter_mut().enumerate() {
            let j = c.index;
            if j >= 0
                && incoming[j as usize] > MAX_COUNT
                && c.event == event::OP_COMPLETED
                && t != usize::from(ty)
                && last.get(&(j as usize, ty)) != Some(&i)
            {
                *c = NONE.clone();
            }
        }
    }
}

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
    let (first_waiter, next_of_type) = waiters(nodes);
    for i in 0..n {
        for t in 0..op_type::NUM {
            let slot = if t == usize::from(nodes[i].ty) {
                next_of_type[i][t].map(|next| {
                    let ev = if first_waiter[i][t] == Some(next) {
                        event::OP_COMPLETED
                    } else {
                        event::OP_PROGRAMMED
                    };
                    (next, ev)
                })
            } else {
                first_waiter[i][t].map(|j| (j, event::OP_COMPLETED))
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
    let mut incoming = count_incoming(&deps);
    if incoming.iter().any(|&k| k > MAX_COUNT) {
        keep_last_producers(&mut deps, &incoming);
        incoming = count_incoming(&deps);
    }
    for (d, k) in deps.iter_mut().zip(incoming) {
        d.dependency_count = k.min(MAX_COUNT) as u8;
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

    /// `pairs` conv+SDP pairs, each SDP writing its own 32 bytes of one cube,
    /// then a PDP reading the whole cube.
    fn chunked_then_pool(pairs: usize) -> Vec<Node> {
        let mut nodes = Vec::new();
        for i in 0..pairs {
            nodes.push(node(op_type::CONV, &[(1, 0, 64)], &[], None));
            let part = (2, 32 * i as u64, 32);
            nodes.push(node(op_type::SDP, &[], &[part], Some(2 * i)));
        }
        nodes.push(node(
            op_type::PDP,
            &[(2, 0, 32 * pairs as u64)],
            &[(3, 0, 8)],
            None,
        ));
        nodes
    }

    #[test]
    fn a_consumer_of_up_to_255_producers_waits_for_each() {
        let nodes = chunked_then_pool(255);
        let (d, _) = build(&nodes);
        let pdp = nodes.len() - 1;
        assert_eq!(d[pdp].dependency_count, 255);
        let signalling = d
            .iter()
            .filter(|x| x.consumers[op_type::PDP as usize].index == pdp as i16)
            .count();
        assert_eq!(signalling, 255);
    }

    #[test]
    fn a_consumer_of_more_than_255_producers_waits_for_the_last_of_each_engine() {
        let nodes = chunked_then_pool(300);
        let (d, _) = build(&nodes);
        let pdp = nodes.len() - 1;
        // Only the last SDP signals the PDP; the SDP chain orders the rest.
        assert_eq!(d[pdp].dependency_count, 1);
        let signalling: Vec<usize> = (0..pdp)
            .filter(|&i| d[i].consumers[op_type::PDP as usize].index == pdp as i16)
            .collect();
        assert_eq!(signalling, [pdp - 1]);
        // The SDP chain and the fused pairs are untouched.
        assert_eq!(d[1].consumers[op_type::SDP as usize].index, 3);
        assert_eq!(d[0].consumers[op_type::SDP as usize].index, 1);
        assert_eq!(d[0].dependency_count, 1);
        assert_eq!(d[3].dependency_count, 2);
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

    /// The definition, pair by pair: what [`waiters`] must compute.
    fn waiters_by_pairs(nodes: &[Node]) -> (PerType, PerType) {
        let n = nodes.len();
        let mut first = vec![[None; op_type::NUM]; n];
        let mut next = vec![[None; op_type::NUM]; n];
        for i in 0..n {
            for t in 0..op_type::NUM {
                let of_type = |j: &usize| usize::from(nodes[*j].ty) == t;
                first[i][t] = (i + 1..n)
                    .filter(of_type)
                    .find(|&j| conflicts(&nodes[i], &nodes[j]));
                next[i][t] = (i + 1..n).find(of_type);
            }
        }
        (first, next)
    }

    /// The sweep agrees with the pairwise definition on random tasks with
    /// overlapping, nested, empty and shared regions in two memories.
    #[test]
    fn the_sweep_finds_what_comparing_every_pair_finds() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 1 + rnd(40) as usize;
            let region =
                |rnd: &mut dyn FnMut(u64) -> u64| (1 + rnd(2) as u16, rnd(16) * 8, rnd(5) * 8);
            let nodes: Vec<Node> = (0..n)
                .map(|_| {
                    let ty =
                        [op_type::CONV, op_type::SDP, op_type::PDP, op_type::CDP][rnd(4) as usize];
                    let reads: Vec<Region> = (0..rnd(3)).map(|_| region(&mut rnd)).collect();
                    let writes: Vec<Region> = (0..rnd(3)).map(|_| region(&mut rnd)).collect();
                    node(ty, &reads, &writes, None)
                })
                .collect();
            assert_eq!(waiters(&nodes), waiters_by_pairs(&nodes));
        }
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
