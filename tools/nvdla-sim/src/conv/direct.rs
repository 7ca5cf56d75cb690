//! Direct convolution: descriptor checks, geometry, and the per-output
//! element loops of the INT and FP16 datapaths.
//!
//! For output element (k, y, x) the CSC order is: for each super-channel
//! (atomic-C channels), for each kernel row r, for each kernel column s, one
//! MAC block over the super-channel's channels at input position
//! (y·stride_y + r·dilation_y − pad_top, x·stride_x + s·dilation_x − pad_left);
//! the CACC accumulates the blocks in that order.

use super::cacc::{acc48_add, clip_truncate, Fp48};
use super::cdma::{self, Input};
use super::cmac_fp16::{block, block_finite, Operand};
use super::cube::{self, rejected, unsupported, Precision};
use super::fast;
use super::weight::{self, WeightShape};
use crate::engine::{Flying, FlyingData, OpCtx};
use crate::error::Result;
use onnc_nvdla_loadable::desc::{ConvOpDesc, ConvSurfaceDesc};
use rayon::prelude::*;

/// `FORMAT_FEATURE`: the only `data_format` that is not an image format.
const FORMAT_FEATURE: u8 = 36;
/// Largest number of elements the model materialises for one cube (input
/// with padding, weights or output): 2^26.
const MAX_ELEMS: usize = 1 << 26;

/// Geometry of one direct convolution.
#[derive(Debug, Clone, Copy)]
pub(super) struct Geom {
    pub(super) c: usize,
    pub(super) k: usize,
    pub(super) r: usize,
    pub(super) s: usize,
    pub(super) ho: usize,
    pub(super) wo: usize,
    pub(super) sy: i64,
    pub(super) sx: i64,
    pub(super) dy: i64,
    pub(super) dx: i64,
    pub(super) pad_top: i64,
    pub(super) pad_left: i64,
    /// Channels per MAC block (atomic C).
    pub(super) block_c: usize,
}

/// Which loops compute the MAC blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// Every (super-channel, r, s) block over every lane.
    Reference,
    /// Only the non-zero weights ([`super::plan::KernelPlan`]); same result bit for bit.
    Fast,
}

/// Runs one convolution op (see the module doc of [`super`]), skipping
/// the weights that cannot change the result ([`super::plan`]).
pub fn run(op: &ConvOpDesc, surf: &ConvSurfaceDesc, ctx: &mut OpCtx) -> Result<Flying> {
    run_with(op, surf, ctx, Path::Fast)
}

/// [`run`] with the reference loops: every MAC block over every lane, as
/// the C-model computes it. Same output as [`run`]; kept for the tests and
/// the benchmark (`examples/bench_sim.rs`).
pub fn run_reference(op: &ConvOpDesc, surf: &ConvSurfaceDesc, ctx: &mut OpCtx) -> Result<Flying> {
    run_with(op, surf, ctx, Path::Reference)
}

