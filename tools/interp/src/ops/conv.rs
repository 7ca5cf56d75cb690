//! `Conv`: N-dimensional grouped convolution with strides, dilations, pads
//! and `auto_pad`, as im2col followed by one matrix product per (batch, group)
//! on `faer`'s gemm, parallel and deterministic (see [`conv_compute`]).
//!
//! In: `X [N, C, D1…Dk]`, `W [M, C/group, K1…Kk]`, optional `B [M]` (f32; f64;
//! f16 computed in f32).
//! Out: `Y [N, M, O1…Ok]`. Example: a 1×1×3×3 input of ones convolved with a
//! 1×1×2×2 kernel of ones gives a 1×1×2×2 output of fours.
//!
//! A 1×1 kernel with unit strides and no padding skips im2col: the input
//! already is the column matrix.

use super::mm::{self, Scalar};
use super::window::{self, Window};
use crate::call::{out, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{Data, Tensor};
use rayon::prelude::*;

/// Checks `group` against `channels` and `m` (output channels) and returns it.
pub(crate) fn group(
    c: &Call,
    channels: usize,
    weight_channels: usize,
    m: usize,
    w_index: usize,
    w_shape: &[usize],
) -> Result<usize> {
    let g = c.int("group", 1)?;
    if g < 1 {
        return Err(c.attr_err("group", format!("must be ≥ 1, got {g}")));
    }
    let g = g as usize;
    if weight_channels.checked_mul(g) != Some(channels) || !m.is_multiple_of(g) {
        return Err(c.shape_err(
            w_index,
            format!("weight channels × group ({g}) = input channels ({channels}) and output channels divisible by group"),
            w_shape,
        ));
    }
    Ok(g)
}

/// Checks an optional `[len]` f32 bias at input `i`.
pub(crate) fn bias<'a>(c: &Call<'a>, i: usize, len: usize) -> Result<Option<&'a [f32]>> {
    match c.opt(i) {
        None => Ok(None),
        Some(b) if b.shape() == [len] => Ok(Some(c.f32_input(i)?)),
        Some(b) => Err(c.shape_err(i, format!("[{len}]"), b.shape())),
    }
}

/// A checked convolution: operand extents, groups and window.
pub(crate) struct ConvPlan {
    /// Batch.
    pub n: usize,
    /// Input channels.
    pub cin: usize,
    /// Output channels.
    pub m: usize,
    /// Groups.
    pub groups: usize,
    /// Window geometry.
    pub win: Window,
}

impl ConvPlan {
    /// The output shape `[N, M, O…]`.
    pub fn out_shape(&self) -> Vec<usize> {
        let mut shape = vec![self.n, self.m];
        shape.extend(&self.win.output);
        shape
    }
}

/// Checks `X` (input `xi`) and `W` (input `wi`) and resolves the window.
pub(crate) fn plan(c: &Call, xi: usize, wi: usize) -> Result<ConvPlan> {
    let (x, w) = (c.input(xi)?, c.input(wi)?);
    if x.rank() < 3 {
        return Err(c.shape_err(xi, "rank ≥ 3 ([N, C, spatial…])", x.shape()));
    }
    if w.rank() != x.rank() {
        return Err(c.shape_err(
            wi,
            format!("rank {} ([M, C/group, kernel…])", x.rank()),
            w.shape(),
        ));
    }
    let (n, cin) = (x.shape()[0], x.shape()[1]);
    let (m, cg) = (w.shape()[0], w.shape()[1]);
    let groups = group(c, cin, cg, m, wi, w.shape())?;
    let kernel = w.shape()[2..].to_vec();
    if let Some(ks) = c.ints("kernel_shape")? {
        if ks.iter().map(|&k| k as usize).ne(kernel.iter().copied()) {
            return Err(c.attr_err(
                "kernel_shape",
                format!("{ks:?} disagrees with the weight's {kernel:?}"),
            ));
        }
    }
    let win = window::resolve(c, &x.shape()[2..], kernel, false)?;
    let o: usize = win.output.iter().product();
    c.checked_numel(&[n, m, o], xi)?;
    c.checked_numel(&[cg, w.shape()[2..].iter().product(), o], xi)?;
    Ok(ConvPlan {
        n,
        cin,
        m,
        groups,
        win,
    })
}

