//! `MatMul`: numpy `matmul` — batched over leading dimensions with
//! multidirectional broadcasting, 1-D operands promoted and the promoted
//! dimension removed afterwards; one product per batch on [`super::mm`]
//! (faer's gemm): a single product is split into parallel output tiles,
//! several run in parallel batch by batch — chosen by shape, so the bits
//! do not depend on the thread count.
//!
//! In: `A [..., M, K]`, `B [..., K, N]` (f32; f64; f16 computed in f32). Out: `Y [broadcast(...), M, N]`.
//! Example: `MatMul([1, 2], [[3], [4]]) = [11]`.

use super::mm::{self, Scalar};
use crate::call::{out, Call};
use crate::layout::broadcast_index;
use crate::Result;
use onnc_tensor::{Data, Tensor};
use rayon::prelude::*;

/// Checked matmul extents.
pub(crate) struct MatMulPlan {
    m: usize,
    k: usize,
    n: usize,
    /// Per output batch: the batch of A and of B it reads.
    pairs: Vec<(usize, usize)>,
    /// The output shape.
    pub shape: Vec<usize>,
}

/// Checks the shapes of inputs `ai` and `bi`.
pub(crate) fn plan(c: &Call, ai: usize, bi: usize) -> Result<MatMulPlan> {
    let (a, b) = (c.input(ai)?, c.input(bi)?);
    if a.rank() == 0 {
        return Err(c.shape_err(ai, "rank ≥ 1", a.shape()));
    }
    if b.rank() == 0 {
        return Err(c.shape_err(bi, "rank ≥ 1", b.shape()));
    }
    let mut sa = a.shape().to_vec();
    let mut sb = b.shape().to_vec();
    let (a1, b1) = (sa.len() == 1, sb.len() == 1);
    if a1 {
        sa.insert(0, 1);
    }
    if b1 {
        sb.push(1);
    }
    let (m, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
    let (kb, n) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    if k != kb {
        return Err(c.shape_err(bi, format!("[..., {k}, N]"), b.shape()));
    }
    let ba = &sa[..sa.len() - 2];
    let bb = &sb[..sb.len() - 2];
    let batch = c.broadcast(ba, bb, bi)?;
    c.checked_numel(&[batch.iter().product::<usize>(), m, n], bi)?;
    let pairs = broadcast_index(ba, &batch)
        .into_iter()
        .zip(broadcast_index(bb, &batch))
        .collect();
    let mut shape = batch;
    if !a1 {
        shape.push(m);
    }
    if !b1 {
        shape.push(n);
    }
    Ok(MatMulPlan {
        m,
        k,
        n,
        pairs,
        shape,
    })
}

/// The batched product on checked operands.
pub(crate) fn compute<T: Scalar>(a: &[T], b: &[T], p: &MatMulPlan) -> Vec<T> {
    let (m, k, n) = (p.m, p.k, p.n);
    let mut y = vec![T::default(); p.pairs.len() * m * n];
    if m * n == 0 {
        return y;
    }
    let one = |bi: usize, ys: &mut [T], parallel: bool| {
        let (ia, ib) = p.pairs[bi];
        let am = mm::rows(&a[ia * m * k..(ia + 1) * m * k], m, k);
        let bm = mm::rows(&b[ib * k * n..(ib + 1) * k * n], k, n);
        if parallel {
            mm::product(ys, am, bm, T::ONE, false);
        } else {
            mm::product_seq(ys, am, bm, T::ONE, false);
        }
    };
    if p.pairs.len() == 1 {
        one(0, &mut y, true);
    } else {
        y.par_chunks_mut(m * n)
            .enumerate()
            .for_each(|(bi, ys)| one(bi, ys, false));
    }
    y
}

/// `MatMul`.
pub(crate) fn matmul(c: &Call) -> Result<Vec<Tensor>> {
    c.arity(2, 2)?;
    let p = plan(c, 0, 1)?;
    let (a, b) = (c.input(0)?, c.input(1)?);
    let data = match (a.data(), b.data()) {
        (Data::F32(x), Data::F32(y)) => Data::F32(compute(x, y, &p)),
        (Data::F64(x), Data::F64(y)) => Data::F64(compute(x, y, &p)),
        // f16: computed in f32, rounded once.
        (Data::F16(x), Data::F16(y)) => {
            let (x, y): (Vec<f32>, Vec<f32>) = (
                x.iter().map(|v| v.to_f32()).collect(),
                y.iter().map(|v| v.to_f32()).collect(),
            );
            Data::F16(
                compute(&x, &y, &p)
                    .into_iter()
                    .map(half::f16::from_f32)
                    .collect(),
            )
        }
        _ if a.dtype() != b.dtype() => return Err(c.type_err(1, a.dtype().to_string(), b.dtype())),
        _ => return Err(c.type_err(0, "f32, f64 or f16", a.dtype())),
    };
    Ok(vec![out(p.shape, data)?])
}
