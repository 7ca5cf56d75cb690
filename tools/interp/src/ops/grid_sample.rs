//! `GridSample` (N-d; modes `nearest`, `linear`/`bilinear`, `cubic`/`bicubic`;
//! padding `zeros`, `border`, `reflection`; `align_corners`) and `AffineGrid`.
//!
//! `GridSample` in: `X [N, C, D1…Dk]` (float) and `grid [N, O1…Ok, k]`
//! holding normalized coordinates in `[-1, 1]`, last component first
//! (`x` indexes the last dimension). Out: `[N, C, O1…Ok]`.
//! `AffineGrid` in: `theta [N, 2, 3]` (or `[N, 3, 4]`) and int64 `size`
//! (`[N, C, H, W]` or `[N, C, D, H, W]`). Out: the sampling grid
//! `[N, H, W, 2]` (or `[N, D, H, W, 3]`).
//! Example: an identity `theta` with `align_corners = 1` and `size = [1, 1, 1, 2]`
//! gives the grid `[[[[-1, -1], [1, -1]]]]`.
//!
//! Interpolation is separable (a product of per-dimension taps), in `f64`.

use crate::call::{out, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Reflects `x` into `[lo, hi]` by the nearer border, repeatedly.
fn reflect(x: f64, lo: f64, hi: f64) -> f64 {
    let range = hi - lo;
    if range <= 0.0 {
        return lo;
    }
    let (d, from_lo) = if x < lo {
        (lo - x, true)
    } else if x > hi {
        (x - hi, false)
    } else {
        return x;
    };
    let n = (d / range).trunc();
    let r = d - n * range;
    let even = n as i64 % 2 == 0;
    match (from_lo, even) {
        (true, true) | (false, false) => lo + r,
        _ => hi - r,
    }
}

/// Cubic convolution weight (Keys, a = −0.75) at distance `t`.
fn cubic(t: f64) -> f64 {
    let (a, t) = (-0.75, t.abs());
    if t <= 1.0 {
        ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    } else if t < 2.0 {
        ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a
    } else {
        0.0
    }
}

/// `GridSample`.
pub(crate) fn grid_sample(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let (x, grid) = (c.input(0)?, c.input(1)?);
    if x.rank() < 3 || !x.dtype().is_float() {
        return Err(c.shape_err(
            0,
            "a float tensor of rank ≥ 3 ([N, C, spatial…])",
            x.shape(),
        ));
    }
    let k = x.rank() - 2;
    let (n, ch) = (x.shape()[0], x.shape()[1]);
    if grid.rank() != k + 2
        || grid.shape()[0] != n
        || grid.shape()[k + 1] != k
        || !grid.dtype().is_float()
    {
        return Err(c.shape_err(
            1,
            format!("[{n}, out…({k} dims), {k}] floats"),
            grid.shape(),
        ));
    }
    let mode = match c.string("mode", "linear")? {
        "bilinear" | "linear" => 1,
        "nearest" => 0,
        "bicubic" | "cubic" => 3,
        m => return Err(c.attr_err("mode", format!("unknown value `{m}`"))),
    };
    let pad = c.string("padding_mode", "zeros")?;
    if !matches!(pad, "zeros" | "border" | "reflection") {
        return Err(c.attr_err("padding_mode", format!("unknown value `{pad}`")));
    }
    let align = c.int("align_corners", 0)? != 0;
    let dims = &x.shape()[2..];
    let xs = strides(dims);
    let img: usize = dims.iter().product();
    let outs: usize = grid.shape()[1..=k].iter().product();
    let xv = x.data().to_f64_vec();
    let gv = grid.data().to_f64_vec();
    let mut y = vec![0f64; n * ch * outs];
    // Per dimension: (index or None for a zero, weight) taps.
    let mut taps: Vec<Vec<(Option<usize>, f64)>> = vec![Vec::new(); k];
    for b in 0..n {
        for o in 0..outs {
            let g = &gv[(b * outs + o) * k..(b * outs + o + 1) * k];
            for d in 0..k {
                let len = dims[d] as f64;
                let norm = g[k - 1 - d];
                let mut v = if align {
                    (norm + 1.0) / 2.0 * (len - 1.0)
                } else {
                    ((norm + 1.0) * len - 1.0) / 2.0
                };
                let (lo, hi) = if align {
                    (0.0, len - 1.0)
                } else {
                    (-0.5, len - 0.5)
                };
                if mode == 0 {
                    v = v.round_ties_even();
                }
                if v < lo || v > hi {
                    match pad {
                        "border" => v = v.clamp(0.0, len - 1.0),
                        "reflection" => v = reflect(v, lo, hi),
                        _ => {}
                    }
                }
                let fetch = |i: i64| -> Option<usize> {
                    let last = dims[d] as i64 - 1;
                    match pad {
                        "zeros" => (0..=last).contains(&i).then_some(i as usize),
                        "border" => Some(i.clamp(0, last.max(0)) as usize),
                        _ => {
                            Some((reflect(i as f64, lo, hi) as i64).clamp(0, last.max(0)) as usize)
                        }
                    }
                };
                let x0 = v.floor();
                let t = v - x0;
                let x0 = x0 as i64;
                taps[d] = match mode {
                    0 => vec![(fetch(v as i64), 1.0)],
                    1 => vec![(fetch(x0), 1.0 - t), (fetch(x0 + 1), t)],
                    _ => (-1..=2)
                        .map(|j| (fetch(x0 + j), cubic(t - j as f64)))
                        .collect(),
                };
            }
            let combos: usize = taps.iter().map(Vec::len).product();
            for plane in 0..ch {
                let src = &xv[(b * ch + plane) * img..(b * ch + plane + 1) * img];
                let mut acc = 0f64;
                'combo: for mut r in 0..combos {
                    let (mut off, mut w) = (0usize, 1f64);
                    for d in (0..k).rev() {
                        let (i, wt) = taps[d][r % taps[d].len()];
                        r /= taps[d].len();
                        match i {
                            Some(i) => off += i * xs[d],
                            None => continue 'combo,
                        }
                        w *= wt;
                    }
                    acc += w * src[off];
                }
                y[(b * ch + plane) * outs + o] = acc;
            }
        }
    }
    let mut shape = vec![n, ch];
    shape.extend(&grid.shape()[1..=k]);
    Ok(vec![out(shape, Data::from_f64s(x.dtype(), &y))?])
}

