//! Offsets for buffers with lifetimes (offline dynamic storage allocation).
//!
//! In: [`Item`]s (byte size, first and last op step, both inclusive). Out:
//! an offset per item and the pool size, such that two items whose lifetimes
//! share a step never share a byte.
//!
//! * [`naive`]: one after another, no reuse (the official compiler's "basic"
//!   profile), for comparison.
//! * [`best_fit`]: greedy placement, each item into the smallest free gap
//!   among the items it overlaps in time (else on top); several orders are
//!   tried (by size, by size × lifetime, by lifetime, by start) and the
//!   smallest pool wins, ties to the first order.
//! * [`lower_bound`]: no allocation can use less than the largest sum of
//!   sizes live at one step.
//!
//! Each item's overlapping placed items come from a [`LiveIndex`], so the
//! work follows the number of overlaps, not the square of the item count.
//!
//! ```text
//! items  A: 96 B, steps 0..1   B: 32 B, steps 1..2   C: 96 B, steps 2..3
//! naive: A@0 B@96 C@128 → 224 B     best_fit: A@0 B@96 C@0 → 128 B = lower bound
//! ```

use super::live_index::LiveIndex;

/// A buffer to place: `size` bytes live from step `start` to step `end` (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Item {
    pub size: u64,
    pub start: usize,
    pub end: usize,
}

impl Item {
    /// Whether the two lifetimes share a step (the tests' definition).
    #[cfg(test)]
    fn overlaps(&self, o: &Item) -> bool {
        self.start <= o.end && o.start <= self.end
    }
    fn length(&self) -> u64 {
        (self.end - self.start + 1) as u64
    }
}

/// The largest sum of sizes live at one step.
pub(crate) fn lower_bound(items: &[Item]) -> u64 {
    let Some(last) = items.iter().map(|i| i.end).max() else {
        return 0;
    };
    let mut delta = vec![0i128; last + 2];
    for i in items {
        delta[i.start] += i.size as i128;
        delta[i.end + 1] -= i.size as i128;
    }
    let (mut live, mut best) = (0i128, 0i128);
    for d in delta {
        live += d;
        best = best.max(live);
    }
    best as u64
}

/// No reuse: items one after another in the given order.
pub(crate) fn naive(items: &[Item]) -> (Vec<u64>, u64) {
    let mut top = 0;
    let offsets = items
        .iter()
        .map(|i| {
            let o = top;
            top += i.size;
            o
        })
        .collect();
    (offsets, top)
}

/// Greedy best fit over several orders; the smallest pool wins.
pub(crate) fn best_fit(items: &[Item]) -> (Vec<u64>, u64) {
    best_fit_counted(items).0
}

/// [`best_fit`], and the number of (placed, new) item pairs it compared:
/// proportional to the items' overlaps, not to the square of their number.
pub(crate) fn best_fit_counted(items: &[Item]) -> ((Vec<u64>, u64), u64) {
    type Key = fn(&Item) -> (u64, u64);
    let keys: [Key; 5] = [
        |i| (u64::MAX - i.size, i.start as u64),
        |i| (u64::MAX - i.size.saturating_mul(i.length()), i.start as u64),
        |i| (u64::MAX - i.length(), u64::MAX - i.size),
        |i| (i.start as u64, u64::MAX - i.size),
        |i| (u64::MAX - i.size, u64::MAX - i.length()),
    ];
    let mut best: Option<(Vec<u64>, u64)> = None;
    let mut work = 0;
    for key in keys {
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| (key(&items[i]), i));
        let (offsets, pool, w) = place_in_order(items, &order);
        work += w;
        if best.as_ref().is_none_or(|b| pool < b.1) {
            best = Some((offsets, pool));
        }
    }
    (best.unwrap_or_default(), work)
}

/// The offset for a buffer of `size` bytes among the `busy` address ranges
/// (sorted here): the start of the smallest gap that holds it (the lowest
/// on ties), else the end of the highest range.
fn best_gap(busy: &mut [(u64, u64)], size: u64) -> u64 {
    busy.sort_unstable();
    let (mut cur, mut fit): (u64, Option<(u64, u64)>) = (0, None); // fit = (gap, offset)
    for &(start, end) in busy.iter() {
        if start > cur {
            let gap = start - cur;
            if gap >= size && fit.is_none_or(|(g, _)| gap < g) {
                fit = Some((gap, cur));
            }
        }
        cur = cur.max(end);
    }
    fit.map_or(cur, |(_, o)| o)
}

