//! Shape-only operators: `Reshape`, `Flatten`, `Squeeze`, `Unsqueeze`,
//! `Identity`, `Dropout` (inference) — the data is reused, only the shape changes.
//!
//! In: `data` of any type (+ `shape` / `axes` as int64 inputs, or the
//! attributes of older opsets). Out: the same elements under a new shape.
//! Example: `Reshape([2, 3] tensor, shape=[0, -1])` keeps `[2, 3]`;
//! `Unsqueeze(axes=[0])` of `[3]` gives `[1, 3]`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

fn reshaped(x: &Tensor, shape: Vec<usize>) -> Result<Vec<Tensor>> {
    Ok(vec![out(shape, x.data().clone())?])
}

/// `Reshape` (`0` copies the input dim unless `allowzero`, one `-1` is inferred).
pub(crate) fn reshape(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    let spec = c
        .ints_input_or_attr(1, "shape")?
        .ok_or_else(|| c.attr_err("shape", "missing (input 1)"))?;
    let allowzero = c.int("allowzero", 0)? != 0;
    let mut shape = Vec::with_capacity(spec.len());
    let mut infer = None;
    for (i, &d) in spec.iter().enumerate() {
        match d {
            -1 if infer.is_none() => {
                infer = Some(i);
                shape.push(1);
            }
            0 if !allowzero => match x.shape().get(i) {
                Some(&v) => shape.push(v),
                None => {
                    return Err(c.attr_err(
                        "shape",
                        format!("0 at position {i} but the input has rank {}", x.rank()),
                    ))
                }
            },
            d if d >= 0 => shape.push(d as usize),
            _ => return Err(c.attr_err("shape", format!("bad target shape {spec:?}"))),
        }
    }
    let known = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| c.attr_err("shape", format!("{spec:?} overflows")))?;
    if let Some(i) = infer {
        if known == 0 || x.numel() % known != 0 {
            return Err(c.shape_err(0, format!("an element count that fits {spec:?}"), x.shape()));
        }
        shape[i] = x.numel() / known;
    }
    if shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) != Some(x.numel()) {
        return Err(c.shape_err(0, format!("an element count matching {shape:?}"), x.shape()));
    }
    reshaped(x, shape)
}

/// `Flatten` (`axis` = 1; negative counts from the end).
pub(crate) fn flatten(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let r = x.rank() as i64;
    let a = c.int("axis", 1)?;
    if a < -r || a > r {
        return Err(c.attr_err("axis", format!("{a} is out of range for rank {r}")));
    }
    let a = if a < 0 { a + r } else { a } as usize;
    let outer: usize = x.shape()[..a].iter().product();
    let inner: usize = x.shape()[a..].iter().product();
    reshaped(x, vec![outer, inner])
}

/// Normalizes and checks a list of axes against `rank`.
fn axes(c: &Call, raw: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut v = Vec::with_capacity(raw.len());
    for &a in raw {
        let n = c.axis("axes", a, rank)?;
        if v.contains(&n) {
            return Err(c.attr_err("axes", format!("axis {a} repeats in {raw:?}")));
        }
        v.push(n);
    }
    Ok(v)
}

/// `Squeeze` (axes from input 1 or the attribute; none = every extent-1 dim).
pub(crate) fn squeeze(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    let shape = match c.ints_input_or_attr(1, "axes")? {
        None => x.shape().iter().copied().filter(|&d| d != 1).collect(),
        Some(raw) => {
            let ax = axes(c, &raw, x.rank())?;
            for &a in &ax {
                if x.shape()[a] != 1 {
                    return Err(c.shape_err(
                        0,
                        format!("extent 1 on squeezed axis {a}"),
                        x.shape(),
                    ));
                }
            }
            x.shape()
                .iter()
                .enumerate()
                .filter(|(i, _)| !ax.contains(i))
                .map(|(_, &d)| d)
                .collect()
        }
    };
    reshaped(x, shape)
}

/// `Unsqueeze` (axes from input 1 or the attribute, relative to the output rank).
pub(crate) fn unsqueeze(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    let raw = c
        .ints_input_or_attr(1, "axes")?
        .ok_or_else(|| c.attr_err("axes", "missing (input 1)"))?;
    let r = x.rank() + raw.len();
    let ax = axes(c, &raw, r)?;
    let mut src = x.shape().iter();
    let shape = (0..r)
        .map(|i| {
            if ax.contains(&i) {
                1
            } else {
                *src.next().unwrap_or(&1)
            }
        })
        .collect();
    reshaped(x, shape)
}

/// `Identity`.
pub(crate) fn identity(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    Ok(vec![c.input(0)?.clone()])
}

/// `Dropout` in inference: the identity, plus an all-true mask when two
/// outputs are requested. `training_mode = true` is rejected.
pub(crate) fn dropout(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 3)?;
    let x = c.input(0)?;
    if let Some(t) = c.scalar_input(2)? {
        if t != 0.0 {
            return Err(c.unsupported("training_mode = true"));
        }
    }
    let mut outs = vec![x.clone()];
    if c.num_outputs.unwrap_or(1) >= 2 {
        outs.push(out(x.shape().to_vec(), Data::Bool(vec![1; x.numel()]))?);
    }
    Ok(outs)
}
