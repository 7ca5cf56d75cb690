//! ABI conversion: re-lays every descriptor blob of a loadable from one
//! firmware-interface generation to the other.
//!
//! In: a [`Loadable`] whose descriptors use ABI `from`. Out: the same
//! network with descriptors in ABI `to`: data cubes gain or lose the
//! `offset` field, EMU op slots go 16 ↔ 24 bytes, EMU buffer descs gain or
//! lose `addressIndexOffset` and renumber formats, memory and address sizes
//! follow their blob, relocations into surface / op-buffer lists move with
//! the stride fields, DLA blob versions become 0.12.3 (current) or 0.11.0
//! (legacy), and the current ABI's blob sub-interfaces are filled in.
//! Information the target cannot hold (a non-zero cube `offset` or
//! `addressIndexOffset`, an EMU format without a legacy number) is an
//! [`Error::Convert`]. The 2018 golden loadables converted to
//! [`Abi::Current`] pass the verifier under that layout.

use crate::abi::Abi;
use crate::desc::container::{encode_array, EmuOpDesc, SurfaceDesc, SURFACE_CONTAINER_SIZE};
use crate::desc::emu::EMU_DESC_ALIGN;
use crate::desc::{DataCube, Descriptor, EmuBufferDesc, EmuCommonOpDesc};
use crate::enums::{sub_interface, Interface};
use crate::error::{Error, Result};
use crate::layout::{blob_roles, task_descs, BlobRole, TaskDescs};
use crate::model::{Loadable, Version};
use std::collections::HashMap;

/// DLA blob version written for each ABI.
pub fn dla_blob_version(abi: Abi) -> Version {
    match abi {
        Abi::Current => Version::new(0, 12, 3),
        Abi::Legacy => Version::new(0, 11, 0),
    }
}

fn convert_cube(c: &DataCube, to: Abi, what: &str) -> Result<()> {
    if to == Abi::Legacy && c.offset != 0 {
        return Err(Error::Convert(format!(
            "{what}: cube offset {} has no legacy field",
            c.offset
        )));
    }
    Ok(())
}

fn cubes(s: &SurfaceDesc) -> Vec<&DataCube> {
    match s {
        SurfaceDesc::Conv(c) => vec![
            &c.weight_data,
            &c.wmb_data,
            &c.wgs_data,
            &c.src_data,
            &c.dst_data,
        ],
        SurfaceDesc::Sdp(c) => vec![&c.src_data, &c.x1_data, &c.x2_data, &c.y_data, &c.dst_data],
        SurfaceDesc::Pdp(c) => vec![&c.src_data, &c.dst_data],
        SurfaceDesc::Cdp(c) => vec![&c.src_data, &c.dst_data],
        SurfaceDesc::Rubik(c) => vec![&c.src_data, &c.dst_data],
        SurfaceDesc::Bdma(_) | SurfaceDesc::Unknown(_) => Vec::new(),
    }
}

/// Maps an EMU buffer format number between the ABIs' numberings.
fn emu_format(f: u16, from: Abi, to: Abi) -> Result<u16> {
    // Legacy: INT8 0, INT16 1, FP16 2. Current: INT8 0, INT8_8 1, INT16 2, FF16 3, …
    match (from, to) {
        (a, b) if a == b => Ok(f),
        (Abi::Legacy, Abi::Current) => match f {
            0 => Ok(0),
            1 => Ok(2),
            2 => Ok(3),
            _ => Err(Error::Convert(format!("unknown legacy EMU format {f}"))),
        },
        _ => match f {
            0 => Ok(0),
            2 => Ok(1),
            3 => Ok(2),
            _ => Err(Error::Convert(format!(
                "EMU format {f} has no legacy number"
            ))),
        },
    }
}

fn emu_buffer(b: &EmuBufferDesc, from: Abi, to: Abi) -> Result<EmuBufferDesc> {
    if to == Abi::Legacy && b.address_index_offset != 0 {
        return Err(Error::Convert(format!(
            "EMU buffer addressIndexOffset {} has no legacy field",
            b.address_index_offset
        )));
    }
    let mut out = b.clone();
    out.format = emu_format(b.format, from, to)?;
    Ok(out)
}

/// Byte offset, within a surface-list blob, of a field in ABI `to`, given
/// its offset in ABI `from` (relocations point at cube strides).
fn map_surface_offset(off: u64, slots: &[SurfaceDesc], from: Abi, to: Abi) -> u64 {
    let slot = off / SURFACE_CONTAINER_SIZE as u64;
    let r = (off % SURFACE_CONTAINER_SIZE as u64) as usize;
    let Some(s) = usize::try_from(slot).ok().and_then(|i| slots.get(i)) else {
        return off;
    };
    let n = cubes(s).len();
    let (cf, ct) = (DataCube::size(from), DataCube::size(to));
    if r >= n * cf {
        return off;
    }
    let (k, f) = (r / cf, r % cf);
    // The current cube inserts `offset` (4 bytes) at byte 4.
    let f = match (from, to) {
        (Abi::Legacy, Abi::Current) if f >= 4 => f + 4,
        (Abi::Current, Abi::Legacy) if f >= 8 => f - 4,
        _ => f,
    };
    slot * SURFACE_CONTAINER_SIZE as u64 + (k * ct + f) as u64
}

/// Same for an EMU op-buffer list (two 256-byte buffer descs per op).
fn map_emu_buffer_offset(off: u64, from: Abi, to: Abi) -> u64 {
    let base = off - off % EMU_DESC_ALIGN as u64;
    let f = off % EMU_DESC_ALIGN as u64;
    let f = match (from, to) {
        (Abi::Legacy, Abi::Current) if f >= 2 => f + 4,
        (Abi::Current, Abi::Legacy) if f >= 6 => f - 4,
        _ => f,
    };
    base.saturating_add(f)
}

