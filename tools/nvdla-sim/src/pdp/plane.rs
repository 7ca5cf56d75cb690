//! Pooling of one channel plane, in the C-model's order
//! (`PoolingStage0SequenceCommon`): input elements are visited line by line;
//! each one is added to every output window containing it, first into a
//! per-window horizontal accumulator (the line-operation buffer), and when a
//! window's row is complete, that row value is added into the output's
//! vertical accumulator (the line buffer). Padding values are added at the
//! window edges exactly where the C-model adds them; the order of the
//! additions matters for the FP16 average and for wrapping integer sums.
//!
//! In: one plane of raw input bits (`height × width`), the split's geometry
//! and the op's [`Arith`]. Out: the plane of output bits
//! (`out_height × out_width`), or the first output position no input window
//! reaches (on which the hardware would stall).

use super::arith::Arith;
use crate::error::Error;

/// Geometry of one pass over a plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Input width of the pass.
    pub in_w: usize,
    /// Input height.
    pub in_h: usize,
    /// Output width of the pass.
    pub out_w: usize,
    /// Output height.
    pub out_h: usize,
    /// Kernel width.
    pub k_w: usize,
    /// Kernel height.
    pub k_h: usize,
    /// Stride x.
    pub s_x: usize,
    /// Stride y.
    pub s_y: usize,
    /// Padding left.
    pub p_l: usize,
    /// Padding right.
    pub p_r: usize,
    /// Padding top.
    pub p_t: usize,
    /// Padding bottom.
    pub p_b: usize,
}

/// Whether kernel offset `k` applied at input index `i` hits an output
/// window: returns the window index (the `valid_*_iter` tests).
#[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` needs Rust 1.87
fn window(
    i: usize,
    k: usize,
    kernel: usize,
    stride: usize,
    pad0: usize,
    pad1: usize,
    n: usize,
) -> Option<usize> {
    let p = pad0 + i;
    (p >= k && p + (kernel - k) <= pad0 + pad1 + n && (p - k) % stride == 0)
        .then(|| (p - k) / stride)
}

/// Pools `input` (`in_h × in_w` raw bits) into an `out_h × out_w` plane.
pub fn pool(input: &[u16], s: &Shape, a: &Arith) -> Result<Vec<u16>, Error> {
    // Windows advance by at least one column/row: an output larger than the
    // padded input has unreachable positions (checked before allocating).
    if s.out_w > s.in_w + s.p_l + s.p_r {
        return Err(Error::PoolUnreached(s.in_w + s.p_l + s.p_r, 0));
    }
    if s.out_h > s.in_h + s.p_t + s.p_b {
        return Err(Error::PoolUnreached(0, s.in_h + s.p_t + s.p_b));
    }
    let ovl = s.k_w.div_ceil(s.s_x).max(1);
    let mut lob = vec![0u32; ovl];
    let mut lb = vec![0u32; s.out_w * s.out_h];
    let mut touched = vec![false; s.out_w * s.out_h];
    for h in 0..s.in_h {
        for w in 0..s.in_w {
            let x = input[h * s.in_w + w];
            for kw in 0..s.k_w {
                let Some(ow) = window(w, kw, s.k_w, s.s_x, s.p_l, s.p_r, s.in_w) else {
                    continue;
                };
                // LineOperation: left/right padding counts of this element.
                let first = w == 0 || kw == 0;
                let left =
                    w + 1 < s.k_w && (kw + 1 == s.k_w || (w + 1 == s.in_w && w < kw && s.p_l > 0));
                let right = w + s.k_w - kw > s.in_w && w + 1 == s.in_w;
                let (pl, pr) = if left {
                    (s.k_w - (w + 1), 0)
                } else if right {
                    (0, s.k_w - (kw + 1))
                } else {
                    (0, 0)
                };
                let slot = ow % ovl;
                lob[slot] = a.horizontal(lob[slot], x, first, pl, pr);
                // The row of the window is complete: add it to the line buffer.
                if !(kw + 1 == s.k_w || right) {
                    continue;
                }
                for kh in 0..s.k_h {
                    let Some(oh) = window(h, kh, s.k_h, s.s_y, s.p_t, s.p_b, s.in_h) else {
                        continue;
                    };
                    if ow >= s.out_w || oh >= s.out_h {
                        return Err(Error::PoolOutside(ow, oh));
                    }
                    let first = h == 0 || kh == 0;
                    let top = h + 1 < s.k_h && (kh + 1 == s.k_h || (h + 1 == s.in_h && h < kh));
                    let bottom = h + s.k_h - kh > s.in_h && h + 1 == s.in_h;
                    let (pt, pb) = if top {
                        (s.k_h - (h + 1), 0)
                    } else if bottom {
                        (0, s.k_h - (kh + 1))
                    } else {
                        (0, 0)
                    };
                    let i = oh * s.out_w + ow;
                    lb[i] = a.vertical(lb[i], lob[slot], first, pt, pb);
                    touched[i] = true;
                }
            }
        }
    }
    if let Some(i) = touched.iter().position(|t| !t) {
        return Err(Error::PoolUnreached(i % s.out_w, i / s.out_w));
    }
    Ok(lb.into_iter().map(|v| a.finish(v)).collect())
}
