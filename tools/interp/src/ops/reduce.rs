//! Reductions: `ReduceSum`, `ReduceMean`, `ReduceMax`, `ReduceMin`,
//! `ReduceProd`, `ReduceL1`, `ReduceL2`, `ReduceSumSquare`, `ReduceLogSum`,
//! `ReduceLogSumExp`.
//!
//! In: a numeric tensor; `axes` as an int64 input (opset ≥ 13 for `ReduceSum`,
//! ≥ 18 for the rest) or attribute (older); `keepdims` = 1;
//! `noop_with_empty_axes` = 0 (empty axes then reduce everything).
//! Out: the same type, reduced axes removed or kept as 1.
//! Example: `ReduceSum{keepdims=0}([[1, 2], [3, 4]], axes=[1]) = [3, 7]`.
//!
//! Accumulation is in `f64`, in input order (deterministic).

use crate::call::{out, Call};
use crate::layout::strides;
use crate::Result;
use onnc_tensor::{DType, Data, Tensor};

/// Which reduction.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
    L1,
    L2,
    SumSquare,
    LogSum,
    LogSumExp,
}

/// A reduction kernel.
pub(crate) fn reduce(c: &Call, kind: Kind) -> Result<Vec<Tensor>> {
    c.arity(1, 2)?;
    let x = c.input(0)?;
    let bool_ok = x.dtype() == DType::Bool && matches!(kind, Kind::Max | Kind::Min);
    if x.dtype() == DType::Bool && !bool_ok {
        return Err(c.type_err(0, "a numeric type", x.dtype()));
    }
    let r = x.rank();
    let keep = c.int("keepdims", 1)? != 0;
    let noop = c.int("noop_with_empty_axes", 0)? != 0;
    let raw = c.ints_input_or_attr(1, "axes")?.unwrap_or_default();
    if raw.is_empty() && noop {
        return Ok(vec![x.clone()]);
    }
    let mut reduced = vec![raw.is_empty(); r];
    for &a in &raw {
        reduced[c.axis("axes", a, r)?] = true;
    }
    let out_keep: Vec<usize> = (0..r)
        .map(|d| if reduced[d] { 1 } else { x.shape()[d] })
        .collect();
    let ost = strides(&out_keep);
    let n_out: usize = out_keep.iter().product();
    let count = x.numel() / n_out.max(1);
    let v = x.data().to_f64_vec();
    let init = match kind {
        Kind::Max if bool_ok => 0.0,
        Kind::Min if bool_ok => 1.0,
        Kind::Max => f64::NEG_INFINITY,
        Kind::Min => f64::INFINITY,
        Kind::Prod => 1.0,
        _ => 0.0,
    };
    // For LogSumExp, subtract the per-output max first for stability.
    let shift = if kind == Kind::LogSumExp {
        let mut m = vec![f64::NEG_INFINITY; n_out];
        each(x.shape(), &reduced, &ost, |i, o| m[o] = m[o].max(v[i]));
        m.iter()
            .map(|&v| if v.is_finite() { v } else { 0.0 })
            .collect()
    } else {
        Vec::new()
    };
    let mut acc = vec![init; n_out];
    each(x.shape(), &reduced, &ost, |i, o| {
        let a = v[i];
        let t = &mut acc[o];
        match kind {
            Kind::Sum | Kind::Mean => *t += a,
            Kind::Max => *t = if a > *t || a.is_nan() { a } else { *t },
            Kind::Min => *t = if a < *t || a.is_nan() { a } else { *t },
            Kind::Prod => *t *= a,
            Kind::L1 => *t += a.abs(),
            Kind::L2 | Kind::SumSquare => *t += a * a,
            Kind::LogSum => *t += a,
            Kind::LogSumExp => *t += (a - shift[o]).exp(),
        }
    });
    for (o, t) in acc.iter_mut().enumerate() {
        *t = match kind {
            Kind::Mean => *t / count as f64,
            Kind::L2 => t.sqrt(),
            Kind::LogSum => t.ln(),
            Kind::LogSumExp => t.ln() + shift[o],
            _ => *t,
        };
    }
    let shape: Vec<usize> = if keep {
        out_keep
    } else {
        (0..r)
            .filter(|&d| !reduced[d])
            .map(|d| x.shape()[d])
            .collect()
    };
    let data = match x.dtype() {
        DType::F32 => Data::F32(acc.iter().map(|&a| a as f32).collect()),
        dt => Data::from_f64s(dt, &acc),
    };
    Ok(vec![out(shape, data)?])
}

/// Calls `f(input_flat, output_flat)` for every input element, in order.
fn each(shape: &[usize], reduced: &[bool], ost: &[usize], mut f: impl FnMut(usize, usize)) {
    let n: usize = shape.iter().product();
    let r = shape.len();
    let mut pos = vec![0usize; r];
    let mut o = 0usize;
    for i in 0..n {
        f(i, o);
        for d in (0..r).rev() {
            pos[d] += 1;
            if !reduced[d] {
                o += ost[d];
            }
            if pos[d] < shape[d] {
                break;
            }
            if !reduced[d] {
                o -= ost[d] * pos[d];
            }
            pos[d] = 0;
        }
    }
}
