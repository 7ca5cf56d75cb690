//! Text dump of a loadable.
//!
//! In: a [`Loadable`] and an [`Abi`] (or auto-detection). Out: a stable,
//! line-oriented text: the header, every list entry, every blob (descriptor
//! blobs are named by their role; raw data is summarised by size, FNV-1a
//! hash and first bytes), then each task's descriptors decoded field by
//! field, per op: dependency entry, op descriptor, surface descriptor.

use crate::abi::Abi;
use crate::desc::codec::Field;
use crate::desc::container::{op_type, EmuOpDesc, OpDesc, SurfaceDesc};
use crate::desc::{emu::emu_op, Descriptor};
use crate::detect::detect_abi;
use crate::enums::sub_interface;
use crate::layout::{blob_roles, task_descs, Decoded, DlaTaskDescs, EmuTaskDescs, TaskDescs};
use crate::model::Loadable;
use crate::text::Out;

/// Dumps `l` decoding descriptors with `abi`.
pub fn dump(l: &Loadable, abi: Abi) -> String {
    dump_with(l, abi, "given")
}

/// Dumps `l` with the auto-detected ABI (see [`crate::detect`]).
pub fn dump_detected(l: &Loadable) -> String {
    let g = detect_abi(l);
    dump_with(l, g.abi, &format!("detected: {}", g.reason))
}

fn fnv1a64(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    })
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn list<T: std::fmt::Display>(v: &[T]) -> String {
    let s: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("[{}]", s.join(", "))
}

fn dump_with(l: &Loadable, abi: Abi, how: &str) -> String {
    let mut o = Out::new();
    o.line("loadable:");
    o.kv("  version", l.version);
    o.kv(
        "  file_identifier",
        match l.file_identifier {
            Some(id) => format!("\"{}\"", String::from_utf8_lossy(&id)),
            None => "none".to_string(),
        },
    );
    if !l.missing_lists.is_empty() {
        let names: Vec<_> = l.missing_lists.iter().map(|k| k.field_name()).collect();
        o.kv("  missing_lists", names.join(", "));
    }
    o.kv("  abi", format_args!("{abi} [{how}]"));
    header_lists(&mut o, l);
    blobs(&mut o, l);
    for (t, task) in l.task_list.iter().enumerate() {
        match task_descs(l, task, abi) {
            TaskDescs::Dla(d) => dla_task(&mut o, l, t, &d, abi),
            TaskDescs::Emu(d) => emu_task(&mut o, l, t, &d, abi),
            TaskDescs::Other(i) => o.line(format_args!("task {t} ({i}): no descriptors decoded")),
        }
    }
    o.finish()
}

fn header_lists(o: &mut Out, l: &Loadable) {
    o.nest(format_args!("task_list ({}):", l.task_list.len()), |o| {
        for (i, t) in l.task_list.iter().enumerate() {
            o.line(format_args!(
                "[{i}] id={} interface={} instance={} address_list={} pre_actions={} post_actions={}",
                t.id,
                t.interface,
                t.instance,
                list(&t.address_list),
                list(&t.pre_actions),
                list(&t.post_actions)
            ));
        }
    });
    o.nest(
        format_args!("submit_list ({}):", l.submit_list.len()),
        |o| {
            for (i, s) in l.submit_list.iter().enumerate() {
                o.line(format_args!(
                    "[{i}] id={} task_id={}",
                    s.id,
                    list(&s.task_id)
                ));
            }
        },
    );
    o.nest(
        format_args!("memory_list ({}):", l.memory_list.len()),
        |o| {
            for (i, m) in l.memory_list.iter().enumerate() {
                o.line(format_args!(
                "[{i}] id={} domain={} flags={} size={} alignment={} bind_id={} tensor_desc_id={}",
                m.id, m.domain, m.flags, m.size, m.alignment, m.bind_id, m.tensor_desc_id
            ));
                let mut contents: Vec<String> = m
                    .contents
                    .iter()
                    .enumerate()
                    .map(|(j, c)| match m.offsets.get(j) {
                        Some(off) => format!("\"{c}\"@{off}"),
                        None => format!("\"{c}\"@?"),
                    })
                    .collect();
                if m.offsets.len() > m.contents.len() {
                    contents.push(format!(
                        "extra offsets {}",
                        list(&m.offsets[m.contents.len()..])
                    ));
                }
                if !contents.is_empty() {
                    o.line(format_args!("    contents: {}", contents.join(", ")));
                }
            }
        },
    );
    o.nest(
        format_args!("address_list ({}):", l.address_list.len()),
        |o| {
            for (i, a) in l.address_list.iter().enumerate() {
                o.line(format_args!(
                    "[{i}] id={} mem_id={} offset={} size={}",
                    a.id, a.mem_id, a.offset, a.size
                ));
            }
        },
    );
    o.nest(format_args!("event_list ({}):", l.event_list.len()), |o| {
        for (i, e) in l.event_list.iter().enumerate() {
            o.line(format_args!(
                "[{i}] id={} type={} target={} val={} op={}",
                e.id, e.event_type, e.target, e.val, e.op
            ));
        }
    });
    o.nest(format_args!("tensor_desc_list ({}):", l.tensor_desc_list.len()), |o| {
        for (i, t) in l.tensor_desc_list.iter().enumerate() {
            o.line(format_args!(
                "[{i}] id={} name=\"{}\" mem_id={} size={} offset={} format={} type={} category={} pixel_format={} pixel_mapping={} nchw={}x{}x{}x{} strides={}",
                t.id, t.name, t.mem_id, t.size, t.offset, t.data_format, t.data_type,
                t.data_category, t.pixel_format, t.pixel_mapping, t.n, t.c, t.h, t.w,
                list(&t.strides)
            ));
        }
    });
    o.nest(format_args!("reloc_list ({}):", l.reloc_list.len()), |o| {
        for (i, r) in l.reloc_list.iter().enumerate() {
            o.line(format_args!(
                "[{i}] address_id={} write_id={} offset={} interface={} sub_interface={} type={}",
                r.address_id,
                r.write_id,
                r.offset,
                r.interface,
                sub_interface::name(r.sub_interface),
                r.reloc_type
            ));
        }
    });
}

