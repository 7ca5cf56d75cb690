//! `Trilu`: keeps the upper (`upper` = 1) or lower triangle of the last two
//! dimensions, offset by the optional scalar `k` input (default 0).
//!
//! In: `input [..., N, M]` of any type, optional int64 `k`. Out: like the
//! input, other elements zero.
//! Example: `Trilu{upper=1}([[1, 2], [3, 4]]) = [[1, 2], [0, 4]]`.

use crate::call::{out, Call};
use crate::layout::{take_data_or, FILL};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Trilu`.
pub(crate) fn trilu(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2", x.shape()));
    }
    let k = c
        .ints_input(1)?
        .and_then(|v| v.first().copied())
        .unwrap_or(0);
    let upper = c.int("upper", 1)? != 0;
    let (n, m) = (x.shape()[x.rank() - 2], x.shape()[x.rank() - 1]);
    let idx: Vec<usize> = (0..x.numel())
        .map(|f| {
            let (i, j) = (((f / m.max(1)) % n.max(1)) as i64, (f % m.max(1)) as i64);
            let keep = if upper { j - i >= k } else { j - i <= k };
            if keep {
                f
            } else {
                FILL
            }
        })
        .collect();
    let zero = Data::from_f64s(x.dtype(), &[0.0]);
    Ok(vec![out(
        x.shape().to_vec(),
        take_data_or(x.data(), &idx, &zero),
    )?])
}
