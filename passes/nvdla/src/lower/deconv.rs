//! A transposed convolution as one stride-1 convolution and a RUBIK
//! contract (stride-phase decomposition), the way NVIDIA's compiler runs
//! deconvolution: NVDLA has no upsampler.
//!
//! In: per axis the input length, stride `s`, ConvTranspose kernel length,
//! begin padding and output length; the ConvTranspose weights. Out: a
//! [`PhaseAxis`] per axis (the convolution's taps, padding and positions,
//! and how many positions RUBIK's result has beyond the output) and the
//! convolution's weights, bias and factor map.
//!
//! Along one axis, output `o = q·s + r` of a transposed convolution with
//! begin padding `p` reads input `i` through tap `t = o + p − i·s`. For
//! each phase `r` that is a correlation over `q`: with the input padded by
//! `P` before, convolution tap `m` at position `q` reads input
//! `i = q + m − P` through ConvTranspose tap `t = r + p + (P − m)·s`,
//! whatever `q` is. So one convolution with `s_y·s_x` groups of output
//! channels — phase `(r_y, r_x)`, channel `c` is output channel
//! `(r_y·s_x + r_x)·C_pad + c` — computes every phase; RUBIK contract then
//! writes the atom of phase `(r_y, r_x)` at position `(q_y, q_x)` to row
//! `q_y·s_y + r_y`, column `q_x·s_x + r_x` (nvdla-arith.md §9). `C_pad` is
//! the output channel count rounded up to whole memory atoms, the layout
//! contract reads. Positions past the output (`crop`) are cut by the caller.
//!
//! ```
//! use onnc_nvdla::lower::deconv::phase_axis;
//! // ConvTranspose k=4, s=2, p=1 over 5 inputs → 10 outputs: 2 taps per
//! // phase, in a 3-tap window shared by both phases.
//! let a = phase_axis(5, 2, 4, 1, 10);
//! assert_eq!((a.taps, a.pad_before, a.pad_after, a.positions, a.crop), (3, 1, 1, 5, 0));
//! assert_eq!(a.tap_of, [[Some(3), Some(1), None], [None, Some(2), Some(0)]]);
//! ```

/// One axis of the decomposition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseAxis {
    /// The stride `s` (phases along the axis).
    pub stride: usize,
    /// Convolution taps.
    pub taps: usize,
    /// Convolution zero padding before the input.
    pub pad_before: usize,
    /// Convolution zero padding after the input.
    pub pad_after: usize,
    /// Convolution output positions.
    pub positions: usize,
    /// Positions of the contracted result past the output (`positions·s − out_len`).
    pub crop: usize,
    /// `tap_of[r][m]`: the ConvTranspose tap that convolution tap `m` of phase `r` applies.
    pub tap_of: Vec<Vec<Option<usize>>>,
}

/// The decomposition of one axis: `in_len` inputs, stride `s`, a kernel of
/// `k` taps, begin padding `pad` (negative: the output starts later),
/// `out_len` outputs.
pub fn phase_axis(in_len: usize, s: usize, k: usize, pad: i64, out_len: usize) -> PhaseAxis {
    let s = s.max(1);
    let si = s as i64;
    // e = (r + pad − t)/s for every tap t of phase r: convolution tap m = P + e.
    let pairs: Vec<(usize, usize, i64)> = (0..s)
        .flat_map(|r| (0..k).map(move |t| (r, t)))
        .filter(|&(r, t)| (r as i64 + pad - t as i64).rem_euclid(si) == 0)
        .map(|(r, t)| (r, t, (r as i64 + pad - t as i64) / si))
        .collect();
    let min_e = pairs.iter().map(|p| p.2).min().unwrap_or(0);
    let max_e = pairs.iter().map(|p| p.2).max().unwrap_or(0);
    let pad_before = (-min_e).max(0);
    let taps = (pad_before + max_e + 1).max(1) as usize;
    let mut tap_of = vec![vec![None; taps]; s];
    for &(r, t, e) in &pairs {
        tap_of[r][(pad_before + e) as usize] = Some(t);
    }
    let pad_before = pad_before as usize;
    let need = out_len.div_ceil(s);
    let pad_after = (need + taps).saturating_sub(1 + in_len + pad_before);
    let positions = in_len + pad_before + pad_after + 1 - taps;
    PhaseAxis {
        stride: s,
        taps,
        pad_before,
        pad_after,
        positions,
        crop: positions * s - out_len,
        tap_of,
    }
}

