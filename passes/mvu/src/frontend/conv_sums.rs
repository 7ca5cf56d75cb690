//! The accumulator sums of one conv piece, fast: the functional model's
//! inner loop (calibration runs every layer through it, and so do the
//! checks).
//!
//! In: the piece's geometry ([`ConvGeometry`]), its weights `[O, I, kH, kW]`
//! and the layer-wide input `[C, H, W]`. Out: the exact integer dot products
//! `[O, oH, oW]` (i64; inputs outside the piece's rows and columns, or
//! outside the map, count as 0).
//!
//! Weight-stationary: for each weight tap, the valid output rows and
//! columns are worked out once and the tap is added to a whole output row
//! at a time (a contiguous, vectorisable loop at stride 1), zero weights
//! skipped. Output channels run in parallel (rayon); each channel's sums are
//! exact integers computed by one thread, so the result is the same whatever
//! the thread count.

use rayon::prelude::*;

/// Where a piece reads in the layer-wide input and what it computes.
#[derive(Debug, Clone, Copy)]
pub(super) struct ConvGeometry {
    /// Input channels and output channels of the piece.
    pub ci: usize,
    /// Output channels.
    pub co: usize,
    /// Kernel `[kH, kW]`.
    pub kernel: [usize; 2],
    /// Strides `[sH, sW]`.
    pub strides: [usize; 2],
    /// Top and left pads.
    pub pad: [usize; 2],
    /// Output `[oH, oW]`.
    pub out: [usize; 2],
    /// The piece's first input row and column in the map.
    pub origin: [usize; 2],
    /// The piece's input rows and columns (its own height and width).
    pub extent: [usize; 2],
    /// The layer-wide map `[H, W]`.
    pub map: [usize; 2],
    /// The first map channel the piece reads.
    pub ch0: usize,
}

/// The outputs `o` (of `n`) whose tap at kernel offset `k` reads a local
/// position in `0..limit` (`o · s + k − pad`): a range of outputs.
fn valid(n: usize, k: usize, s: usize, pad: usize, limit: usize) -> std::ops::Range<usize> {
    // First o with o·s + k ≥ pad.
    let lo = if pad > k { (pad - k).div_ceil(s) } else { 0 };
    // First o with o·s + k − pad ≥ limit.
    let hi = if limit + pad > k {
        (limit + pad - k).div_ceil(s)
    } else {
        0
    };
    lo.min(n)..hi.min(n).max(lo.min(n))
}

/// The sums of every output channel, `[co, oH, oW]` (see the module doc).
pub(super) fn conv_sums(g: &ConvGeometry, w: &[i32], x: &[i64]) -> Vec<i64> {
    let [oh, ow] = g.out;
    let plane = oh * ow;
    let mut acc = vec![0i64; g.co * plane];
    if plane == 0 {
        return acc;
    }
    acc.par_chunks_mut(plane)
        .enumerate()
        .for_each(|(o, out)| channel(g, &w[o * g.ci * g.kernel[0] * g.kernel[1]..], x, out));
    acc
}

