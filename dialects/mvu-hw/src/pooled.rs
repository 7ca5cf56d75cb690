//! The registers and countdown of one conv job whose outputs the MVU
//! max-pools: one job computes one pooled output pixel of one 64-channel
//! output block, so the window's conv outputs reach the pooler (`maxpool.v`,
//! one running maximum per lane) one after the other.
//!
//! The address generator (`agu.sv`) applies one jump per step, that of the
//! outermost loop whose inner counters are all zero; levels 4..1 count
//! `length + 1` steps and level 0 repeats. A `kH × kW` window of conv
//! outputs uses the five levels so (group = the `ip` words of one pixel's
//! 64-channel block; `taps = iC·fW·fH`):
//!
//! | field   | [0] | [1] | [2] | [3] | [4] |
//! |---------|-----|-----|-----|-----|-----|
//! | ilength | 0 | kW − 1 | ip·wp − 1 | fH − 1 | iC·fW − 1 |
//! | ijump   | ip·(iC·((sH − fH + 1)·iW − (kW − 1)·sW − fW) + 1) | −ip·(iC·(fH − 1)·iW + (fW − sW)·iC − 1) | −ip·(iC·(fH − 1)·iW + iC·fW − 1) | ip·(iC·(iW − fW) + 1) | ip |
//! | wlength | 0 | kW − 1 | ip·wp − 1 | 0 | taps − 1 |
//! | wjump   | −wp·(taps − 1) | −wp·(taps − 1) | −wp·(taps − 1) | 0 | wp |
//!
//! `countdown = kH·kW·ip·wp·taps`. In: the conv job (`fc` is not read: a
//! pooled job serves one filter block), the conv's vertical stride `sH` and
//! the pool window. Out: [`Registers`] and the countdown, `None` where the
//! arithmetic overflowed.
//!
//! ```
//! use onnc_mvu_hw::{pooled_registers, ConvJob, PoolWindow};
//! let j = ConvJob { ip: 2, wp: 2, ic: 1, fc: 1, fh: 3, fw: 3, iw: 8, sw: 1 };
//! let (r, countdown) = pooled_registers(&j, 1, &PoolWindow { kh: 2, kw: 2 });
//! assert_eq!(r.ilength, [Some(0), Some(1), Some(3), Some(2), Some(2)]);
//! assert_eq!(countdown, Some(2 * 2 * 4 * 9));
//! ```

use crate::checked::N;
use crate::formulas::{ConvJob, Registers};

/// A max-pool window `[kH, kW]` over a conv's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolWindow {
    /// Window height.
    pub kh: i128,
    /// Window width.
    pub kw: i128,
}

/// The registers and countdown of one pooled job (table in the module docs).
pub fn pooled_registers(j: &ConvJob, sh: i128, pool: &PoolWindow) -> (Registers, Option<i128>) {
    let n = N::from;
    let (ip, wp, ic, fh, fw, iw, sw) = (
        n(j.ip),
        n(j.wp),
        n(j.ic),
        n(j.fh),
        n(j.fw),
        n(j.iw),
        n(j.sw),
    );
    let (sh, kh, kw) = (n(sh), n(pool.kh), n(pool.kw));
    let zero = n(0);
    let taps = ic * fw * fh;
    let rewind = -(wp * (taps - 1));
    let regs = Registers {
        ilength: [zero, kw - 1, ip * wp - 1, fh - 1, ic * fw - 1].map(N::get),
        ijump: [
            ip * (ic * ((sh - fh + 1) * iw - (kw - 1) * sw - fw) + 1),
            -(ip * (ic * (fh - 1) * iw + (fw - sw) * ic - 1)),
            -(ip * (ic * (fh - 1) * iw + ic * fw - 1)),
            ip * (ic * (iw - fw) + 1),
            ip,
        ]
        .map(N::get),
        wlength: [zero, kw - 1, ip * wp - 1, zero, taps - 1].map(N::get),
        wjump: [rewind, rewind, rewind, zero, wp].map(N::get),
    };
    (regs, (kh * kw * ip * wp * taps).get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vgg_pooled_layer_at_four_bits() {
        // vgg_pool.onnx's conv_1: 3 -> 16 channels, 3x3 pad 1 on 16x16, 2x2/2 pool.
        let j = ConvJob {
            ip: 4,
            wp: 4,
            ic: 1,
            fc: 1,
            fh: 3,
            fw: 3,
            iw: 18,
            sw: 1,
        };
        let (r, c) = pooled_registers(&j, 1, &PoolWindow { kh: 2, kw: 2 });
        let v = |a: [Option<i128>; 5]| a.map(|x| x.unwrap_or(i128::MIN));
        assert_eq!(v(r.ilength), [0, 1, 15, 2, 2]);
        assert_eq!(v(r.wlength), [0, 1, 15, 0, 8]);
        assert_eq!(v(r.wjump), [-32, -32, -32, 0, 4]);
        assert_eq!(v(r.ijump)[4], 4);
        assert_eq!(c, Some(576));
    }

    #[test]
    fn overflow_is_none() {
        let j = ConvJob {
            ip: i128::MAX,
            wp: 2,
            ic: 1,
            fc: 1,
            fh: 3,
            fw: 3,
            iw: 8,
            sw: 1,
        };
        let (r, c) = pooled_registers(&j, 1, &PoolWindow { kh: 2, kw: 2 });
        assert_eq!(r.ilength[2], None);
        assert_eq!(c, None);
    }
}
