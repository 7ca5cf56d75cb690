//! The simulated address space: one byte buffer per `memory_list` entry,
//! filled as the UMD does (ALLOC memories zeroed, SET blobs copied at their
//! offsets, bound inputs written by the caller), and the task view through
//! which engines read and write surfaces.
//!
//! In: a [`Loadable`]. Out: [`Memory`]; engines use [`TaskMem`] only.
//! Every access is bounds-checked and an overflow is a
//! [`Error::OutOfBounds`] naming the op, the surface and the address.

use crate::error::{At, Error, Result};
use onnc_nvdla_loadable::enums::MemoryFlags;
use onnc_nvdla_loadable::Loadable;

/// All memories of a loaded network.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// Bytes of memory `id` (index = `memory_list` id).
    pub mems: Vec<Vec<u8>>,
    /// `address_list`: (memory id, byte offset, size) per global address id.
    pub addresses: Vec<(u16, u64, u64)>,
}

/// Largest memory the simulator allocates (4 GiB): a loadable asking for
/// more is refused rather than exhausting the host.
pub const MAX_MEMORY_BYTES: u64 = 1 << 32;

impl Memory {
    /// Allocates every memory of `l` and copies its SET contents.
    pub fn load(l: &Loadable) -> Result<Memory> {
        let mut total: u64 = 0;
        let mut mems = Vec::with_capacity(l.memory_list.len());
        for (i, m) in l.memory_list.iter().enumerate() {
            total = total.saturating_add(m.size);
            if total > MAX_MEMORY_BYTES {
                return Err(Error::Rejected(format!(
                    "memory {i}: the memories add up to more than {MAX_MEMORY_BYTES} bytes"
                )));
            }
            let mut buf = vec![0u8; m.size as usize];
            if m.flags.contains(MemoryFlags::SET) {
                for (name, &off) in m.contents.iter().zip(&m.offsets) {
                    let blob = l
                        .blobs
                        .iter()
                        .position(|b| &b.name == name)
                        .ok_or_else(|| {
                            Error::Rejected(format!(
                                "memory {i}: content blob '{name}' does not exist"
                            ))
                        })?;
                    let data = onnc_nvdla_loadable::layout::blob_bytes(l, blob);
                    let end = off.checked_add(data.len() as u64).filter(|&e| e <= m.size).ok_or_else(|| {
                        Error::Rejected(format!(
                            "memory {i}: blob '{name}' ({} bytes) at offset {off} overflows the memory ({} bytes)",
                            data.len(),
                            m.size
                        ))
                    })?;
                    buf[off as usize..end as usize].copy_from_slice(data);
                }
            }
            mems.push(buf);
        }
        let addresses = l
            .address_list
            .iter()
            .map(|a| (a.mem_id, a.offset, a.size))
            .collect();
        Ok(Memory { mems, addresses })
    }

    /// The view of task `task` (whose `address_list` is `task_addresses`)
    /// for an op at `at`.
    pub fn task<'a>(&'a mut self, task_addresses: &'a [u16], at: At) -> TaskMem<'a> {
        TaskMem {
            mem: self,
            task_addresses,
            at,
        }
    }
}

/// A task's view of memory for one op: resolves (task address index,
/// offset) pairs as the KMD does and checks every access.
pub struct TaskMem<'a> {
    mem: &'a mut Memory,
    task_addresses: &'a [u16],
    /// The op being executed (for errors).
    pub at: At,
}

impl TaskMem<'_> {
    /// Memory id and byte offset of task address index `address` + `offset`.
    pub fn locate(&self, surface: &'static str, address: i16, offset: u64) -> Result<(u16, u64)> {
        let bad =
            |what: String| Error::Rejected(format!("{}: surface '{surface}': {what}", self.at));
        let slot = usize::try_from(address)
            .map_err(|_| bad(format!("address index {address} is negative")))?;
        let id = *self.task_addresses.get(slot).ok_or_else(|| {
            bad(format!(
                "address index {address} is outside the task address list ({} entries)",
                self.task_addresses.len()
            ))
        })?;
        let &(mem, base, _) = self
            .mem
            .addresses
            .get(id as usize)
            .ok_or_else(|| bad(format!("global address {id} is outside address_list")))?;
        if mem as usize >= self.mem.mems.len() {
            return Err(bad(format!(
                "address {id} names memory {mem}, outside memory_list"
            )));
        }
        Ok((mem, base.saturating_add(offset)))
    }

    fn range(
        &self,
        surface: &'static str,
        mem: u16,
        at: u64,
        len: usize,
    ) -> Result<std::ops::Range<usize>> {
        let size = self.mem.mems[mem as usize].len() as u64;
        match at.checked_add(len as u64) {
            Some(end) if end <= size => Ok(at as usize..end as usize),
            _ => Err(Error::OutOfBounds {
                at: self.at.clone(),
                surface,
                mem,
                offset: at,
                len: len as u64,
                mem_size: size,
            }),
        }
    }

    /// `len` bytes of surface `surface` at task address index `address`,
    /// byte `offset` from that address.
    pub fn read(
        &self,
        surface: &'static str,
        address: i16,
        offset: u64,
        len: usize,
    ) -> Result<&[u8]> {
        let (mem, at) = self.locate(surface, address, offset)?;
        let r = self.range(surface, mem, at, len)?;
        Ok(&self.mem.mems[mem as usize][r])
    }

    /// Writes `data` to surface `surface` at task address index `address`,
    /// byte `offset` from that address.
    pub fn write(
        &mut self,
        surface: &'static str,
        address: i16,
        offset: u64,
        data: &[u8],
    ) -> Result<()> {
        let (mem, at) = self.locate(surface, address, offset)?;
        let r = self.range(surface, mem, at, data.len())?;
        self.mem.mems[mem as usize][r].copy_from_slice(data);
        Ok(())
    }
}