fn run_with(
    op: &ConvOpDesc,
    surf: &ConvSurfaceDesc,
    ctx: &mut OpCtx,
    path: Path,
) -> Result<Flying> {
    if op.conv_mode != 0 {
        return Err(unsupported(
            ctx,
            format!("conv_mode {} (Winograd) is not modelled", op.conv_mode),
        ));
    }
    if op.data_format != FORMAT_FEATURE {
        return Err(unsupported(
            ctx,
            format!(
                "image input (data_format {}) is not modelled; only FORMAT_FEATURE (36)",
                op.data_format
            ),
        ));
    }
    if op.weight_format != 0 {
        return Err(unsupported(
            ctx,
            "compressed weights are not modelled".into(),
        ));
    }
    if op.batch > 1 {
        return Err(unsupported(
            ctx,
            format!("batch {} is not modelled (only 1)", op.batch),
        ));
    }
    let inp = Precision::from_desc(op.in_precision, "in_precision", ctx)?;
    let proc_ = Precision::from_desc(op.out_precision, "out_precision", ctx)?;
    if ctx.hw.atom_bytes != 32 && proc_ != Precision::Int8 {
        return Err(rejected(
            ctx,
            format!(
                "{} supports INT8 convolution only, not {}",
                ctx.hw.name,
                proc_.name()
            ),
        ));
    }
    if inp != proc_ && op.in_cvt.enable == 0 {
        return Err(unsupported(
            ctx,
            format!(
                "in_precision {} ≠ out_precision {} without the input converter",
                inp.name(),
                proc_.name()
            ),
        ));
    }
    let src = &surf.src_data;
    let dst = &surf.dst_data;
    let g = Geom {
        c: src.channel as usize,
        k: dst.channel as usize,
        r: op.kernel_height_csc as usize,
        s: op.kernel_width_csc as usize,
        ho: dst.height as usize,
        wo: dst.width as usize,
        sy: op.conv_stride_y.max(1) as i64,
        sx: op.conv_stride_x.max(1) as i64,
        dy: op.dilation_y.max(1) as i64,
        dx: op.dilation_x.max(1) as i64,
        pad_top: op.pad_y_top as i64,
        pad_left: op.pad_x_left as i64,
        block_c: ctx.hw.atomic_c.max(1),
    };
    if op.kernel_channel_csc as usize != g.c {
        return Err(rejected(
            ctx,
            format!(
                "kernel_channel_csc {} ≠ source channels {}",
                op.kernel_channel_csc, g.c
            ),
        ));
    }
    if (op.input_width_cmac, op.input_height_cmac) != (dst.width, dst.height) {
        return Err(rejected(
            ctx,
            format!(
                "input_width/height_cmac {}×{} ≠ dst {}×{}",
                op.input_width_cmac, op.input_height_cmac, dst.width, dst.height
            ),
        ));
    }
    let empty = Flying {
        width: g.wo,
        height: g.ho,
        channel: g.k,
        data: if proc_.is_int() {
            FlyingData::Int(Vec::new())
        } else {
            FlyingData::Float(Vec::new())
        },
    };
    if g.k == 0 || g.ho == 0 || g.wo == 0 {
        return Ok(empty);
    }
    if g.r == 0 || g.s == 0 || g.c == 0 {
        return Err(rejected(
            ctx,
            format!("empty kernel {}×{}×{}", g.s, g.r, g.c),
        ));
    }
    // Rows and columns the MAC reads.
    let y0 = -g.pad_top;
    let y1 = (g.ho as i64 - 1) * g.sy + (g.r as i64 - 1) * g.dy - g.pad_top;
    let x0 = -g.pad_left;
    let x1 = (g.wo as i64 - 1) * g.sx + (g.s as i64 - 1) * g.dx - g.pad_left;
    let too_big = |n: Option<usize>| n.is_none_or(|n| n > MAX_ELEMS);
    let in_elems = ((y1 - y0 + 1) as usize)
        .checked_mul((x1 - x0 + 1) as usize)
        .and_then(|n| n.checked_mul(g.c));
    let out_elems = g.k.checked_mul(g.ho).and_then(|n| n.checked_mul(g.wo));
    let wshape = WeightShape {
        k: g.k,
        r: g.r,
        s: g.s,
        c: g.c,
        group_k: if ctx.hw.name == "nv_full" && proc_ == Precision::Int8 {
            2 * ctx.hw.atomic_k
        } else {
            ctx.hw.atomic_k
        }
        .max(1),
        cube_c: g.block_c,
    };
    let wbytes = wshape.bytes(proc_);
    if too_big(in_elems) || too_big(out_elems) || too_big(wbytes) {
        return Err(unsupported(
            ctx,
            format!("convolution too large to simulate (more than {MAX_ELEMS} elements per cube)"),
        ));
    }
    let wbytes = wbytes.unwrap_or(0);
    let wd = &surf.weight_data;
    let weights = {
        let bytes = ctx
            .mem
            .read("weight", wd.address, wd.offset as u64, wbytes)?;
        weight::unpack(bytes, &wshape, proc_)
    };
    let mut chw = cube::read(ctx, "src", src, inp, 0)?;
    if op.in_cvt.enable != 0 {
        for v in chw.iter_mut() {
            *v = cdma::convert(*v, &op.in_cvt, inp, proc_);
        }
    }
    let pad = cdma::pad_value(op.pad_val, proc_);
    let input = Input::build(
        &chw,
        g.c,
        src.height as usize,
        src.width as usize,
        (y0, y1),
        (x0, x1),
        pad,
    );
    let t = op.out_cvt.truncate;
    let data = match (proc_.is_int(), path) {
        (true, Path::Reference) => FlyingData::Int(conv_int(&g, &input, &weights, t)),
        (true, Path::Fast) => FlyingData::Int(fast::conv_int(&g, &input, &weights, t)),
        (false, Path::Reference) => FlyingData::Float(conv_fp16(&g, &input, &weights)),
        (false, Path::Fast) => FlyingData::Float(fast::conv_fp16(&g, &input, &weights)),
    };
    Ok(Flying { data, ..empty })
}