fn blobs(o: &mut Out, l: &Loadable) {
    let roles = blob_roles(l);
    o.nest(format_args!("blobs ({}):", l.blobs.len()), |o| {
        for (i, b) in l.blobs.iter().enumerate() {
            let version = b.version.map_or("none".to_string(), |v| v.to_string());
            o.line(format_args!(
                "[{i}] \"{}\" size={} data={} interface={} sub_interface={}({}) version={}",
                b.name,
                b.size,
                b.data.len(),
                b.interface,
                b.sub_interface,
                sub_interface::name(b.sub_interface),
                version
            ));
            let mine: Vec<String> = roles
                .iter()
                .filter(|(bi, _, _)| *bi == i)
                .map(|(_, t, r)| format!("task {t} {}", r.name()))
                .collect();
            if mine.is_empty() {
                let head = &b.data[..b.data.len().min(16)];
                o.line(format_args!(
                    "    raw data: fnv1a64={:016x} head={}",
                    fnv1a64(&b.data),
                    hex(head)
                ));
            } else {
                o.line(format_args!("    descriptor: {}", mine.join(", ")));
            }
        }
    });
}

fn blob_name(l: &Loadable, b: Option<usize>) -> String {
    b.and_then(|i| l.blobs.get(i))
        .map_or("?".to_string(), |b| format!("\"{}\"", b.name))
}

fn section<T>(
    o: &mut Out,
    l: &Loadable,
    title: &str,
    d: &Decoded<T>,
    f: impl FnOnce(&mut Out, &T),
) {
    match &d.value {
        Ok(v) => o.nest(
            format_args!("{title} (blob {}):", blob_name(l, d.blob)),
            |o| f(o, v),
        ),
        Err(e) => o.line(format_args!("{title}: unavailable: {e}")),
    }
}

