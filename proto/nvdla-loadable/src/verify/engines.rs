//! Per-processor rules (research/nvdla.md §2.3–§2.6): firmware limits of
//! each engine, and every data cube's type, address, extent and atom
//! alignment.

use super::cube::{data_cube, Extent};
use super::{Sink, VerifyOptions};
use crate::desc::bdma::NUM_MAX_BDMA_OPS;
use crate::desc::container::{OpDesc, SurfaceDesc};
use crate::desc::pdp::{PDP_MAX_KERNEL, PDP_MAX_SPLIT, PDP_MAX_STRIDE};
use crate::desc::{mem_type, CommonOpDesc, NetworkDesc};
use crate::layout::DlaTaskDescs;
use crate::model::Loadable;

/// BDMA `line_repeat` / `surface_repeat` limit.
pub const BDMA_MAX_REPEAT: u32 = 8192;
/// BDMA `line_size` granule.
pub const BDMA_LINE_GRANULE: u32 = 32;
/// Conv weight size granule (CBUF entry width on nv_full).
pub const CONV_WEIGHT_GRANULE: u32 = 128;
/// Rubik MERGE mode.
pub const RUBIK_MODE_MERGE: u8 = 2;
/// Largest precision value (INT8 0, INT16 1, FP16 2).
pub const MAX_PRECISION: u8 = 2;

/// One DLA task being checked.
pub(super) struct Ctx<'a> {
    pub(super) l: &'a Loadable,
    pub(super) task: usize,
    pub(super) nd: &'a NetworkDesc,
    pub(super) opts: &'a VerifyOptions,
}

pub(super) fn check(
    l: &Loadable,
    t: usize,
    nd: &NetworkDesc,
    d: &DlaTaskDescs,
    deps: &[CommonOpDesc],
    opts: &VerifyOptions,
    s: &mut Sink,
) {
    let cx = Ctx {
        l,
        task: t,
        nd,
        opts,
    };
    let (Ok(ops), Ok(surfs)) = (&d.ops.value, &d.surfaces.value) else {
        return;
    };
    for (i, dep) in deps.iter().enumerate() {
        let at = format!("task_list[{t}].op[{i}]");
        if let Some(op) = ops.get(i) {
            op_rules(&cx, &at, &op.desc, s);
        }
        if let Some(surf) = surfs.get(i) {
            surface_rules(
                &cx,
                &at,
                dep.op_type,
                &surf.desc,
                ops.get(i).map(|o| &o.desc),
                s,
            );
        }
    }
}

fn precision(at: &str, field: &str, v: u8, s: &mut Sink) {
    if v > MAX_PRECISION {
        s.error(
            "precision",
            format!("{at}.{field}"),
            format!("{v} (INT8 0, INT16 1, FP16 2)"),
        );
    }
}

fn lut_index(cx: &Ctx, at: &str, field: &str, v: i16, required: bool, s: &mut Sink) {
    if v == -1 && !required {
        return;
    }
    if !(0..i32::from(cx.nd.num_luts)).contains(&i32::from(v)) {
        s.error(
            "lut-index",
            format!("{at}.{field}"),
            format!("{v} but the task has {} LUT(s)", cx.nd.num_luts),
        );
    }
}