/// The convolution's weights `[s_y·s_x·c_pad, C_in, taps_y, taps_x]` from
/// ConvTranspose weights `w` of shape `[C_in, C_out/group, k_y, k_x]`
/// (row-major), `group` groups; padding channels are zero.
pub fn weights(
    w: &[f32],
    shape: [usize; 4],
    group: usize,
    ay: &PhaseAxis,
    ax: &PhaseAxis,
    c_pad: usize,
) -> Vec<f32> {
    let [c_in, c_out_g, ky, kx] = shape;
    let g = group.max(1);
    let in_per_group = c_in / g;
    let (ty, tx) = (ay.taps, ax.taps);
    let phases = ay.stride * ax.stride;
    let mut out = vec![0f32; phases * c_pad * c_in * ty * tx];
    for ry in 0..ay.stride {
        for rx in 0..ax.stride {
            let base = (ry * ax.stride + rx) * c_pad;
            for ci in 0..c_in {
                let grp = ci / in_per_group.max(1);
                for j in 0..c_out_g {
                    let co = grp * c_out_g + j;
                    for my in 0..ty {
                        let Some(t_y) = ay.tap_of[ry][my] else {
                            continue;
                        };
                        for mx in 0..tx {
                            let Some(t_x) = ax.tap_of[rx][mx] else {
                                continue;
                            };
                            let v = w[((ci * c_out_g + j) * ky + t_y) * kx + t_x];
                            out[(((base + co) * c_in + ci) * ty + my) * tx + mx] = v;
                        }
                    }
                }
            }
        }
    }
    out
}

/// A per-output-channel vector (bias) repeated for every phase, zero on
/// padding channels.
pub fn per_phase(v: &[f32], phases: usize, c_pad: usize) -> Vec<f32> {
    let mut out = vec![0f32; phases * c_pad];
    for p in 0..phases {
        out[p * c_pad..p * c_pad + v.len()].copy_from_slice(v);
    }
    out
}

