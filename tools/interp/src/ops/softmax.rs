//! `Softmax`, `LogSoftmax`, `Hardmax`.
//!
//! In: `X` (f32, f64 or f16; computed in f64). Out: `Y` like `X`.
//!
//! Semantics depend on the opset the node was written against (the `opset`
//! of [`crate::OpOptions`]; [`crate::run_op`] uses the latest):
//! - opset ≥ 13: normalize along `axis` (default −1) only;
//! - opset < 13: "coerce to 2D" — flatten to `[∏ dims < axis, ∏ dims ≥ axis]`
//!   (default `axis` = 1) and normalize each row.
//!
//! Example: `Softmax([0, ln 3]) = [0.25, 0.75]`.
//! Sums run in `f64`, in index order.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// The normalization to apply.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Soft,
    LogSoft,
    Hard,
}

/// `Softmax`, `LogSoftmax` or `Hardmax`.
pub(crate) fn softmax(c: &Call, kind: Kind) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    let xv = x.data().to_f64_vec();
    let legacy = c.opset < 13;
    let r = x.rank();
    let axis = c.int("axis", if legacy { 1 } else { -1 })?;
    let axis = if r == 0 { 0 } else { c.axis("axis", axis, r)? };
    let shape = x.shape();
    // Rows of `len` elements at stride `step`, `outer × step` of them.
    let (outer, len, step) = if legacy {
        (
            shape[..axis].iter().product::<usize>(),
            shape[axis..].iter().product::<usize>(),
            1,
        )
    } else if r == 0 {
        (1, 1, 1)
    } else {
        (
            shape[..axis].iter().product(),
            shape[axis],
            shape[axis + 1..].iter().product(),
        )
    };
    let mut y = vec![0f64; xv.len()];
    for o in 0..outer {
        for s in 0..step {
            let base = o * len * step + s;
            let at = |i: usize| base + i * step;
            let mut mx = f64::NEG_INFINITY;
            let mut arg = 0;
            for i in 0..len {
                if xv[at(i)] > mx {
                    mx = xv[at(i)];
                    arg = i;
                }
            }
            match kind {
                Kind::Hard => {
                    if len > 0 {
                        y[at(arg)] = 1.0;
                    }
                }
                Kind::Soft | Kind::LogSoft => {
                    let sum: f64 = (0..len).map(|i| (xv[at(i)] - mx).exp()).sum();
                    for i in 0..len {
                        let d = xv[at(i)] - mx;
                        y[at(i)] = if kind == Kind::Soft {
                            d.exp() / sum
                        } else {
                            d - sum.ln()
                        };
                    }
                }
            }
        }
    }
    Ok(vec![out(shape.to_vec(), Data::from_f64s(x.dtype(), &y))?])
}
