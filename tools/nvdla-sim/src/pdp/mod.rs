//! PDP: the planar data processor (max, min and average pooling), bit-exact
//! with NVIDIA's C-model `cmod/pdp` (nvdla-arith.md §7).
//!
//! In: the op and surface descriptors, the input cube on the fly from the
//! SDP (`Some(Flying)`) or read from memory (`None`), the task memory.
//! Out: the pooled cube written to the destination surface, whole atoms
//! (the padded channels of the last surface included), one pass per width
//! split at the split's output columns.
//!
//! Modules: [`config`] (firmware register derivation and checks),
//! [`arith`] (per-format element arithmetic), [`plane`] (the C-model's
//! window sequence on one channel plane), [`cube`] (feature-cube DMA, shared
//! with the CDP). Channel planes are pooled in parallel; the result does not
//! depend on the thread count.

pub mod arith;
pub mod config;
pub mod cube;
pub mod plane;

use crate::engine::{Flying, FlyingData, OpCtx};
use crate::error::{Error, Result};
use config::{Config, Precision, Split};
use onnc_nvdla_loadable::desc::{mem_type, DataCube, PdpOpDesc, PdpSurfaceDesc};
use plane::Shape;
use rayon::prelude::*;

/// Runs one PDP op.
pub fn run(
    op: &PdpOpDesc,
    surf: &PdpSurfaceDesc,
    input: Option<Flying>,
    ctx: &mut OpCtx,
) -> Result<()> {
    let at = ctx.mem.at.clone();
    let cfg = Config::new(op, surf, &at)?;
    let arith = arith::Arith::new(&cfg);
    let bpe = cfg.precision.bpe();
    let src = &surf.src_data;
    let on_the_fly = match (&input, src.mem_type == mem_type::HW) {
        (Some(f), true) => Some(flying_planes(f, src, bpe, ctx, &cfg)?),
        (None, false) => None,
        (Some(_), false) => {
            return Err(Error::Unsupported {
                at,
                what: "PDP got an on-the-fly input but its source cube is not HW".into(),
            })
        }
        (None, true) => {
            return Err(Error::Unsupported {
                at,
                what: "PDP source cube is HW (on the fly) but no producer fed it".into(),
            })
        }
    };
    for (i, split) in cfg.splits.iter().enumerate() {
        let sg = cube::Geom::of(src, bpe, ctx.hw, split.in_start, split.in_width, &at)?;
        let planes = match &on_the_fly {
            Some(p) => p.clone(),
            None => cube::read(&ctx.mem, "src", &sg)?,
        };
        let out = pool_split(&planes, &sg, split, &cfg, &arith).map_err(|e| {
            let what = match e {
                Error::PoolOutside(x, y) => format!(
                    "PDP split {i}: window ({x}, {y}) falls outside the {}×{} output \
                     (dst cube or partial widths disagree with kernel/stride/padding)",
                    split.out_width, cfg.out_height
                ),
                Error::PoolUnreached(x, y) => format!(
                    "PDP split {i}: output ({x}, {y}) of {}×{} has no input in its window \
                     (the hardware would stall)",
                    split.out_width, cfg.out_height
                ),
                other => return other,
            };
            Error::Unsupported {
                at: at.clone(),
                what,
            }
        })?;
        let mut dg = cube::Geom::of(
            &surf.dst_data,
            bpe,
            ctx.hw,
            split.out_start,
            split.out_width,
            &at,
        )?;
        dg.surfaces = sg.surfaces;
        dg.height = cfg.out_height;
        cube::write(&mut ctx.mem, "dst", &dg, &out)?;
    }
    Ok(())
}

/// Pools every channel plane of one split, planes in parallel.
fn pool_split(
    planes: &[u16],
    g: &cube::Geom,
    split: &Split,
    cfg: &Config,
    a: &arith::Arith,
) -> Result<Vec<u16>> {
    let shape = Shape {
        in_w: g.width,
        in_h: g.height,
        out_w: split.out_width,
        out_h: cfg.out_height,
        k_w: cfg.kernel_w,
        k_h: cfg.kernel_h,
        s_x: cfg.stride_x,
        s_y: cfg.stride_y,
        p_l: split.pad_left,
        p_r: split.pad_right,
        p_t: cfg.pad_top,
        p_b: cfg.pad_bottom,
    };
    let in_len = g.width * g.height;
    let outs: Vec<Vec<u16>> = planes
        .par_chunks(in_len.max(1))
        .map(|p| plane::pool(p, &shape, a))
        .collect::<std::result::Result<_, _>>()?;
    Ok(outs.concat())
}

/// The planes of an on-the-fly input, padded channels zero.
fn flying_planes(
    f: &Flying,
    src: &DataCube,
    bpe: usize,
    ctx: &OpCtx,
    cfg: &Config,
) -> Result<Vec<u16>> {
    let at = ctx.mem.at.clone();
    let dims = (
        usize::from(src.width),
        usize::from(src.height),
        usize::from(src.channel),
    );
    if (f.width, f.height, f.channel) != dims {
        return Err(Error::Unsupported {
            at,
            what: format!(
                "PDP on-the-fly input is {}×{}×{} but the source cube is {}×{}×{}",
                f.width, f.height, f.channel, dims.0, dims.1, dims.2
            ),
        });
    }
    let g = cube::Geom::of(src, bpe, ctx.hw, 0, dims.0, &at)?;
    let len = g
        .elements()
        .ok_or_else(|| Error::Rejected(format!("{at}: PDP cube too large")))?;
    let mut out = vec![0u16; len];
    let n = dims.0 * dims.1 * dims.2;
    match (&f.data, cfg.precision) {
        (FlyingData::Int(v), Precision::Int8 | Precision::Int16) if v.len() == n => {
            for (o, &x) in out.iter_mut().zip(v) {
                *o = if bpe == 1 {
                    u16::from(x as i8 as u8)
                } else {
                    x as i16 as u16
                };
            }
        }
        (FlyingData::Float(v), Precision::Fp16) if v.len() == n => {
            for (o, &x) in out.iter_mut().zip(v) {
                *o = crate::num::half::f32_to_fp16_ties_away(x);
            }
        }
        _ => {
            return Err(Error::Unsupported {
                at,
                what: format!(
                    "PDP on-the-fly input does not match precision {:?} or its {n} elements",
                    cfg.precision
                ),
            })
        }
    }
    Ok(out)
}