/// Places `items` in `order`, each into the smallest gap that fits among the
/// already placed items it overlaps in time (lowest offset on ties), else on
/// top. Returns the offsets, the pool size and the number of overlapping
/// placed items examined (found through a [`LiveIndex`], not by a scan).
fn place_in_order(items: &[Item], order: &[usize]) -> (Vec<u64>, u64, u64) {
    let mut offsets = vec![0u64; items.len()];
    let steps = items.iter().map(|i| i.end + 1).max().unwrap_or(0);
    let mut live = LiveIndex::new(steps);
    let mut found: Vec<usize> = Vec::new();
    let mut busy: Vec<(u64, u64)> = Vec::new();
    let (mut pool, mut work) = (0, 0);
    for &i in order {
        let it = &items[i];
        found.clear();
        live.overlapping(it.start, it.end, &mut found);
        work += found.len() as u64;
        busy.clear();
        busy.extend(
            found
                .iter()
                .map(|&j| (offsets[j], offsets[j] + items[j].size)),
        );
        let off = best_gap(&mut busy, it.size);
        offsets[i] = off;
        pool = pool.max(off + it.size);
        live.insert(i, it.start, it.end);
    }
    (offsets, pool, work)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn it(size: u64, start: usize, end: usize) -> Item {
        Item { size, start, end }
    }

    fn assert_disjoint(items: &[Item], offsets: &[u64]) {
        for a in 0..items.len() {
            for b in a + 1..items.len() {
                if items[a].overlaps(&items[b]) {
                    let (ra, rb) = (
                        offsets[a]..offsets[a] + items[a].size,
                        offsets[b]..offsets[b] + items[b].size,
                    );
                    assert!(
                        ra.end <= rb.start || rb.end <= ra.start,
                        "items {a} and {b} overlap"
                    );
                }
            }
        }
    }

    #[test]
    fn module_doc_example() {
        let items = [it(96, 0, 1), it(32, 1, 2), it(96, 2, 3)];
        assert_eq!(naive(&items), (vec![0, 96, 128], 224));
        let (offs, pool) = best_fit(&items);
        assert_eq!(pool, 128);
        assert_eq!(lower_bound(&items), 128);
        assert_disjoint(&items, &offs);
    }

    #[test]
    fn best_fit_picks_the_smallest_gap() {
        // A@0 (64 B), B@64, C@96, D@128 (32 B each); A and C die after step 1, leaving
        // gaps [0,64) and [96,128) beside B and D. E (32 B, steps 2..3) takes the small one.
        let items = [
            it(64, 0, 1),
            it(32, 0, 5),
            it(32, 0, 1),
            it(32, 0, 5),
            it(32, 2, 3),
        ];
        let (offs, pool, _) = place_in_order(&items, &[0, 1, 2, 3, 4]);
        assert_eq!(offs, vec![0, 64, 96, 128, 96]);
        assert_eq!(pool, 160);
        assert_disjoint(&items, &offs);
    }

    #[test]
    fn pseudo_random_items_never_overlap_and_respect_the_bound() {
        let mut s = 12345u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        let items: Vec<Item> = (0..300)
            .map(|_| {
                let start = (next() % 200) as usize;
                it(
                    (next() % 64 + 1) * 32,
                    start,
                    start + (next() % 20) as usize,
                )
            })
            .collect();
        let (offs, pool) = best_fit(&items);
        assert_disjoint(&items, &offs);
        let lb = lower_bound(&items);
        assert!(pool >= lb && pool <= naive(&items).1);
    }

    /// The definition [`place_in_order`] is held to: the same greedy choice,
    /// with the overlapping placed items found by scanning all placed ones.
    fn place_in_order_by_scan(items: &[Item], order: &[usize]) -> (Vec<u64>, u64) {
        let mut offsets = vec![0u64; items.len()];
        let mut placed: Vec<usize> = Vec::with_capacity(items.len());
        let mut pool = 0;
        for &i in order {
            let it = &items[i];
            let mut busy: Vec<(u64, u64)> = placed
                .iter()
                .filter(|&&j| items[j].overlaps(it))
                .map(|&j| (offsets[j], offsets[j] + items[j].size))
                .collect();
            let off = super::best_gap(&mut busy, it.size);
            offsets[i] = off;
            pool = pool.max(off + it.size);
            placed.push(i);
        }
        (offsets, pool)
    }

    /// Same offsets as the scan on pseudo-random items, in random and in
    /// every best-fit order, short and long lifetimes, zero sizes included.
    #[test]
    fn indexed_placement_equals_the_scan() {
        let mut s = 7u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        for round in 0..60 {
            let n = 1 + next(400) as usize;
            let steps = 1 + next(300) as usize;
            let span = 1 + next(steps as u64);
            let items: Vec<Item> = (0..n)
                .map(|_| {
                    let start = next(steps as u64) as usize;
                    let size = next(8) * 32 * (1 + next(4));
                    it(size, start, start + next(span) as usize)
                })
                .collect();
            let mut order: Vec<usize> = (0..n).collect();
            for k in (1..n).rev() {
                order.swap(k, next(k as u64 + 1) as usize);
            }
            let (offs, pool, _) = place_in_order(&items, &order);
            assert_eq!(
                (offs, pool),
                place_in_order_by_scan(&items, &order),
                "round {round}"
            );
            let best = best_fit(&items);
            assert_disjoint(&items, &best.0);
            let mut by_scan: Option<(Vec<u64>, u64)> = None;
            for key in 0..5 {
                let mut order: Vec<usize> = (0..n).collect();
                let k = |i: &Item| match key {
                    0 => (u64::MAX - i.size, i.start as u64),
                    1 => (u64::MAX - i.size.saturating_mul(i.length()), i.start as u64),
                    2 => (u64::MAX - i.length(), u64::MAX - i.size),
                    3 => (i.start as u64, u64::MAX - i.size),
                    _ => (u64::MAX - i.size, u64::MAX - i.length()),
                };
                order.sort_by_key(|&i| (k(&items[i]), i));
                let got = place_in_order_by_scan(&items, &order);
                if by_scan.as_ref().is_none_or(|b| got.1 < b.1) {
                    by_scan = Some(got);
                }
            }
            assert_eq!(Some(best), by_scan, "round {round}: best fit");
        }
    }

    /// A chain of short-lived buffers (what a long chain of layers plans):
    /// each placement examines only its few neighbours in time. A scan of
    /// every placed item would compare about n²/2 pairs per order.
    #[test]
    fn a_long_chain_costs_work_linear_in_its_length() {
        let n = 50_000;
        let items: Vec<Item> = (0..n).map(|k| it(2048, k, k + 1)).collect();
        let ((offs, pool), work) = best_fit_counted(&items);
        assert_eq!(pool, 4096);
        assert_eq!(offs[0], offs[2]);
        assert!(
            work <= 5 * 2 * n as u64,
            "{work} pairs compared for {n} items: placement went quadratic"
        );
    }
}
