//! The single-point data processor (SDP), nvdla-arith.md §6.
//!
//! In: a `dla_sdp_op_desc`, its surface descriptor, the input (on the fly
//! from the CACC as a [`Flying`] cube, or `None` to read `src_data` from
//! memory) and the task memory. Out: the output cube written to `dst_data`
//! (`None` returned), or returned as a [`Flying`] cube when `dst_data` is
//! `DLA_MEM_HW` (fused PDP).
//!
//! Per element: X1 (BS) → X2 (BN) → Y (EW: MUL → ALU → LUT) → output
//! converter C, on int32 values (INT8/INT16 processing) or fp32 bit patterns
//! (FP16 processing). Operands come from the descriptor (per layer) or
//! memory (per kernel, per element). Channels are processed in parallel;
//! results do not depend on the thread count.
//!
//! Not modelled (errors name them): batch > 1, the nv_small SDP with FP16
//! or the Y unit, FP16 processing with INT8 output, NaN-flush registers the
//! firmware never sets (left at their reset value 0).

pub mod c;
pub mod config;
pub mod lut;
pub mod operand;
pub mod x;
pub mod y;

use crate::conv::cube::{self, rejected, unsupported, Precision};
use crate::engine::{Flying, FlyingData, OpCtx};
use crate::error::Result;
use config::{Config, Unit};
use lut::Lut;
use onnc_nvdla_loadable::desc::cube::mem_type;
use onnc_nvdla_loadable::desc::{SdpOpDesc, SdpSurfaceDesc};
use operand::Operands;
use rayon::prelude::*;

