//! The job schedule of a convolution whose outputs the MVU max-pools.
//!
//! In: a validated [`ConvShape`], its [`Precision`] and [`Pool`]. Out: the
//! [`RawSchedule`] of one job, which computes one pooled output pixel of one
//! 64-channel output block.
//!
//! Why one pooled pixel per job: the pooler (`maxpool.v`) keeps one running
//! maximum per output lane, so the conv outputs of a window must reach it one
//! after the other, for one filter block (`fC = 1` per job). The address
//! generator (`agu.sv`) applies one jump per step, that of the outermost loop
//! whose inner counters are all zero; levels 4..1 count `length + 1` steps and
//! level 0 repeats. A window of `kH × kW` conv outputs needs exactly its five
//! levels (group = the `ip` words of one pixel's 64-channel block):
//!
//! | level | input: count / jump | weights: count / jump |
//! |---|---|---|
//! | 4 | `iC·fW` / `ip` (next group of the kernel row) | `iC·fW·fH` / `wp` (next tile) |
//! | 3 | `fH` / `ip·(iC·(iW − fW) + 1)` (next kernel row) | 1 / — |
//! | 2 | `ip·wp` / `−ip·(iC·(fH−1)·iW + iC·fW − 1)` (back to the window: next bit combination) | `ip·wp` / `−wp·(iC·fW·fH − 1)` |
//! | 1 | `kW` / `−ip·(iC·(fH−1)·iW + (fW − sW)·iC − 1)` (next conv output in the pool row) | `kW` / same rewind |
//! | 0 | — / `ip·(iC·((sH − fH + 1)·iW − (kW−1)·sW − fW) + 1)` (next pool row) | same rewind |
//!
//! `countdown = kH·kW·ip·wp·fH·iC·fW`. Jobs go pooled row, pooled column,
//! filter block (innermost); see [`crate::emit::asm`] for the pointers.
//!
//! ```
//! use onnc_mvu::{pooled_schedule, ConvShape, Pool, Precision};
//! let c = ConvShape::new(64, 8, 8, 64, [3, 3]);
//! let p = Pool { kernel: [2, 2], strides: [2, 2], pads: [0; 4], ceil_mode: false };
//! let s = pooled_schedule(&c, &Precision::new(2, 2, 2), &p);
//! assert_eq!(s.ilength, [0, 1, 3, 2, 2]);
//! assert_eq!(s.countdown, 2 * 2 * 4 * 9);
//! ```

use crate::layer::{ConvShape, Pool, Precision};
use crate::registers::{blocks, RawSchedule};
use onnc_mvu_hw::{pooled_registers, ConvJob, PoolWindow};

/// The schedule of one pooled job (full `kernel` window); the registers
/// and countdown are [`onnc_mvu_hw::pooled_registers`], the formulas the
/// dialect's verifier checks `mvu.conv` ops with `maxpool = 1` against.
pub fn pooled_schedule(c: &ConvShape, p: &Precision, pool: &Pool) -> RawSchedule {
    let ic = i128::from(blocks(c.in_channels.into()));
    let fc = i128::from(blocks(c.out_channels.into()));
    let iw = i128::from(c.in_width);
    let ih = i128::from(c.in_height);
    let [fh, fw] = c.kernel.map(i128::from);
    let [sh, sw] = c.strides.map(i128::from);
    let [kh, kw] = pool.kernel.map(i128::from);
    let job = ConvJob {
        ip: i128::from(p.act),
        wp: i128::from(p.weight),
        ic,
        fc,
        fh,
        fw,
        iw,
        sw,
    };
    let (regs, countdown) = pooled_registers(&job, sh, &PoolWindow { kh, kw });
    // An overflow (impossible on validated shapes) becomes i128::MAX, outside
    // every register's range, so the range check refuses it.
    let known = |a: [Option<i128>; 5]| a.map(|v| v.unwrap_or(i128::MAX));
    let countdown = countdown.unwrap_or(i128::MAX);
    let [oh, ow] = c
        .output_hw()
        .and_then(|hw| pool.output_hw(hw))
        .map_or([0, 0], |hw| hw.map(i128::from));
    let jobs = oh * ow * fc;
    RawSchedule {
        i_shape: [ic as u64, ih as u64, iw as u64],
        f_shape: [fc as u64, fh as u64, fw as u64],
        ilength: known(regs.ilength),
        ijump: known(regs.ijump),
        wlength: known(regs.wlength),
        wjump: known(regs.wjump),
        countdown,
        total_rows: jobs,
        total_layer_countdown: countdown.saturating_mul(jobs),
    }
}

/// Whether every window of `pool` over the conv's `[h, w]` output grid is
/// whole (no padding or ceil-mode overhang reaches into it), so one job
/// shape and constant pointer steps serve them all.
pub fn windows_whole(pool: &Pool, hw: [u32; 2]) -> bool {
    let Some([ph, pw]) = pool.output_hw(hw) else {
        return false;
    };
    let full = |axis: usize, n: u32, count: u32| {
        (0..count).all(|i| pool.window(axis, i, n).len() == pool.kernel[axis] as usize)
    };
    full(0, hw[0], ph) && full(1, hw[1], pw)
}