/// The input position of output (y, x) and kernel tap (r, s).
pub(super) fn tap(g: &Geom, y: usize, x: usize, r: usize, s: usize) -> (i64, i64) {
    (
        y as i64 * g.sy + r as i64 * g.dy - g.pad_top,
        x as i64 * g.sx + s as i64 * g.dx - g.pad_left,
    )
}

/// INT8/INT16: exact block dot products, 48-bit saturating accumulation,
/// `clip_truncate(t)`. Returns C-H-W int32.
pub(super) fn conv_int(g: &Geom, input: &Input, weights: &[i32], t: u8) -> Vec<i32> {
    let per_k: Vec<Vec<i32>> = (0..g.k)
        .into_par_iter()
        .map(|k| {
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc: i64 = 0;
                    for c0 in (0..g.c).step_by(g.block_c) {
                        let c1 = (c0 + g.block_c).min(g.c);
                        for r in 0..g.r {
                            for s in 0..g.s {
                                let (iy, ix) = tap(g, y, x, r, s);
                                let d = &input.at(iy, ix)[c0..c1];
                                let wb = ((k * g.r + r) * g.s + s) * g.c;
                                let w = &weights[wb + c0..wb + c1];
                                let blk: i64 =
                                    d.iter().zip(w).map(|(&a, &b)| a as i64 * b as i64).sum();
                                acc = acc48_add(acc, blk);
                            }
                        }
                    }
                    out.push(clip_truncate(acc, t));
                }
            }
            out
        })
        .collect();
    per_k.concat()
}

/// FP16: block-floating-point MAC blocks accumulated in the CACC fp48 and
/// rounded to fp32. Returns C-H-W fp32 values (bit-exact).
pub(super) fn conv_fp16(g: &Geom, input: &Input, weights: &[i32]) -> Vec<f32> {
    let dops: Vec<Operand> = input.data.iter().map(|&v| Operand::new(v as u16)).collect();
    let wops: Vec<Operand> = weights.iter().map(|&v| Operand::new(v as u16)).collect();
    // Blocks can only produce a NaN word if some operand is a NaN.
    let any_nan = dops.iter().chain(&wops).any(|o| o.nan);
    let mac: fn(&[Operand], &[Operand]) -> u64 = if any_nan { block } else { block_finite };
    let at = |iy: i64, ix: i64| {
        (((iy - input.y0) as usize) * input.wp + (ix - input.x0) as usize) * input.c
    };
    let per_k: Vec<Vec<f32>> = (0..g.k)
        .into_par_iter()
        .map(|k| {
            let mut out = Vec::with_capacity(g.ho * g.wo);
            for y in 0..g.ho {
                for x in 0..g.wo {
                    let mut acc = Fp48::default();
                    for c0 in (0..g.c).step_by(g.block_c) {
                        let c1 = (c0 + g.block_c).min(g.c);
                        for r in 0..g.r {
                            for s in 0..g.s {
                                let (iy, ix) = tap(g, y, x, r, s);
                                let di = at(iy, ix);
                                let wb = ((k * g.r + r) * g.s + s) * g.c;
                                acc = acc.accumulate(mac(
                                    &dops[di + c0..di + c1],
                                    &wops[wb + c0..wb + c1],
                                ));
                            }
                        }
                    }
                    out.push(f32::from_bits(acc.to_fp32()));
                }
            }
            out
        })
        .collect();
    per_k.concat()
}
