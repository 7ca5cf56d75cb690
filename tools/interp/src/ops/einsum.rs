//! `Einsum`: Einstein summation over an `equation` such as `"bij,bjk->bik"`,
//! with `...` (broadcast), repeated labels (diagonals) and the implicit
//! output form (no `->`: ellipsis dims, then labels used once, sorted).
//!
//! In: one or more numeric tensors of one type. Out: that type.
//! Computed directly in `f64` — one sum per output element, in label order
//! (a reference implementation, not a fast one).
//! Example: `Einsum{equation="ij->ji"}` transposes; `"i,i"` is a dot product.

use crate::call::{out, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Labels of one term: letters as their byte, ellipsis dims as 256 + k.
type Labels = Vec<u16>;

/// Parses one term against a rank; `ell` is the ellipsis rank.
fn term(c: &Call, t: &str, rank: Option<usize>, ell: usize) -> Result<Labels> {
    let letters = t.replace("...", "");
    if letters.bytes().any(|b| !b.is_ascii_alphabetic()) || t.matches("...").count() > 1 {
        return Err(c.attr_err("equation", format!("bad term `{t}`")));
    }
    let e = if t.contains("...") {
        rank.map_or(ell, |r| r.saturating_sub(letters.len()))
    } else {
        0
    };
    if let Some(r) = rank {
        if letters.len() + e != r {
            return Err(c.attr_err(
                "equation",
                format!("term `{t}` does not match a rank-{r} input"),
            ));
        }
    }
    let mut v = Vec::new();
    let (head, tail) = t.split_once("...").unwrap_or((t, ""));
    v.extend(head.bytes().map(u16::from));
    if t.contains("...") {
        v.extend((0..e).map(|k| 256 + (ell - e + k) as u16));
    }
    v.extend(tail.bytes().map(u16::from));
    Ok(v)
}

/// `Einsum`.
pub(crate) fn einsum(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, usize::MAX)?;
    let eq: String = c
        .string("equation", "")?
        .chars()
        .filter(|ch| !ch.is_whitespace())
        .collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != c.inputs.len() {
        return Err(c.attr_err(
            "equation",
            format!("{} terms for {} inputs", terms.len(), c.inputs.len()),
        ));
    }
    let inputs: Vec<&Tensor> = (0..terms.len())
        .map(|i| c.input(i))
        .collect::<Result<_>>()?;
    let dt = inputs[0].dtype();
    for (i, t) in inputs.iter().enumerate() {
        if t.dtype() != dt || dt == onnc_tensor::DType::Bool {
            return Err(c.type_err(i, format!("a numeric type like input 0 ({dt})"), t.dtype()));
        }
    }
    // Ellipsis rank: the largest any input gives it.
    let ell = terms
        .iter()
        .zip(&inputs)
        .filter(|(t, _)| t.contains("..."))
        .map(|(t, x)| x.rank().saturating_sub(t.replace("...", "").len()))
        .max()
        .unwrap_or(0);
    let labels: Vec<Labels> = terms
        .iter()
        .zip(&inputs)
        .map(|(t, x)| term(c, t, Some(x.rank()), ell))
        .collect::<Result<_>>()?;
    // Extent of every label; ellipsis dims broadcast (1 stretches).
    let mut size: std::collections::BTreeMap<u16, usize> = Default::default();
    for (i, (ls, x)) in labels.iter().zip(&inputs).enumerate() {
        for (&l, &d) in ls.iter().zip(x.shape()) {
            let e = size.entry(l).or_insert(d);
            if *e != d {
                if l >= 256 && (*e == 1 || d == 1) {
                    *e = (*e).max(d);
                } else {
                    return Err(c.shape_err(
                        i,
                        format!("extent {} for label `{}`", e, l as u8 as char),
                        x.shape(),
                    ));
                }
            }
        }
    }
    let out_labels: Labels = match &rhs {
        Some(r) => {
            let v = term(c, r, None, ell)?;
            if let Some(l) = v.iter().find(|l| !size.contains_key(l)) {
                return Err(c.attr_err(
                    "equation",
                    format!("output label `{}` is not in any input", *l as u8 as char),
                ));
            }
            v
        }
        None => {
            let mut v: Labels = (0..ell as u16).map(|k| 256 + k).collect();
            let mut once: Vec<u16> = size
                .keys()
                .copied()
                .filter(|&l| l < 256 && labels.iter().flatten().filter(|&&m| m == l).count() == 1)
                .collect();
            once.sort_unstable();
            v.extend(once);
            v
        }
    };
    let sum_labels: Labels = size
        .keys()
        .copied()
        .filter(|l| !out_labels.contains(l))
        .collect();
    let all: Labels = out_labels.iter().chain(&sum_labels).copied().collect();
    let shape: Vec<usize> = out_labels.iter().map(|l| size[l]).collect();
    c.checked_numel(&shape, 0)?;
    // For each input, the stride of each label position in `all` (0 when broadcast or absent).
    let vals: Vec<Vec<f64>> = inputs.iter().map(|x| x.data().to_f64_vec()).collect();
    let st: Vec<Vec<usize>> = labels
        .iter()
        .zip(&inputs)
        .map(|(ls, x)| {
            let xs = strides(x.shape());
            all.iter()
                .map(|l| {
                    ls.iter()
                        .zip(&xs)
                        .zip(x.shape())
                        .filter(|((m, _), &d)| *m == l && d != 1)
                        .map(|((_, &s), _)| s)
                        .sum()
                })
                .collect()
        })
        .collect();
    let extents: Vec<usize> = all.iter().map(|l| size[l]).collect();
    let n_out: usize = shape.iter().product();
    let n_sum: usize = sum_labels.iter().map(|l| size[l]).product();
    let k = out_labels.len();
    let mut y = vec![0f64; n_out];
    let mut pos = vec![0usize; all.len()];
    for (o, slot) in y.iter_mut().enumerate() {
        let mut rem = o;
        for d in (0..k).rev() {
            pos[d] = rem % extents[d];
            rem /= extents[d];
        }
        let mut acc = 0f64;
        for s in 0..n_sum {
            let mut rem = s;
            for d in (k..all.len()).rev() {
                pos[d] = rem % extents[d];
                rem /= extents[d];
            }
            let mut prod = 1f64;
            for (v, sv) in vals.iter().zip(&st) {
                prod *= v[pos.iter().zip(sv).map(|(p, s)| p * s).sum::<usize>()];
            }
            acc += prod;
        }
        *slot = acc;
    }
    Ok(vec![out(shape, Data::from_f64s(dt, &y))?])
}
