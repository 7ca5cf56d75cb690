//! `Attention` (opset 23+): scaled dot-product attention with multi-head
//! and grouped-query heads, boolean or additive `attn_mask`, `is_causal`,
//! past key/value caches, `nonpad_kv_seqlen`, sliding windows,
//! `softcap` and `qk_matmul_output_mode`.
//!
//! In: `Q`, `K`, `V` as `[B, heads, seq, head]` or `[B, seq, hidden]` (3-D:
//! `q_num_heads`/`kv_num_heads` split the hidden size); optional
//! `attn_mask` (broadcast to `[B, heads, q, kv]`; shorter kv padded as
//! masked), `past_key`, `past_value`, `nonpad_kv_seqlen`.
//! Out: `Y` (like `Q`'s form), `present_key`, `present_value`,
//! `qk_matmul_output` (`[B, heads, q, kv]`).
//! Rows with every key masked give zeros. Computed in f64 with direct loops.
//! Example: one query and one key give `Y = V`.

use crate::call::{out, Call};
use crate::layout::{broadcast_index, broadcasts_to};
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// A `[B, H, S, D]` view of an input, reshaped from 3-D when needed.
struct Heads {
    v: Vec<f64>,
    b: usize,
    h: usize,
    s: usize,
    d: usize,
}

impl Heads {
    fn at(&self, b: usize, h: usize, s: usize, d: usize) -> f64 {
        self.v[((b * self.h + h) * self.s + s) * self.d + d]
    }
}

fn heads(c: &Call, i: usize, n_heads: Option<usize>) -> Result<Heads> {
    let t = c.input(i)?;
    if !t.dtype().is_float() {
        return Err(c.type_err(i, "a float type", t.dtype()));
    }
    let v = t.data().to_f64_vec();
    match (t.rank(), n_heads) {
        (4, _) => {
            let s = t.shape();
            Ok(Heads {
                v,
                b: s[0],
                h: s[1],
                s: s[2],
                d: s[3],
            })
        }
        (3, Some(h)) if h > 0 && t.shape()[2] % h == 0 => {
            let (b, s, hid) = (t.shape()[0], t.shape()[1], t.shape()[2]);
            let d = hid / h;
            let idx = crate::layout::transpose_index(&[b, s, h, d], &[0, 2, 1, 3]);
            Ok(Heads {
                v: idx.iter().map(|&k| v[k]).collect(),
                b,
                h,
                s,
                d,
            })
        }
        (3, _) => Err(c.attr_err(
            "q_num_heads",
            "3-D inputs need q_num_heads and kv_num_heads dividing the hidden size",
        )),
        _ => Err(c.shape_err(i, "rank 3 or 4", t.shape())),
    }
}