/// Converts every descriptor blob of `l` from ABI `from` to ABI `to`.
pub fn convert_abi(l: &Loadable, from: Abi, to: Abi) -> Result<Loadable> {
    let mut out = l.clone();
    if from == to {
        return Ok(out);
    }
    let mut new_data: HashMap<usize, Vec<u8>> = HashMap::new();
    let mut surf_slots: HashMap<usize, Vec<SurfaceDesc>> = HashMap::new();
    let mut emu_bufs: Vec<usize> = Vec::new();
    for (t, task) in l.task_list.iter().enumerate() {
        let fail = |what: &str, e: &String| Error::Convert(format!("task {t} {what}: {e}"));
        match task_descs(l, task, from) {
            TaskDescs::Dla(d) => {
                if let (Some(b), Ok(surfs)) = (d.surfaces.blob, &d.surfaces.value) {
                    for (i, s) in surfs.iter().enumerate() {
                        for c in cubes(&s.desc) {
                            convert_cube(c, to, &format!("task {t} op {i}"))?;
                        }
                    }
                    new_data.insert(b, surfs.iter().flat_map(|s| s.encode(to)).collect());
                    surf_slots.insert(b, surfs.iter().map(|s| s.desc.clone()).collect());
                } else if let Err(e) = &d.surfaces.value {
                    return Err(fail("surf_list", e));
                }
            }
            TaskDescs::Emu(d) => {
                if let (Some(b), Ok(ops)) = (d.ops.blob, &d.ops.value) {
                    let mut ops = ops.clone();
                    for op in &mut ops {
                        let common: Option<&mut EmuCommonOpDesc> = match &mut op.desc {
                            EmuOpDesc::Power(p) => Some(&mut p.common),
                            EmuOpDesc::Softmax(s) => Some(&mut s.common),
                            EmuOpDesc::Unknown(_) => None,
                        };
                        if let (Some(c), Abi::Current) = (common, to) {
                            // Legacy ops carry no scales; 1.0 is neutral.
                            c.input_scale_factor = 1.0;
                            c.output_scale_factor = 1.0;
                        }
                    }
                    new_data.insert(b, ops.iter().flat_map(|s| s.encode(to)).collect());
                } else if let Err(e) = &d.ops.value {
                    return Err(fail("op_list", e));
                }
                if let (Some(b), Ok(bufs)) = (d.buffers.blob, &d.buffers.value) {
                    let mut conv = Vec::with_capacity(bufs.len());
                    for x in bufs {
                        let mut y = x.clone();
                        y.src_data = emu_buffer(&x.src_data, from, to)?;
                        y.dst_data = emu_buffer(&x.dst_data, from, to)?;
                        conv.push(y);
                    }
                    new_data.insert(b, encode_array(&conv, to));
                    emu_bufs.push(b);
                } else if let Err(e) = &d.buffers.value {
                    return Err(fail("op_buf_list", e));
                }
            }
            TaskDescs::Other(_) => {}
        }
    }
    // Blob data, sizes, memory and address sizes.
    for (b, data) in &new_data {
        let Some(blob) = out.blobs.get_mut(*b) else {
            continue;
        };
        let (old, new) = (blob.size, data.len() as u64);
        blob.data = data.clone();
        blob.size = new;
        if old == new {
            continue;
        }
        for (m, mem) in out.memory_list.iter_mut().enumerate() {
            if mem.contents.contains(&blob.name) {
                if mem.size == old || mem.size < new {
                    mem.size = new;
                }
                for a in out
                    .address_list
                    .iter_mut()
                    .filter(|a| usize::from(a.mem_id) == m)
                {
                    if a.size == old {
                        a.size = new;
                    }
                }
            }
        }
    }
    // Versions and sub-interfaces of descriptor blobs.
    for (b, _, role) in blob_roles(l) {
        let Some(blob) = out.blobs.get_mut(b) else {
            continue;
        };
        let dla = !matches!(
            role,
            BlobRole::EmuNetworkDesc | BlobRole::EmuOpList | BlobRole::EmuOpBufList
        );
        if dla {
            blob.version = Some(dla_blob_version(to));
        }
        if to == Abi::Current
            && blob.sub_interface == sub_interface::NONE
            && blob.interface != Interface::NONE
        {
            blob.sub_interface = match role {
                BlobRole::NetworkDesc | BlobRole::EmuNetworkDesc => sub_interface::ADDR0,
                BlobRole::DepGraph => sub_interface::DEPS,
                BlobRole::OpList | BlobRole::EmuOpList => sub_interface::OPS,
                BlobRole::SurfList | BlobRole::EmuOpBufList => sub_interface::SURFS,
                BlobRole::LutList => sub_interface::LUTS,
            };
        }
    }
    // Relocations into surface / op-buffer lists follow their fields.
    let blob_of_mem: HashMap<u16, usize> = l
        .memory_list
        .iter()
        .enumerate()
        .filter_map(|(m, mem)| {
            let name = mem.contents.first()?;
            let b = l.blobs.iter().position(|b| &b.name == name)?;
            Some((u16::try_from(m).ok()?, b))
        })
        .collect();
    for r in &mut out.reloc_list {
        let Some(&b) = blob_of_mem.get(&r.write_id) else {
            continue;
        };
        if let Some(slots) = surf_slots.get(&b) {
            r.offset = map_surface_offset(r.offset, slots, from, to);
        } else if emu_bufs.contains(&b) {
            r.offset = map_emu_buffer_offset(r.offset, from, to);
        }
    }
    Ok(out)
}
