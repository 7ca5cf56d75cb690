//! `Concat`: joins tensors of one type along `axis` (negative counts from
//! the end); all other extents must agree.
//!
//! In: one or more tensors. Out: one tensor.
//! Example: `Concat{axis=0}([1, 2], [3]) = [1, 2, 3]`.

use crate::call::{out, Call};
use crate::elem::{map_data, Pick};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Concat`.
pub(crate) fn concat(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, usize::MAX)?;
    let first = c.input(0)?;
    let r = first.rank();
    if !c.has("axis") {
        return Err(c.attr_err("axis", "required"));
    }
    let axis = c.axis("axis", c.int("axis", 0)?, r)?;
    let mut parts = Vec::with_capacity(c.inputs.len());
    let mut total = 0;
    for i in 0..c.inputs.len() {
        let t = c.input(i)?;
        if t.dtype() != first.dtype() {
            return Err(c.type_err(i, first.dtype().to_string(), t.dtype()));
        }
        let same = t.rank() == r && (0..r).all(|d| d == axis || t.shape()[d] == first.shape()[d]);
        if !same {
            let mut want: Vec<String> = first.shape().iter().map(usize::to_string).collect();
            want[axis] = "*".into();
            return Err(c.shape_err(i, format!("[{}]", want.join(", ")), t.shape()));
        }
        total += t.shape()[axis];
        parts.push(t);
    }
    let outer: usize = first.shape()[..axis].iter().product();
    let inner: usize = first.shape()[axis + 1..].iter().product();
    fn go<T: Pick>(parts: &[&Tensor], outer: usize, inner: usize, axis: usize) -> Vec<T> {
        let slices: Vec<&[T]> = parts
            .iter()
            .map(|t| T::pick(t.data()).expect("dtypes checked"))
            .collect();
        let mut v = Vec::with_capacity(slices.iter().map(|s| s.len()).sum());
        for o in 0..outer {
            for (s, t) in slices.iter().zip(parts) {
                let chunk = t.shape()[axis] * inner;
                v.extend_from_slice(&s[o * chunk..(o + 1) * chunk]);
            }
        }
        v
    }
    let data = map_data!(first.data(), _v => go(&parts, outer, inner, axis));
    let mut shape = first.shape().to_vec();
    shape[axis] = total;
    Ok(vec![out(shape, data)?])
}
