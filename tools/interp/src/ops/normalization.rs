//! Normalizations over a set of axes: `LayerNormalization`,
//! `RMSNormalization`, `InstanceNormalization`, `GroupNormalization`,
//! `MeanVarianceNormalization`, `LpNormalization`.
//!
//! In: `X` (float) and per-op scale/bias. Out: `Y` like `X` (and for
//! `LayerNormalization` optional `Mean` and `InvStdDev`).
//! Example: `LayerNormalization([1, 3], scale=[1, 1], epsilon=0) = [-1, 1]`.
//!
//! Statistics are computed in `f64` in index order (deterministic).

use crate::call::{out, Call};
use crate::layout::broadcast_index;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Float input `i` as `f64`s, or a type error.
fn floats(c: &Call, i: usize) -> Result<Vec<f64>> {
    let t = c.input(i)?;
    if !t.dtype().is_float() {
        return Err(c.type_err(i, "a float type", t.dtype()));
    }
    Ok(t.data().to_f64_vec())
}

/// Optional per-element parameter `i` broadcast to `shape` (numpy rules), or `default`.
fn param(c: &Call, i: usize, shape: &[usize], default: f64) -> Result<Vec<f64>> {
    let n: usize = shape.iter().product();
    match c.opt(i) {
        None => Ok(vec![default; n]),
        Some(t) => {
            if !crate::layout::broadcasts_to(t.shape(), shape) {
                return Err(c.shape_err(i, format!("broadcastable to {shape:?}"), t.shape()));
            }
            let v = floats(c, i)?;
            Ok(broadcast_index(t.shape(), shape)
                .into_iter()
                .map(|j| v[j])
                .collect())
        }
    }
}

/// Normalizes rows of `len` contiguous elements; returns (y, means, inv_std).
fn rows(
    x: &[f64],
    len: usize,
    eps: f64,
    rms: bool,
    scale: &[f64],
    bias: &[f64],
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = x.len() / len.max(1);
    let mut y = vec![0f64; x.len()];
    let mut means = Vec::with_capacity(n);
    let mut invs = Vec::with_capacity(n);
    for r in 0..n {
        let row = &x[r * len..(r + 1) * len];
        let mean = if rms {
            0.0
        } else {
            row.iter().sum::<f64>() / len as f64
        };
        let var = row.iter().map(|&v| (v - mean) * (v - mean)).sum::<f64>() / len as f64;
        let inv = 1.0 / (var + eps).sqrt();
        for (k, (o, &v)) in y[r * len..(r + 1) * len].iter_mut().zip(row).enumerate() {
            *o = (v - mean) * inv * scale[k] + bias[k];
        }
        means.push(mean);
        invs.push(inv);
    }
    (y, means, invs)
}

/// `LayerNormalization` (`axis` = −1, `epsilon` = 1e-5) and
/// `RMSNormalization` (`rms = true`: no mean, no bias).
pub(crate) fn layer_norm(c: &Call, rms: bool) -> Result<Vec<Tensor>> {
    c.arity(2, if rms { 2 } else { 3 })?;
    let x = c.input(0)?;
    let xv = floats(c, 0)?;
    let r = x.rank();
    let axis = c.axis("axis", c.int("axis", -1)?, r)?;
    let eps = c.float("epsilon", 1e-5)? as f64;
    let norm_shape = &x.shape()[axis..];
    let len: usize = norm_shape.iter().product();
    let scale = param(c, 1, norm_shape, 1.0)?;
    let bias = if rms {
        vec![0.0; len]
    } else {
        param(c, 2, norm_shape, 0.0)?
    };
    let (y, means, invs) = rows(&xv, len, eps, rms, &scale, &bias);
    let mut outs = vec![out(x.shape().to_vec(), Data::from_f64s(x.dtype(), &y))?];
    if !rms && c.num_outputs.unwrap_or(1) >= 2 {
        let mut stat_shape = x.shape()[..axis].to_vec();
        stat_shape.extend(std::iter::repeat_n(1, r - axis));
        outs.push(out(stat_shape.clone(), Data::from_f64s(x.dtype(), &means))?);
        outs.push(out(stat_shape, Data::from_f64s(x.dtype(), &invs))?);
    }
    Ok(outs)
}

/// `InstanceNormalization` (`epsilon` = 1e-5): per (N, C) over the spatial dims.
pub(crate) fn instance_norm(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let x = c.input(0)?;
    let xv = floats(c, 0)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let ch = x.shape()[1];
    for i in 1..3 {
        if c.input(i)?.shape() != [ch] {
            return Err(c.shape_err(i, format!("[{ch}]"), c.input(i)?.shape()));
        }
    }
    let (s, b) = (floats(c, 1)?, floats(c, 2)?);
    let eps = c.float("epsilon", 1e-5)? as f64;
    let inner: usize = x.shape()[2..].iter().product();
    let mut y = Vec::with_capacity(xv.len());
    for (p, row) in xv.chunks(inner.max(1)).enumerate() {
        let k = p % ch;
        let (v, _, _) = rows(
            row,
            inner,
            eps,
            false,
            &vec![s[k]; inner],
            &vec![b[k]; inner],
        );
        y.extend(v);
    }
    Ok(vec![out(
        x.shape().to_vec(),
        Data::from_f64s(x.dtype(), &y),
    )?])
}

