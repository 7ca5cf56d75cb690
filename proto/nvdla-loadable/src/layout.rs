//! Follows a task's pointers to its descriptor blobs and decodes them.
//!
//! In: a [`Loadable`] and an [`Abi`]. Out: for each task, which blob holds
//! its network descriptor, dependency graph, op list, surface list and LUT
//! list (DLA) or op list and op-buffer list (EMU), found the way the firmware
//! finds them — task address-list index → global address entry → memory
//! entry → the content blob at offset 0 of that memory — and those blobs
//! decoded ([`TaskDescs`]). Blob names and sub-interfaces are not trusted:
//! the NVIDIA KMD test files name blobs `m3_DEPGraph_i3` with interface NONE.

use crate::abi::Abi;
use crate::desc::container::{
    chunks, decode_array, emu_op_container_size, OP_CONTAINER_SIZE, SURFACE_CONTAINER_SIZE,
};
use crate::desc::{
    CommonOpDesc, Descriptor, EmuBufferDescs, EmuNetworkDesc, EmuOpSlot, LutParam, NetworkDesc,
    OpSlot, SurfaceSlot,
};
use crate::enums::{Interface, MemoryFlags};
use crate::error::Result;
use crate::model::{Loadable, TaskListEntry};

/// What a descriptor blob is to its task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlobRole {
    /// DLA `dla_network_desc` (`addr0`).
    NetworkDesc,
    /// DLA dependency graph.
    DepGraph,
    /// DLA op list.
    OpList,
    /// DLA surface list.
    SurfList,
    /// DLA LUT list.
    LutList,
    /// EMU `emu_network_desc` (`addr0`).
    EmuNetworkDesc,
    /// EMU op list.
    EmuOpList,
    /// EMU op-buffer list.
    EmuOpBufList,
}

impl BlobRole {
    /// A short name for dumps.
    pub fn name(self) -> &'static str {
        match self {
            BlobRole::NetworkDesc => "dla network desc",
            BlobRole::DepGraph => "dla dep_graph",
            BlobRole::OpList => "dla op_list",
            BlobRole::SurfList => "dla surf_list",
            BlobRole::LutList => "dla lut_list",
            BlobRole::EmuNetworkDesc => "emu network desc",
            BlobRole::EmuOpList => "emu op_list",
            BlobRole::EmuOpBufList => "emu op_buf_list",
        }
    }
}

/// Where a task address-list index leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// Global address-list id.
    pub address_id: u16,
    /// Memory id of that address entry.
    pub mem_id: u16,
    /// Blob copied to offset 0 of that memory (if the memory is SET).
    pub blob: Option<usize>,
}

/// Follows task address-list index `index` of `task`. Errors name the
/// broken link.
pub fn resolve(
    l: &Loadable,
    task: &TaskListEntry,
    index: i64,
) -> std::result::Result<Resolved, String> {
    let slot = usize::try_from(index).map_err(|_| format!("index {index} is negative"))?;
    let address_id = *task.address_list.get(slot).ok_or_else(|| {
        format!(
            "index {index} is outside the task address list ({} entries)",
            task.address_list.len()
        )
    })?;
    let addr = l.address_list.get(address_id as usize).ok_or_else(|| {
        format!(
            "task address {index} = global address {address_id}, outside address_list ({} entries)",
            l.address_list.len()
        )
    })?;
    let mem = l.memory_list.get(addr.mem_id as usize).ok_or_else(|| {
        format!(
            "address {address_id} → memory {}, outside memory_list ({} entries)",
            addr.mem_id,
            l.memory_list.len()
        )
    })?;
    let blob = if mem.flags.contains(MemoryFlags::SET) {
        mem.contents
            .iter()
            .zip(&mem.offsets)
            .find(|(_, &off)| off == 0)
            .and_then(|(name, _)| l.blobs.iter().position(|b| &b.name == name))
    } else {
        None
    };
    Ok(Resolved {
        address_id,
        mem_id: addr.mem_id,
        blob,
    })
}

