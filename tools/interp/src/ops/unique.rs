//! `Unique`: the distinct elements (no `axis`: of the flattened input) or
//! distinct slices along `axis`, sorted ascending (`sorted` = 1,
//! lexicographic for slices) or in order of first occurrence.
//!
//! In: a numeric tensor. Out: `Y`, and int64 `indices` (first occurrence),
//! `inverse_indices` (per element/slice, its position in `Y`) and `counts`,
//! as many as the node requests.
//! Example: `Unique([2, 1, 2]) = [1, 2]`, indices `[1, 0]`, inverse `[1, 0, 1]`, counts `[1, 2]`.

use crate::call::{out, Call};
use crate::layout::take_data;
use crate::Result;
use onnc_tensor::{Data, Tensor};
use std::cmp::Ordering;

/// `Unique`.
pub(crate) fn unique(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let axis = if c.has("axis") {
        Some(c.axis("axis", c.int("axis", 0)?, x.rank())?)
    } else {
        None
    };
    let sorted = c.int("sorted", 1)? != 0;
    let v = x.data().to_f64_vec();
    // Each candidate as the flat indices of its elements.
    let (count, outer, dim, inner) = match axis {
        None => (x.numel(), 1, x.numel(), 1),
        Some(a) => {
            let outer: usize = x.shape()[..a].iter().product();
            let inner: usize = x.shape()[a + 1..].iter().product();
            (x.shape()[a], outer, x.shape()[a], inner)
        }
    };
    let slice = |s: usize| -> Vec<usize> {
        (0..outer)
            .flat_map(|o| (0..inner).map(move |i| (o * dim + s) * inner + i))
            .collect()
    };
    let cmp = |a: usize, b: usize| -> Ordering {
        slice(a)
            .iter()
            .zip(slice(b))
            .map(|(&p, q)| v[p].total_cmp(&v[q]))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    // First occurrences in input order, then (optionally) sorted.
    let mut firsts: Vec<usize> = Vec::new();
    let mut inverse = vec![0usize; count];
    let mut counts: Vec<i64> = Vec::new();
    for (s, inv) in inverse.iter_mut().enumerate() {
        match firsts.iter().position(|&f| cmp(f, s).is_eq()) {
            Some(k) => {
                *inv = k;
                counts[k] += 1;
            }
            None => {
                *inv = firsts.len();
                firsts.push(s);
                counts.push(1);
            }
        }
    }
    let mut order: Vec<usize> = (0..firsts.len()).collect();
    if sorted {
        order.sort_by(|&a, &b| cmp(firsts[a], firsts[b]));
    }
    let mut rank = vec![0usize; order.len()];
    for (new, &old) in order.iter().enumerate() {
        rank[old] = new;
    }
    let chosen: Vec<usize> = order.iter().map(|&k| firsts[k]).collect();
    let (idx, shape): (Vec<usize>, Vec<usize>) = match axis {
        None => (chosen.clone(), vec![chosen.len()]),
        Some(a) => {
            let mut shape = x.shape().to_vec();
            shape[a] = chosen.len();
            let idx = (0..outer)
                .flat_map(|o| {
                    chosen
                        .iter()
                        .flat_map(move |&s| (0..inner).map(move |i| (o * dim + s) * inner + i))
                })
                .collect();
            (idx, shape)
        }
    };
    let n = chosen.len();
    let mut outs = vec![out(shape, take_data(x.data(), &idx))?];
    let want = c.num_outputs.unwrap_or(1);
    if want >= 2 {
        outs.push(out(
            vec![n],
            Data::I64(chosen.iter().map(|&s| s as i64).collect()),
        )?);
    }
    if want >= 3 {
        outs.push(out(
            vec![count],
            Data::I64(inverse.iter().map(|&k| rank[k] as i64).collect()),
        )?);
    }
    if want >= 4 {
        outs.push(out(
            vec![n],
            Data::I64(order.iter().map(|&k| counts[k]).collect()),
        )?);
    }
    Ok(outs)
}
