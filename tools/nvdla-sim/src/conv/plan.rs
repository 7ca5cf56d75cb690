//! The weight plan of one kernel: its MAC blocks in CSC order with the
//! all-zero blocks left out and, in each block, only the lanes whose weight
//! is non-zero.
//!
//! In: the unpacked K-R-S-C weights ([`super::weight::unpack`]), the kernel
//! index, the geometry (channels, kernel rows and columns, channels per MAC
//! block) and what "zero" means for the precision. Out: a [`KernelPlan`]
//! the fast loops of `conv::fast` walk instead of every
//! (super-channel, r, s) block and every lane.
//!
//! # Why leaving zeros out is exact
//!
//! * **INT8/INT16.** A block is the exact integer sum of its products;
//!   a zero weight's product is 0, so the sum over the non-zero lanes is the
//!   same number, and the 48-bit saturation happens after each block, on
//!   the same block sums. A block of zero weights adds 0, and
//!   `acc48_add(acc, 0) = acc` because the accumulator always holds a value
//!   already saturated to 48 bits.
//! * **FP16, no NaN operand in the layer.** A pair with a zero weight is
//!   masked in the CMAC: it takes no part in the block's maximum exponent
//!   group and adds nothing to the block mantissa (see
//!   [`super::cmac_fp16::block_finite`]); so Inf or a denormal times 0 is
//!   as inert as 0 times 0. The block mantissa is an exact integer sum
//!   (modulo 2^38) and the maximum is order-free, so the block word over the
//!   non-zero lanes equals the word over all lanes. A block with no active
//!   pair is the word 0 (exponent 0, mantissa 0), and
//!   [`super::cacc::Fp48::accumulate`] returns the accumulator unchanged for
//!   a zero mantissa — no rounding, no exponent change. The remaining
//!   blocks are accumulated in the same order, so every fp48 rounding step
//!   sees the same operands.
//! * **FP16 with a NaN operand.** Not covered: the C-model's NaN word comes
//!   from any NaN operand of the block, masked or not (NaN × 0 is a NaN
//!   block), so a zero weight block is not inert there. Layers whose input
//!   or weights hold a NaN run the reference loops.
//!
//! The tests (`tests/conv_fast.rs`) compare both paths on random problems
//! with zero blocks, denormals, infinities and NaNs.

use std::ops::Range;

/// One MAC block of a kernel with at least one non-zero weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tap {
    /// First channel of the block's super-channel.
    pub c0: usize,
    /// Kernel row.
    pub r: usize,
    /// Kernel column.
    pub s: usize,
    /// The block's entries in [`KernelPlan::lanes`] and the weights.
    pub range: Range<usize>,
}

/// The non-zero MAC blocks of one kernel, in CSC order (super-channel,
/// then kernel row, then kernel column).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelPlan {
    /// The blocks.
    pub taps: Vec<Tap>,
    /// Channel offset within the block of every kept lane.
    pub lanes: Vec<u16>,
    /// The kept weights (raw values), parallel to `lanes`.
    pub weights: Vec<i32>,
}

/// Shape of the weights a plan is built from.
#[derive(Debug, Clone, Copy)]
pub struct PlanShape {
    /// Input channels.
    pub c: usize,
    /// Kernel rows.
    pub r: usize,
    /// Kernel columns.
    pub s: usize,
    /// Channels per MAC block (at most 65536).
    pub block_c: usize,
}

impl KernelPlan {
    /// The plan of kernel `k` of the K-R-S-C `weights`; `is_zero` tells a
    /// weight that contributes nothing (INT: 0; FP16: ±0).
    pub fn build(weights: &[i32], k: usize, sh: PlanShape, is_zero: impl Fn(i32) -> bool) -> Self {
        let mut plan = KernelPlan::default();
        for c0 in (0..sh.c).step_by(sh.block_c.max(1)) {
            let c1 = (c0 + sh.block_c).min(sh.c);
            for r in 0..sh.r {
                for s in 0..sh.s {
                    let wb = ((k * sh.r + r) * sh.s + s) * sh.c;
                    let start = plan.lanes.len();
                    for (i, &w) in weights[wb + c0..wb + c1].iter().enumerate() {
                        if !is_zero(w) {
                            plan.lanes.push(i as u16);
                            plan.weights.push(w);
                        }
                    }
                    let end = plan.lanes.len();
                    if end > start {
                        plan.taps.push(Tap {
                            c0,
                            r,
                            s,
                            range: start..end,
                        });
                    }
                }
            }
        }
        plan
    }

    /// Number of kept lanes (MACs per output element).
    pub fn macs(&self) -> usize {
        self.lanes.len()
    }
}

/// FP16 zero: ±0 (the CMAC's weight mask bit is clear).
pub fn fp16_is_zero(bits: i32) -> bool {
    bits & 0x7FFF == 0
}

/// INT8/INT16 zero.
pub fn int_is_zero(v: i32) -> bool {
    v == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_nonzero_lanes_in_csc_order() {
        // c = 3, block_c = 2 → super-channels [0, 2) and [2, 3); r = 1, s = 2.
        // K-R-S-C weights of one kernel: s = 0: [5, 0, 0], s = 1: [0x8000, 7, 9].
        let w = [5, 0, 0, 0x8000, 7, 9];
        let sh = PlanShape {
            c: 3,
            r: 1,
            s: 2,
            block_c: 2,
        };
        let p = KernelPlan::build(&w, 0, sh, fp16_is_zero);
        let taps: Vec<_> = p.taps.iter().map(|t| (t.c0, t.s, t.range.len())).collect();
        // (c0 0, s 0): lane 0 only; (c0 0, s 1): lane 1 only (−0 dropped);
        // (c0 2, s 0): all zero, left out; (c0 2, s 1): its one lane.
        assert_eq!(taps, [(0, 0, 1), (0, 1, 1), (2, 1, 1)]);
        assert_eq!(p.lanes, [0, 1, 0]);
        assert_eq!(p.weights, [5, 7, 9]);
        assert_eq!(p.macs(), 3);
        // As integers, 0x8000 is not zero.
        let p = KernelPlan::build(&w, 0, sh, int_is_zero);
        assert_eq!(p.weights, [5, 0x8000, 7, 9]);
        assert_eq!(p.taps[1].range, 1..3);
    }
}
