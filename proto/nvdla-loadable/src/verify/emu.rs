//! EMU task rules (research/nvdla.md §3): descriptor blobs sized for
//! `num_operations`, op types, buffer address indices and extents, and the
//! emulator's format support (src format == dst format).

use super::{Sink, VerifyOptions};
use crate::abi::Abi;
use crate::desc::container::{emu_op_container_size, EmuOpDesc, EMU_OP_BUFFER_CONTAINER_SIZE};
use crate::desc::emu::emu_format_name;
use crate::desc::EmuBufferDesc;
use crate::layout::{blob_bytes, resolve, EmuTaskDescs};
use crate::model::Loadable;

/// Formats the emulator implements, per ABI (current: INT8, INT8_8, FF16;
/// legacy: INT8, FP16).
fn supported(format: u16, abi: Abi) -> bool {
    match abi {
        Abi::Current => matches!(format, 0 | 1 | 3),
        Abi::Legacy => matches!(format, 0 | 2),
    }
}

pub(super) fn check(l: &Loadable, t: usize, d: &EmuTaskDescs, opts: &VerifyOptions, s: &mut Sink) {
    let at = format!("task_list[{t}]");
    let nd = match &d.network.value {
        Ok(nd) => nd,
        Err(e) => {
            s.error("task-descriptor", format!("{at}.network_desc"), e.clone());
            return;
        }
    };
    let n = usize::from(nd.num_operations);
    let abi = opts.abi;
    for (name, blob, err, stride) in [
        (
            "op_list",
            d.ops.blob,
            d.ops.value.as_ref().err(),
            emu_op_container_size(abi),
        ),
        (
            "op_buf_list",
            d.buffers.blob,
            d.buffers.value.as_ref().err(),
            EMU_OP_BUFFER_CONTAINER_SIZE,
        ),
    ] {
        if let Some(e) = err {
            s.error("task-descriptor", format!("{at}.{name}"), e.clone());
            continue;
        }
        let len = blob.map_or(0, |b| blob_bytes(l, b).len());
        if len < stride * n {
            s.error(
                "descriptor-size",
                format!("{at}.{name}"),
                format!("blob is {len} bytes, {n} ops need {}", stride * n),
            );
        }
    }
    if let Ok(ops) = &d.ops.value {
        for (i, op) in ops.iter().enumerate().take(n) {
            if let EmuOpDesc::Unknown(ty) = op.desc {
                s.error(
                    "emu-op-type",
                    format!("{at}.op[{i}].op_type"),
                    format!("unknown EMU op {ty} (POWER 0, SOFTMAX 1)"),
                );
            }
        }
    }
    let Ok(bufs) = &d.buffers.value else { return };
    let Some(task) = l.task_list.get(t) else {
        return;
    };
    for (i, b) in bufs.iter().enumerate().take(n) {
        let loc = format!("{at}.op_buf[{i}]");
        buffer(l, task, &format!("{loc}.src_data"), &b.src_data, abi, s);
        buffer(l, task, &format!("{loc}.dst_data"), &b.dst_data, abi, s);
        if b.src_data.format != b.dst_data.format {
            s.error(
                "emu-format",
                format!("{loc}.dst_data.format"),
                format!(
                    "{} differs from the source's {}; the emulator needs equal formats",
                    emu_format_name(b.dst_data.format, abi),
                    emu_format_name(b.src_data.format, abi)
                ),
            );
        }
        if !supported(b.src_data.format, abi) {
            s.error(
                "emu-format",
                format!("{loc}.src_data.format"),
                format!(
                    "{}({}) is not implemented by the emulator",
                    b.src_data.format,
                    emu_format_name(b.src_data.format, abi)
                ),
            );
        }
    }
}

fn buffer(
    l: &Loadable,
    task: &crate::model::TaskListEntry,
    loc: &str,
    b: &EmuBufferDesc,
    abi: Abi,
    s: &mut Sink,
) {
    match resolve(l, task, b.address_index.into()) {
        Err(e) => s.error("emu-address", format!("{loc}.address_index"), e),
        Ok(r) => {
            let (Some(a), Some(m)) = (
                l.address_list.get(usize::from(r.address_id)),
                l.memory_list.get(usize::from(r.mem_id)),
            ) else {
                return;
            };
            let off = match abi {
                Abi::Current => u64::from(b.address_index_offset),
                Abi::Legacy => 0,
            };
            let avail = m.size.saturating_sub(a.offset);
            if off + u64::from(b.size) > avail {
                s.error(
                    "emu-extent",
                    loc.to_string(),
                    format!("offset {off} + size {} exceeds the {avail} bytes of memory after the address", b.size),
                );
            }
        }
    }
}
