//! `Transpose`: permutes dimensions (`perm` defaults to reversing them).
//!
//! In: `data` of any type. Out: output dim `i` is input dim `perm[i]`.
//! Example: `Transpose([[1, 2, 3]])` is `[[1], [2], [3]]`.

use crate::call::{out, Call};
use crate::layout::{take_data, transpose_index};
use crate::Result;
use onnc_tensor::Tensor;

/// `Transpose`.
pub(crate) fn transpose(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let r = x.rank();
    let perm: Vec<usize> = match c.ints("perm")? {
        None => (0..r).rev().collect(),
        Some(p) => {
            let mut seen = vec![false; r];
            let mut v = Vec::with_capacity(r);
            for &a in p {
                let a = c.axis("perm", a, r)?;
                if seen[a] {
                    return Err(c.attr_err("perm", format!("{p:?} is not a permutation of 0..{r}")));
                }
                seen[a] = true;
                v.push(a);
            }
            if v.len() != r {
                return Err(c.attr_err("perm", format!("{p:?} is not a permutation of 0..{r}")));
            }
            v
        }
    };
    let shape = perm.iter().map(|&p| x.shape()[p]).collect();
    let idx = transpose_index(x.shape(), &perm);
    Ok(vec![out(shape, take_data(x.data(), &idx))?])
}
