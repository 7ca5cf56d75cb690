//! Recurrent layers `RNN`, `GRU` (`linear_before_reset`) and `LSTM`
//! (peepholes), forward / reverse / bidirectional, with `sequence_lens`,
//! `clip`, `layout` and the ONNX activation functions.
//!
//! In: `X [seq, batch, input]` (`layout` = 1: `[batch, seq, input]`),
//! `W [dirs, G·hidden, input]`, `R [dirs, G·hidden, hidden]`, optional
//! `B [dirs, 2·G·hidden]`, `sequence_lens [batch]`, `initial_h` (LSTM also
//! `initial_c` and `P [dirs, 3·hidden]`). Gates: RNN `i`; GRU `z, r, h`;
//! LSTM `i, o, f, c`.
//! Out: `Y [seq, dirs, batch, hidden]`, `Y_h [dirs, batch, hidden]` (LSTM
//! also `Y_c`); layout 1 puts batch first. Steps past a sequence's length
//! give zeros in `Y` and leave the state unchanged.
//! Computed in f64 with direct loops (a reference, not a fast path).
//! Example: an RNN with zero weights and bias `b` outputs `tanh(b)` each step.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// Which layer.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Cell {
    Rnn,
    Gru,
    Lstm,
}

impl Cell {
    fn gates(self) -> usize {
        match self {
            Cell::Rnn => 1,
            Cell::Gru => 3,
            Cell::Lstm => 4,
        }
    }
    fn defaults(self) -> &'static [&'static str] {
        match self {
            Cell::Rnn => &["Tanh"],
            Cell::Gru => &["Sigmoid", "Tanh"],
            Cell::Lstm => &["Sigmoid", "Tanh", "Tanh"],
        }
    }
}

/// An activation with its `alpha`/`beta`.
#[derive(Clone, Copy)]
struct Act {
    kind: u8,
    alpha: f64,
    beta: f64,
}

impl Act {
    fn apply(self, x: f64) -> f64 {
        let (a, b) = (self.alpha, self.beta);
        match self.kind {
            b'r' => x.max(0.0),
            b't' => x.tanh(),
            b's' => 1.0 / (1.0 + (-x).exp()),
            b'a' => a * x + b,
            b'l' => {
                if x < 0.0 {
                    a * x
                } else {
                    x
                }
            }
            b'T' => {
                if x > a {
                    x
                } else {
                    0.0
                }
            }
            b'S' => a * (b * x).tanh(),
            b'h' => (a * x + b).clamp(0.0, 1.0),
            b'e' => {
                if x < 0.0 {
                    a * (x.exp() - 1.0)
                } else {
                    x
                }
            }
            b'o' => x / (1.0 + x.abs()),
            _ => x.exp().ln_1p(),
        }
    }
}

/// Parses `activations` with their `activation_alpha`/`activation_beta`.
fn activations(c: &Call, cell: Cell, dirs: usize) -> Result<Vec<Act>> {
    let names: Vec<String> = match c.attrs.get("activations") {
        Some(onnc_tensor::Attr::Strings(v)) => v.clone(),
        Some(_) => return Err(c.attr_err("activations", "expected a list of strings")),
        None => (0..dirs)
            .flat_map(|_| cell.defaults().iter().map(|s| s.to_string()))
            .collect(),
    };
    if names.len() != cell.defaults().len() * dirs {
        return Err(c.attr_err(
            "activations",
            format!(
                "expected {} names, got {}",
                cell.defaults().len() * dirs,
                names.len()
            ),
        ));
    }
    let alphas = c.floats("activation_alpha")?.unwrap_or(&[]);
    let betas = c.floats("activation_beta")?.unwrap_or(&[]);
    let (mut ai, mut bi) = (0, 0);
    let next = |v: &[f32], i: &mut usize, d: f64| {
        let x = v.get(*i).map_or(d, |&x| x as f64);
        *i += 1;
        x
    };
    names
        .iter()
        .map(|n| {
            let (kind, da, db, uses_a, uses_b) = match n.to_ascii_lowercase().as_str() {
                "relu" => (b'r', 0.0, 0.0, false, false),
                "tanh" => (b't', 0.0, 0.0, false, false),
                "sigmoid" => (b's', 0.0, 0.0, false, false),
                "affine" => (b'a', 1.0, 0.0, true, true),
                "leakyrelu" => (b'l', 0.01, 0.0, true, false),
                "thresholdedrelu" => (b'T', 1.0, 0.0, true, false),
                "scaledtanh" => (b'S', 1.0, 1.0, true, true),
                "hardsigmoid" => (b'h', 0.2, 0.5, true, true),
                "elu" => (b'e', 1.0, 0.0, true, false),
                "softsign" => (b'o', 0.0, 0.0, false, false),
                "softplus" => (b'p', 0.0, 0.0, false, false),
                other => {
                    return Err(c.attr_err("activations", format!("unknown activation `{other}`")))
                }
            };
            let alpha = if uses_a {
                next(alphas, &mut ai, da)
            } else {
                da
            };
            let beta = if uses_b { next(betas, &mut bi, db) } else { db };
            Ok(Act { kind, alpha, beta })
        })
        .collect()
}

