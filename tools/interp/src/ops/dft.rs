//! `DFT`: discrete Fourier transform along one axis, forward or `inverse`,
//! full or `onesided` (the inverse one-sided form is numpy's `irfft`),
//! zero-padding or truncating the signal to `dft_length`.
//!
//! In: `input [..., 1 | 2]` (real, or complex as `[re, im]` pairs), optional
//! int `dft_length` and `axis` inputs (opset 20; the `axis` attribute of
//! opset 17 is read when present, else the axis is −2).
//! Out: `[..., 2]` complex (real `[..., 1]` for inverse one-sided).
//! Direct O(n²) sums in f64 (a reference, not an FFT).
//! Example: the DFT of `[1, 1]` is `[2, 0]` (as complex pairs `[[2, 0], [0, 0]]`).

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};
use std::f64::consts::PI;

/// `DFT`.
pub(crate) fn dft(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 3)?;
    let x = c.input(0)?;
    let r = x.rank();
    let comps = x.shape().last().copied().unwrap_or(0);
    if r < 2 || !(comps == 1 || comps == 2) || !x.dtype().is_float() {
        return Err(c.shape_err(0, "float [..., 1 | 2]", x.shape()));
    }
    let raw_axis = match c.ints_input(2)? {
        Some(v) if v.len() == 1 => v[0],
        Some(_) => return Err(c.shape_err(2, "a scalar axis", c.input(2)?.shape())),
        None => c.int("axis", -2)?,
    };
    let axis = c.axis("axis", raw_axis, r)?;
    if axis == r - 1 {
        return Err(c.attr_err("axis", "must not be the last (complex) dimension"));
    }
    let inverse = c.int("inverse", 0)? != 0;
    let onesided = c.int("onesided", 0)? != 0;
    let len_in = x.shape()[axis];
    let n = match c.scalar_input(1)? {
        Some(v) if v >= 1.0 && v <= crate::call::MAX_ELEMENTS as f64 => v as usize,
        Some(_) => return Err(c.shape_err(1, "a positive length", c.input(1)?.shape())),
        None if inverse && onesided => 2 * len_in.saturating_sub(1),
        None => len_in,
    };
    let len_out = match (inverse, onesided) {
        (false, true) => n / 2 + 1,
        _ => n,
    };
    let real_out = inverse && onesided;
    let outer: usize = x.shape()[..axis].iter().product();
    let inner: usize = x.shape()[axis + 1..r - 1].iter().product();
    let v = x.data().to_f64_vec();
    let at = |o: usize, j: usize, i: usize| -> (f64, f64) {
        let base = ((o * len_in + j) * inner + i) * comps;
        (v[base], if comps == 2 { v[base + 1] } else { 0.0 })
    };
    let oc = if real_out { 1 } else { 2 };
    let mut y = vec![0f64; outer * len_out * inner * oc];
    for o in 0..outer {
        for i in 0..inner {
            // The complex input sequence, zero-padded or truncated to what the transform reads.
            let spectrum: Vec<(f64, f64)> = if real_out {
                // Hermitian completion of the one-sided spectrum (numpy irfft).
                let half: Vec<(f64, f64)> = (0..n / 2 + 1)
                    .map(|k| if k < len_in { at(o, k, i) } else { (0.0, 0.0) })
                    .collect();
                (0..n)
                    .map(|k| {
                        let (re, im) = if k <= n / 2 {
                            half[k]
                        } else {
                            let (a, b) = half[n - k];
                            (a, -b)
                        };
                        if k == 0 || (n % 2 == 0 && k == n / 2) {
                            (re, 0.0)
                        } else {
                            (re, im)
                        }
                    })
                    .collect()
            } else {
                (0..n)
                    .map(|j| if j < len_in { at(o, j, i) } else { (0.0, 0.0) })
                    .collect()
            };
            let sign = if inverse { 1.0 } else { -1.0 };
            let norm = if inverse { 1.0 / n as f64 } else { 1.0 };
            for kk in 0..len_out {
                let (mut re, mut im) = (0f64, 0f64);
                for (j, &(a, b)) in spectrum.iter().enumerate() {
                    let ang = sign * 2.0 * PI * ((j * kk) % n) as f64 / n as f64;
                    let (s, co) = ang.sin_cos();
                    re += a * co - b * s;
                    im += a * s + b * co;
                }
                let base = ((o * len_out + kk) * inner + i) * oc;
                y[base] = re * norm;
                if !real_out {
                    y[base + 1] = im * norm;
                }
            }
        }
    }
    let mut shape = x.shape().to_vec();
    shape[axis] = len_out;
    shape[r - 1] = oc;
    Ok(vec![out(shape, Data::from_f64s(x.dtype(), &y))?])
}
