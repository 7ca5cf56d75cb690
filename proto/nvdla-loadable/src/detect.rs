//! ABI auto-detection.
//!
//! In: a [`Loadable`]. Out: an [`AbiGuess`] — the ABI and the evidence.
//!
//! Rule, first match wins:
//! 1. **EMU op-list stride** (blob sizes): for an EMU task whose network
//!    desc says N > 0 ops, an op_list of 24·N bytes means current, 16·N
//!    legacy (`emu_operation_container` grew from 16 to 24 bytes).
//! 2. **DLA surface cubes** (structure): every data cube of every DLA
//!    surface descriptor is decoded under both layouts (the 32-byte cube
//!    with its `offset` field, the 28-byte one without). Under the wrong
//!    layout the fields after `address` slide by four bytes, so a used cube
//!    shows a zero width, height or channel count or a non-zero reserved
//!    field. The layout with fewer such cubes wins. (DLA blob sizes cannot
//!    tell: the op and surface unions are 116 and 644 bytes in both ABIs.)
//! 3. **DLA blob version**: the `version` of a DLA task's network-desc blob
//!    is the firmware interface version; < 0.12 means legacy, ≥ 0.12
//!    current. Only a tie in rule 2 gets here: writers put their own
//!    numbers there (ONNC 1.3.0 writes 1.2.0 into legacy loadables).
//! 4. Otherwise **current** (what today's nvdla/sw runs).

use crate::abi::Abi;
use crate::desc::container::emu_op_container_size;
use crate::desc::{Descriptor, EmuNetworkDesc};
use crate::enums::Interface;
use crate::layout::{blob_bytes, resolve_blob};
use crate::model::{Loadable, Version};

/// A detected ABI and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiGuess {
    /// The ABI.
    pub abi: Abi,
    /// The evidence, for dumps.
    pub reason: String,
}

/// Detects the descriptor ABI of `l` (see the module docs for the rule).
pub fn detect_abi(l: &Loadable) -> AbiGuess {
    for (t, task) in l.task_list.iter().enumerate() {
        if task.interface != Interface::EMU1 {
            continue;
        }
        let Ok(nb) = resolve_blob(l, task, 0) else {
            continue;
        };
        let Ok(nd) = EmuNetworkDesc::decode(blob_bytes(l, nb), Abi::Current) else {
            continue;
        };
        let n = usize::from(nd.num_operations);
        if n == 0 {
            continue;
        }
        let Ok(ob) = resolve_blob(l, task, nd.operation_desc_index.into()) else {
            continue;
        };
        let len = blob_bytes(l, ob).len();
        for abi in [Abi::Current, Abi::Legacy] {
            if len == n * emu_op_container_size(abi) {
                return AbiGuess {
                    abi,
                    reason: format!(
                        "task {t}: EMU op_list is {len} bytes for {n} op(s), {} per op",
                        emu_op_container_size(abi)
                    ),
                };
            }
        }
    }
    let current = implausible_cubes(l, Abi::Current);
    let legacy = implausible_cubes(l, Abi::Legacy);
    if current != legacy {
        let (abi, bad, other) = if current < legacy {
            (Abi::Current, current, legacy)
        } else {
            (Abi::Legacy, legacy, current)
        };
        return AbiGuess {
            abi,
            reason: format!(
                "DLA surface cubes: {bad} implausible under the {} layout, {other} under the other",
                match abi {
                    Abi::Current => "32-byte (current)",
                    Abi::Legacy => "28-byte (legacy)",
                }
            ),
        };
    }
    for (t, task) in l.task_list.iter().enumerate() {
        if task.interface != Interface::DLA1 {
            continue;
        }
        let Ok(nb) = resolve_blob(l, task, 0) else {
            continue;
        };
        let Some(v) = l.blobs.get(nb).and_then(|b| b.version) else {
            continue;
        };
        let abi = if v < Version::new(0, 12, 0) {
            Abi::Legacy
        } else {
            Abi::Current
        };
        return AbiGuess {
            abi,
            reason: format!("task {t}: DLA network-desc blob has firmware interface version {v}"),
        };
    }
    AbiGuess {
        abi: Abi::Current,
        reason: "no evidence; default".to_string(),
    }
}

/// The number of used data cubes (address ≠ −1) in the DLA surface
/// descriptors of `l` that make no sense when decoded as `abi`: a zero
/// width, height or channel count, a non-zero reserved field, or a memory
/// type other than MC, CV or HW.
fn implausible_cubes(l: &Loadable, abi: Abi) -> usize {
    use crate::desc::{DataCube, SurfaceDesc};
    use crate::layout::{task_descs, TaskDescs};
    let bad = |c: &DataCube| {
        c.address >= 0
            && (c.width == 0
                || c.height == 0
                || c.channel == 0
                || c.reserved0 != 0
                || c.mem_type > 2)
    };
    let mut n = 0;
    for task in l
        .task_list
        .iter()
        .filter(|t| t.interface == Interface::DLA1)
    {
        let TaskDescs::Dla(d) = task_descs(l, task, abi) else {
            continue;
        };
        let Ok(surfaces) = &d.surfaces.value else {
            continue;
        };
        for s in surfaces {
            let cubes: Vec<&DataCube> = match &s.desc {
                SurfaceDesc::Conv(c) => vec![&c.src_data, &c.dst_data, &c.weight_data],
                SurfaceDesc::Sdp(c) => {
                    vec![&c.src_data, &c.x1_data, &c.x2_data, &c.y_data, &c.dst_data]
                }
                SurfaceDesc::Pdp(c) => vec![&c.src_data, &c.dst_data],
                SurfaceDesc::Cdp(c) => vec![&c.src_data, &c.dst_data],
                SurfaceDesc::Rubik(c) => vec![&c.src_data, &c.dst_data],
                SurfaceDesc::Bdma(_) | SurfaceDesc::Unknown(_) => Vec::new(),
            };
            n += cubes.into_iter().filter(|c| bad(c)).count();
        }
    }
    n
}
