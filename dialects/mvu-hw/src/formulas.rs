//! The formulas that derive one MVU job's address-generator registers
//! (`ilength`, `ijump`, `wlength`, `wjump`) and countdown from a layer's
//! shape, written once for the back end (which computes them) and the
//! dialect's verifier (which checks an op's attributes against them).
//!
//! Source: `hossein1387/MVU_Code_Gen` `Generator.py` (`get_mvu_param`,
//! `generate_mvu_configs`; research targets.md §A.3 conv, §A.4 matmul).
//! Arrays are `[x0, x1, x2, x3, x4]`; a length holds *count − 1*. With
//! `iC = ⌈C_in/64⌉`, `fC = ⌈C_out/64⌉`, `ip`/`wp` activation/weight bits:
//!
//! | field   | [0] | [1] | [2] | [3] | [4] |
//! |---------|-----|-----|-----|-----|-----|
//! | ilength | 0 | ip·wp·fC − 1 | fH − 1 | iC·fW − 1 | 0 |
//! | ijump   | −ip·(iC·(fH−1)·iW + (fW−sW−1)·iC + 1) | −ip·(iC·(fH−1)·iW + fW·iC − 1) | ip·(iC·(iW−fW) + 1) | ip | 0 |
//! | wlength | 0 | fC − 1 | ip·wp − 1 | iC·fW·fH − 1 | 0 |
//! | wjump   | −wp·(iC·fW·fH·fC − 1) | wp | −wp·(iC·fW·fH − 1) | wp | 0 |
//!
//! `countdown = iC·fW·fH·ip·wp·fC · columns`, `columns` = (iW − fW + 1)/sW.
//! Matmul (`m_h = ⌈out/64⌉`, `m_w = ⌈in/64⌉`): see [`matmul_registers`].
//!
//! In: the shape in blocks and the precisions, unchecked `i128`s. Out:
//! [`Registers`] whose entries are `None` where the arithmetic overflowed
//! (the callers range-check the values).
//!
//! ```
//! use onnc_mvu_hw::{conv_countdown, conv_registers, ConvJob};
//! let j = ConvJob { ip: 2, wp: 2, ic: 1, fc: 1, fh: 3, fw: 3, iw: 32, sw: 1 };
//! let r = conv_registers(&j);
//! assert_eq!(r.ijump, [Some(-132), Some(-132), Some(60), Some(2), Some(0)]);
//! assert_eq!(conv_countdown(&j, 30), Some(1080));
//! ```

use crate::checked::N;
use crate::fields::{BLOCK, LEVELS};

/// `⌈n / 64⌉`: channels (or features) in MVP blocks.
pub fn blocks(n: u64) -> u64 {
    n.div_ceil(BLOCK)
}

/// One register array; an entry is `None` when its formula overflowed.
pub type Array = [Option<i128>; LEVELS];

/// The four address-generator register arrays of one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registers {
    /// Input lengths.
    pub ilength: Array,
    /// Input jumps.
    pub ijump: Array,
    /// Weight lengths.
    pub wlength: Array,
    /// Weight jumps.
    pub wjump: Array,
}

/// A conv job's shape: precisions, `[iC, ·, iW]`, `[fC, fH, fW]` in blocks, stride `sW`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConvJob {
    /// Activation bits.
    pub ip: i128,
    /// Weight bits.
    pub wp: i128,
    /// Input channel blocks.
    pub ic: i128,
    /// Output channel (filter) blocks.
    pub fc: i128,
    /// Kernel height.
    pub fh: i128,
    /// Kernel width.
    pub fw: i128,
    /// Input width.
    pub iw: i128,
    /// Horizontal stride.
    pub sw: i128,
}

fn array(xs: [N; LEVELS]) -> Array {
    xs.map(N::get)
}

/// The conv registers (table in the module docs).
pub fn conv_registers(j: &ConvJob) -> Registers {
    let n = N::from;
    let (ip, wp, ic, fc, fh, fw, iw, sw) = (
        n(j.ip),
        n(j.wp),
        n(j.ic),
        n(j.fc),
        n(j.fh),
        n(j.fw),
        n(j.iw),
        n(j.sw),
    );
    let zero = n(0);
    Registers {
        ilength: array([zero, ip * wp * fc - 1, fh - 1, ic * fw - 1, zero]),
        ijump: array([
            -(ip * (ic * (fh - 1) * iw + (fw - sw - 1) * ic + 1)),
            -(ip * (ic * (fh - 1) * iw + fw * ic - 1)),
            ip * (ic * (iw - fw) + 1),
            ip,
            zero,
        ]),
        wlength: array([zero, fc - 1, ip * wp - 1, ic * fw * fh - 1, zero]),
        wjump: array([
            -(wp * (ic * fw * fh * fc - 1)),
            wp,
            -(wp * (ic * fw * fh - 1)),
            wp,
            zero,
        ]),
    }
}

