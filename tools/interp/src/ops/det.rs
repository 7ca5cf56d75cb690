//! `Det`: determinants of square matrices by LU decomposition with partial
//! pivoting, in f64.
//!
//! In: float `X [..., M, M]`. Out: `[...]`.
//! Example: `Det([[1, 2], [3, 4]]) = −2`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `Det`.
pub(crate) fn det(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(1, 1)?;
    let x = c.input(0)?;
    let r = x.rank();
    if r < 2 || x.shape()[r - 1] != x.shape()[r - 2] || !x.dtype().is_float() {
        return Err(c.shape_err(0, "float [..., M, M]", x.shape()));
    }
    let m = x.shape()[r - 1];
    let count: usize = x.shape()[..r - 2].iter().product();
    if m == 0 {
        return Ok(vec![out(
            x.shape()[..r - 2].to_vec(),
            Data::from_f64s(x.dtype(), &vec![1.0; count]),
        )?]);
    }
    let v = x.data().to_f64_vec();
    let dets: Vec<f64> = v
        .chunks(m * m)
        .map(|a| {
            let mut a = a.to_vec();
            let mut det = 1.0;
            for col in 0..m {
                let p = (col..m)
                    .max_by(|&i, &j| a[i * m + col].abs().total_cmp(&a[j * m + col].abs()))
                    .unwrap_or(col);
                if a[p * m + col] == 0.0 {
                    return 0.0;
                }
                if p != col {
                    for k in 0..m {
                        a.swap(p * m + k, col * m + k);
                    }
                    det = -det;
                }
                let piv = a[col * m + col];
                det *= piv;
                for i in col + 1..m {
                    let f = a[i * m + col] / piv;
                    for k in col..m {
                        a[i * m + k] -= f * a[col * m + k];
                    }
                }
            }
            det
        })
        .collect();
    Ok(vec![out(
        x.shape()[..r - 2].to_vec(),
        Data::from_f64s(x.dtype(), &dets),
    )?])
}