/// The blob a task address index leads to, or why there is none.
pub fn resolve_blob(
    l: &Loadable,
    task: &TaskListEntry,
    index: i64,
) -> std::result::Result<usize, String> {
    let r = resolve(l, task, index)?;
    r.blob.ok_or_else(|| {
        format!(
            "task address {index} → address {} → memory {} holds no blob at offset 0",
            r.address_id, r.mem_id
        )
    })
}

/// The payload the runtime copies: the first `size` bytes of `data`.
pub fn blob_bytes(l: &Loadable, blob: usize) -> &[u8] {
    l.blobs.get(blob).map_or(&[][..], |b| {
        let n = usize::try_from(b.size)
            .unwrap_or(usize::MAX)
            .min(b.data.len());
        &b.data[..n]
    })
}

/// A decoded descriptor blob, or the error that stopped its decoding.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// Index into `Loadable::blobs`, if the pointer chain reached a blob.
    pub blob: Option<usize>,
    /// The decoded content, or why it could not be found or decoded.
    pub value: std::result::Result<T, String>,
}

impl<T> Decoded<T> {
    fn missing(why: String) -> Self {
        Decoded {
            blob: None,
            value: Err(why),
        }
    }
}

/// The decoded descriptors of a DLA task.
#[derive(Debug, Clone, PartialEq)]
pub struct DlaTaskDescs {
    /// `addr0`.
    pub network: Decoded<NetworkDesc>,
    /// Dependency graph.
    pub deps: Decoded<Vec<CommonOpDesc>>,
    /// Op list (slot i decoded with `deps[i].op_type`).
    pub ops: Decoded<Vec<OpSlot>>,
    /// Surface list.
    pub surfaces: Decoded<Vec<SurfaceSlot>>,
    /// LUT list (`Ok(empty)` when `lut_data_index` is −1).
    pub luts: Decoded<Vec<LutParam>>,
}

/// The decoded descriptors of an EMU task.
#[derive(Debug, Clone, PartialEq)]
pub struct EmuTaskDescs {
    /// `addr0`.
    pub network: Decoded<EmuNetworkDesc>,
    /// Op list.
    pub ops: Decoded<Vec<EmuOpSlot>>,
    /// Op-buffer list.
    pub buffers: Decoded<Vec<EmuBufferDescs>>,
}

/// The decoded descriptors of one task.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskDescs {
    /// A DLA1 task.
    Dla(Box<DlaTaskDescs>),
    /// An EMU1 task.
    Emu(Box<EmuTaskDescs>),
    /// Any other interface: nothing to decode.
    Other(Interface),
}

fn decode_at<T>(
    l: &Loadable,
    task: &TaskListEntry,
    index: i64,
    f: impl FnOnce(&[u8]) -> Result<T>,
) -> Decoded<T> {
    match resolve_blob(l, task, index) {
        Ok(b) => Decoded {
            blob: Some(b),
            value: f(blob_bytes(l, b)).map_err(|e| e.to_string()),
        },
        Err(why) => Decoded::missing(why),
    }
}

fn op_lists(bytes: &[u8], types: &[u8], abi: Abi) -> Result<Vec<OpSlot>> {
    chunks("op_list", bytes, OP_CONTAINER_SIZE)?
        .enumerate()
        .map(|(i, c)| OpSlot::decode(c, types.get(i).copied().unwrap_or(u8::MAX), abi))
        .collect()
}

fn surf_lists(bytes: &[u8], types: &[u8], abi: Abi) -> Result<Vec<SurfaceSlot>> {
    chunks("surf_list", bytes, SURFACE_CONTAINER_SIZE)?
        .enumerate()
        .map(|(i, c)| SurfaceSlot::decode(c, types.get(i).copied().unwrap_or(u8::MAX), abi))
        .collect()
}

/// Decodes every descriptor blob of `task`.
pub fn task_descs(l: &Loadable, task: &TaskListEntry, abi: Abi) -> TaskDescs {
    match task.interface {
        Interface::DLA1 => TaskDescs::Dla(Box::new(dla_descs(l, task, abi))),
        Interface::EMU1 => TaskDescs::Emu(Box::new(emu_descs(l, task, abi))),
        other => TaskDescs::Other(other),
    }
}

