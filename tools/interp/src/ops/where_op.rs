//! `Where`: `condition ? X : Y` elementwise, all three broadcast together.
//!
//! In: bool `condition`, `X` and `Y` of one type. Out: the broadcast shape.
//! Example: `Where([1, 0], [1, 2], [9, 9]) = [1, 9]`.

use crate::call::{out, Call};
use crate::elem::{map_data, Pick};
use crate::layout::broadcast_index;
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Where`.
pub(crate) fn where_op(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 3)?;
    let (cond, x, y) = (c.input(0)?, c.input(1)?, c.input(2)?);
    let Data::Bool(cv) = cond.data() else {
        return Err(c.type_err(0, "bool", cond.dtype()));
    };
    if x.dtype() != y.dtype() {
        return Err(c.type_err(2, x.dtype().to_string(), y.dtype()));
    }
    let s = c.broadcast(cond.shape(), x.shape(), 1)?;
    let shape = c.broadcast(&s, y.shape(), 2)?;
    let ic = broadcast_index(cond.shape(), &shape);
    let ix = broadcast_index(x.shape(), &shape);
    let iy = broadcast_index(y.shape(), &shape);
    fn go<T: Pick>(
        xv: &[T],
        y: &Data,
        cv: &[u8],
        ic: &[usize],
        ix: &[usize],
        iy: &[usize],
    ) -> Vec<T> {
        let yv = T::pick(y).expect("dtypes checked");
        (0..ic.len())
            .map(|i| if cv[ic[i]] != 0 { xv[ix[i]] } else { yv[iy[i]] })
            .collect()
    }
    let data = map_data!(x.data(), v => go(v, y.data(), cv, &ic, &ix, &iy));
    Ok(vec![out(shape, data)?])
}