/// `AffineGrid`.
pub(crate) fn affine_grid(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let theta = c.input(0)?;
    let size = c.ints_input(1)?.unwrap_or_default();
    let k = size.len().saturating_sub(2);
    if !(k == 2 || k == 3) || size.iter().any(|&s| s < 0) {
        return Err(c.shape_err(
            1,
            "[N, C, H, W] or [N, C, D, H, W] sizes",
            c.input(1)?.shape(),
        ));
    }
    let n = size[0] as usize;
    if theta.shape() != [n, k, k + 1] || !theta.dtype().is_float() {
        return Err(c.shape_err(0, format!("[{n}, {k}, {}] floats", k + 1), theta.shape()));
    }
    let align = c.int("align_corners", 0)? != 0;
    let spatial: Vec<usize> = size[2..].iter().map(|&s| s as usize).collect();
    let mut shape = vec![n];
    shape.extend(&spatial);
    shape.push(k);
    c.checked_numel(&shape, 1)?;
    let coord = |i: usize, len: usize| -> f64 {
        if align {
            if len <= 1 {
                -1.0
            } else {
                -1.0 + 2.0 * i as f64 / (len - 1) as f64
            }
        } else {
            (2.0 * i as f64 + 1.0) / len as f64 - 1.0
        }
    };
    let tv = theta.data().to_f64_vec();
    let pts: usize = spatial.iter().product();
    let ss = strides(&spatial);
    let mut y = Vec::with_capacity(n * pts * k);
    for b in 0..n {
        let t = &tv[b * k * (k + 1)..(b + 1) * k * (k + 1)];
        for p in 0..pts {
            // Homogeneous point: x (last dim), y, [z], 1.
            let mut v: Vec<f64> = (0..k)
                .map(|j| {
                    let d = k - 1 - j;
                    coord((p / ss[d]) % spatial[d], spatial[d])
                })
                .collect();
            v.push(1.0);
            for row in 0..k {
                y.push((0..=k).map(|j| t[row * (k + 1) + j] * v[j]).sum());
            }
        }
    }
    Ok(vec![out(shape, Data::from_f64s(theta.dtype(), &y))?])
}
