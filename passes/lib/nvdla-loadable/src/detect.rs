//! ABI auto-detection.
//!
//! In: a [`Loadable`]. Out: an [`AbiGuess`] — the ABI and the evidence.
//!
//! Rule, first match wins:
//! 1. **EMU op-list stride** (blob sizes): for an EMU task whose network
//!    desc says N > 0 ops, an op_list of 24·N bytes means current, 16·N
//!    legacy (`emu_operation_container` grew from 16 to 24 bytes).
//! 2. **DLA blob version**: the `version` of a DLA task's network-desc blob
//!    is the firmware interface version; < 0.12 means legacy, ≥ 0.12 current.
//!    (DLA blob sizes cannot tell: the op and surface unions are 116 and 644
//!    bytes in both ABIs, as the BDMA surface dominates.)
//! 3. Otherwise **current** (what today's nvdla/sw runs).

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