/// `Conv` (f32, or f64).
pub(crate) fn conv(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let p = plan(c, 0, 1)?;
    let (x, w) = (c.input(0)?, c.input(1)?);
    if let Some(b) = c.opt(2) {
        if b.shape() != [p.m] {
            return Err(c.shape_err(2, format!("[{}]", p.m), b.shape()));
        }
        if b.dtype() != x.dtype() {
            return Err(c.type_err(2, x.dtype().to_string(), b.dtype()));
        }
    }
    if w.dtype() != x.dtype() {
        return Err(c.type_err(1, x.dtype().to_string(), w.dtype()));
    }
    let data = match (x.data(), w.data(), c.opt(2).map(Tensor::data)) {
        (Data::F32(xv), Data::F32(wv), b) => {
            let b = b.map(|b| {
                if let Data::F32(v) = b {
                    v.as_slice()
                } else {
                    &[]
                }
            });
            Data::F32(conv_compute(xv, wv, b, &p))
        }
        (Data::F64(xv), Data::F64(wv), b) => {
            let b = b.map(|b| {
                if let Data::F64(v) = b {
                    v.as_slice()
                } else {
                    &[]
                }
            });
            Data::F64(conv_compute(xv, wv, b, &p))
        }
        // f16: computed in f32, rounded once.
        (Data::F16(_), Data::F16(_), b) => {
            let widen =
                |d: &Data| -> Vec<f32> { d.to_f64_vec().into_iter().map(|v| v as f32).collect() };
            let (xv, wv, bv) = (widen(x.data()), widen(w.data()), b.map(widen));
            let y = conv_compute(&xv, &wv, bv.as_deref(), &p);
            Data::F16(y.into_iter().map(half::f16::from_f32).collect())
        }
        _ => return Err(c.type_err(0, "f32, f64 or f16", x.dtype())),
    };
    Ok(vec![out(p.out_shape(), data)?])
}

/// The convolution proper on checked operands: im2col, then one matrix
/// product per (batch, group) on [`mm::product`].
///
/// Parallel and deterministic: with one group the product's output tiles
/// run in parallel (im2col too, row by row); with several groups the
/// (batch, group) pairs do, each with a sequential product. Which of the two
/// depends on the shape only.
pub(crate) fn conv_compute<T: Scalar>(x: &[T], w: &[T], b: Option<&[T]>, p: &ConvPlan) -> Vec<T> {
    let (n, cin, m, groups, win) = (p.n, p.cin, p.m, p.groups, &p.win);
    let cg = cin / groups;
    let mg = m / groups;
    let kn: usize = win.kernel.iter().product();
    let k = cg * kn;
    let o: usize = win.output.iter().product();
    let img: usize = win.input.iter().product();
    let direct = win.kernel.iter().all(|&d| d == 1)
        && win.strides.iter().all(|&s| s == 1)
        && win.pad_begin.iter().all(|&p| p == 0)
        && win.output == win.input;
    let mut y = vec![T::default(); n * m * o];
    if o == 0 || mg == 0 {
        return y;
    }
    let bias = b.filter(|bias| bias.len() == m);
    // One (batch, group) unit: its output rows `ys`, im2col into `col`.
    let unit = |u: usize, ys: &mut [T], col: &mut Vec<T>, parallel: bool| {
        let (bi, g) = (u / groups, u % groups);
        let xs = &x[(bi * cin + g * cg) * img..(bi * cin + (g + 1) * cg) * img];
        let cols: &[T] = if direct {
            xs
        } else {
            col.resize(k * o, T::default());
            if parallel {
                im2col_parallel(xs, win, col);
            } else {
                im2col(xs, cg, win, col);
            }
            col
        };
        if let Some(bias) = bias {
            for (row, &bv) in ys.chunks_mut(o).zip(&bias[g * mg..(g + 1) * mg]) {
                row.fill(bv);
            }
        }
        let a = mm::rows(&w[g * mg * k..(g + 1) * mg * k], mg, k);
        let bm = mm::rows(cols, k, o);
        if parallel {
            mm::product(ys, a, bm, T::ONE, bias.is_some());
        } else {
            mm::product_seq(ys, a, bm, T::ONE, bias.is_some());
        }
    };
    if groups == 1 {
        let mut col = Vec::new();
        for (bi, ys) in y.chunks_mut(m * o).enumerate() {
            unit(bi, ys, &mut col, true);
        }
    } else {
        y.par_chunks_mut(mg * o)
            .enumerate()
            .for_each_init(Vec::new, |col, (u, ys)| unit(u, ys, col, false));
    }
    y
}

/// [`im2col`] with the `channels · K` rows filled in parallel.
fn im2col_parallel<T: Copy + Default + Send + Sync>(x: &[T], win: &Window, col: &mut [T]) {
    let kn: usize = win.kernel.iter().product();
    let on: usize = win.output.iter().product();
    let img: usize = win.input.iter().product();
    col.par_chunks_mut(on).enumerate().for_each(|(r, row)| {
        let (ch, kf) = (r / kn, r % kn);
        fill_row(row, &x[ch * img..(ch + 1) * img], win, &kernel_pos(win, kf));
    });
}