/// One output channel's sums into `out` (`[oH, oW]`, zeroed); `w` starts at
/// the channel's weights.
fn channel(g: &ConvGeometry, w: &[i32], x: &[i64], out: &mut [i64]) {
    let [kh, kw] = g.kernel;
    let [sh, sw] = g.strides;
    let [pt, pl] = g.pad;
    let [oh, ow] = g.out;
    let [r0, c0] = g.origin;
    let [ih, iw] = g.map;
    // Local rows / columns the piece may read: its own extent, inside the map.
    let hlim = g.extent[0].min(ih.saturating_sub(r0));
    let wlim = g.extent[1].min(iw.saturating_sub(c0));
    let cols: Vec<std::ops::Range<usize>> = (0..kw).map(|kx| valid(ow, kx, sw, pl, wlim)).collect();
    for i in 0..g.ci {
        let xs = &x[(g.ch0 + i) * ih * iw..(g.ch0 + i + 1) * ih * iw];
        for ky in 0..kh {
            let rows = valid(oh, ky, sh, pt, hlim);
            for kx in 0..kw {
                let wv = i64::from(w[(i * kh + ky) * kw + kx]);
                let xr = &cols[kx];
                if wv == 0 || xr.is_empty() {
                    continue;
                }
                for y in rows.clone() {
                    let row = (r0 + y * sh + ky - pt) * iw + c0;
                    let dst = &mut out[y * ow + xr.start..y * ow + xr.end];
                    let first = row + xr.start * sw + kx - pl;
                    if sw == 1 {
                        let src = &xs[first..first + dst.len()];
                        for (d, &s) in dst.iter_mut().zip(src) {
                            *d += wv * s;
                        }
                    } else {
                        for (d, &s) in dst.iter_mut().zip(xs[first..].iter().step_by(sw)) {
                            *d += wv * s;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sums by the definition: every tap checked against the bounds.
    fn naive(g: &ConvGeometry, w: &[i32], x: &[i64]) -> Vec<i64> {
        let [kh, kw] = g.kernel;
        let [oh, ow] = g.out;
        let [ih, iw] = g.map;
        let mut acc = vec![0i64; g.co * oh * ow];
        for o in 0..g.co {
            for y in 0..oh {
                for xx in 0..ow {
                    let mut s = 0i64;
                    for i in 0..g.ci {
                        for ky in 0..kh {
                            let iy = (g.origin[0] + y * g.strides[0] + ky) as i64 - g.pad[0] as i64;
                            let r0 = g.origin[0] as i64;
                            if iy < r0 || iy >= r0 + g.extent[0] as i64 || iy as usize >= ih {
                                continue;
                            }
                            for kx in 0..kw {
                                let ix =
                                    (g.origin[1] + xx * g.strides[1] + kx) as i64 - g.pad[1] as i64;
                                let c0 = g.origin[1] as i64;
                                if ix < c0 || ix >= c0 + g.extent[1] as i64 || ix as usize >= iw {
                                    continue;
                                }
                                s += i64::from(w[((o * g.ci + i) * kh + ky) * kw + kx])
                                    * x[((g.ch0 + i) * ih + iy as usize) * iw + ix as usize];
                            }
                        }
                    }
                    acc[(o * oh + y) * ow + xx] = s;
                }
            }
        }
        acc
    }

    #[test]
    fn equals_the_definition_over_strides_pads_and_windows() {
        let mut seed = 7u64;
        let mut next = |m: i64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as i64 % (2 * m + 1)) - m
        };
        let cases: [[[usize; 2]; 5]; 5] = [
            [[3, 3], [1, 1], [1, 1], [0, 0], [9, 11]],
            [[3, 3], [1, 1], [1, 1], [2, 3], [5, 6]],
            [[5, 3], [2, 3], [2, 0], [1, 0], [8, 11]],
            [[11, 11], [4, 4], [2, 2], [0, 0], [9, 11]],
            [[1, 1], [1, 1], [0, 0], [4, 4], [5, 7]],
        ];
        // Kernel, strides, top/left pads, origin, extent.
        for [k, s, p, origin, extent] in cases {
            let map = [9, 11];
            let (ci, co, ch0) = (3, 4, 1);
            let out = [
                (extent[0] + 2 * p[0]).saturating_sub(k[0]) / s[0] + 1,
                (extent[1] + 2 * p[1]).saturating_sub(k[1]) / s[1] + 1,
            ];
            let g = ConvGeometry {
                ci,
                co,
                kernel: k,
                strides: s,
                pad: p,
                out,
                origin,
                extent,
                map,
                ch0,
            };
            let w: Vec<i32> = (0..co * ci * k[0] * k[1]).map(|_| next(5) as i32).collect();
            let x: Vec<i64> = (0..(ch0 + ci) * map[0] * map[1])
                .map(|_| next(300))
                .collect();
            assert_eq!(
                conv_sums(&g, &w, &x),
                naive(&g, &w, &x),
                "{k:?} {s:?} {p:?} {origin:?}"
            );
        }
    }
}