fn dla_task(o: &mut Out, l: &Loadable, t: usize, d: &DlaTaskDescs, abi: Abi) {
    o.nest(format_args!("task {t} (DLA1):"), |o| {
        section(o, l, "network_desc", &d.network, |o, n| {
            n.dump_fields(o, abi)
        });
        let deps = d.deps.value.as_ref().ok();
        let ops = d.ops.value.as_ref().ok();
        let surfs = d.surfaces.value.as_ref().ok();
        for (name, dd) in [
            ("dep_graph", d.deps.blob),
            ("op_list", d.ops.blob),
            ("surf_list", d.surfaces.blob),
        ] {
            o.kv(name, format_args!("blob {}", blob_name(l, dd)));
        }
        for (name, e) in [
            ("dep_graph", d.deps.value.as_ref().err()),
            ("op_list", d.ops.value.as_ref().err()),
            ("surf_list", d.surfaces.value.as_ref().err()),
        ] {
            if let Some(e) = e {
                o.line(format_args!("{name}: unavailable: {e}"));
            }
        }
        let n = [
            deps.map_or(0, Vec::len),
            ops.map_or(0, Vec::len),
            surfs.map_or(0, Vec::len),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        for i in 0..n {
            let ty = deps.and_then(|d| d.get(i)).map(|d| d.op_type);
            let title = match ty {
                Some(ty) => format!("op {i} ({}):", op_type::name(ty)),
                None => format!("op {i} (no dep_graph entry):"),
            };
            o.nest(title, |o| {
                if let Some(dep) = deps.and_then(|d| d.get(i)) {
                    dep.show("dep", o, abi);
                }
                if let Some(op) = ops.and_then(|v| v.get(i)) {
                    show_op(o, &op.desc, abi);
                    tail(
                        o,
                        "op_tail",
                        &op.tail,
                        matches!(op.desc, OpDesc::Unknown(_)),
                    );
                }
                if let Some(s) = surfs.and_then(|v| v.get(i)) {
                    show_surface(o, &s.desc, abi);
                    tail(
                        o,
                        "surface_tail",
                        &s.tail,
                        matches!(s.desc, SurfaceDesc::Unknown(_)),
                    );
                }
            });
        }
        if d.luts.blob.is_none() && d.luts.value.as_ref().is_ok_and(Vec::is_empty) {
            o.line("lut_list: none (lut_data_index = -1)");
        } else {
            section(o, l, "lut_list", &d.luts, |o, luts| {
                for (i, lut) in luts.iter().enumerate() {
                    lut.show(&format!("lut {i}"), o, abi);
                }
            });
        }
    });
}

fn tail(o: &mut Out, name: &str, tail: &[u8], raw: bool) {
    if raw || tail.iter().any(|&b| b != 0) {
        o.kv(name, format_args!("{} bytes: {}", tail.len(), hex(tail)));
    }
}

fn show_op(o: &mut Out, d: &OpDesc, abi: Abi) {
    match d {
        OpDesc::Bdma(d) => d.show("op (dla_bdma_op_desc)", o, abi),
        OpDesc::Conv(d) => d.show("op (dla_conv_op_desc)", o, abi),
        OpDesc::Sdp(d) => d.show("op (dla_sdp_op_desc)", o, abi),
        OpDesc::Pdp(d) => d.show("op (dla_pdp_op_desc)", o, abi),
        OpDesc::Cdp(d) => d.show("op (dla_cdp_op_desc)", o, abi),
        OpDesc::Rubik(d) => d.show("op (dla_rubik_op_desc)", o, abi),
        OpDesc::Unknown(t) => o.kv("op", format_args!("unknown op type {t}")),
    }
}

fn show_surface(o: &mut Out, d: &SurfaceDesc, abi: Abi) {
    match d {
        SurfaceDesc::Bdma(d) => d.show("surface (dla_bdma_surface_desc)", o, abi),
        SurfaceDesc::Conv(d) => d.show("surface (dla_conv_surface_desc)", o, abi),
        SurfaceDesc::Sdp(d) => d.show("surface (dla_sdp_surface_desc)", o, abi),
        SurfaceDesc::Pdp(d) => d.show("surface (dla_pdp_surface_desc)", o, abi),
        SurfaceDesc::Cdp(d) => d.show("surface (dla_cdp_surface_desc)", o, abi),
        SurfaceDesc::Rubik(d) => d.show("surface (dla_rubik_surface_desc)", o, abi),
        SurfaceDesc::Unknown(t) => o.kv("surface", format_args!("unknown op type {t}")),
    }
}

fn emu_task(o: &mut Out, l: &Loadable, t: usize, d: &EmuTaskDescs, abi: Abi) {
    o.nest(format_args!("task {t} (EMU1):"), |o| {
        section(o, l, "network_desc", &d.network, |o, n| {
            n.dump_fields(o, abi)
        });
        section(o, l, "op_list", &d.ops, |o, ops| {
            for (i, op) in ops.iter().enumerate() {
                match &op.desc {
                    EmuOpDesc::Power(p) => {
                        p.show(&format!("op {i} ({})", emu_op::name(emu_op::POWER)), o, abi)
                    }
                    EmuOpDesc::Softmax(s) => s.show(
                        &format!("op {i} ({})", emu_op::name(emu_op::SOFTMAX)),
                        o,
                        abi,
                    ),
                    EmuOpDesc::Unknown(ty) => {
                        o.kv(&format!("op {i}"), format_args!("unknown EMU op type {ty}"))
                    }
                }
                tail(
                    o,
                    "    tail",
                    &op.tail,
                    matches!(op.desc, EmuOpDesc::Unknown(_)),
                );
            }
        });
        section(o, l, "op_buf_list", &d.buffers, |o, bufs| {
            for (i, b) in bufs.iter().enumerate() {
                b.show(&format!("op {i} buffers"), o, abi);
            }
        });
    });
}
