//! Which already placed buffers are live at the same time as a new one.
//!
//! In: buffer lifetimes `[start, end]` (inclusive op steps, `start <= end`,
//! `end < steps`), added one at a time. Out: for a query lifetime, every
//! added buffer whose lifetime shares a step with it (unordered), found in
//! time proportional to `log(steps)` plus the number found, where a scan of
//! all added buffers costs their number: on a long chain of short-lived
//! buffers the scan made planning quadratic.
//!
//! Lifetimes `[a, b]` and `[s, e]` share a step iff `a <= e` and `s <= b`,
//! that is, iff the buffer is live at step `s` (`a <= s <= b`) or starts
//! inside `(s, e]`. The two sets are disjoint (`a <= s` against `a > s`):
//! * live at `s`: a segment tree over the steps stores each buffer on the
//!   `O(log steps)` nodes that tile its lifetime; the nodes on the path from
//!   leaf `s` to the root hold exactly the buffers live at `s`, each once;
//! * starting inside `(s, e]`: a second tree stores each buffer on every
//!   node above the leaf of its start; the `O(log steps)` nodes that tile
//!   `(s, e]` hold exactly those buffers, each once.
//!
//! Each node's buffers are a linked list in one shared array, so adding a
//! buffer allocates nothing but that array's growth.
//!
//! ```text
//! steps 0..8, added A [0,1], B [1,2], C [2,3]; query [1,1]:
//! live at 1: A, B (tree path of leaf 1)   start in (1,1]: none  → {A, B}
//! ```

/// End of a node's list.
const NONE: u32 = u32::MAX;

/// Added lifetimes, queryable by overlap (see the module doc).
pub(crate) struct LiveIndex {
    /// Number of leaves (a power of two, at least the number of steps).
    leaves: usize,
    /// Per node of the lifetime tree (heap order: root 1, children `2k`,
    /// `2k + 1`), the first entry of the buffers whose lifetime covers the
    /// node's whole step range but not its parent's.
    tiles: Vec<u32>,
    /// Per node of the start tree, the first entry of the buffers that
    /// start within the node's step range.
    starts: Vec<u32>,
    /// Entries: a buffer and the next entry of the same node's list.
    entries: Vec<(usize, u32)>,
}

impl LiveIndex {
    /// An empty index for lifetimes within steps `0..steps`.
    pub(crate) fn new(steps: usize) -> LiveIndex {
        let leaves = steps.max(1).next_power_of_two();
        LiveIndex {
            leaves,
            tiles: vec![NONE; 2 * leaves],
            starts: vec![NONE; 2 * leaves],
            entries: Vec::new(),
        }
    }

    fn push(heads: &mut [u32], entries: &mut Vec<(usize, u32)>, node: usize, id: usize) {
        entries.push((id, heads[node]));
        heads[node] = (entries.len() - 1) as u32;
    }

    fn collect(&self, mut entry: u32, out: &mut Vec<usize>) {
        while entry != NONE {
            let (id, next) = self.entries[entry as usize];
            out.push(id);
            entry = next;
        }
    }

    /// Adds buffer `id`, live from step `start` to step `end` (inclusive).
    pub(crate) fn insert(&mut self, id: usize, start: usize, end: usize) {
        debug_assert!(start <= end && end < self.leaves);
        let (mut lo, mut hi) = (start + self.leaves, end + 1 + self.leaves);
        while lo < hi {
            if lo & 1 == 1 {
                Self::push(&mut self.tiles, &mut self.entries, lo, id);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                Self::push(&mut self.tiles, &mut self.entries, hi, id);
            }
            lo >>= 1;
            hi >>= 1;
        }
        let mut node = start + self.leaves;
        while node > 0 {
            Self::push(&mut self.starts, &mut self.entries, node, id);
            node >>= 1;
        }
    }

    /// Appends to `out` every added buffer whose lifetime shares a step with
    /// `[start, end]`, each once.
    pub(crate) fn overlapping(&self, start: usize, end: usize, out: &mut Vec<usize>) {
        if start >= self.leaves {
            return;
        }
        let mut node = start + self.leaves;
        while node > 0 {
            self.collect(self.tiles[node], out);
            node >>= 1;
        }
        let end = end.min(self.leaves - 1);
        let (mut lo, mut hi) = (start + 1 + self.leaves, end + 1 + self.leaves);
        while lo < hi {
            if lo & 1 == 1 {
                self.collect(self.starts[lo], out);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                self.collect(self.starts[hi], out);
            }
            lo >>= 1;
            hi >>= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_doc_example() {
        let mut ix = LiveIndex::new(8);
        ix.insert(0, 0, 1);
        ix.insert(1, 1, 2);
        ix.insert(2, 2, 3);
        let mut out = Vec::new();
        ix.overlapping(1, 1, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 1]);
    }

    /// The index finds exactly the lifetimes a scan of all of them finds.
    #[test]
    fn finds_what_a_scan_finds_on_pseudo_random_lifetimes() {
        let mut s = 99u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        for steps in [1usize, 2, 3, 7, 64, 100, 513] {
            let mut ix = LiveIndex::new(steps);
            let mut added: Vec<(usize, usize)> = Vec::new();
            for _ in 0..400 {
                let a = next(steps as u64) as usize;
                let b = (a + next(1 + steps as u64 / 4) as usize).min(steps - 1);
                let (qs, qe) = {
                    let q = next(steps as u64) as usize;
                    (q, (q + next(1 + steps as u64 / 3) as usize).min(steps - 1))
                };
                let mut got = Vec::new();
                ix.overlapping(qs, qe, &mut got);
                got.sort_unstable();
                let want: Vec<usize> = (0..added.len())
                    .filter(|&i| added[i].0 <= qe && qs <= added[i].1)
                    .collect();
                assert_eq!(got, want, "steps {steps}, query [{qs}, {qe}]");
                ix.insert(added.len(), a, b);
                added.push((a, b));
            }
        }
    }
}