/// `Attention`.
pub(crate) fn attention(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 7)?;
    let q_in = c.input(0)?;
    let three_d = q_in.rank() == 3;
    let qn = c
        .has("q_num_heads")
        .then(|| c.int("q_num_heads", 0))
        .transpose()?
        .map(|v| v.max(0) as usize);
    let kvn = c
        .has("kv_num_heads")
        .then(|| c.int("kv_num_heads", 0))
        .transpose()?
        .map(|v| v.max(0) as usize);
    let q = heads(c, 0, qn)?;
    let mut k = heads(c, 1, kvn)?;
    let mut v = heads(c, 2, kvn)?;
    if k.b != q.b
        || v.b != q.b
        || k.h != v.h
        || k.s != v.s
        || k.d != q.d
        || k.h == 0
        || q.h % k.h != 0
    {
        return Err(c.shape_err(
            1,
            format!(
                "batch {}, heads dividing {}, head size {} (and V matching K)",
                q.b, q.h, q.d
            ),
            c.input(1)?.shape(),
        ));
    }
    // Caches: present = concat(past, new) along the sequence.
    let past_len = match (c.opt(4), c.opt(5)) {
        (Some(pk), Some(pv)) => {
            let want = [k.b, k.h, pk.shape().get(2).copied().unwrap_or(0), k.d];
            if pk.shape() != want || pv.shape() != [v.b, v.h, want[2], v.d] {
                return Err(c.shape_err(4, format!("{want:?} (and past_value alike)"), pk.shape()));
            }
            let cat = |past: &Tensor, new: &Heads| -> Heads {
                let (pv, ps) = (past.data().to_f64_vec(), want[2]);
                let s = ps + new.s;
                let mut out = Vec::with_capacity(new.b * new.h * s * new.d);
                for b in 0..new.b {
                    for h in 0..new.h {
                        out.extend_from_slice(
                            &pv[(b * new.h + h) * ps * new.d..(b * new.h + h + 1) * ps * new.d],
                        );
                        out.extend_from_slice(
                            &new.v[(b * new.h + h) * new.s * new.d
                                ..(b * new.h + h + 1) * new.s * new.d],
                        );
                    }
                }
                Heads {
                    v: out,
                    b: new.b,
                    h: new.h,
                    s,
                    d: new.d,
                }
            };
            k = cat(pk, &k);
            v = cat(pv, &v);
            want[2]
        }
        (None, None) => 0,
        _ => return Err(c.attr_err("past_key", "past_key and past_value must be given together")),
    };
    let (nb, nh, nq, nkv) = (q.b, q.h, q.s, k.s);
    let nonpad = c.ints_input(6)?;
    if let Some(np) = &nonpad {
        if np.len() != nb {
            return Err(c.shape_err(6, format!("[{nb}]"), c.input(6)?.shape()));
        }
    }
    let scale = match c.has("scale") {
        true => c.float("scale", 1.0)? as f64,
        false => 1.0 / (q.d as f64).sqrt(),
    };
    let causal = c.int("is_causal", 0)? != 0;
    let softcap = c.float("softcap", 0.0)? as f64;
    let mode = c.int("qk_matmul_output_mode", 0)?;
    let (left, right) = (
        c.int("left_window_size", -1)?,
        c.int("right_window_size", -1)?,
    );
    // The mask as an additive bias broadcast to [B, H, q, kv] (kv padded as masked).
    let full = [nb, nh, nq, nkv];
    let mask: Option<Vec<f64>> = match c.opt(3) {
        None => None,
        Some(m) => {
            let mut shape = m.shape().to_vec();
            let last = shape.last().copied().unwrap_or(0);
            if m.rank() < 1 || last > nkv {
                return Err(c.shape_err(3, format!("broadcastable to {full:?}"), m.shape()));
            }
            let raw: Vec<f64> = match m.data() {
                Data::Bool(b) => b
                    .iter()
                    .map(|&x| if x != 0 { 0.0 } else { f64::NEG_INFINITY })
                    .collect(),
                d if m.dtype().is_float() => d.to_f64_vec(),
                _ => return Err(c.type_err(3, "bool or float", m.dtype())),
            };
            // Pad the key axis to nkv with masked entries.
            let rows = raw.len() / last.max(1);
            let mut padded = Vec::with_capacity(rows * nkv);
            for r in 0..rows {
                padded.extend_from_slice(&raw[r * last..(r + 1) * last]);
                padded.extend(std::iter::repeat_n(f64::NEG_INFINITY, nkv - last));
            }
            *shape.last_mut().expect("rank ≥ 1") = nkv;
            if !broadcasts_to(&shape, &full) {
                return Err(c.shape_err(3, format!("broadcastable to {full:?}"), m.shape()));
            }
            Some(
                broadcast_index(&shape, &full)
                    .into_iter()
                    .map(|i| padded[i])
                    .collect(),
            )
        }
    };
    let offset = |b: usize| -> i64 {
        match (&nonpad, past_len) {
            (Some(np), 0) => np[b] - nq as i64,
            _ => past_len as i64,
        }
    };
    let rep = nh / k.h;
    let mut y = vec![0f64; nb * nh * nq * v.d];
    let mut qk_out = vec![0f64; nb * nh * nq * nkv];
    let mut row = vec![0f64; nkv];
    let mut bias = vec![0f64; nkv];
    for b in 0..nb {
        for h in 0..nh {
            let kh = h / rep;
            for i in 0..nq {
                for j in 0..nkv {
                    let mut bj = mask
                        .as_ref()
                        .map_or(0.0, |m| m[((b * nh + h) * nq + i) * nkv + j]);
                    let diff = i as i64 + offset(b) - j as i64;
                    if causal && diff < 0 {
                        bj = f64::NEG_INFINITY;
                    }
                    if (left >= 0 && diff > left) || (right >= 0 && -diff > right) {
                        bj = f64::NEG_INFINITY;
                    }
                    if nonpad.as_ref().is_some_and(|np| j as i64 >= np[b]) {
                        bj = f64::NEG_INFINITY;
                    }
                    bias[j] = bj;
                    let dot: f64 = (0..q.d)
                        .map(|t| q.at(b, h, i, t) * k.at(b, kh, j, t))
                        .sum::<f64>()
                        * scale;
                    row[j] = if softcap > 0.0 {
                        (dot / softcap).tanh() * softcap
                    } else {
                        dot
                    };
                }
                let at = ((b * nh + h) * nq + i) * nkv;
                if mode == 0 || mode == 1 {
                    qk_out[at..at + nkv].copy_from_slice(&row);
                }
                for j in 0..nkv {
                    row[j] += bias[j];
                }
                if mode == 2 {
                    qk_out[at..at + nkv].copy_from_slice(&row);
                }
                let all_masked = bias.iter().all(|&x| x == f64::NEG_INFINITY);
                let mx = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let mx = if mx == f64::NEG_INFINITY { 0.0 } else { mx };
                let sum: f64 = row.iter().map(|&x| (x - mx).exp()).sum();
                let sum = if sum == 0.0 { 1.0 } else { sum };
                for x in row.iter_mut() {
                    *x = if all_masked {
                        0.0
                    } else {
                        (*x - mx).exp() / sum
                    };
                }
                if mode == 3 {
                    qk_out[at..at + nkv].copy_from_slice(&row);
                }
                for t in 0..v.d {
                    y[((b * nh + h) * nq + i) * v.d + t] =
                        (0..nkv).map(|j| row[j] * v.at(b, kh, j, t)).sum();
                }
            }
        }
    }
    let dt: DType = q_in.dtype();
    let (y, yshape) = if three_d {
        let idx = crate::layout::transpose_index(&[nb, nh, nq, v.d], &[0, 2, 1, 3]);
        (idx.iter().map(|&i| y[i]).collect(), vec![nb, nq, nh * v.d])
    } else {
        (y, vec![nb, nh, nq, v.d])
    };
    let mut outs = vec![out(yshape, Data::from_f64s(dt, &y))?];
    let n_out = c.num_outputs.unwrap_or(1);
    if n_out >= 2 {
        outs.push(out(vec![k.b, k.h, k.s, k.d], Data::from_f64s(dt, &k.v))?);
        outs.push(out(vec![v.b, v.h, v.s, v.d], Data::from_f64s(dt, &v.v))?);
    }
    if n_out >= 4 {
        outs.push(out(vec![nb, nh, nq, nkv], Data::from_f64s(dt, &qk_out))?);
    }
    Ok(outs)
}
