//! `Resize` (opset ≥ 10) and `Upsample` (opset 7–9): `nearest` (rounding
//! modes `round_prefer_floor`, `round_prefer_ceil`, `floor`, `ceil`),
//! `linear` (n-linear) and `cubic` interpolation, with coordinate
//! transformations `half_pixel`, `half_pixel_symmetric`,
//! `pytorch_half_pixel`, `align_corners`, `asymmetric` and
//! `tf_crop_and_resize` (`roi`, `extrapolation_value`), `exclude_outside`,
//! `cubic_coeff_a`, `axes` and `keep_aspect_ratio_policy`.
//!
//! In: `X`, optional `roi`, `scales` (f32) or `sizes` (int64). Out: the
//! resized tensor (f32 for linear/cubic; any type for nearest).
//! Example: nearest, scales `[1, 1, 2, 2]` on `[[[[1, 2]]]]` gives
//! `[[[[1, 1, 2, 2], [1, 1, 2, 2]]]]`.
//!
//! Interpolation is separable: one 1-D pass per resized axis, computed in
//! `f64`. Opset 10 `Resize` and `Upsample` use `asymmetric` coordinates and
//! `floor` rounding, their defined behaviour. `antialias = 1` is rejected.

use crate::call::{out, out_f32, Call};
use crate::layout::{product_index, strides, take_data};
use crate::Result;
use onnc_tensor::Tensor;

/// How one output coordinate reads the input along an axis.
enum Taps {
    /// Outside the crop box: `extrapolation_value`.
    Extrapolate,
    /// (input index, weight) pairs.
    Weighted(Vec<(usize, f64)>),
}

/// Per-axis resize plan.
struct Axis {
    scale: f64,
    out_len: usize,
    roi: (f64, f64),
}