/// The factor map `[1, s_y·s_x·c_pad, positions_y, positions_x]` that
/// multiplies the convolution's result: phase `(r_y, r_x)` at `(q_y, q_x)`
/// gets `fy[q_y·s_y + r_y] · fx[q_x·s_x + r_x]` (1 past the output).
pub fn factors(fy: &[f64], fx: &[f64], ay: &PhaseAxis, ax: &PhaseAxis, c_pad: usize) -> Vec<f32> {
    let (qy, qx) = (ay.positions, ax.positions);
    let mut out = Vec::with_capacity(ay.stride * ax.stride * c_pad * qy * qx);
    for ry in 0..ay.stride {
        for rx in 0..ax.stride {
            let plane: Vec<f32> = (0..qy)
                .flat_map(|y| (0..qx).map(move |x| (y, x)))
                .map(|(y, x)| {
                    let a = fy.get(y * ay.stride + ry).copied().unwrap_or(1.0);
                    let b = fx.get(x * ax.stride + rx).copied().unwrap_or(1.0);
                    (a * b) as f32
                })
                .collect();
            for _ in 0..c_pad {
                out.extend_from_slice(&plane);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ConvTranspose straight from its definition (one image, f64).
    #[allow(clippy::too_many_arguments)]
    fn conv_transpose(
        x: &[f64],
        [c_in, h, wd]: [usize; 3],
        w: &[f32],
        [_, cog, ky, kx]: [usize; 4],
        g: usize,
        s: [usize; 2],
        p: [i64; 2],
        out: [usize; 2],
    ) -> Vec<f64> {
        let c_out = cog * g;
        let mut y = vec![0f64; c_out * out[0] * out[1]];
        for ci in 0..c_in {
            let grp = ci / (c_in / g);
            for i in 0..h {
                for j in 0..wd {
                    for j2 in 0..cog {
                        for ty in 0..ky {
                            for tx in 0..kx {
                                let oy = (i * s[0] + ty) as i64 - p[0];
                                let ox = (j * s[1] + tx) as i64 - p[1];
                                if oy < 0 || ox < 0 || oy >= out[0] as i64 || ox >= out[1] as i64 {
                                    continue;
                                }
                                let co = grp * cog + j2;
                                y[(co * out[0] + oy as usize) * out[1] + ox as usize] += x
                                    [(ci * h + i) * wd + j]
                                    * w[((ci * cog + j2) * ky + ty) * kx + tx] as f64;
                            }
                        }
                    }
                }
            }
        }
        y
    }

    /// The decomposition: the convolution, RUBIK contract, the crop.
    #[allow(clippy::too_many_arguments)]
    fn decomposed(
        x: &[f64],
        [c_in, h, wd]: [usize; 3],
        cw: &[f32],
        ay: &PhaseAxis,
        ax: &PhaseAxis,
        c_out: usize,
        c_pad: usize,
        out: [usize; 2],
    ) -> Vec<f64> {
        let k = ay.stride * ax.stride * c_pad;
        let (qy, qx) = (ay.positions, ax.positions);
        let at = |c: usize, yy: i64, xx: i64| {
            let (iy, ix) = (yy - ay.pad_before as i64, xx - ax.pad_before as i64);
            if iy < 0 || ix < 0 || iy >= h as i64 || ix >= wd as i64 {
                0.0
            } else {
                x[(c * h + iy as usize) * wd + ix as usize]
            }
        };
        let mut z = vec![0f64; k * qy * qx];
        for ko in 0..k {
            for q0 in 0..qy {
                for q1 in 0..qx {
                    let mut acc = 0.0;
                    for ci in 0..c_in {
                        for my in 0..ay.taps {
                            for mx in 0..ax.taps {
                                let wv = cw[((ko * c_in + ci) * ay.taps + my) * ax.taps + mx];
                                acc += wv as f64 * at(ci, (q0 + my) as i64, (q1 + mx) as i64);
                            }
                        }
                    }
                    z[(ko * qy + q0) * qx + q1] = acc;
                }
            }
        }
        let mut y = vec![0f64; c_out * out[0] * out[1]];
        for c in 0..c_out {
            for oy in 0..out[0] {
                for ox in 0..out[1] {
                    let (q0, r0, q1, r1) = (
                        oy / ay.stride,
                        oy % ay.stride,
                        ox / ax.stride,
                        ox % ax.stride,
                    );
                    let ko = (r0 * ax.stride + r1) * c_pad + c;
                    y[(c * out[0] + oy) * out[1] + ox] = z[(ko * qy + q0) * qx + q1];
                }
            }
        }
        y
    }

    #[test]
    fn decomposition_equals_conv_transpose() {
        // (k, s, pad begin, pad end, output padding, group)
        let cases = [
            (4, 2, 1, 1, 0, 1),
            (3, 2, 1, 1, 1, 1),
            (3, 2, 1, 1, 0, 1),
            (2, 2, 0, 0, 0, 1),
            (5, 3, 3, 0, 0, 1),
            (1, 2, 0, 0, 1, 1),
            (4, 2, 1, 1, 0, 2),
            (3, 1, 1, 1, 0, 1),
            (6, 2, 5, 1, 0, 1),
            (6, 2, 7, 0, 0, 1),
        ];
        let (c_in, h, wd) = (2, 3, 4);
        let x: Vec<f64> = (0..c_in * h * wd)
            .map(|i| ((i * 7) % 9) as f64 - 4.0)
            .collect();
        for (k, s, p0, p1, op, g) in cases {
            let cog = 3;
            let wv: Vec<f32> = (0..c_in * cog * k * k)
                .map(|i| ((i * 5) % 7) as f32 - 3.0)
                .collect();
            let len = |n: usize| s * (n - 1) + k + op - p0 - p1;
            let out = [len(h), len(wd)];
            let want = conv_transpose(
                &x,
                [c_in, h, wd],
                &wv,
                [c_in, cog, k, k],
                g,
                [s, s],
                [p0 as i64; 2],
                out,
            );
            let ay = phase_axis(h, s, k, p0 as i64, out[0]);
            let ax = phase_axis(wd, s, k, p0 as i64, out[1]);
            assert!(ay.positions * s >= out[0] && ay.crop == ay.positions * s - out[0]);
            let c_out = cog * g;
            let c_pad = 16;
            let cw = weights(&wv, [c_in, cog, k, k], g, &ay, &ax, c_pad);
            let got = decomposed(&x, [c_in, h, wd], &cw, &ay, &ax, c_out, c_pad, out);
            assert_eq!(got, want, "k={k} s={s} p=({p0},{p1}) op={op} g={g}");
        }
    }

    #[test]
    fn a_later_start_is_leading_zero_taps() {
        // k=6, pad 7 at stride 2: output 0 reads input 1 first, so no
        // padding and a first tap that reads nothing.
        let a = phase_axis(4, 2, 6, 7, 5);
        assert_eq!((a.pad_before, a.taps), (0, 5));
        assert_eq!(a.tap_of[0], [None, Some(5), Some(3), Some(1), None]);
        assert_eq!(a.tap_of[1], [None, None, Some(4), Some(2), Some(0)]);
        // A negative begin pad (an output that starts earlier) pads more.
        let b = phase_axis(4, 2, 4, -1, 8);
        assert_eq!(b.pad_before, 2);
        assert!(b.tap_of.iter().all(|t| t.len() == b.taps));
    }

    #[test]
    fn factors_and_bias_follow_the_phase_layout() {
        let ay = phase_axis(2, 2, 2, 0, 4);
        let ax = phase_axis(1, 1, 1, 0, 1);
        let f = factors(&[2.0, 3.0, 5.0, 7.0], &[1.0], &ay, &ax, 2);
        // phase 0: rows 0, 2 → 2, 5 (twice: two channels); phase 1: rows 1, 3 → 3, 7.
        assert_eq!(f, [2.0, 5.0, 2.0, 5.0, 3.0, 7.0, 3.0, 7.0]);
        assert_eq!(per_phase(&[1.0, 2.0], 2, 3), [1.0, 2.0, 0.0, 1.0, 2.0, 0.0]);
    }
}