fn op_rules(cx: &Ctx, at: &str, op: &OpDesc, s: &mut Sink) {
    match op {
        OpDesc::Bdma(b) => {
            if usize::from(b.num_transfers) > NUM_MAX_BDMA_OPS {
                s.error(
                    "bdma-transfers",
                    format!("{at}.bdma.num_transfers"),
                    format!("{} > {NUM_MAX_BDMA_OPS}", b.num_transfers),
                );
            }
        }
        OpDesc::Conv(c) => {
            let at = format!("{at}.conv");
            if c.conv_mode > 1 {
                s.error(
                    "conv-mode",
                    format!("{at}.conv_mode"),
                    format!("{} (DIRECT 0, WINOGRAD 1)", c.conv_mode),
                );
            }
            if c.batch == 0 {
                s.error("conv-batch", format!("{at}.batch"), "0; must be at least 1");
            }
            if c.out_cvt.scale != 1 || c.out_cvt.offset != 0 {
                s.error(
                    "conv-out-cvt",
                    format!("{at}.out_cvt"),
                    format!(
                        "scale {} offset {}; the firmware requires scale 1, offset 0",
                        c.out_cvt.scale, c.out_cvt.offset
                    ),
                );
            }
            precision(&at, "in_precision", c.in_precision, s);
            precision(&at, "out_precision", c.out_precision, s);
        }
        OpDesc::Sdp(p) => {
            let at = format!("{at}.sdp");
            precision(&at, "src_precision", p.src_precision, s);
            precision(&at, "dst_precision", p.dst_precision, s);
            lut_index(cx, &at, "lut_index", p.lut_index, false, s);
        }
        OpDesc::Pdp(p) => {
            let at = format!("{at}.pdp");
            for (field, v) in [("pool_width", p.pool_width), ("pool_height", p.pool_height)] {
                if u32::from(v) + 1 > u32::from(PDP_MAX_KERNEL) {
                    s.error(
                        "pdp-kernel",
                        format!("{at}.{field}"),
                        format!(
                            "kernel {} (stored {v}) exceeds {PDP_MAX_KERNEL}",
                            u32::from(v) + 1
                        ),
                    );
                }
            }
            for (field, v) in [("stride_x", p.stride_x), ("stride_y", p.stride_y)] {
                if !(1..=PDP_MAX_STRIDE).contains(&v) {
                    s.error(
                        "pdp-stride",
                        format!("{at}.{field}"),
                        format!("{v} outside 1..={PDP_MAX_STRIDE}"),
                    );
                }
            }
            if p.split_num > PDP_MAX_SPLIT {
                s.error(
                    "pdp-split",
                    format!("{at}.split_num"),
                    format!("{} > {PDP_MAX_SPLIT}", p.split_num),
                );
            }
            if p.pool_mode > 2 {
                s.error(
                    "pdp-mode",
                    format!("{at}.pool_mode"),
                    format!("{} (AVG 0, MAX 1, MIN 2)", p.pool_mode),
                );
            }
            precision(&at, "precision", p.precision, s);
        }
        OpDesc::Cdp(c) => {
            let at = format!("{at}.cdp");
            if c.in_precision != c.out_precision {
                s.error(
                    "cdp-precision",
                    format!("{at}.out_precision"),
                    format!(
                        "{} differs from in_precision {}",
                        c.out_precision, c.in_precision
                    ),
                );
            }
            precision(&at, "in_precision", c.in_precision, s);
            lut_index(cx, &at, "lut_index", c.lut_index, true, s);
        }
        OpDesc::Rubik(r) => {
            if r.mode > 2 {
                s.error(
                    "rubik-mode",
                    format!("{at}.rubik.mode"),
                    format!("{} (CONTRACT 0, SPLIT 1, MERGE 2)", r.mode),
                );
            }
        }
        OpDesc::Unknown(_) => {}
    }
}