/// Float input `i` as f64s with an exact shape, or `None` when absent.
fn param(c: &Call, i: usize, shape: &[usize]) -> Result<Option<Vec<f64>>> {
    match c.opt(i) {
        None => Ok(None),
        Some(t) if t.shape() == shape && t.dtype().is_float() => Ok(Some(t.data().to_f64_vec())),
        Some(t) => Err(c.shape_err(i, format!("{shape:?} floats"), t.shape())),
    }
}

/// `RNN`, `GRU` or `LSTM`.
pub(crate) fn recurrent(c: &Call, cell: Cell) -> Result<Vec<Tensor>> {
    c.arity(3, if cell == Cell::Lstm { 8 } else { 6 })?;
    let x = c.input(0)?;
    if x.rank() != 3 || !x.dtype().is_float() {
        return Err(c.shape_err(0, "a rank-3 float tensor", x.shape()));
    }
    let layout = c.int("layout", 0)?;
    let (seq, batch, input) = if layout == 0 {
        (x.shape()[0], x.shape()[1], x.shape()[2])
    } else {
        (x.shape()[1], x.shape()[0], x.shape()[2])
    };
    let dir = c.string("direction", "forward")?;
    let dirs = match dir {
        "forward" | "reverse" => 1,
        "bidirectional" => 2,
        d => return Err(c.attr_err("direction", format!("unknown value `{d}`"))),
    };
    let g = cell.gates();
    let w = c.input(1)?;
    let hidden = match c.int("hidden_size", 0)? {
        h if h > 0 => h as usize,
        _ => w.shape().get(1).copied().unwrap_or(0) / g,
    };
    if c.int("input_forget", 0)? != 0 {
        return Err(c.unsupported("input_forget = 1"));
    }
    let wv = param(c, 1, &[dirs, g * hidden, input])?.unwrap_or_default();
    let rv = param(c, 2, &[dirs, g * hidden, hidden])?.unwrap_or_default();
    let bv =
        param(c, 3, &[dirs, 2 * g * hidden])?.unwrap_or_else(|| vec![0.0; dirs * 2 * g * hidden]);
    let lens: Vec<usize> = match c.ints_input(4)? {
        None => vec![seq; batch],
        Some(v) if v.len() == batch && v.iter().all(|&l| l >= 0 && l as usize <= seq) => {
            v.iter().map(|&l| l as usize).collect()
        }
        Some(_) => {
            return Err(c.shape_err(
                4,
                format!("[{batch}] lengths in 0..={seq}"),
                c.input(4)?.shape(),
            ))
        }
    };
    let state_shape = if layout == 0 {
        [dirs, batch, hidden]
    } else {
        [batch, dirs, hidden]
    };
    let h0 = param(c, 5, &state_shape)?;
    let c0 = if cell == Cell::Lstm {
        param(c, 6, &state_shape)?
    } else {
        None
    };
    let peep = if cell == Cell::Lstm {
        param(c, 7, &[dirs, 3 * hidden])?
    } else {
        None
    };
    let acts = activations(c, cell, dirs)?;
    let clip = c
        .has("clip")
        .then(|| c.float("clip", 0.0))
        .transpose()?
        .map(f64::from);
    let lbr = c.int("linear_before_reset", 0)? != 0;
    let xv = x.data().to_f64_vec();
    let xat = |t: usize, b: usize, k: usize| {
        if layout == 0 {
            xv[(t * batch + b) * input + k]
        } else {
            xv[(b * seq + t) * input + k]
        }
    };
    let st_at = |d: usize, b: usize| {
        if layout == 0 {
            (d * batch + b) * hidden
        } else {
            (b * dirs + d) * hidden
        }
    };
    let mut y = vec![0f64; seq * dirs * batch * hidden];
    let mut yh = vec![0f64; dirs * batch * hidden];
    let mut yc = vec![0f64; dirs * batch * hidden];
    let cl = |v: f64| clip.map_or(v, |k| v.clamp(-k, k));
    for d in 0..dirs {
        let reverse = dir == "reverse" || d == 1;
        let wd = &wv[d * g * hidden * input..(d + 1) * g * hidden * input];
        let rd = &rv[d * g * hidden * hidden..(d + 1) * g * hidden * hidden];
        let bd = &bv[d * 2 * g * hidden..(d + 1) * 2 * g * hidden];
        let a = &acts[d * cell.defaults().len()..(d + 1) * cell.defaults().len()];
        for b in 0..batch {
            let mut h: Vec<f64> = h0.as_ref().map_or(vec![0.0; hidden], |v| {
                v[st_at(d, b)..st_at(d, b) + hidden].to_vec()
            });
            let mut cs: Vec<f64> = c0.as_ref().map_or(vec![0.0; hidden], |v| {
                v[st_at(d, b)..st_at(d, b) + hidden].to_vec()
            });
            for s in 0..lens[b] {
                let t = if reverse { lens[b] - 1 - s } else { s };
                // Per gate: x·Wᵀ + Wb and h·Rᵀ + Rb.
                let mut xw = vec![0f64; g * hidden];
                let mut hr = vec![0f64; g * hidden];
                for j in 0..g * hidden {
                    xw[j] = (0..input)
                        .map(|k| xat(t, b, k) * wd[j * input + k])
                        .sum::<f64>()
                        + bd[j];
                    hr[j] = (0..hidden).map(|k| h[k] * rd[j * hidden + k]).sum::<f64>()
                        + bd[g * hidden + j];
                }
                let mut hn = vec![0f64; hidden];
                match cell {
                    Cell::Rnn => {
                        for j in 0..hidden {
                            hn[j] = a[0].apply(cl(xw[j] + hr[j]));
                        }
                    }
                    Cell::Gru => {
                        for j in 0..hidden {
                            let z = a[0].apply(cl(xw[j] + hr[j]));
                            let r = a[0].apply(cl(xw[hidden + j] + hr[hidden + j]));
                            let rec = if lbr {
                                r * hr[2 * hidden + j]
                            } else {
                                let rh: f64 = (0..hidden)
                                    .map(|k| {
                                        r_at(&xw, &hr, a[0], cl, hidden, k)
                                            * h[k]
                                            * rd[(2 * hidden + j) * hidden + k]
                                    })
                                    .sum();
                                rh + bd[g * hidden + 2 * hidden + j]
                            };
                            let hh = a[1].apply(cl(xw[2 * hidden + j] + rec));
                            hn[j] = (1.0 - z) * hh + z * h[j];
                        }
                    }
                    Cell::Lstm => {
                        let p = |k: usize, j: usize| {
                            peep.as_ref()
                                .map_or(0.0, |p| p[d * 3 * hidden + k * hidden + j])
                        };
                        for j in 0..hidden {
                            let i = a[0].apply(cl(xw[j] + hr[j] + p(0, j) * cs[j]));
                            let f = a[0].apply(cl(xw[2 * hidden + j]
                                + hr[2 * hidden + j]
                                + p(2, j) * cs[j]));
                            let cc = a[1].apply(cl(xw[3 * hidden + j] + hr[3 * hidden + j]));
                            let cn = f * cs[j] + i * cc;
                            let o = a[0].apply(cl(xw[hidden + j] + hr[hidden + j] + p(1, j) * cn));
                            hn[j] = o * a[2].apply(cn);
                            cs[j] = cn;
                        }
                    }
                }
                h = hn;
                let at = ((t * dirs + d) * batch + b) * hidden;
                y[at..at + hidden].copy_from_slice(&h);
            }
            let at = (d * batch + b) * hidden;
            yh[at..at + hidden].copy_from_slice(&h);
            yc[at..at + hidden].copy_from_slice(&cs);
        }
    }
    let dt = x.dtype();
    let (y, yh, yc, yshape, sshape) = if layout == 0 {
        (
            y,
            yh,
            yc,
            vec![seq, dirs, batch, hidden],
            vec![dirs, batch, hidden],
        )
    } else {
        // [seq, dirs, batch, h] → [batch, seq, dirs, h]; [dirs, batch, h] → [batch, dirs, h].
        let yi = crate::layout::transpose_index(&[seq, dirs, batch, hidden], &[2, 0, 1, 3]);
        let si = crate::layout::transpose_index(&[dirs, batch, hidden], &[1, 0, 2]);
        let pick = |v: &[f64], idx: &[usize]| idx.iter().map(|&i| v[i]).collect::<Vec<_>>();
        (
            pick(&y, &yi),
            pick(&yh, &si),
            pick(&yc, &si),
            vec![batch, seq, dirs, hidden],
            vec![batch, dirs, hidden],
        )
    };
    let mut outs = vec![
        out(yshape, Data::from_f64s(dt, &y))?,
        out(sshape.clone(), Data::from_f64s(dt, &yh))?,
    ];
    if cell == Cell::Lstm {
        outs.push(out(sshape, Data::from_f64s(dt, &yc))?);
    }
    Ok(outs)
}

/// The GRU reset gate for unit `k` (recomputed for the `linear_before_reset = 0` form).
fn r_at(xw: &[f64], hr: &[f64], f: Act, cl: impl Fn(f64) -> f64, hidden: usize, k: usize) -> f64 {
    f.apply(cl(xw[hidden + k] + hr[hidden + k]))
}