/// The kernel position (one index per spatial axis) of flat kernel index `kf`.
fn kernel_pos(win: &Window, mut kf: usize) -> Vec<usize> {
    let mut kpos = vec![0usize; win.kernel.len()];
    for d in (0..win.kernel.len()).rev() {
        kpos[d] = kf % win.kernel[d];
        kf /= win.kernel[d];
    }
    kpos
}

/// Fills `col` (`[channels·K, O]`) with the windows of `x` (`channels` images).
pub(crate) fn im2col<T: Copy + Default>(x: &[T], channels: usize, win: &Window, col: &mut [T]) {
    let kn: usize = win.kernel.iter().product();
    let on: usize = win.output.iter().product();
    let img: usize = win.input.iter().product();
    for ch in 0..channels {
        let xs = &x[ch * img..(ch + 1) * img];
        for kf in 0..kn {
            let row = &mut col[(ch * kn + kf) * on..(ch * kn + kf + 1) * on];
            fill_row(row, xs, win, &kernel_pos(win, kf));
        }
    }
}

/// One im2col row: the input element under kernel position `kpos` for every output position.
fn fill_row<T: Copy + Default>(row: &mut [T], xs: &[T], win: &Window, kpos: &[usize]) {
    let r = win.kernel.len();
    let last = r - 1;
    let ist = strides(&win.input);
    let ow = win.output[last];
    if ow == 0 {
        return;
    }
    let iw = win.input[last] as isize;
    let s = win.strides[last] as isize;
    let koff = (kpos[last] * win.dilations[last]) as isize - win.pad_begin[last] as isize;
    let outer: usize = win.output[..last].iter().product();
    let mut opos = vec![0usize; last];
    for oi in 0..outer {
        let mut base = 0isize;
        let mut valid = true;
        for d in 0..last {
            let i = (opos[d] * win.strides[d] + kpos[d] * win.dilations[d]) as isize
                - win.pad_begin[d] as isize;
            if i < 0 || i >= win.input[d] as isize {
                valid = false;
                break;
            }
            base += i * ist[d] as isize;
        }
        let seg = &mut row[oi * ow..(oi + 1) * ow];
        if valid {
            // Output columns `lo..hi` read inside the row; the rest is padding.
            let (lo, hi) = inside_range(ow, s, koff, iw);
            seg[..lo].fill(T::default());
            seg[hi..].fill(T::default());
            if lo < hi {
                let start = (base + lo as isize * s + koff) as usize;
                let inside = &mut seg[lo..hi];
                if s == 1 {
                    inside.copy_from_slice(&xs[start..start + (hi - lo)]);
                } else {
                    for (v, &x) in inside
                        .iter_mut()
                        .zip(xs[start..].iter().step_by(s as usize))
                    {
                        *v = x;
                    }
                }
            }
        } else {
            seg.fill(T::default());
        }
        for d in (0..last).rev() {
            opos[d] += 1;
            if opos[d] < win.output[d] {
                break;
            }
            opos[d] = 0;
        }
    }
}

/// The output columns `ox` in `0..ow` whose input column `ox·s + koff` lies
/// in `0..iw`, as a half-open range (empty as `(0, 0)`).
fn inside_range(ow: usize, s: isize, koff: isize, iw: isize) -> (usize, usize) {
    // ox·s + koff ≥ 0  ⇔  ox ≥ ceil(−koff / s);  ox·s + koff < iw  ⇔  ox < ceil((iw − koff) / s).
    let lo = if koff >= 0 { 0 } else { (-koff + s - 1) / s };
    let hi = if iw - koff <= 0 {
        0
    } else {
        (iw - koff + s - 1) / s
    };
    let (lo, hi) = (
        lo.clamp(0, ow as isize) as usize,
        hi.clamp(0, ow as isize) as usize,
    );
    if lo < hi {
        (lo, hi)
    } else {
        (0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::inside_range;

    #[test]
    fn inside_range_matches_a_brute_force_scan() {
        for ow in 0..7usize {
            for s in 1..4isize {
                for koff in -5..6isize {
                    for iw in 0..8isize {
                        let inside: Vec<usize> = (0..ow)
                            .filter(|&ox| (0..iw).contains(&(ox as isize * s + koff)))
                            .collect();
                        let (lo, hi) = inside_range(ow, s, koff, iw);
                        assert_eq!((lo..hi).collect::<Vec<_>>(), inside, "{ow} {s} {koff} {iw}");
                    }
                }
            }
        }
    }
}
