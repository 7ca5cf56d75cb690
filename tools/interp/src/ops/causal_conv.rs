//! `CausalConvWithState`: a depthwise causal 1-D convolution that carries
//! its left context between calls, with an optional SiLU.
//!
//! In: `input [B, C, L]`, `weight [C, 1, K]`, optional `bias [C]` and
//! `past_state [B, C, K−1]` (zeros when absent); `activation` = `none` |
//! `silu` | `swish`. Out: `output [B, C, L]` and `present_state [B, C, K−1]`
//! (the last K−1 steps of past ++ input).
//! Example: K = 1 with weight 2 doubles the input; the state is empty.

use super::conv::{conv_compute, ConvPlan};
use super::window::Window;
use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `CausalConvWithState`.
pub(crate) fn causal_conv_with_state(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 4)?;
    let (x, w) = (c.input(0)?, c.input(1)?);
    if x.rank() != 3 || !x.dtype().is_float() {
        return Err(c.shape_err(0, "float [B, C, L]", x.shape()));
    }
    let (nb, ch, len) = (x.shape()[0], x.shape()[1], x.shape()[2]);
    if w.rank() != 3 || w.shape()[0] != ch || w.shape()[1] != 1 || w.shape()[2] == 0 {
        return Err(c.shape_err(1, format!("[{ch}, 1, K]"), w.shape()));
    }
    let k = w.shape()[2];
    let act = c.string("activation", "none")?;
    if !matches!(act, "none" | "silu" | "swish") {
        return Err(c.attr_err(
            "activation",
            format!("expected none, silu or swish, got `{act}`"),
        ));
    }
    let bias = match c.opt(2) {
        None => None,
        Some(b) if b.shape() == [ch] => Some(b.data().to_f64_vec()),
        Some(b) => return Err(c.shape_err(2, format!("[{ch}]"), b.shape())),
    };
    let past = match c.opt(3) {
        None => vec![0.0; nb * ch * (k - 1)],
        Some(p) if p.shape() == [nb, ch, k - 1] => p.data().to_f64_vec(),
        Some(p) => return Err(c.shape_err(3, format!("[{nb}, {ch}, {}]", k - 1), p.shape())),
    };
    let xv = x.data().to_f64_vec();
    let total = len + k - 1;
    let mut padded = Vec::with_capacity(nb * ch * total);
    for p in 0..nb * ch {
        padded.extend_from_slice(&past[p * (k - 1)..(p + 1) * (k - 1)]);
        padded.extend_from_slice(&xv[p * len..(p + 1) * len]);
    }
    let win = Window {
        kernel: vec![k],
        strides: vec![1],
        dilations: vec![1],
        pad_begin: vec![0],
        pad_end: vec![0],
        input: vec![total],
        output: vec![len],
    };
    let plan = ConvPlan {
        n: nb,
        cin: ch,
        m: ch,
        groups: ch,
        win,
    };
    let mut y = conv_compute(&padded, &w.data().to_f64_vec(), bias.as_deref(), &plan);
    if act != "none" {
        y.iter_mut()
            .for_each(|v| *v *= super::activation::sigmoid_f64(*v));
    }
    let mut state = Vec::with_capacity(nb * ch * (k - 1));
    for p in 0..nb * ch {
        state.extend_from_slice(&padded[p * total + len..(p + 1) * total]);
    }
    let dt = x.dtype();
    Ok(vec![
        out(vec![nb, ch, len], Data::from_f64s(dt, &y))?,
        out(vec![nb, ch, k - 1], Data::from_f64s(dt, &state))?,
    ])
}
