//! Where each kernel's kept lanes sit in the data it reads.
//!
//! In: the kernels' [`KernelPlan`]s and the number of input channels `c`.
//! Out: [`Kernels`] — per kernel, the index of each kept lane within an
//! input position's row of values, and which channel subset (if any) the
//! kernel reads from a copy. Kernels that read at most half of the channels
//! (grouped and depthwise convolutions) read a position-major copy of only
//! those channels ([`copy_channels`]), made once per distinct channel set
//! and shared by the kernels of a group (at most twice the input in all),
//! so that their taps read neighbouring memory instead of one channel out
//! of every position's row.

use super::plan::KernelPlan;
use std::collections::BTreeMap;

/// Where one kernel's lanes sit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lanes {
    /// Values per input position in the data the kernel reads.
    pub stride: usize,
    /// Index within a position of each kept lane ([`KernelPlan::lanes`]
    /// order).
    pub idx: Vec<u32>,
    /// Per tap: index of its first lane within a position, and whether its
    /// lanes are consecutive there (then the data is used in place).
    pub taps: Vec<(usize, bool)>,
    /// Index in [`Kernels::sets`] of the channel copy the kernel reads;
    /// `None`: the whole input.
    pub set: Option<usize>,
}

/// The kernels of a layer and the channel sets they read from copies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kernels {
    /// Per kernel, its lanes.
    pub lanes: Vec<Lanes>,
    /// Distinct channel sets (sorted channel lists), in order of first use.
    pub sets: Vec<Vec<usize>>,
}

/// The copies together hold at most this many times the input's channels
/// (kernels whose channel sets all differ, as in a pruned network, would
/// otherwise copy the input once per kernel); past it, kernels with a new
/// set read the whole input.
const COPY_BUDGET: usize = 2;

/// The [`Kernels`] of `plans` over an input of `c` channels.
pub fn kernels(plans: &[KernelPlan], c: usize) -> Kernels {
    let mut index: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    let mut out = Kernels::default();
    let mut copied = 0;
    for plan in plans {
        let abs: Vec<usize> = plan
            .taps
            .iter()
            .flat_map(|t| {
                plan.lanes[t.range.clone()]
                    .iter()
                    .map(|&l| t.c0 + l as usize)
            })
            .collect();
        let mut chans = abs.clone();
        chans.sort_unstable();
        chans.dedup();
        let known = index.get(&chans).copied();
        let affordable = copied + chans.len() <= COPY_BUDGET * c;
        let (stride, idx, set) = if chans.len() * 2 <= c && (known.is_some() || affordable) {
            let idx: Vec<u32> = abs
                .iter()
                .map(|a| chans.partition_point(|&ch| ch < *a) as u32)
                .collect();
            let stride = chans.len();
            let set = known.unwrap_or_else(|| {
                copied += chans.len();
                index.insert(chans.clone(), out.sets.len());
                out.sets.push(chans);
                out.sets.len() - 1
            });
            (stride, idx, Some(set))
        } else {
            (c, abs.iter().map(|&a| a as u32).collect(), None)
        };
        let taps = plan
            .taps
            .iter()
            .map(|t| {
                let i: &[u32] = &idx[t.range.clone()];
                let consecutive = i.windows(2).all(|w| w[1] == w[0] + 1);
                (i.first().map_or(0, |&f| f as usize), consecutive)
            })
            .collect();
        out.lanes.push(Lanes {
            stride,
            idx,
            taps,
            set,
        });
    }
    out
}

/// The values of channels `chans` of every position of `all` (`c` values
/// per position), position-major.
pub fn copy_channels<T: Copy>(all: &[T], c: usize, chans: &[usize]) -> Vec<T> {
    let mut copy = Vec::with_capacity(all.len() / c.max(1) * chans.len());
    for row in all.chunks_exact(c.max(1)) {
        copy.extend(chans.iter().map(|&ch| row[ch]));
    }
    copy
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conv::plan::{int_is_zero, PlanShape};

    #[test]
    fn kernels_of_a_group_share_one_copy() {
        // 4 channels, 2 groups of 2, 4 kernels (0 and 1 read channels 0..2,
        // 2 reads 2..4, 3 only channel 1), 1×1, one block of 4 lanes.
        let w = [1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0];
        let sh = PlanShape {
            c: 4,
            r: 1,
            s: 1,
            block_c: 4,
        };
        let plans: Vec<_> = (0..4)
            .map(|k| KernelPlan::build(&w, k, sh, int_is_zero))
            .collect();
        let ks = kernels(&plans, 4);
        assert_eq!(ks.sets, [vec![0, 1], vec![2, 3], vec![1]]);
        let sets: Vec<_> = ks.lanes.iter().map(|l| l.set).collect();
        assert_eq!(sets, [Some(0), Some(0), Some(1), Some(2)]);
        assert_eq!(ks.lanes[2].idx, [0, 1]);
        assert_eq!(ks.lanes[2].taps, [(0, true)]);
        assert_eq!((ks.lanes[3].stride, &ks.lanes[3].idx[..]), (1, &[0][..]));
        // Half the channels or more: the input itself.
        let dense = KernelPlan::build(&[1, 0, 1, 1], 0, sh, int_is_zero);
        let ks = kernels(&[dense], 4);
        assert_eq!(ks.lanes[0].set, None);
        assert_eq!(ks.lanes[0].idx, [0, 2, 3]);
        assert_eq!(ks.lanes[0].taps, [(0, false)]);
        assert_eq!(
            copy_channels(&[1, 2, 3, 4, 5, 6, 7, 8], 4, &[1, 3]),
            [2, 4, 6, 8]
        );
    }

    #[test]
    fn copies_stay_within_twice_the_input() {
        // 4 channels, 6 kernels each reading its own pair of channels: the
        // first four pairs are copied (8 channels = 2 × 4), the fifth kernel
        // reads the input itself, a repeated pair shares its copy.
        let pairs = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [0, 1]];
        let mut w = Vec::new();
        for p in pairs {
            w.extend((0..4).map(|ch| i32::from(p.contains(&ch))));
        }
        let sh = PlanShape {
            c: 4,
            r: 1,
            s: 1,
            block_c: 4,
        };
        let plans: Vec<_> = (0..6)
            .map(|k| KernelPlan::build(&w, k, sh, int_is_zero))
            .collect();
        let ks = kernels(&plans, 4);
        assert_eq!(ks.sets.len(), 4);
        let sets: Vec<_> = ks.lanes.iter().map(|l| l.set).collect();
        assert_eq!(sets, [Some(0), Some(1), Some(2), Some(3), None, Some(0)]);
        assert_eq!((ks.lanes[4].stride, &ks.lanes[4].idx[..]), (4, &[1, 3][..]));
        assert_eq!(ks.lanes[4].taps, [(1, false)]);
    }
}