/// `Resize` or `Upsample` (`upsample = true`).
pub(crate) fn resize(c: &Call, upsample: bool) -> Result<Vec<Tensor>> {
    let x = c.input(0)?;
    let r = x.rank();
    let legacy = upsample || c.opset < 11;
    if upsample {
        c.arity(1, 2)?;
    } else {
        c.arity(1, 4)?;
    }
    if c.int("antialias", 0)? != 0 {
        return Err(c.unsupported("antialias = 1"));
    }
    let mode = c.string("mode", "nearest")?;
    let mode = if mode == "bilinear" { "linear" } else { mode };
    if !matches!(mode, "nearest" | "linear" | "cubic") {
        return Err(c.attr_err("mode", format!("unknown mode `{mode}`")));
    }
    let ctm = if legacy {
        "asymmetric"
    } else {
        c.string("coordinate_transformation_mode", "half_pixel")?
    };
    let nearest_mode = if legacy {
        "floor"
    } else {
        c.string("nearest_mode", "round_prefer_floor")?
    };
    let a = c.float("cubic_coeff_a", -0.75)? as f64;
    let exclude = c.int("exclude_outside", 0)? != 0;
    let extrap = c.float("extrapolation_value", 0.0)? as f64;

    // Inputs by opset: Upsample(X, scales) / Resize-10(X, scales) / Resize-11+(X, roi, scales, sizes).
    let (roi_i, scales_i, sizes_i) = if legacy {
        (None, Some(1), None)
    } else {
        (Some(1), Some(2), Some(3))
    };
    let axes: Vec<usize> = match c.ints("axes")? {
        None => (0..r).collect(),
        Some(v) => v
            .iter()
            .map(|&a| c.axis("axes", a, r))
            .collect::<Result<_>>()?,
    };
    let k = axes.len();
    let floats = |i: Option<usize>| -> Result<Option<Vec<f64>>> {
        let Some(i) = i else { return Ok(None) };
        match c.opt(i) {
            None => Ok(None),
            Some(t) if t.numel() == 0 => Ok(None),
            Some(t) if t.dtype().is_float() => Ok(Some(t.data().to_f64_vec())),
            Some(t) => Err(c.type_err(i, "a float tensor", t.dtype())),
        }
    };
    let scales = match floats(scales_i)? {
        Some(s) => Some(s),
        None if upsample => c
            .floats("scales")?
            .map(|v| v.iter().map(|&x| x as f64).collect()),
        None => None,
    };
    let sizes = match sizes_i.and_then(|i| c.opt(i)) {
        Some(t) if t.numel() > 0 => c.ints_input(sizes_i.unwrap_or(3))?,
        _ => None,
    };
    let roi = floats(roi_i)?;

    let mut plan: Vec<Axis> = (0..r)
        .map(|d| Axis {
            scale: 1.0,
            out_len: x.shape()[d],
            roi: (0.0, 1.0),
        })
        .collect();
    if let Some(roi) = &roi {
        if ctm == "tf_crop_and_resize" {
            if roi.len() != 2 * k {
                return Err(c.shape_err(1, format!("[{}]", 2 * k), &[roi.len()]));
            }
            for (i, &d) in axes.iter().enumerate() {
                plan[d].roi = (roi[i], roi[i + k]);
            }
        }
    }
    match (scales, sizes) {
        (Some(s), None) => {
            if s.len() != k {
                return Err(c.shape_err(scales_i.unwrap_or(2), format!("[{k}]"), &[s.len()]));
            }
            for (i, &d) in axes.iter().enumerate() {
                if s[i] <= 0.0 {
                    return Err(c.attr_err("scales", format!("scale {} must be > 0", s[i])));
                }
                let crop = if ctm == "tf_crop_and_resize" {
                    plan[d].roi.1 - plan[d].roi.0
                } else {
                    1.0
                };
                plan[d].scale = s[i];
                plan[d].out_len = (x.shape()[d] as f64 * crop * s[i]).floor().max(0.0) as usize;
            }
        }
        (None, Some(z)) => {
            if z.len() != k || z.iter().any(|&v| v < 0) {
                return Err(c.shape_err(3, format!("[{k}] non-negative sizes"), &[z.len()]));
            }
            let policy = c.string("keep_aspect_ratio_policy", "stretch")?;
            let ratio = |i: usize| z[i] as f64 / x.shape()[axes[i]] as f64;
            let common = match policy {
                "stretch" => None,
                "not_larger" => Some((0..k).map(ratio).fold(f64::INFINITY, f64::min)),
                "not_smaller" => Some((0..k).map(ratio).fold(0.0, f64::max)),
                p => {
                    return Err(
                        c.attr_err("keep_aspect_ratio_policy", format!("unknown value `{p}`"))
                    )
                }
            };
            for (i, &d) in axes.iter().enumerate() {
                let n = x.shape()[d] as f64;
                match common {
                    None => {
                        plan[d].out_len = z[i] as usize;
                        plan[d].scale = z[i] as f64 / n;
                    }
                    Some(s) => {
                        plan[d].scale = s;
                        plan[d].out_len = (s * n).round_ties_even() as usize;
                    }
                }
            }
        }
        (Some(_), Some(_)) => {
            return Err(c.attr_err("scales", "only one of scales and sizes may be given"))
        }
        (None, None) => return Err(c.attr_err("scales", "one of scales and sizes is required")),
    }

    let shape: Vec<usize> = plan.iter().map(|p| p.out_len).collect();
    c.checked_numel(&shape, 0)?;
    let taps: Vec<Vec<Taps>> = (0..r)
        .map(|d| {
            (0..plan[d].out_len)
                .map(|j| {
                    taps(
                        j,
                        x.shape()[d],
                        &plan[d],
                        ctm,
                        mode,
                        nearest_mode,
                        a,
                        exclude,
                    )
                })
                .collect()
        })
        .collect();
    if mode == "nearest" && ctm != "tf_crop_and_resize" {
        let coords: Vec<Vec<usize>> = taps
            .iter()
            .map(|t| {
                t.iter()
                    .map(|t| match t {
                        Taps::Weighted(v) => v[0].0,
                        Taps::Extrapolate => 0,
                    })
                    .collect()
            })
            .collect();
        let idx = product_index(&coords, &strides(x.shape()));
        return Ok(vec![out(shape, take_data(x.data(), &idx))?]);
    }
    let xv = c.f32_input(0)?;
    let mut buf: Vec<f64> = xv.iter().map(|&v| v as f64).collect();
    let mut cur = x.shape().to_vec();
    for d in 0..r {
        let identity = plan[d].out_len == cur[d]
            && taps[d].iter().enumerate().all(|(j, t)| matches!(t, Taps::Weighted(v) if v.iter().all(|&(i, w)| w == 0.0 || i == j && w == 1.0)));
        if identity {
            continue;
        }
        buf = pass(&buf, &cur, d, &taps[d], extrap);
        cur[d] = plan[d].out_len;
    }
    Ok(vec![out_f32(
        shape,
        buf.iter().map(|&v| v as f32).collect(),
    )?])
}