/// Clock cycles of one conv job producing `columns` output columns:
/// `iC·fW·fH·ip·wp·fC · columns`; `None` on overflow.
pub fn conv_countdown(j: &ConvJob, columns: i128) -> Option<i128> {
    let n = N::from;
    (n(j.ic) * j.fw * j.fh * j.ip * j.wp * j.fc * columns).get()
}

/// The matmul registers and countdown (BARVINN HEAD, research targets.md
/// §A.4), with `m_h = ⌈out/64⌉`, `m_w = ⌈in/64⌉`:
///
/// | field   | value |
/// |---------|-------|
/// | ilength | `[0, m_h − 1, 0, 0, 0]` |
/// | ijump   | `[−ip·(m_w − 1), ip, 0, 0, 0]` |
/// | wlength | `[0, wp·ip − 1, m_w − 1, 0, 0]` |
/// | wjump   | `[wp, −wp·(m_w − 1), wp, 0, 0]` |
///
/// `countdown = m_w·m_h·ip·wp` (the second value; `None` on overflow).
pub fn matmul_registers(ip: i128, wp: i128, mh: i128, mw: i128) -> (Registers, Option<i128>) {
    let n = N::from;
    let (ip, wp, mh, mw) = (n(ip), n(wp), n(mh), n(mw));
    let zero = n(0);
    let regs = Registers {
        ilength: array([zero, mh - 1, zero, zero, zero]),
        ijump: array([-(ip * (mw - 1)), ip, zero, zero, zero]),
        wlength: array([zero, wp * ip - 1, mw - 1, zero, zero]),
        wjump: array([wp, -(wp * (mw - 1)), wp, zero, zero]),
    };
    (regs, (mw * mh * ip * wp).get())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(a: Array) -> Vec<i128> {
        a.iter().map(|v| v.unwrap_or(i128::MIN)).collect()
    }

    #[test]
    fn resnet18_first_conv_at_two_bits() {
        // MVU_Code_Gen's ResNet-18/CIFAR row: 64 -> 64, 3x3, 32x32, 2/2 bits.
        let j = ConvJob {
            ip: 2,
            wp: 2,
            ic: 1,
            fc: 1,
            fh: 3,
            fw: 3,
            iw: 32,
            sw: 1,
        };
        let r = conv_registers(&j);
        assert_eq!(all(r.ilength), [0, 3, 2, 2, 0]);
        assert_eq!(all(r.ijump), [-132, -132, 60, 2, 0]);
        assert_eq!(all(r.wlength), [0, 0, 3, 8, 0]);
        assert_eq!(all(r.wjump), [-16, 2, -16, 2, 0]);
        assert_eq!(conv_countdown(&j, 30), Some(1080));
    }

    #[test]
    fn simple_conv_at_eight_bits() {
        // The IRDL example: 64 -> 64 channels, 3x3, pad 1, 8-bit.
        let j = ConvJob {
            ip: 8,
            wp: 8,
            ic: 1,
            fc: 1,
            fh: 3,
            fw: 3,
            iw: 32,
            sw: 1,
        };
        let r = conv_registers(&j);
        assert_eq!(all(r.ilength), [0, 63, 2, 2, 0]);
        assert_eq!(all(r.ijump), [-528, -528, 240, 8, 0]);
        assert_eq!(all(r.wlength), [0, 0, 63, 8, 0]);
        assert_eq!(all(r.wjump), [-64, 8, -64, 8, 0]);
        assert_eq!(conv_countdown(&j, 30), Some(17280));
    }

    #[test]
    fn matmul_of_a_512_to_10_layer() {
        let (r, countdown) = matmul_registers(2, 2, blocks(10) as i128, blocks(512) as i128);
        assert_eq!(all(r.ilength), [0, 0, 0, 0, 0]);
        assert_eq!(all(r.ijump), [-14, 2, 0, 0, 0]);
        assert_eq!(all(r.wlength), [0, 3, 7, 0, 0]);
        assert_eq!(all(r.wjump), [2, -14, 2, 0, 0]);
        assert_eq!(countdown, Some(32));
    }

    #[test]
    fn overflow_is_none_not_a_panic() {
        let j = ConvJob {
            ip: 16,
            wp: 16,
            ic: i128::from(i64::MAX),
            fc: i128::from(i64::MAX),
            fh: i128::from(i64::MAX),
            fw: i128::from(i64::MAX),
            iw: 1,
            sw: 1,
        };
        let r = conv_registers(&j);
        assert_eq!(r.wlength[3], None);
        assert_eq!(r.ilength[2], Some(i128::from(i64::MAX) - 1));
        assert_eq!(conv_countdown(&j, 1), None);
        assert_eq!(blocks(0), 0);
        assert_eq!(blocks(65), 2);
    }
}
