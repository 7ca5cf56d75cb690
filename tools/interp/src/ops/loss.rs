//! Losses: `NegativeLogLikelihoodLoss` and `SoftmaxCrossEntropyLoss`, with
//! optional class `weight`s, `ignore_index` and `reduction`
//! (`none` | `sum` | `mean`, default `mean`: divided by the summed weights
//! of the counted targets).
//!
//! In: scores/log-probabilities `[N, C, d…]` (float), int targets `[N, d…]`,
//! optional `weight [C]`. Out: the loss (and for `SoftmaxCrossEntropyLoss`
//! with two outputs, the log-probabilities).
//! Example: `NegativeLogLikelihoodLoss([[−1, −2]], target=[1], reduction=sum) = 2`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Shared core: `-logp[n, t, d] · w[t]` per target, then the reduction.
fn nll(c: &Call, logp: &[f64], shape: &[usize], dt: onnc_tensor::DType) -> Result<Tensor> {
    let target = c.input(1)?;
    let tv = c.ints_input(1)?.unwrap_or_default();
    if shape.len() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", shape));
    }
    let (n, cl) = (shape[0], shape[1]);
    let inner: usize = shape[2..].iter().product();
    let mut want = vec![n];
    want.extend(&shape[2..]);
    if target.shape() != want.as_slice() {
        return Err(c.shape_err(1, format!("{want:?}"), target.shape()));
    }
    let w = match c.opt(2) {
        None => None,
        Some(t) if t.shape() == [cl] && t.dtype().is_float() => Some(t.data().to_f64_vec()),
        Some(t) => return Err(c.shape_err(2, format!("[{cl}] floats"), t.shape())),
    };
    let ignore = c
        .has("ignore_index")
        .then(|| c.int("ignore_index", 0))
        .transpose()?;
    let mut loss = vec![0f64; n * inner];
    let mut wsum = 0f64;
    for b in 0..n {
        for i in 0..inner {
            let t = tv[b * inner + i];
            if Some(t) == ignore {
                continue;
            }
            if t < 0 || t as usize >= cl {
                return Err(c.shape_err(
                    1,
                    format!("targets in 0..{cl} (found {t})"),
                    target.shape(),
                ));
            }
            let t = t as usize;
            let wt = w.as_ref().map_or(1.0, |w| w[t]);
            loss[b * inner + i] = -logp[(b * cl + t) * inner + i] * wt;
            wsum += wt;
        }
    }
    match c.string("reduction", "mean")? {
        "none" => out(want, Data::from_f64s(dt, &loss)),
        "sum" => out(vec![], Data::from_f64s(dt, &[loss.iter().sum()])),
        "mean" => out(
            vec![],
            Data::from_f64s(dt, &[loss.iter().sum::<f64>() / wsum]),
        ),
        other => Err(c.attr_err("reduction", format!("unknown value `{other}`"))),
    }
}

/// `NegativeLogLikelihoodLoss`.
pub(crate) fn nll_loss(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let x = c.input(0)?;
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    Ok(vec![nll(c, &x.data().to_f64_vec(), x.shape(), x.dtype())?])
}

/// `SoftmaxCrossEntropyLoss`: log-softmax over axis 1, then the NLL loss.
pub(crate) fn softmax_cross_entropy(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 3)?;
    let x = c.input(0)?;
    if !x.dtype().is_float() {
        return Err(c.type_err(0, "a float type", x.dtype()));
    }
    if x.rank() < 2 {
        return Err(c.shape_err(0, "rank ≥ 2 ([N, C, …])", x.shape()));
    }
    let v = x.data().to_f64_vec();
    let (n, cl) = (x.shape()[0], x.shape()[1]);
    let inner: usize = x.shape()[2..].iter().product();
    let mut logp = vec![0f64; v.len()];
    for b in 0..n {
        for i in 0..inner {
            let at = |k: usize| (b * cl + k) * inner + i;
            let mx = (0..cl).map(|k| v[at(k)]).fold(f64::NEG_INFINITY, f64::max);
            let lse = (0..cl).map(|k| (v[at(k)] - mx).exp()).sum::<f64>().ln() + mx;
            for k in 0..cl {
                logp[at(k)] = v[at(k)] - lse;
            }
        }
    }
    let mut outs = vec![nll(c, &logp, x.shape(), x.dtype())?];
    if c.num_outputs.unwrap_or(1) >= 2 {
        outs.push(out(x.shape().to_vec(), Data::from_f64s(x.dtype(), &logp))?);
    }
    Ok(outs)
}
