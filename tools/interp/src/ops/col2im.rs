//! `Col2Im` (the adjoint of im2col: overlapping blocks are summed) and
//! `MaxUnpool` (scatters pooled values back to their argmax positions).
//!
//! `Col2Im` in: `input [N, C·∏block, L]`, int64 `image_shape` and
//! `block_shape`; `dilations`, `pads`, `strides`. Out: `[N, C, image…]`.
//! `MaxUnpool` in: `X [N, C, D…]`, int64 flat `I` (as `MaxPool` returns
//! them), optional `output_shape`; `kernel_shape`, `pads`, `strides`.
//! Out: zeros except `Y[I[k]] = X[k]`.
//! Example: `Col2Im` of 1×1 blocks is a reshape.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Reads a list attribute of `r` values ≥ `min`, defaulting to `default`.
fn list(c: &Call, name: &str, r: usize, default: usize, min: i64) -> Result<Vec<usize>> {
    match c.ints(name)? {
        None => Ok(vec![default; r]),
        Some(v)
            if v.len() == r
                && v.iter()
                    .all(|&x| (min..=crate::call::MAX_WINDOW_VALUE).contains(&x)) =>
        {
            Ok(v.iter().map(|&x| x as usize).collect())
        }
        Some(v) => Err(c.attr_err(name, format!("expected {r} values ≥ {min}, got {v:?}"))),
    }
}

/// `Col2Im`.
pub(crate) fn col2im(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let x = c.input(0)?;
    let image = c.ints_input(1)?.unwrap_or_default();
    let block = c.ints_input(2)?.unwrap_or_default();
    let r = image.len();
    if r == 0
        || block.len() != r
        || image
            .iter()
            .chain(&block)
            .any(|&v| !(1..=crate::call::MAX_WINDOW_VALUE).contains(&v))
    {
        return Err(c.shape_err(
            2,
            format!("{r} positive block extents (like image_shape)"),
            c.input(2)?.shape(),
        ));
    }
    let (image, block): (Vec<usize>, Vec<usize>) = (
        image.iter().map(|&v| v as usize).collect(),
        block.iter().map(|&v| v as usize).collect(),
    );
    let dil = list(c, "dilations", r, 1, 1)?;
    let st = list(c, "strides", r, 1, 1)?;
    let pads = list(c, "pads", 2 * r, 0, 0)?;
    let mut blocks_per_dim = Vec::with_capacity(r);
    for d in 0..r {
        let span = image[d] + pads[d] + pads[d + r];
        let eff = (block[d] - 1) * dil[d] + 1;
        if span < eff {
            return Err(c.attr_err(
                "pads",
                format!("block extent {eff} exceeds the padded image extent {span}"),
            ));
        }
        blocks_per_dim.push((span - eff) / st[d] + 1);
    }
    let kn: usize = block.iter().product();
    let l: usize = blocks_per_dim.iter().product();
    if x.rank() != 3 || x.shape()[1] % kn != 0 || x.shape()[2] != l || !x.dtype().is_float() {
        return Err(c.shape_err(0, format!("float [N, C·{kn}, {l}]"), x.shape()));
    }
    let (n, ch) = (x.shape()[0], x.shape()[1] / kn);
    let img: usize = image.iter().product();
    let v = x.data().to_f64_vec();
    let mut y = vec![0f64; n * ch * img];
    let (mut kpos, mut bpos) = (vec![0usize; r], vec![0usize; r]);
    for b in 0..n {
        for cc in 0..ch {
            for kf in 0..kn {
                let mut rem = kf;
                for d in (0..r).rev() {
                    kpos[d] = rem % block[d];
                    rem /= block[d];
                }
                'blocks: for bf in 0..l {
                    let mut rem = bf;
                    for d in (0..r).rev() {
                        bpos[d] = rem % blocks_per_dim[d];
                        rem /= blocks_per_dim[d];
                    }
                    let mut off = 0usize;
                    for d in 0..r {
                        let p = (bpos[d] * st[d] + kpos[d] * dil[d]) as isize - pads[d] as isize;
                        if p < 0 || p >= image[d] as isize {
                            continue 'blocks;
                        }
                        off = off * image[d] + p as usize;
                    }
                    y[(b * ch + cc) * img + off] += v[((b * ch + cc) * kn + kf) * l + bf];
                }
            }
        }
    }
    let mut shape = vec![n, ch];
    shape.extend(&image);
    Ok(vec![out(shape, Data::from_f64s(x.dtype(), &y))?])
}

/// `MaxUnpool`.
pub(crate) fn max_unpool(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let x = c.input(0)?;
    let ind = c.ints_input(1)?.unwrap_or_default();
    if x.rank() < 3 {
        return Err(c.shape_err(0, "rank ≥ 3 ([N, C, spatial…])", x.shape()));
    }
    if c.input(1)?.shape() != x.shape() {
        return Err(c.shape_err(
            1,
            format!("{:?} (X's shape)", x.shape()),
            c.input(1)?.shape(),
        ));
    }
    let r = x.rank() - 2;
    let ks = list(c, "kernel_shape", r, 0, 1)?;
    if ks.contains(&0) {
        return Err(c.attr_err("kernel_shape", "required"));
    }
    let st = list(c, "strides", r, 1, 1)?;
    let pads = list(c, "pads", 2 * r, 0, 0)?;
    // Scatter into the inferred shape, then place that at the origin of
    // `output_shape` (as the ONNX reference does).
    let mut inferred = x.shape()[..2].to_vec();
    for d in 0..r {
        let full = (x.shape()[d + 2].max(1) - 1) * st[d] + ks[d];
        inferred.push(full.saturating_sub(pads[d] + pads[d + r]));
    }
    let total = c.checked_numel(&inferred, 0)?;
    let v = x.data().to_f64_vec();
    let mut scattered = vec![0f64; total];
    for (k, &i) in ind.iter().enumerate() {
        if i < 0 || i as usize >= total {
            return Err(c.shape_err(1, format!("indices in 0..{total}"), c.input(1)?.shape()));
        }
        scattered[i as usize] = v[k];
    }
    let shape: Vec<usize> = match c.ints_input(2)? {
        None => inferred.clone(),
        Some(s) if s.len() == r + 2 && s.iter().zip(&inferred).all(|(&v, &i)| v >= i as i64) => {
            s.iter().map(|&v| v as usize).collect()
        }
        Some(_) => {
            return Err(c.shape_err(
                2,
                format!("[{}] extents ≥ {inferred:?}", r + 2),
                c.input(2)?.shape(),
            ))
        }
    };
    let n_out = c.checked_numel(&shape, 2)?;
    let ist = crate::layout::strides(&inferred);
    let ost = crate::layout::strides(&shape);
    let mut y = vec![0f64; n_out];
    for (f, &val) in scattered.iter().enumerate() {
        let o: usize = (0..r + 2)
            .map(|d| ((f / ist[d]) % inferred[d]) * ost[d])
            .sum();
        y[o] = val;
    }
    Ok(vec![out(shape, Data::from_f64s(x.dtype(), &y))?])
}
