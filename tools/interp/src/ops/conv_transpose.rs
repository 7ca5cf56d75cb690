//! `ConvTranspose`: N-dimensional grouped transposed convolution as one
//! matrix product per (batch, group) (`Wᵀ·X`, parallel over output tiles
//! of the product, deterministic) followed by a sequential col2im scatter-add.
//!
//! In: `X [N, C, I1…Ik]`, `W [C, M/group, K1…Kk]`, optional `B [M]` (f32).
//! Out: `Y [N, M, O1…Ok]` with `O = s·(I−1) + output_padding + (K−1)·d + 1 − pads`,
//! or `output_shape` when given (pads then derived per the spec).
//! Example: a 1×1×1×1 input of 2 and a 1×1×2×2 kernel of ones give a 2×2 output of twos.

use super::conv::{bias, group};
use super::mm;
use crate::call::{out_f32, Call, MAX_WINDOW_VALUE};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::Tensor;

/// Reads a list attribute of `r` values, defaulting to `default`.
fn list(c: &Call, name: &str, r: usize, default: i64, min: i64) -> Result<Vec<usize>> {
    match c.ints(name)? {
        None => Ok(vec![default as usize; r]),
        Some(v) if v.len() == r && v.iter().all(|&x| (min..=MAX_WINDOW_VALUE).contains(&x)) => {
            Ok(v.iter().map(|&x| x as usize).collect())
        }
        Some(v) => Err(c.attr_err(
            name,
            format!("expected {r} values in {min}..={MAX_WINDOW_VALUE}, got {v:?}"),
        )),
    }
}

