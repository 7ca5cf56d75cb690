//! Windowed pooling: `MaxPool` (with optional `Indices` output),
//! `AveragePool` (`count_include_pad`), `LpPool`; N-dimensional, with
//! strides, dilations, pads, `auto_pad` and `ceil_mode`.
//!
//! In: `X [N, C, D1…Dk]` (f32). Out: `Y [N, C, O1…Ok]` (and for `MaxPool`
//! with two outputs requested, int64 `Indices` in row-major flat
//! `[N, C, D…]` order; `storage_order` is ignored).
//! Example: `MaxPool{kernel_shape=[2]}([[[1, 3, 2]]]) = [[[3, 3]]]`.
//!
//! Averages sum in `f64` in window order (deterministic).

use super::window::{self, Window};
use crate::call::{out, out_f32, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{Data, Tensor};
use rayon::prelude::*;

/// The reduction a pool applies.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Max,
    Avg { include_pad: bool },
    Lp(i64),
}

/// Reads the window from `kernel_shape` (required).
fn window(c: &Call, x: &Tensor) -> Result<Window> {
    if x.rank() < 3 {
        return Err(c.shape_err(0, "rank ≥ 3 ([N, C, spatial…])", x.shape()));
    }
    let ks = c
        .ints("kernel_shape")?
        .ok_or_else(|| c.attr_err("kernel_shape", "required"))?;
    if ks
        .iter()
        .any(|&k| !(1..=crate::call::MAX_WINDOW_VALUE).contains(&k))
    {
        return Err(c.attr_err(
            "kernel_shape",
            format!(
                "extents must be in 1..={}, got {ks:?}",
                crate::call::MAX_WINDOW_VALUE
            ),
        ));
    }
    let ceil = c.int("ceil_mode", 0)? != 0;
    window::resolve(
        c,
        &x.shape()[2..],
        ks.iter().map(|&k| k as usize).collect(),
        ceil,
    )
}

/// `MaxPool`.
pub(crate) fn max_pool(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let want_idx = c.num_outputs.unwrap_or(1) >= 2;
    pool(c, Kind::Max, want_idx)
}

/// `AveragePool`.
pub(crate) fn average_pool(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let include_pad = c.int("count_include_pad", 0)? != 0;
    pool(c, Kind::Avg { include_pad }, false)
}

/// `LpPool` (`p` = 2).
pub(crate) fn lp_pool(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let p = c.int("p", 2)?;
    if p < 1 {
        return Err(c.attr_err("p", format!("must be ≥ 1, got {p}")));
    }
    pool(c, Kind::Lp(p), false)
}

fn pool(c: &Call, kind: Kind, want_idx: bool) -> Result<Vec<Tensor>> {
    let x = c.input(0)?;
    // f16 and 8-bit integers are exact in f32 (MaxPool takes them; the
    // result is converted back). Other types must be f32.
    let widened: Vec<f32>;
    let xv: &[f32] = match x.data() {
        Data::F32(v) => v,
        Data::F16(_) | Data::U8(_) | Data::I8(_)
            if kind == Kind::Max || x.dtype() == onnc_tensor::DType::F16 =>
        {
            widened = x
                .data()
                .to_f64_vec()
                .into_iter()
                .map(|v| v as f32)
                .collect();
            &widened
        }
        _ => return Err(c.type_err(0, "f32 (MaxPool also f16, uint8, int8)", x.dtype())),
    };
    let win = window(c, x)?;
    let (n, ch) = (x.shape()[0], x.shape()[1]);
    let img: usize = win.input.iter().product();
    let on: usize = win.output.iter().product();
    let kn: usize = win.kernel.iter().product();
    let ist = strides(&win.input);
    // `storage_order = 1`: indices count the spatial dims column-major.
    let idx_st: Vec<usize> = if c.int("storage_order", 0)? != 0 {
        let mut rev: Vec<usize> = win.input.clone();
        rev.reverse();
        let mut s = strides(&rev);
        s.reverse();
        s
    } else {
        ist.clone()
    };
    let taps = Taps::new(&win, &ist, &idx_st);
    let mut y = vec![0f32; n * ch * on];
    let mut idx = if want_idx {
        vec![0i64; n * ch * on]
    } else {
        Vec::new()
    };
    // Planes are independent: in parallel, each one output after another.
    let min_planes = (PAR_TAPS / (on * kn).max(1)).max(1);
    let plane = |p: usize, ys: &mut [f32], is: Option<&mut [i64]>| {
        pool_plane(&xv[p * img..(p + 1) * img], &taps, kind, ys, is, p * img);
    };
    if want_idx {
        y.par_chunks_mut(on.max(1))
            .zip(idx.par_chunks_mut(on.max(1)))
            .enumerate()
            .with_min_len(min_planes)
            .for_each(|(p, (ys, is))| plane(p, ys, Some(is)));
    } else {
        y.par_chunks_mut(on.max(1))
            .enumerate()
            .with_min_len(min_planes)
            .for_each(|(p, ys)| plane(p, ys, None));
    }
    let mut shape = vec![n, ch];
    shape.extend(&win.output);
    let y = if x.dtype() == onnc_tensor::DType::F32 {
        Data::F32(y)
    } else {
        Data::from_f64s(x.dtype(), &y.iter().map(|&v| v as f64).collect::<Vec<_>>())
    };
    let mut outs = vec![out(shape.clone(), y)?];
    if want_idx {
        outs.push(out(shape, Data::I64(idx))?);
    }
    Ok(outs)
}

