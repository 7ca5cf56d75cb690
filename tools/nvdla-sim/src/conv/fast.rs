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
//!
//! Kernels that read at most half of the input channels (grouped and
//! depthwise convolutions) read a copy of only those channels, shared by
//! the kernels of a group ([`super::view`]).

use super::cacc::{acc48_add, clip_truncate, Fp48};
use super::cdma::Input;
use super::cmac_fp16::{block_few, block_keyed, key, Operand};
use super::direct::{conv_fp16 as conv_fp16_reference, tap, Geom};
use super::plan::{fp16_is_zero, int_is_zero, KernelPlan, PlanShape};
use super::view::{copy_channels, kernels, Kernels, Lanes};
use rayon::prelude::*;

/// Largest MAC block (lanes) of the CMAC model
/// ([`super::cmac_fp16::block_finite`]).
const MAX_LANES: usize = 64;
/// Blocks with at most this many kept lanes use [`block_few`] (cheaper
/// set-up than the bucketed [`block_keyed`]).
const FEW_LANES: usize = 8;

fn shape(g: &Geom) -> PlanShape {
    PlanShape {
        c: g.c,
        r: g.r,
        s: g.s,
        block_c: g.block_c,
    }
}

/// The plans of all kernels (in parallel) and where their lanes sit.
fn plans(g: &Geom, weights: &[i32], is_zero: fn(i32) -> bool) -> (Vec<KernelPlan>, Kernels) {
    let plans: Vec<KernelPlan> = (0..g.k)
        .into_par_iter()
        .map(|k| KernelPlan::build(weights, k, shape(g), is_zero))
        .collect();
    let ks = kernels(&plans, g.c);
    (plans, ks)
}

/// The data kernel `lanes` reads: the whole input `all`, or its copy.
fn data_of<'a, T>(lanes: &Lanes, all: &'a [T], copies: &'a [Vec<T>]) -> &'a [T] {
    lanes.set.map_or(all, |i| &copies[i])
}

/// Index of input position (iy, ix) (inside the padded range).
fn position(input: &Input, (iy, ix): (i64, i64)) -> usize {
    ((iy - input.y0) as usize) * input.wp + (ix - input.x0) as usize
}

/// INT8/INT16 (see [`super::direct`]'s `conv_int`).
pub(super) fn conv_int(g: &Geom, input: &Input, weights: &[i32], t: u8) -> Vec<i32> {
    let (plans, ks) = plans(g, weights, int_is_zero);
    let copies: Vec<Vec<i32>> = ks
        .sets
        .par_iter()
        .map(|ch| copy_channels(&input.data, g.c, ch))
        .collect();
    let per_k: Vec<Vec<i32>> = (plans, ks.lanes)
        .into_par_iter()
        .map(|(plan, v)| {
            let data = data_of(&v, &input.data, &copies);
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc: i64 = 0;
                    for (tp, &(first, consecutive)) in plan.taps.iter().zip(&v.taps) {
                        let base = position(input, tap(g, y, x, tp.r, tp.s)) * v.stride;
                        let w = &plan.weights[tp.range.clone()];
                        let blk: i64 = if consecutive {
                            let d = &data[base + first..base + first + w.len()];
                            d.iter().zip(w).map(|(&a, &b)| a as i64 * b as i64).sum()
                        } else {
                            v.idx[tp.range.clone()]
                                .iter()
                                .zip(w)
                                .map(|(&i, &b)| data[base + i as usize] as i64 * b as i64)
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
    let dkeys: Vec<u8> = dops.iter().map(key).collect();
    let (plans, ks) = plans(g, weights, fp16_is_zero);
    let copies: Vec<(Vec<Operand>, Vec<u8>)> = ks
        .sets
        .par_iter()
        .map(|ch| {
            (
                copy_channels(&dops, g.c, ch),
                copy_channels(&dkeys, g.c, ch),
            )
        })
        .collect();
    let (op_copies, key_copies): (Vec<_>, Vec<_>) = copies.into_iter().unzip();
    let per_k: Vec<Vec<f32>> = (plans, ks.lanes)
        .into_par_iter()
        .map(|(plan, v)| {
            let wops: Vec<Operand> = plan
                .weights
                .iter()
                .map(|&v| Operand::new(v as u16))
                .collect();
            let wkeys: Vec<u8> = wops.iter().map(key).collect();
            let data = data_of(&v, &dops, &op_copies);
            let keys = data_of(&v, &dkeys, &key_copies);
            let mut buf = [Operand::default(); MAX_LANES];
            let mut kbuf = [0u8; MAX_LANES];
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc = Fp48::default();
                    for (tp, &(first, consecutive)) in plan.taps.iter().zip(&v.taps) {
                        let base = position(input, tap(g, y, x, tp.r, tp.s)) * v.stride;
                        let w = &wops[tp.range.clone()];
                        let n = w.len();
                        let (d, dk) = if consecutive {
                            let at = base + first..base + first + n;
                            (&data[at.clone()], &keys[at])
                        } else {
                            for ((b, kb), &i) in
                                buf.iter_mut().zip(&mut kbuf).zip(&v.idx[tp.range.clone()])
                            {
                                *b = data[base + i as usize];
                                *kb = keys[base + i as usize];
                            }
                            (&buf[..n], &kbuf[..n])
                        };
                        let word = if n <= FEW_LANES {
                            block_few(d, w)
                        } else {
                            block_keyed(dk, &wkeys[tp.range.clone()], d, w)
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