fn surface_rules(
    cx: &Ctx,
    at: &str,
    ty: u8,
    surf: &SurfaceDesc,
    op: Option<&OpDesc>,
    s: &mut Sink,
) {
    match surf {
        SurfaceDesc::Bdma(b) => {
            let at = format!("{at}.bdma_surface");
            let n = usize::from(b.num_transfers);
            if n > NUM_MAX_BDMA_OPS {
                s.error(
                    "bdma-transfers",
                    format!("{at}.num_transfers"),
                    format!("{n} > {NUM_MAX_BDMA_OPS}"),
                );
            }
            if let Some(OpDesc::Bdma(o)) = op {
                if o.num_transfers != b.num_transfers {
                    s.error(
                        "bdma-transfers",
                        format!("{at}.num_transfers"),
                        format!("{n} but the op desc says {}", o.num_transfers),
                    );
                }
            }
            for (k, x) in b.transfers.iter().enumerate().take(n.min(NUM_MAX_BDMA_OPS)) {
                let tl = format!("{at}.transfers[{k}]");
                if x.line_size % BDMA_LINE_GRANULE != 0 {
                    s.error(
                        "bdma-line",
                        format!("{tl}.line_size"),
                        format!("{} is not a multiple of {BDMA_LINE_GRANULE}", x.line_size),
                    );
                }
                for (field, v) in [
                    ("line_repeat", x.line_repeat),
                    ("surface_repeat", x.surface_repeat),
                ] {
                    if v > BDMA_MAX_REPEAT {
                        s.error(
                            "bdma-repeat",
                            format!("{tl}.{field}"),
                            format!("{v} > {BDMA_MAX_REPEAT}"),
                        );
                    }
                }
                for (field, v) in [
                    ("source_line", x.source_line),
                    ("destination_line", x.destination_line),
                ] {
                    if v < x.line_size {
                        s.error(
                            "bdma-stride",
                            format!("{tl}.{field}"),
                            format!("{v} < line_size {}", x.line_size),
                        );
                    }
                }
                for (field, surf, line) in [
                    ("source_surface", x.source_surface, x.source_line),
                    (
                        "destination_surface",
                        x.destination_surface,
                        x.destination_line,
                    ),
                ] {
                    if u64::from(surf) < u64::from(line) * u64::from(x.line_repeat) {
                        s.error(
                            "bdma-stride",
                            format!("{tl}.{field}"),
                            format!(
                                "{surf} < line stride {line} × line_repeat {}",
                                x.line_repeat
                            ),
                        );
                    }
                }
                for (field, a) in [
                    ("source_address", x.source_address),
                    ("destination_address", x.destination_address),
                ] {
                    address_index(cx, &format!("{tl}.{field}"), a, s);
                }
            }
        }
        SurfaceDesc::Conv(c) => {
            let at = format!("{at}.conv_surface");
            if c.weight_data.size % CONV_WEIGHT_GRANULE != 0 {
                s.error(
                    "conv-weight-size",
                    format!("{at}.weight_data.size"),
                    format!(
                        "{} is not a multiple of {CONV_WEIGHT_GRANULE}",
                        c.weight_data.size
                    ),
                );
            }
            // The input may be an image (pixel) format whose layout is not
            // NC/xHWx: bounded by its size, as the weights are.
            let dst = match op {
                Some(OpDesc::Conv(o)) => Extent::feature(o.out_precision),
                _ => Extent::Size,
            };
            for (name, cube, extent) in [
                ("weight_data", &c.weight_data, Extent::Size),
                ("wmb_data", &c.wmb_data, Extent::Size),
                ("wgs_data", &c.wgs_data, Extent::Size),
                ("src_data", &c.src_data, Extent::Size),
                ("dst_data", &c.dst_data, dst),
            ] {
                data_cube(cx, &format!("{at}.{name}"), cube, extent, s);
            }
        }
        SurfaceDesc::Sdp(p) => {
            let at = format!("{at}.sdp_surface");
            let (src, dst) = match op {
                Some(OpDesc::Sdp(o)) => (
                    Extent::feature(o.src_precision),
                    Extent::feature(o.dst_precision),
                ),
                _ => (Extent::Size, Extent::Size),
            };
            for (name, cube, extent) in [
                ("src_data", &p.src_data, src),
                ("x1_data", &p.x1_data, Extent::Size),
                ("x2_data", &p.x2_data, Extent::Size),
                ("y_data", &p.y_data, Extent::Size),
                ("dst_data", &p.dst_data, dst),
            ] {
                data_cube(cx, &format!("{at}.{name}"), cube, extent, s);
            }
        }
        SurfaceDesc::Pdp(p) => {
            let at = format!("{at}.pdp_surface");
            if p.dst_data.mem_type == mem_type::HW {
                s.error(
                    "pdp-dst-hw",
                    format!("{at}.dst_data.type"),
                    "PDP cannot write on the fly (HW)",
                );
            }
            let extent = match op {
                Some(OpDesc::Pdp(o)) => Extent::feature(o.precision),
                _ => Extent::Size,
            };
            data_cube(cx, &format!("{at}.src_data"), &p.src_data, extent, s);
            data_cube(cx, &format!("{at}.dst_data"), &p.dst_data, extent, s);
        }
        SurfaceDesc::Cdp(c) => {
            let at = format!("{at}.cdp_surface");
            let (src, dst) = match op {
                Some(OpDesc::Cdp(o)) => (
                    Extent::feature(o.in_precision),
                    Extent::feature(o.out_precision),
                ),
                _ => (Extent::Size, Extent::Size),
            };
            data_cube(cx, &format!("{at}.src_data"), &c.src_data, src, s);
            data_cube(cx, &format!("{at}.dst_data"), &c.dst_data, dst, s);
        }
        SurfaceDesc::Rubik(r) => {
            let at = format!("{at}.rubik_surface");
            for (name, cube) in [("src_data", &r.src_data), ("dst_data", &r.dst_data)] {
                if cube.mem_type == mem_type::HW {
                    s.error(
                        "rubik-hw",
                        format!("{at}.{name}.type"),
                        "Rubik needs memory source and destination, not HW",
                    );
                }
                data_cube(cx, &format!("{at}.{name}"), cube, Extent::Unread, s);
            }
            if let Some(OpDesc::Rubik(o)) = op {
                // kmd/firmware/rubik.c checks the source plane stride in
                // MERGE mode (research/nvdla.md §2.5 says contract mode; the
                // firmware and RBK_L0_0, a contract op with plane_stride 0,
                // say merge).
                let ps = r.src_data.plane_stride;
                if o.mode == RUBIK_MODE_MERGE && (ps == 0 || ps % 32 != 0) {
                    s.error(
                        "rubik-plane-stride",
                        format!("{at}.src_data.plane_stride"),
                        format!("{ps}; merge mode needs a non-zero multiple of 32"),
                    );
                }
            }
        }
        SurfaceDesc::Unknown(_) => {
            let _ = ty;
        }
    }
}

/// Checks a task address index; returns the memory bytes available after
/// the address entry's offset.
pub(super) fn address_index(cx: &Ctx, loc: &str, index: i16, s: &mut Sink) -> Option<(u64, u64)> {
    let n = i64::from(cx.nd.num_addresses);
    if !(0..n).contains(&i64::from(index)) {
        s.error(
            "cube-address",
            loc.to_string(),
            format!("{index} outside the task's {n} addresses"),
        );
        return None;
    }
    let task = cx.l.task_list.get(cx.task)?;
    match crate::layout::resolve(cx.l, task, index.into()) {
        Err(e) => {
            s.error("cube-address", loc.to_string(), e);
            None
        }
        Ok(r) => {
            let a = cx.l.address_list.get(usize::from(r.address_id))?;
            let m = cx.l.memory_list.get(usize::from(r.mem_id))?;
            Some((a.offset, m.size.saturating_sub(a.offset)))
        }
    }
}