/// Planes × outputs × taps below which a pool runs on one thread.
const PAR_TAPS: usize = 1 << 15;

/// Per output position and kernel offset: the flat input offset
/// (`usize::MAX` in padding) and the offset counted as `Indices` counts it;
/// per output position, the taps inside the padded input.
struct Taps {
    kn: usize,
    off: Vec<usize>,
    idx: Vec<usize>,
    padded: Vec<usize>,
}

impl Taps {
    fn new(win: &Window, ist: &[usize], idx_st: &[usize]) -> Taps {
        let r = win.kernel.len();
        let on: usize = win.output.iter().product();
        let kn: usize = win.kernel.iter().product();
        let mut t = Taps {
            kn,
            off: Vec::with_capacity(on * kn),
            idx: Vec::with_capacity(on * kn),
            padded: Vec::with_capacity(on),
        };
        let mut opos = vec![0usize; r];
        let mut kpos = vec![0usize; r];
        for o in 0..on {
            let mut rem = o;
            for d in (0..r).rev() {
                opos[d] = rem % win.output[d];
                rem /= win.output[d];
            }
            let mut padded_count = 0usize;
            for kf in 0..kn {
                let mut rem = kf;
                for d in (0..r).rev() {
                    kpos[d] = rem % win.kernel[d];
                    rem /= win.kernel[d];
                }
                let mut off = 0usize;
                let mut ioff = 0usize;
                let mut inside = true;
                let mut in_padded = true;
                for d in 0..r {
                    let p = (opos[d] * win.strides[d] + kpos[d] * win.dilations[d]) as isize
                        - win.pad_begin[d] as isize;
                    if p < 0 || p >= win.input[d] as isize {
                        inside = false;
                    }
                    if p >= (win.input[d] + win.pad_end[d]) as isize {
                        in_padded = false;
                    }
                    if inside {
                        off += p as usize * ist[d];
                        ioff += p as usize * idx_st[d];
                    }
                }
                if in_padded {
                    padded_count += 1;
                }
                t.off.push(if inside { off } else { usize::MAX });
                t.idx.push(ioff);
            }
            t.padded.push(padded_count);
        }
        t
    }
}

/// Pools one `[N, C]` plane `xs` into `ys` (and its `Indices`, offset by `base`).
fn pool_plane(
    xs: &[f32],
    taps: &Taps,
    kind: Kind,
    ys: &mut [f32],
    mut idx: Option<&mut [i64]>,
    base: usize,
) {
    let kn = taps.kn;
    for (o, y) in ys.iter_mut().enumerate() {
        let offs = &taps.off[o * kn..(o + 1) * kn];
        let inside = offs.iter().filter(|&&off| off != usize::MAX);
        *y = match kind {
            Kind::Max => {
                let mut best = f32::NEG_INFINITY;
                let mut at = None;
                for (t, &off) in offs.iter().enumerate() {
                    if off == usize::MAX {
                        continue;
                    }
                    let v = xs[off];
                    if at.is_none() || v > best || v.is_nan() && !best.is_nan() {
                        best = v;
                        at = Some(t);
                    }
                }
                if let Some(is) = idx.as_deref_mut() {
                    is[o] = (base + at.map_or(0, |t| taps.idx[o * kn + t])) as i64;
                }
                best
            }
            Kind::Avg { include_pad } => {
                let mut s = 0f64;
                let mut cnt = 0usize;
                for &off in inside {
                    s += xs[off] as f64;
                    cnt += 1;
                }
                let div = if include_pad { taps.padded[o] } else { cnt };
                if div == 0 {
                    f32::NAN
                } else {
                    (s / div as f64) as f32
                }
            }
            Kind::Lp(p) => {
                let mut s = 0f64;
                for &off in inside {
                    s += (xs[off].abs() as f64).powi(p as i32);
                }
                s.powf(1.0 / p as f64) as f32
            }
        };
    }
}

/// `GlobalAveragePool`, `GlobalMaxPool`, `GlobalLpPool`: one value per (N, C) plane.
pub(crate) fn global_pool(c: &Call, op: &str) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let xv = c.f32_input(0)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let inner: usize = x.shape()[2..].iter().product();
    let planes = x.shape()[0] * x.shape()[1];
    let p = c.int("p", 2)?;
    let y: Vec<f32> = (0..planes)
        .map(|i| {
            let s = &xv[i * inner..(i + 1) * inner];
            match op {
                "max" => s.iter().copied().fold(f32::NEG_INFINITY, |a, b| {
                    if b > a || b.is_nan() {
                        b
                    } else {
                        a
                    }
                }),
                "lp" => s
                    .iter()
                    .map(|&v| (v.abs() as f64).powi(p as i32))
                    .sum::<f64>()
                    .powf(1.0 / p as f64) as f32,
                _ => (s.iter().map(|&v| v as f64).sum::<f64>() / inner.max(1) as f64) as f32,
            }
        })
        .collect();
    let mut shape = x.shape()[..2].to_vec();
    shape.extend(std::iter::repeat_n(1, x.rank() - 2));
    Ok(vec![out_f32(shape, y)?])
}