/// `ConvTranspose`.
pub(crate) fn conv_transpose(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let (x, w) = (c.input(0)?, c.input(1)?);
    let (xv, wv) = (c.f32_input(0)?, c.f32_input(1)?);
    if x.rank() < 3 {
        return Err(c.shape_err(0, "rank ≥ 3 ([N, C, spatial…])", x.shape()));
    }
    if w.rank() != x.rank() {
        return Err(c.shape_err(
            1,
            format!("rank {} ([C, M/group, kernel…])", x.rank()),
            w.shape(),
        ));
    }
    let r = x.rank() - 2;
    let (n, cin) = (x.shape()[0], x.shape()[1]);
    let g = c.int("group", 1)?;
    if g < 1 || g > cin.max(1) as i64 {
        return Err(c.attr_err("group", format!("must be in 1..={cin}, got {g}")));
    }
    let mg = w.shape()[1];
    let m = mg * g as usize;
    if w.shape()[0] != cin {
        return Err(c.shape_err(1, format!("[{cin}, M/group, kernel…]"), w.shape()));
    }
    let groups = group(c, cin, cin / g as usize, m, 1, w.shape())?;
    let cg = cin / groups;
    let kernel: Vec<usize> = w.shape()[2..].to_vec();
    let input: Vec<usize> = x.shape()[2..].to_vec();
    let st = list(c, "strides", r, 1, 1)?;
    let dil = list(c, "dilations", r, 1, 1)?;
    let opad = list(c, "output_padding", r, 0, 0)?;
    let b = bias(c, 2, m)?;
    let auto_pad = c.string("auto_pad", "NOTSET")?;
    let full: Vec<usize> = (0..r)
        .map(|d| st[d] * (input[d].max(1) - 1) + opad[d] + (kernel[d] - 1) * dil[d] + 1)
        .collect();
    let wanted: Option<Vec<usize>> = match c.ints("output_shape")? {
        Some(os)
            if (os.len() == r || os.len() == r + 2)
                && os.iter().all(|&v| (0..=MAX_WINDOW_VALUE).contains(&v)) =>
        {
            Some(os[os.len() - r..].iter().map(|&v| v as usize).collect())
        }
        Some(os) => {
            return Err(c.attr_err("output_shape", format!("expected {r} values, got {os:?}")))
        }
        None if auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" => {
            Some((0..r).map(|d| input[d] * st[d]).collect())
        }
        None => None,
    };
    let (pad_begin, output) = match wanted {
        Some(os) => {
            // A negative total padding (output_shape beyond the full output) extends the end with zeros.
            let mut pb = vec![0isize; r];
            for d in 0..r {
                let total = full[d] as isize - os[d] as isize;
                let half = total.div_euclid(2);
                pb[d] = if auto_pad == "SAME_UPPER" {
                    half
                } else {
                    total - half
                };
            }
            (pb, os)
        }
        None => {
            let pads = if auto_pad == "VALID" {
                vec![0; 2 * r]
            } else {
                list(c, "pads", 2 * r, 0, 0)?
            };
            let mut o = vec![0; r];
            for d in 0..r {
                let p = pads[d] + pads[d + r];
                if p > full[d] {
                    return Err(c.attr_err(
                        "pads",
                        format!("{pads:?} remove more than the output extent {full:?}"),
                    ));
                }
                o[d] = full[d] - p;
            }
            (pads[..r].iter().map(|&p| p as isize).collect(), o)
        }
    };

    c.checked_numel(&output, 0)?;
    let on_total: usize = output.iter().product();
    c.checked_numel(&[n, m, on_total], 0)?;
    c.checked_numel(&[mg, kernel.iter().product(), input.iter().product()], 1)?;
    let kn: usize = kernel.iter().product();
    let inn: usize = input.iter().product();
    let on: usize = output.iter().product();
    let mut y = vec![0f32; n * m * on];
    let mut col = vec![0f32; mg * kn * inn];
    let ist = strides(&input);
    let ost = strides(&output);
    for bi in 0..n {
        for gi in 0..groups {
            let a = mm::rows(&wv[gi * cg * mg * kn..(gi + 1) * cg * mg * kn], cg, mg * kn);
            let xs = mm::rows(
                &xv[(bi * cin + gi * cg) * inn..(bi * cin + (gi + 1) * cg) * inn],
                cg,
                inn,
            );
            mm::product(&mut col, a.transpose(), xs, 1.0, false);
            let ys = &mut y[(bi * m + gi * mg) * on..(bi * m + (gi + 1) * mg) * on];
            col2im(
                &col, ys, mg, &kernel, &input, &output, &st, &dil, &pad_begin, &ist, &ost,
            );
            if let Some(bias) = b {
                for (row, &bv) in ys.chunks_mut(on.max(1)).zip(&bias[gi * mg..(gi + 1) * mg]) {
                    row.iter_mut().for_each(|v| *v += bv);
                }
            }
        }
    }
    let mut shape = vec![n, m];
    shape.extend(&output);
    Ok(vec![out_f32(shape, y)?])
}

/// Scatter-adds `col` (`[mg·K, I]`) into `y` (`[mg, O]`).
#[allow(clippy::too_many_arguments)]
fn col2im(
    col: &[f32],
    y: &mut [f32],
    mg: usize,
    kernel: &[usize],
    input: &[usize],
    output: &[usize],
    st: &[usize],
    dil: &[usize],
    pb: &[isize],
    ist: &[usize],
    ost: &[usize],
) {
    let r = kernel.len();
    let kn: usize = kernel.iter().product();
    let inn: usize = input.iter().product();
    let on: usize = output.iter().product();
    let mut kpos = vec![0usize; r];
    for ch in 0..mg {
        let ys = &mut y[ch * on..(ch + 1) * on];
        for kf in 0..kn {
            let mut rem = kf;
            for d in (0..r).rev() {
                kpos[d] = rem % kernel[d];
                rem /= kernel[d];
            }
            let row = &col[(ch * kn + kf) * inn..(ch * kn + kf + 1) * inn];
            'pos: for (ii, &v) in row.iter().enumerate() {
                let mut o = 0usize;
                for d in 0..r {
                    let i = (ii / ist[d]) % input[d];
                    let p = (i * st[d] + kpos[d] * dil[d]) as isize - pb[d];
                    if p < 0 || p >= output[d] as isize {
                        continue 'pos;
                    }
                    o += p as usize * ost[d];
                }
                ys[o] += v;
            }
        }
    }
}
