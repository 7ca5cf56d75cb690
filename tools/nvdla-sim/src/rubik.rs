//! Rubik: data reshapes without arithmetic (nvdla-arith.md §9).
//!
//! In: a Rubik op and surface descriptor and the op's memory view. Out: the
//! destination written. Bytes are copied unchanged; the precision only sets
//! the element size (INT8 1 byte, INT16/FP16 2 bytes).
//! * **Contract** (deconvolution reorder, strides `sx`, `sy`; `sN` =
//!   ⌈Cout·bpe / atom⌉ output surfaces): the atom at input surface
//!   `(iy·sx + ix)·sN + so`, row `h`, column `w` goes to output surface `so`,
//!   row `h·sy + iy`, column `w·sx + ix`.
//! * **Split** (feature cube → planes): channel `k` goes to
//!   `dst + k·plane_stride + h·line_stride + w·bpe`.
//! * **Merge** (planes → feature cube): the inverse.
//!
//! The firmware's checks (`rubik.c`: no on-the-fly cubes; in MERGE a
//! non-zero, 32-byte aligned source plane stride) refuse the op.

use crate::engine::{bytes_per_element, OpCtx};
use crate::error::{Error, Result};
use onnc_nvdla_loadable::desc::{mem_type, DataCube, RubikOpDesc, RubikSurfaceDesc};

/// Rubik modes.
pub mod mode {
    /// Deconvolution contract.
    pub const CONTRACT: u8 = 0;
    /// Feature → planar.
    pub const SPLIT: u8 = 1;
    /// Planar → feature.
    pub const MERGE: u8 = 2;
}

/// Largest deconvolution stride the `DECONV_STRIDE` register fields hold.
pub const MAX_STRIDE: u8 = 32;

/// Runs one Rubik op.
pub fn run(op: &RubikOpDesc, surf: &RubikSurfaceDesc, ctx: &mut OpCtx) -> Result<()> {
    let (src, dst) = (&surf.src_data, &surf.dst_data);
    if !ctx.hw.has_rubik() {
        return Err(reject(
            ctx,
            format!("Rubik is not supported on {}", ctx.hw.name),
        ));
    }
    if src.mem_type == mem_type::HW || dst.mem_type == mem_type::HW {
        return Err(reject(ctx, "Rubik cubes cannot be on-the-fly (HW)".into()));
    }
    let bpe = bytes_per_element(op.precision)
        .ok_or_else(|| unsupported(ctx, format!("precision {}", op.precision)))?;
    if src.width == 0 || src.height == 0 || src.channel == 0 || dst.channel == 0 {
        return Err(unsupported(
            ctx,
            "a zero width, height or channel count wraps the size registers".into(),
        ));
    }
    match op.mode {
        mode::CONTRACT => contract(op, src, dst, bpe, ctx),
        mode::SPLIT => split(src, dst, bpe, ctx),
        mode::MERGE => {
            if src.plane_stride == 0 || src.plane_stride % 32 != 0 {
                return Err(reject(
                    ctx,
                    format!(
                        "MERGE needs a non-zero, 32-byte aligned source plane stride, not {}",
                        src.plane_stride
                    ),
                ));
            }
            merge(src, dst, bpe, ctx)
        }
        m => Err(unsupported(ctx, format!("Rubik mode {m}"))),
    }
}

fn reject(ctx: &OpCtx, what: String) -> Error {
    Error::Rejected(format!("{}: {what}", ctx.mem.at))
}

fn unsupported(ctx: &OpCtx, what: String) -> Error {
    Error::Unsupported {
        at: ctx.mem.at.clone(),
        what,
    }
}

fn contract(
    op: &RubikOpDesc,
    src: &DataCube,
    dst: &DataCube,
    bpe: usize,
    ctx: &mut OpCtx,
) -> Result<()> {
    let (sx, sy) = (u64::from(op.stride_x), u64::from(op.stride_y));
    if !(1..=MAX_STRIDE).contains(&op.stride_x) || !(1..=MAX_STRIDE).contains(&op.stride_y) {
        return Err(unsupported(
            ctx,
            format!("contract strides {sx}×{sy} are outside 1..={MAX_STRIDE}"),
        ));
    }
    let atom = ctx.hw.atom_bytes as u64;
    let s_n = (u64::from(dst.channel) * bpe as u64).div_ceil(atom);
    for so in 0..s_n {
        for h in 0..u64::from(src.height) {
            for iy in 0..sy {
                for w in 0..u64::from(src.width) {
                    for ix in 0..sx {
                        let si = (iy * sx + ix) * s_n + so;
                        let from = u64::from(src.offset)
                            + si * u64::from(src.surf_stride)
                            + h * u64::from(src.line_stride)
                            + w * atom;
                        let to = u64::from(dst.offset)
                            + so * u64::from(dst.surf_stride)
                            + (h * sy + iy) * u64::from(dst.line_stride)
                            + (w * sx + ix) * atom;
                        let a = ctx
                            .mem
                            .read("src", src.address, from, atom as usize)?
                            .to_vec();
                        ctx.mem.write("dst", dst.address, to, &a)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Byte offset of element (c, h, w) of a feature cube.
fn feature_offset(cube: &DataCube, c: u64, h: u64, w: u64, bpe: u64, atom: u64) -> u64 {
    let cpa = atom / bpe;
    u64::from(cube.offset)
        + (c / cpa) * u64::from(cube.surf_stride)
        + h * u64::from(cube.line_stride)
        + w * atom
        + (c % cpa) * bpe
}

/// Byte offset of element (c, h, w) of a planar cube.
fn planar_offset(cube: &DataCube, c: u64, h: u64, w: u64, bpe: u64) -> u64 {
    u64::from(cube.offset)
        + c * u64::from(cube.plane_stride)
        + h * u64::from(cube.line_stride)
        + w * bpe
}

fn split(src: &DataCube, dst: &DataCube, bpe: usize, ctx: &mut OpCtx) -> Result<()> {
    let (b, atom) = (bpe as u64, ctx.hw.atom_bytes as u64);
    for c in 0..u64::from(src.channel) {
        for h in 0..u64::from(src.height) {
            for w in 0..u64::from(src.width) {
                let from = feature_offset(src, c, h, w, b, atom);
                let e = ctx.mem.read("src", src.address, from, bpe)?.to_vec();
                ctx.mem
                    .write("dst", dst.address, planar_offset(dst, c, h, w, b), &e)?;
            }
        }
    }
    Ok(())
}

fn merge(src: &DataCube, dst: &DataCube, bpe: usize, ctx: &mut OpCtx) -> Result<()> {
    let (b, atom) = (bpe as u64, ctx.hw.atom_bytes as u64);
    for c in 0..u64::from(src.channel) {
        for h in 0..u64::from(src.height) {
            for w in 0..u64::from(src.width) {
                let e = ctx
                    .mem
                    .read("src", src.address, planar_offset(src, c, h, w, b), bpe)?
                    .to_vec();
                let to = feature_offset(dst, c, h, w, b, atom);
                ctx.mem.write("dst", dst.address, to, &e)?;
            }
        }
    }
    Ok(())
}
