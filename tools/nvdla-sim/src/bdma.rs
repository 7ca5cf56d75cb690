//! BDMA: the bridge DMA's memory-to-memory copies (nvdla-arith.md §10).
//!
//! In: a BDMA op and surface descriptor and the op's memory view. Out: the
//! destination lines written. Per transfer, in descriptor order: for every
//! surface `s < surface_repeat` and line `l < line_repeat`, `line_size`
//! bytes are copied from `src + s·source_surface + l·source_line` to
//! `dst + s·destination_surface + l·destination_line`. Addresses are task
//! address-list entries without a cube offset. The firmware's checks
//! (`bdma.c`) are applied first and refuse the op with its reason.

use crate::engine::OpCtx;
use crate::error::{Error, Result};
use onnc_nvdla_loadable::desc::bdma::NUM_MAX_BDMA_OPS;
use onnc_nvdla_loadable::desc::{BdmaOpDesc, BdmaSurfaceDesc, BdmaTransferDesc};

/// Largest `line_repeat` / `surface_repeat` the firmware accepts.
pub const MAX_REPEAT: u32 = 8192;
/// `line_size` granule in bytes (the register counts 32-byte units).
pub const LINE_GRANULE: u32 = 32;

/// Runs one BDMA op: every transfer of the surface descriptor, in order.
pub fn run(_op: &BdmaOpDesc, surf: &BdmaSurfaceDesc, ctx: &mut OpCtx) -> Result<()> {
    let n = usize::from(surf.num_transfers);
    if n > NUM_MAX_BDMA_OPS {
        return Err(reject(
            ctx,
            format!("num_transfers {n} exceeds the firmware's {NUM_MAX_BDMA_OPS}"),
        ));
    }
    if !ctx.hw.has_bdma() {
        return Err(reject(
            ctx,
            format!("BDMA is not supported on {}", ctx.hw.name),
        ));
    }
    for (i, t) in surf.transfers.iter().take(n).enumerate() {
        check(t).map_err(|why| reject(ctx, format!("transfer {i}: {why}")))?;
        transfer(t, ctx)?;
    }
    Ok(())
}

/// The firmware refuses the op (`ERR(INVALID_INPUT)`).
fn reject(ctx: &OpCtx, what: String) -> Error {
    Error::Rejected(format!("{}: {what}", ctx.mem.at))
}

/// The firmware's `processor_bdma_program_slot` assertions, plus the
/// register wrap-arounds it does not catch (a zero size or repeat count).
fn check(t: &BdmaTransferDesc) -> std::result::Result<(), String> {
    if t.line_repeat == 0 || t.line_repeat > MAX_REPEAT {
        return Err(format!(
            "line_repeat {} is outside 1..={MAX_REPEAT}",
            t.line_repeat
        ));
    }
    if t.surface_repeat == 0 || t.surface_repeat > MAX_REPEAT {
        return Err(format!(
            "surface_repeat {} is outside 1..={MAX_REPEAT}",
            t.surface_repeat
        ));
    }
    if t.line_size == 0 || t.line_size % LINE_GRANULE != 0 {
        return Err(format!(
            "line_size {} is not a positive multiple of {LINE_GRANULE}",
            t.line_size
        ));
    }
    if t.source_line < t.line_size || t.destination_line < t.line_size {
        return Err(format!(
            "line strides {}/{} are smaller than line_size {}",
            t.source_line, t.destination_line, t.line_size
        ));
    }
    let src_lines = u64::from(t.source_line) * u64::from(t.line_repeat);
    let dst_lines = u64::from(t.destination_line) * u64::from(t.line_repeat);
    if u64::from(t.source_surface) < src_lines || u64::from(t.destination_surface) < dst_lines {
        return Err(format!(
            "surface strides {}/{} are smaller than line stride × line_repeat",
            t.source_surface, t.destination_surface
        ));
    }
    Ok(())
}

fn transfer(t: &BdmaTransferDesc, ctx: &mut OpCtx) -> Result<()> {
    let len = t.line_size as usize;
    for s in 0..u64::from(t.surface_repeat) {
        for l in 0..u64::from(t.line_repeat) {
            let src = s * u64::from(t.source_surface) + l * u64::from(t.source_line);
            let dst = s * u64::from(t.destination_surface) + l * u64::from(t.destination_line);
            let line = ctx.mem.read("src", t.source_address, src, len)?.to_vec();
            ctx.mem.write("dst", t.destination_address, dst, &line)?;
        }
    }
    Ok(())
}