/// `GroupNormalization` (`num_groups` required, `epsilon` = 1e-5); scale and
/// bias per channel (opset 21) or per group (opset 18).
pub(crate) fn group_norm(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let x = c.input(0)?;
    let xv = floats(c, 0)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let ch = x.shape()[1];
    let g = c.int("num_groups", 0)?;
    if g < 1 || ch % g as usize != 0 {
        return Err(c.attr_err(
            "num_groups",
            format!("must divide the {ch} channels, got {g}"),
        ));
    }
    let g = g as usize;
    let (s, b) = (floats(c, 1)?, floats(c, 2)?);
    for (i, v) in [(1, &s), (2, &b)] {
        if v.len() != ch && v.len() != g {
            return Err(c.shape_err(i, format!("[{ch}] or [{g}]"), c.input(i)?.shape()));
        }
    }
    let eps = c.float("epsilon", 1e-5)? as f64;
    let inner: usize = x.shape()[2..].iter().product();
    let per_group = ch / g * inner;
    let mut y = Vec::with_capacity(xv.len());
    for (p, row) in xv.chunks(per_group.max(1)).enumerate() {
        let gi = p % g;
        let pick = |v: &Vec<f64>, k: usize| {
            if v.len() == ch {
                v[gi * (ch / g) + k / inner.max(1)]
            } else {
                v[gi]
            }
        };
        let sc: Vec<f64> = (0..per_group).map(|k| pick(&s, k)).collect();
        let bi: Vec<f64> = (0..per_group).map(|k| pick(&b, k)).collect();
        y.extend(rows(row, per_group, eps, false, &sc, &bi).0);
    }
    Ok(vec![out(
        x.shape().to_vec(),
        Data::from_f64s(x.dtype(), &y),
    )?])
}

/// Moves `axes` last: returns the permutation and the normalized row length.
fn axes_last(shape: &[usize], axes: &[usize]) -> (Vec<usize>, usize) {
    let mut perm: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
    perm.extend(axes);
    (perm, axes.iter().map(|&a| shape[a]).product())
}

/// Applies `f` to each row of the `axes` of `x`, writing back in place.
fn over_axes(x: &mut [f64], shape: &[usize], axes: &[usize], f: impl Fn(&mut [f64])) {
    let (perm, len) = axes_last(shape, axes);
    let idx = crate::layout::transpose_index(shape, &perm);
    let mut buf: Vec<f64> = idx.iter().map(|&i| x[i]).collect();
    for row in buf.chunks_mut(len.max(1)) {
        f(row);
    }
    for (&i, &v) in idx.iter().zip(&buf) {
        x[i] = v;
    }
}

/// Reads `axes` (attribute), normalized and deduplicated.
fn axes_attr(c: &Call, rank: usize, default: &[i64]) -> Result<Vec<usize>> {
    let raw = c
        .ints("axes")?
        .map(<[i64]>::to_vec)
        .unwrap_or_else(|| default.to_vec());
    let mut v = Vec::new();
    for a in raw {
        let a = c.axis("axes", a, rank)?;
        if !v.contains(&a) {
            v.push(a);
        }
    }
    v.sort_unstable();
    Ok(v)
}

/// `MeanVarianceNormalization` (`axes` = [0, 2, 3]): `(x − mean) / (sqrt(var) + 1e-9)`.
pub(crate) fn mvn(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let mut v = floats(c, 0)?;
    let axes = axes_attr(c, x.rank(), &[0, 2, 3])?;
    over_axes(&mut v, x.shape(), &axes, |row| {
        let n = row.len() as f64;
        let mean = row.iter().sum::<f64>() / n;
        let var = row.iter().map(|&a| a * a).sum::<f64>() / n - mean * mean;
        let d = var.max(0.0).sqrt() + 1e-9;
        row.iter_mut().for_each(|a| *a = (*a - mean) / d);
    });
    Ok(vec![out(
        x.shape().to_vec(),
        Data::from_f64s(x.dtype(), &v),
    )?])
}

/// `LpNormalization` (`axis` = −1, `p` = 2; p ∈ {1, 2}).
pub(crate) fn lp_norm(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let mut v = floats(c, 0)?;
    let axis = c.axis("axis", c.int("axis", -1)?, x.rank())?;
    let p = c.int("p", 2)?;
    if p != 1 && p != 2 {
        return Err(c.attr_err("p", format!("must be 1 or 2, got {p}")));
    }
    over_axes(&mut v, x.shape(), &[axis], |row| {
        let norm = if p == 1 {
            row.iter().map(|a| a.abs()).sum::<f64>()
        } else {
            row.iter().map(|a| a * a).sum::<f64>().sqrt()
        };
        // A zero norm gives zeros, as the ONNX reference does.
        row.iter_mut()
            .for_each(|a| *a = if norm == 0.0 { 0.0 } else { *a / norm });
    });
    Ok(vec![out(
        x.shape().to_vec(),
        Data::from_f64s(x.dtype(), &v),
    )?])
}