/// Runs one SDP op (see the module doc).
pub fn run(
    op: &SdpOpDesc,
    surf: &SdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<Option<Flying>> {
    let cfg = Config::from_desc(op, ctx)?;
    if op.batch_num > 1 {
        return Err(unsupported(
            ctx,
            format!("batch_num {} is not modelled (only 1)", op.batch_num),
        ));
    }
    let src = &surf.src_data;
    let (w, h, c) = (
        src.width as usize,
        src.height as usize,
        src.channel as usize,
    );
    let n = w
        .checked_mul(h)
        .and_then(|v| v.checked_mul(c))
        .ok_or_else(|| rejected(ctx, "src cube size overflows".into()))?;
    // The input as 32-bit datapath values.
    let data: Vec<i32> = match input {
        Some(f) => {
            if (f.width, f.height, f.channel) != (w, h, c) {
                return Err(rejected(
                    ctx,
                    format!(
                        "on-the-fly input is {}×{}×{} but src_data is {w}×{h}×{c}",
                        f.width, f.height, f.channel
                    ),
                ));
            }
            match (f.data, cfg.proc_) {
                (FlyingData::Int(v), p) if p.is_int() => v,
                (FlyingData::Float(v), Precision::Fp16) => {
                    v.into_iter().map(|x| x.to_bits() as i32).collect()
                }
                _ => {
                    return Err(rejected(
                        ctx,
                        format!(
                            "on-the-fly input does not match the {} processing precision",
                            cfg.proc_.name()
                        ),
                    ))
                }
            }
        }
        None => {
            if src.mem_type == mem_type::HW {
                return Err(rejected(
                    ctx,
                    "src_data is on the fly (HW) but no producer fed it".into(),
                ));
            }
            let raw = cube::read(ctx, "src", src, cfg.src, 0)?;
            if cfg.src == Precision::Fp16 {
                raw.into_iter()
                    .map(|b| crate::num::cvt::fp16_to_fp32(b as u16) as i32)
                    .collect()
            } else {
                raw
            }
        }
    };
    if data.len() != n {
        return Err(rejected(
            ctx,
            format!("input has {} elements, src_data {n}", data.len()),
        ));
    }
    let ops = [
        operands(ctx, "x1", &cfg.x1, &surf.x1_data, (w, h, c))?,
        operands(ctx, "x2", &cfg.x2, &surf.x2_data, (w, h, c))?,
        operands(ctx, "y", &cfg.y, &surf.y_data, (w, h, c))?,
    ];
    let lut = if cfg.y.enabled && !cfg.y.lut_bypass {
        let i = usize::try_from(op.lut_index)
            .ok()
            .filter(|&i| i < ctx.luts.len())
            .ok_or_else(|| {
                rejected(
                    ctx,
                    format!(
                        "act LUT with lut_index {} outside the LUT list ({} entries)",
                        op.lut_index,
                        ctx.luts.len()
                    ),
                )
            })?;
        Some(Lut::from_param(&ctx.luts[i]))
    } else {
        None
    };
    let plane = w * h;
    let out: Vec<i32> = if plane == 0 {
        Vec::new()
    } else {
        data.par_chunks(plane)
            .enumerate()
            .flat_map_iter(|(ch, chunk)| {
                let (cfg, ops, lut) = (&cfg, &ops, lut.as_ref());
                chunk
                    .iter()
                    .enumerate()
                    .map(move |(i, &v)| element(v, ch, ch * plane + i, cfg, ops, lut))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    if cfg.eql {
        // EQL mode compares and only updates a status register.
        if surf.dst_data.mem_type == mem_type::HW {
            return Err(unsupported(
                ctx,
                "EW EQL mode with an on-the-fly output".into(),
            ));
        }
        return Ok(None);
    }
    let dst = &surf.dst_data;
    if dst.mem_type == mem_type::HW {
        let data = if cfg.dst == Precision::Fp16 {
            FlyingData::Float(
                out.iter()
                    .map(|&b| crate::num::half::fp16_to_f32(b as u16))
                    .collect(),
            )
        } else {
            FlyingData::Int(out)
        };
        return Ok(Some(Flying {
            width: w,
            height: h,
            channel: c,
            data,
        }));
    }
    if (dst.width, dst.height, dst.channel) != (src.width, src.height, src.channel) {
        return Err(rejected(
            ctx,
            format!(
                "dst_data {}×{}×{} differs from src_data {w}×{h}×{c}",
                dst.width, dst.height, dst.channel
            ),
        ));
    }
    cube::write(ctx, "dst", dst, cfg.dst, 0, &out)?;
    Ok(None)
}

/// The memory operands of a unit (empty when it reads none).
fn operands(
    ctx: &OpCtx,
    name: &'static str,
    u: &Unit,
    cube: &onnc_nvdla_loadable::desc::DataCube,
    whc: (usize, usize, usize),
) -> Result<Operands> {
    match &u.mem {
        Some(m) if u.enabled => operand::read(ctx, name, m, cube, whc),
        _ => Ok(Operands::default()),
    }
}

/// The whole datapath for one element `v` of channel `ch` at C-H-W index `i`.
fn element(
    v: i32,
    ch: usize,
    i: usize,
    cfg: &Config,
    ops: &[Operands; 3],
    lut: Option<&Lut>,
) -> i32 {
    let opnd = |k: usize, u: &Unit| -> (Option<i16>, Option<i16>) {
        match &u.mem {
            Some(m) if u.enabled => {
                let (a, b) = ops[k].at(ch, i);
                (m.alu.then_some(a), m.mul.then_some(b))
            }
            _ => (None, None),
        }
    };
    let mut d = v;
    if cfg.proc_ == Precision::Fp16 {
        let mut f = d as u32;
        for (k, u) in [(0, &cfg.x1), (1, &cfg.x2)] {
            if u.enabled {
                let (a, m) = opnd(k, u);
                f = x::fp(f, u, a, m);
            }
        }
        if cfg.y.enabled {
            let (a, m) = opnd(2, &cfg.y);
            f = y::fp(f, &cfg.y, a, m);
            if let Some(l) = lut {
                f = lut::fp(f, l);
            }
        }
        d = f as i32;
    } else {
        for (k, u) in [(0, &cfg.x1), (1, &cfg.x2)] {
            if u.enabled {
                let (a, m) = opnd(k, u);
                d = x::int(d, u, a, m);
            }
        }
        if cfg.y.enabled {
            let (a, m) = opnd(2, &cfg.y);
            d = y::int(d, &cfg.y, a, m);
            if let Some(l) = lut {
                d = lut::int(d, l);
            }
        }
    }
    c::convert(d, cfg)
}