/// One 1-D interpolation pass along axis `d`.
fn pass(x: &[f64], shape: &[usize], d: usize, taps: &[Taps], extrap: f64) -> Vec<f64> {
    let outer: usize = shape[..d].iter().product();
    let inner: usize = shape[d + 1..].iter().product();
    let n = shape[d];
    let m = taps.len();
    let mut y = vec![0f64; outer * m * inner];
    for o in 0..outer {
        for (j, t) in taps.iter().enumerate() {
            let dst = &mut y[(o * m + j) * inner..(o * m + j + 1) * inner];
            match t {
                Taps::Extrapolate => dst.fill(extrap),
                Taps::Weighted(v) => {
                    for &(i, w) in v {
                        let src = &x[(o * n + i) * inner..(o * n + i + 1) * inner];
                        for (a, &b) in dst.iter_mut().zip(src) {
                            *a += w * b;
                        }
                    }
                }
            }
        }
    }
    y
}

/// The input coordinate output index `j` maps to.
fn source_coord(j: usize, n: usize, p: &Axis, ctm: &str) -> f64 {
    // As the ONNX reference does, the resized length is `scale · n` (not
    // rounded) — it differs from `out_len` when `scales` are given.
    let nf = n as f64;
    let (x, s, m) = (j as f64, p.scale, p.scale * nf);
    match ctm {
        "asymmetric" => x / s,
        "tf_half_pixel_for_nn" => (x + 0.5) / s,
        "align_corners" => {
            if m == 1.0 {
                0.0
            } else {
                x * (nf - 1.0) / (m - 1.0)
            }
        }
        "pytorch_half_pixel" => {
            if m > 1.0 {
                (x + 0.5) / s - 0.5
            } else {
                0.0
            }
        }
        "half_pixel_symmetric" => {
            let adjustment = p.out_len as f64 / m;
            let center = nf / 2.0;
            center * (1.0 - adjustment) + (x + 0.5) / s - 0.5
        }
        "tf_crop_and_resize" => {
            let (a, b) = p.roi;
            if m == 1.0 {
                0.5 * (a + b) * (nf - 1.0)
            } else {
                a * (nf - 1.0) + x * (b - a) * (nf - 1.0) / (m - 1.0)
            }
        }
        _ => (x + 0.5) / s - 0.5, // half_pixel
    }
}

/// Cubic convolution weight at distance `t` with coefficient `a`.
fn cubic(t: f64, a: f64) -> f64 {
    let t = t.abs();
    if t <= 1.0 {
        ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    } else if t < 2.0 {
        ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a
    } else {
        0.0
    }
}

#[allow(clippy::too_many_arguments)]
fn taps(
    j: usize,
    n: usize,
    p: &Axis,
    ctm: &str,
    mode: &str,
    nearest: &str,
    a: f64,
    exclude: bool,
) -> Taps {
    let x = source_coord(j, n, p, ctm);
    let last = n as f64 - 1.0;
    if ctm == "tf_crop_and_resize" && (x < 0.0 || x > last) {
        return Taps::Extrapolate;
    }
    let clamp = |i: i64| i.clamp(0, n as i64 - 1) as usize;
    let x0 = x.floor();
    let r = x - x0;
    let x0 = x0 as i64;
    match mode {
        "nearest" => {
            let i = match nearest {
                "floor" => x0,
                "ceil" => x.ceil() as i64,
                "round_prefer_ceil" => {
                    if r >= 0.5 {
                        x0 + 1
                    } else {
                        x0
                    }
                }
                _ => {
                    if r > 0.5 {
                        x0 + 1
                    } else {
                        x0
                    }
                }
            };
            Taps::Weighted(vec![(clamp(i), 1.0)])
        }
        "linear" => Taps::Weighted(vec![(clamp(x0), 1.0 - r), (clamp(x0 + 1), r)]),
        _ => {
            let mut v: Vec<(i64, f64)> =
                (-1..=2).map(|k| (x0 + k, cubic(r - k as f64, a))).collect();
            if exclude {
                v.iter_mut().for_each(|(i, w)| {
                    if *i < 0 || *i >= n as i64 {
                        *w = 0.0
                    }
                });
                let s: f64 = v.iter().map(|t| t.1).sum();
                if s != 0.0 {
                    v.iter_mut().for_each(|t| t.1 /= s);
                }
            }
            Taps::Weighted(v.into_iter().map(|(i, w)| (clamp(i), w)).collect())
        }
    }
}
