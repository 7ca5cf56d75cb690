//! Shape arithmetic shared by the operators' inference: input access,
//! broadcasting, axis normalization, constant reading.

use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

/// The type of input `i`, or an error when it is absent or unknown.
pub fn input<'a>(node: &Node, inputs: &'a [Option<TypeInfo>], i: usize) -> Result<&'a TypeInfo> {
    inputs
        .get(i)
        .and_then(|t| t.as_ref())
        .ok_or_else(|| infer_err(node, format!("type of input {i} is unknown")))
}

/// The type of optional input `i`, if present and known.
pub fn opt_input(inputs: &[Option<TypeInfo>], i: usize) -> Option<&TypeInfo> {
    inputs.get(i).and_then(|t| t.as_ref())
}

/// The constant value of input `i`, if known.
pub fn constant<'a>(consts: &[Option<&'a Tensor>], i: usize) -> Option<&'a Tensor> {
    consts.get(i).copied().flatten()
}

/// The constant value of input `i` as integers, if known.
pub fn const_ints(consts: &[Option<&Tensor>], i: usize) -> Option<Vec<i64>> {
    constant(consts, i).map(|t| t.data().to_i64_vec())
}

/// Requires `min..=max` present inputs slots.
pub fn arity(node: &Node, min: usize, max: usize) -> Result<()> {
    let n = node.inputs.len();
    if n < min || n > max || node.inputs.iter().take(min).any(|i| i.is_none()) {
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min}–{max}")
        };
        return Err(crate::error::arity_err(
            node,
            format!("expects {want} inputs, got {n}"),
        ));
    }
    Ok(())
}

/// Largest rank accepted for a tensor whose rank comes from a value's length
/// (a `Reshape` shape input, a `ConstantOfShape` input).
pub const MAX_RANK: usize = 64;

/// `n` unknown dims, or an error when `n` exceeds [`MAX_RANK`].
pub fn unknown_dims(node: &Node, n: usize) -> Result<Vec<Dim>> {
    if n > MAX_RANK {
        return Err(infer_err(
            node,
            format!("rank {n} exceeds the supported maximum {MAX_RANK}"),
        ));
    }
    Ok(vec![Dim::Unknown; n])
}

/// Multidirectional (numpy) broadcasting of two shapes.
pub fn broadcast(node: &Node, a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>> {
    let r = a.len().max(b.len());
    let mut out = Vec::with_capacity(r);
    for i in 0..r {
        let da = if i + a.len() >= r {
            &a[i + a.len() - r]
        } else {
            &Dim::Fixed(1)
        };
        let db = if i + b.len() >= r {
            &b[i + b.len() - r]
        } else {
            &Dim::Fixed(1)
        };
        out.push(match (da, db) {
            (Dim::Fixed(1), d) | (d, Dim::Fixed(1)) => d.clone(),
            (x, y) if x == y => x.clone(),
            (Dim::Fixed(x), Dim::Fixed(y)) => {
                return Err(infer_err(
                    node,
                    format!("shapes {a:?} and {b:?} do not broadcast (dimension {x} vs {y})"),
                ))
            }
            (Dim::Fixed(x), _) | (_, Dim::Fixed(x)) => Dim::Fixed(*x),
            _ => Dim::Unknown,
        });
    }
    Ok(out)
}

/// Normalizes a possibly negative axis (counted from `rank`); valid results
/// are `0..rank + extra` (`extra = 1` for `Flatten`, whose axis may equal the rank).
pub fn axis(node: &Node, axis: i64, rank: usize, extra: usize) -> Result<usize> {
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    if a < 0 || a >= (rank + extra) as i64 {
        return Err(infer_err(
            node,
            format!("axis {axis} is out of range for rank {rank}"),
        ));
    }
    Ok(a as usize)
}

/// Product of dims, `Unknown` if any is not fixed.
pub fn product(dims: &[Dim]) -> Dim {
    let mut p: usize = 1;
    for d in dims {
        match d {
            Dim::Fixed(n) => p = p.saturating_mul(*n),
            _ => return Dim::Unknown,
        }
    }
    Dim::Fixed(p)
}
