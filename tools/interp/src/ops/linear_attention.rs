//! `LinearAttention`: recurrent linear attention with a `[d_k, d_v]` state
//! per key/value head, updated step by step by `update_rule` — `linear`
//! (`S += k vᵀ`), `gated` (`S ← S·exp(decay)` first), `delta`
//! (`v ← beta·(v − Sᵀk)` first) or `gated_delta` (both; the default);
//! query heads read their group's state: `y = scale · Sᵀq`.
//!
//! In: `query [B, T, Hq·dk]`, `key [B, T, Hkv·dk]`, `value [B, T, Hkv·dv]`,
//! optional `past_state [B, Hkv, dk, dv]`, `decay [B, T, Hkv | Hkv·dk]`,
//! `beta [B, T, Hkv | 1]`. Out: `[B, T, Hq·dv]` and `present_state`.
//! Computed in f64. Example: one step of `linear` with q = k = 1 (dk = 1)
//! outputs `scale · v`.

use crate::call::{out, Call};
use crate::Result;
use onnc_tensor::{Data, Tensor};

/// `LinearAttention`.
pub(crate) fn linear_attention(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(3, 6)?;
    let rule = c.string("update_rule", "gated_delta")?;
    let (gating, delta) = match rule {
        "linear" => (false, false),
        "gated" => (true, false),
        "delta" => (false, true),
        "gated_delta" => (true, true),
        r => return Err(c.attr_err("update_rule", format!("unknown value `{r}`"))),
    };
    let hq = c.int("q_num_heads", 0)?;
    let hkv = c.int("kv_num_heads", 0)?;
    if hq < 1 || hkv < 1 || hq % hkv != 0 {
        return Err(c.attr_err(
            "q_num_heads",
            format!("q_num_heads ({hq}) must be a positive multiple of kv_num_heads ({hkv})"),
        ));
    }
    let (hq, hkv) = (hq as usize, hkv as usize);
    let (q, k, v) = (c.input(0)?, c.input(1)?, c.input(2)?);
    for (i, t) in [(0, q), (1, k), (2, v)] {
        if t.rank() != 3 || !t.dtype().is_float() || t.shape()[..2] != q.shape()[..2] {
            return Err(c.shape_err(i, "float [B, T, heads·d] sharing B and T", t.shape()));
        }
    }
    let (nb, nt) = (q.shape()[0], q.shape()[1]);
    if q.shape()[2] % hq != 0
        || v.shape()[2] % hkv != 0
        || k.shape()[2] != hkv * (q.shape()[2] / hq)
    {
        return Err(c.shape_err(1, format!("[{nb}, {nt}, {hkv}·d_k]"), k.shape()));
    }
    let (dk, dv) = (q.shape()[2] / hq, v.shape()[2] / hkv);
    let group = hq / hkv;
    let (qv, kv, vv) = (
        q.data().to_f64_vec(),
        k.data().to_f64_vec(),
        v.data().to_f64_vec(),
    );
    let opt = |i: usize, lasts: &[usize]| -> Result<Option<(Vec<f64>, usize)>> {
        match c.opt(i) {
            None => Ok(None),
            Some(t)
                if t.rank() == 3 && t.shape()[..2] == [nb, nt] && lasts.contains(&t.shape()[2]) =>
            {
                Ok(Some((t.data().to_f64_vec(), t.shape()[2])))
            }
            Some(t) => Err(c.shape_err(i, format!("[{nb}, {nt}, one of {lasts:?}]"), t.shape())),
        }
    };
    let decay = opt(4, &[hkv, hkv * dk])?;
    let beta = opt(5, &[hkv, 1])?;
    if gating != decay.is_some() {
        return Err(c.attr_err(
            "update_rule",
            format!(
                "`{rule}` {} the decay input",
                if gating { "needs" } else { "forbids" }
            ),
        ));
    }
    if delta != beta.is_some() {
        return Err(c.attr_err(
            "update_rule",
            format!(
                "`{rule}` {} the beta input",
                if delta { "needs" } else { "forbids" }
            ),
        ));
    }
    let mut state = match c.opt(3) {
        None => vec![0f64; nb * hkv * dk * dv],
        Some(p) if p.shape() == [nb, hkv, dk, dv] => p.data().to_f64_vec(),
        Some(p) => return Err(c.shape_err(3, format!("[{nb}, {hkv}, {dk}, {dv}]"), p.shape())),
    };
    let scale = match c.float("scale", 0.0)? {
        s if s != 0.0 => s as f64,
        _ => 1.0 / (dk as f64).sqrt(),
    };
    let mut y = vec![0f64; nb * nt * hq * dv];
    let mut vt = vec![0f64; dv];
    for b in 0..nb {
        for t in 0..nt {
            for h in 0..hkv {
                let s = &mut state[(b * hkv + h) * dk * dv..(b * hkv + h + 1) * dk * dv];
                let kt = &kv[(b * nt + t) * hkv * dk + h * dk..][..dk];
                vt.copy_from_slice(&vv[(b * nt + t) * hkv * dv + h * dv..][..dv]);
                if let Some((g, last)) = &decay {
                    for i in 0..dk {
                        let gi = if *last == hkv {
                            g[(b * nt + t) * last + h]
                        } else {
                            g[(b * nt + t) * last + h * dk + i]
                        };
                        s[i * dv..(i + 1) * dv]
                            .iter_mut()
                            .for_each(|x| *x *= gi.exp());
                    }
                }
                if let Some((be, last)) = &beta {
                    let bt = be[(b * nt + t) * last + if *last == 1 { 0 } else { h }];
                    for m in 0..dv {
                        let retrieved: f64 = (0..dk).map(|i| s[i * dv + m] * kt[i]).sum();
                        vt[m] = bt * (vt[m] - retrieved);
                    }
                }
                for i in 0..dk {
                    for m in 0..dv {
                        s[i * dv + m] += kt[i] * vt[m];
                    }
                }
                for hh in h * group..(h + 1) * group {
                    let qt = &qv[(b * nt + t) * hq * dk + hh * dk..][..dk];
                    for m in 0..dv {
                        y[(b * nt + t) * hq * dv + hh * dv + m] =
                            scale * (0..dk).map(|i| qt[i] * s[i * dv + m]).sum::<f64>();
                    }
                }
            }
        }
    }
    let sdt = c.opt(3).map_or(q.dtype(), Tensor::dtype);
    Ok(vec![
        out(vec![nb, nt, hq * dv], Data::from_f64s(q.dtype(), &y))?,
        out(vec![nb, hkv, dk, dv], Data::from_f64s(sdt, &state))?,
    ])
}