fn dla_descs(l: &Loadable, task: &TaskListEntry, abi: Abi) -> DlaTaskDescs {
    let network = decode_at(l, task, 0, |b| NetworkDesc::decode(b, abi));
    let Ok(nd) = network.value.clone() else {
        let why = || "network descriptor unavailable".to_string();
        return DlaTaskDescs {
            network,
            deps: Decoded::missing(why()),
            ops: Decoded::missing(why()),
            surfaces: Decoded::missing(why()),
            luts: Decoded::missing(why()),
        };
    };
    let deps = decode_at(l, task, nd.dependency_graph_index.into(), |b| {
        decode_array::<CommonOpDesc>(b, abi)
    });
    let types: Vec<u8> = match &deps.value {
        Ok(d) => d.iter().map(|d| d.op_type).collect(),
        Err(_) => Vec::new(),
    };
    let ops = decode_at(l, task, nd.operation_desc_index.into(), |b| {
        op_lists(b, &types, abi)
    });
    let surfaces = decode_at(l, task, nd.surface_desc_index.into(), |b| {
        surf_lists(b, &types, abi)
    });
    let luts = if nd.lut_data_index < 0 {
        Decoded {
            blob: None,
            value: Ok(Vec::new()),
        }
    } else {
        decode_at(l, task, nd.lut_data_index.into(), |b| {
            decode_array::<LutParam>(b, abi)
        })
    };
    DlaTaskDescs {
        network,
        deps,
        ops,
        surfaces,
        luts,
    }
}

fn emu_descs(l: &Loadable, task: &TaskListEntry, abi: Abi) -> EmuTaskDescs {
    let network = decode_at(l, task, 0, |b| EmuNetworkDesc::decode(b, abi));
    let Ok(nd) = network.value.clone() else {
        let why = || "network descriptor unavailable".to_string();
        return EmuTaskDescs {
            network,
            ops: Decoded::missing(why()),
            buffers: Decoded::missing(why()),
        };
    };
    let ops = decode_at(l, task, nd.operation_desc_index.into(), |b| {
        chunks("emu op_list", b, emu_op_container_size(abi))?
            .map(|c| EmuOpSlot::decode(c, abi))
            .collect()
    });
    let buffers = decode_at(l, task, nd.operation_buffer_desc_index.into(), |b| {
        decode_array::<EmuBufferDescs>(b, abi)
    });
    EmuTaskDescs {
        network,
        ops,
        buffers,
    }
}

/// Every descriptor blob reachable from a task: `(blob, task, role)`.
pub fn blob_roles(l: &Loadable) -> Vec<(usize, usize, BlobRole)> {
    let mut out = Vec::new();
    for (t, task) in l.task_list.iter().enumerate() {
        let mut push = |idx: i64, role| {
            if let Ok(b) = resolve_blob(l, task, idx) {
                out.push((b, t, role));
            }
        };
        // Only the indices are needed, which do not depend on the ABI.
        match task.interface {
            Interface::DLA1 => {
                push(0, BlobRole::NetworkDesc);
                if let Ok(b) = resolve_blob(l, task, 0) {
                    if let Ok(nd) = NetworkDesc::decode(blob_bytes(l, b), Abi::Current) {
                        push(nd.dependency_graph_index.into(), BlobRole::DepGraph);
                        push(nd.operation_desc_index.into(), BlobRole::OpList);
                        push(nd.surface_desc_index.into(), BlobRole::SurfList);
                        if nd.lut_data_index >= 0 {
                            push(nd.lut_data_index.into(), BlobRole::LutList);
                        }
                    }
                }
            }
            Interface::EMU1 => {
                push(0, BlobRole::EmuNetworkDesc);
                if let Ok(b) = resolve_blob(l, task, 0) {
                    if let Ok(nd) = EmuNetworkDesc::decode(blob_bytes(l, b), Abi::Current) {
                        push(nd.operation_desc_index.into(), BlobRole::EmuOpList);
                        push(
                            nd.operation_buffer_desc_index.into(),
                            BlobRole::EmuOpBufList,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    out
}
