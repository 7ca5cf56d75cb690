//! CDP: the channel data processor (local response normalisation),
//! after NVIDIA's C-model `cmod/cdp` (nvdla-arith.md §8): INT8 and INT16
//! bit-exact against the goldens, FP16 transcribed from the HLS wrapper.
//!
//! In: the op and surface descriptors, the task's LUT list and memory.
//! Out: the normalised cube written to the destination surface, whole atoms
//! (padded channels of the last surface included: they see the fill value).
//! Each output element at channel c uses the input channels c − 4 ..= c + 4
//! of its pixel; channels outside the cube take the raw input-offset value,
//! which the input converter maps to 0.
//!
//! Modules: [`config`] (registers and firmware checks), [`lut`] (the LUT
//! lookup), [`lrn`] (one output element), [`fp16`] (the FP16 datapath).
//! Output channel planes are computed in parallel; the result does not
//! depend on the thread count.

pub mod config;
pub mod fp16;
pub mod lrn;
pub mod lut;

use crate::engine::OpCtx;
use crate::error::Result;
use crate::pdp::cube;
use config::Config;
use onnc_nvdla_loadable::desc::{CdpOpDesc, CdpSurfaceDesc};
use rayon::prelude::*;

/// Runs one CDP op.
pub fn run(op: &CdpOpDesc, surf: &CdpSurfaceDesc, ctx: &mut OpCtx) -> Result<()> {
    let at = ctx.mem.at.clone();
    let cfg = Config::new(op, surf, ctx.luts, &at)?;
    let bpe = cfg.precision.bpe();
    let src = &surf.src_data;
    let sg = cube::Geom::of(src, bpe, ctx.hw, 0, usize::from(src.width), &at)?;
    let input = cube::read(&ctx.mem, "src", &sg)?;
    let out = normalise(&input, &sg, usize::from(src.channel), &cfg);
    let mut dg = cube::Geom::of(&surf.dst_data, bpe, ctx.hw, 0, sg.width, &at)?;
    dg.height = sg.height;
    dg.surfaces = sg.surfaces;
    cube::write(&mut ctx.mem, "dst", &dg, &out)
}

/// LRN over `input` (planes of `g`, `channels` real channels).
pub fn normalise(input: &[u16], g: &cube::Geom, channels: usize, cfg: &Config) -> Vec<u16> {
    let plane = g.width * g.height;
    let real = channels.min(g.channels());
    let fill = lrn::convert(cfg, lrn::fill(cfg));
    let conv: Vec<lrn::Conv> = input
        .par_iter()
        .enumerate()
        .map(|(i, &x)| {
            if i / plane.max(1) < real {
                lrn::convert(cfg, x)
            } else {
                fill
            }
        })
        .collect();
    let mut out = vec![0u16; input.len()];
    out.par_chunks_mut(plane.max(1))
        .enumerate()
        .for_each(|(c, o)| {
            for (p, v) in o.iter_mut().enumerate() {
                let window: [lrn::Conv; 9] = std::array::from_fn(|j| {
                    let ch = c as isize + j as isize - 4;
                    if ch < 0 || ch as usize >= real {
                        fill
                    } else {
                        conv[ch as usize * plane + p]
                    }
                });
                *v = lrn::element(cfg, &window);
            }
        });
    out
}
