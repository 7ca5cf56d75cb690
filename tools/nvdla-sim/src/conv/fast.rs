//! The fast per-output loops: the same blocks as the reference loops of
//! [`super::direct`], accumulated in the same order, but each kernel walks
//! only its non-zero weights ([`KernelPlan`]; why that is exact is argued
//! in [`super::plan`]).
//!
//! In: the geometry, the padded input and the K-R-S-C weights. Out: the
//! CACC output in C-H-W order — int32 after `clip_truncate` (INT) or fp32
//! (FP16), identical to the reference loops bit for bit. Kernels are
//! computed in parallel; each output element is computed by one thread in
//! a fixed order, so the result does not depend on the thread count.

use super::cacc::{acc48_add, clip_truncate, Fp48};
use super::cdma::Input;
use super::cmac_fp16::{block_few, block_finite, Operand};
use super::direct::{conv_fp16 as conv_fp16_reference, tap, Geom};
use super::plan::{fp16_is_zero, int_is_zero, KernelPlan, PlanShape};
use rayon::prelude::*;

/// Largest MAC block (lanes) of the CMAC model ([`block_finite`]).
const MAX_LANES: usize = 64;
/// Blocks with at most this many kept lanes use [`block_few`] (cheaper
/// set-up than the bucketed [`block_finite`]).
const FEW_LANES: usize = 8;

fn shape(g: &Geom) -> PlanShape {
    PlanShape {
        c: g.c,
        r: g.r,
        s: g.s,
        block_c: g.block_c,
    }
}

/// Index of the first channel of input position (iy, ix) in `input.data`.
fn at(input: &Input, (iy, ix): (i64, i64)) -> usize {
    (((iy - input.y0) as usize) * input.wp + (ix - input.x0) as usize) * input.c
}

/// INT8/INT16 (see [`super::direct`]'s `conv_int`).
pub(super) fn conv_int(g: &Geom, input: &Input, weights: &[i32], t: u8) -> Vec<i32> {
    let per_k: Vec<Vec<i32>> = (0..g.k)
        .into_par_iter()
        .map(|k| {
            let plan = KernelPlan::build(weights, k, shape(g), int_is_zero);
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc: i64 = 0;
                    for tp in &plan.taps {
                        let di = at(input, tap(g, y, x, tp.r, tp.s)) + tp.c0;
                        let w = &plan.weights[tp.range.clone()];
                        let blk: i64 = if tp.dense {
                            let d = &input.data[di..di + w.len()];
                            d.iter().zip(w).map(|(&a, &b)| a as i64 * b as i64).sum()
                        } else {
                            let lanes = &plan.lanes[tp.range.clone()];
                            lanes
                                .iter()
                                .zip(w)
                                .map(|(&l, &b)| input.data[di + l as usize] as i64 * b as i64)
                                .sum()
                        };
                        acc = acc48_add(acc, blk);
                    }
                    out.push(clip_truncate(acc, t));
                }
            }
            out
        })
        .collect();
    per_k.concat()
}

/// FP16 (see [`super::direct`]'s `conv_fp16`). Layers with a NaN operand,
/// or MAC blocks wider than the CMAC model's 64 lanes, run the reference
/// loops.
pub(super) fn conv_fp16(g: &Geom, input: &Input, weights: &[i32]) -> Vec<f32> {
    let dops: Vec<Operand> = input.data.iter().map(|&v| Operand::new(v as u16)).collect();
    let nan = |&v: &i32| Operand::new(v as u16).nan;
    if g.block_c > MAX_LANES || dops.iter().any(|o| o.nan) || weights.iter().any(nan) {
        return conv_fp16_reference(g, input, weights);
    }
    let per_k: Vec<Vec<f32>> = (0..g.k)
        .into_par_iter()
        .map(|k| {
            let plan = KernelPlan::build(weights, k, shape(g), fp16_is_zero);
            let wops: Vec<Operand> = plan
                .weights
                .iter()
                .map(|&v| Operand::new(v as u16))
                .collect();
            let mut buf = [Operand::default(); MAX_LANES];
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc = Fp48::default();
                    for tp in &plan.taps {
                        let di = at(input, tap(g, y, x, tp.r, tp.s)) + tp.c0;
                        let w = &wops[tp.range.clone()];
                        let n = w.len();
                        let d = if tp.dense {
                            &dops[di..di + n]
                        } else {
                            for (b, &l) in buf.iter_mut().zip(&plan.lanes[tp.range.clone()]) {
                                *b = dops[di + l as usize];
                            }
                            &buf[..n]
                        };
                        let word = if n <= FEW_LANES {
                            block_few(d, w)
                        } else {
                            block_finite(d, w)
                        };
                        acc = acc.accumulate(word);
                    }
                    out.push(f32::from_bits(acc.to_fp32()));
                }
            }
            out
        })
        .collect();
    per_k.concat()
}
