//! Container writer: [`Loadable`] → FlatBuffers bytes.
//!
//! In: the model. Out: a finished buffer with file identifier `NVDA`, built
//! with the `flatbuffers` crate's safe builder. All eight top-level lists and
//! every per-entry vector are written (empty when empty) because the NVIDIA
//! runtime dereferences them without null checks; scalars equal to their
//! schema default are omitted, as `flatc` does. Output is deterministic:
//! entries are written in list order.

use crate::model::*;
use crate::schema as S;
use flatbuffers::{FlatBufferBuilder, WIPOffset};
use std::ops::Range;

type Fbb<'a> = FlatBufferBuilder<'a>;
type Done = WIPOffset<flatbuffers::TableFinishedWIPOffset>;

/// vtable slot offset of field index `i` (indices are small schema constants).
const fn slot(i: usize) -> u16 {
    (4 + 2 * i) as u16
}

/// Writes a `Version` struct inline as field `i` of the open table. The three
/// bytes are pushed back to front so they end up contiguous; the slot points
/// at `major`.
fn push_version(fbb: &mut Fbb, i: usize, v: Version) {
    fbb.push(v.sub_minor);
    fbb.push(v.minor);
    fbb.push_slot_always(slot(i), v.major);
}

fn task(fbb: &mut Fbb, e: &TaskListEntry) -> Done {
    let addr = fbb.create_vector(&e.address_list);
    let pre = fbb.create_vector(&e.pre_actions);
    let post = fbb.create_vector(&e.post_actions);
    let t = fbb.start_table();
    fbb.push_slot(slot(S::task::id), e.id, 0);
    fbb.push_slot(slot(S::task::interface), e.interface.0, 0);
    fbb.push_slot(slot(S::task::instance), e.instance, 0);
    fbb.push_slot_always(slot(S::task::address_list), addr);
    fbb.push_slot_always(slot(S::task::pre_actions), pre);
    fbb.push_slot_always(slot(S::task::post_actions), post);
    fbb.end_table(t)
}

fn submit(fbb: &mut Fbb, e: &SubmitListEntry) -> Done {
    let ids = fbb.create_vector(&e.task_id);
    let t = fbb.start_table();
    fbb.push_slot(slot(S::submit::id), e.id, 0);
    fbb.push_slot_always(slot(S::submit::task_id), ids);
    fbb.end_table(t)
}

fn memory(fbb: &mut Fbb, e: &MemoryListEntry) -> Done {
    let names: Vec<_> = e.contents.iter().map(|s| fbb.create_string(s)).collect();
    let contents = fbb.create_vector(&names);
    let offsets = fbb.create_vector(&e.offsets);
    let t = fbb.start_table();
    fbb.push_slot(slot(S::memory::id), e.id, 0);
    fbb.push_slot(slot(S::memory::domain), e.domain.0, 0);
    fbb.push_slot(slot(S::memory::flags), e.flags.0, 0);
    fbb.push_slot(slot(S::memory::size), e.size, 0);
    fbb.push_slot(slot(S::memory::alignment), e.alignment, 0);
    fbb.push_slot_always(slot(S::memory::contents), contents);
    fbb.push_slot_always(slot(S::memory::offsets), offsets);
    fbb.push_slot(slot(S::memory::bind_id), e.bind_id, 0);
    fbb.push_slot(slot(S::memory::tensor_desc_id), e.tensor_desc_id, 0);
    fbb.end_table(t)
}

fn address(fbb: &mut Fbb, e: &AddressListEntry) -> Done {
    let t = fbb.start_table();
    fbb.push_slot(slot(S::address::id), e.id, 0);
    fbb.push_slot(slot(S::address::mem_id), e.mem_id, 0);
    fbb.push_slot(slot(S::address::offset), e.offset, 0);
    fbb.push_slot(slot(S::address::size), e.size, 0);
    fbb.end_table(t)
}

fn event(fbb: &mut Fbb, e: &EventListEntry) -> Done {
    let t = fbb.start_table();
    fbb.push_slot(slot(S::event::id), e.id, 0);
    fbb.push_slot(slot(S::event::r#type), e.event_type.0, 0);
    fbb.push_slot(slot(S::event::target), e.target, 0);
    fbb.push_slot(slot(S::event::val), e.val, 0);
    fbb.push_slot(slot(S::event::op), e.op.0, 0);
    fbb.end_table(t)
}

/// Writes blob `e`; with `reserve = Some(n)` its payload is `n` zero bytes
/// (from `zeros`) instead of `e.data`, and `at` gets the payload's offset
/// from the end of the buffer.
fn blob(fbb: &mut Fbb, e: &Blob, reserve: Option<usize>, zeros: &[u8], at: &mut usize) -> Done {
    let name = fbb.create_string(&e.name);
    let data = match reserve {
        Some(n) => fbb.create_vector(&zeros[..n]),
        None => fbb.create_vector(&e.data),
    };
    // The vector starts with its u32 length; `value()` counts from the end.
    *at = data.value() as usize - 4;
    let t = fbb.start_table();
    fbb.push_slot_always(slot(S::blob::name), name);
    fbb.push_slot(slot(S::blob::size), e.size, 0);
    fbb.push_slot(slot(S::blob::interface), e.interface.0, 0);
    fbb.push_slot(slot(S::blob::sub_interface), e.sub_interface, 0);
    if let Some(v) = e.version {
        push_version(fbb, S::blob::version, v);
    }
    fbb.push_slot_always(slot(S::blob::data), data);
    fbb.end_table(t)
}

fn tensor_desc(fbb: &mut Fbb, e: &TensorDescListEntry) -> Done {
    let name = fbb.create_string(&e.name);
    let t = fbb.start_table();
    fbb.push_slot_always(slot(S::tensor_desc::name), name);
    fbb.push_slot(slot(S::tensor_desc::id), e.id, 0);
    fbb.push_slot(slot(S::tensor_desc::mem_id), e.mem_id, 0);
    fbb.push_slot(slot(S::tensor_desc::size), e.size, 0);
    fbb.push_slot(slot(S::tensor_desc::offset), e.offset, 0);
    fbb.push_slot(slot(S::tensor_desc::data_format), e.data_format.0, 0);
    fbb.push_slot(slot(S::tensor_desc::data_type), e.data_type.0, 0);
    fbb.push_slot(slot(S::tensor_desc::data_category), e.data_category.0, 0);
    fbb.push_slot(slot(S::tensor_desc::pixel_format), e.pixel_format.0, 0);
    fbb.push_slot(slot(S::tensor_desc::pixel_mapping), e.pixel_mapping.0, 0);
    fbb.push_slot(slot(S::tensor_desc::n), e.n, 0);
    fbb.push_slot(slot(S::tensor_desc::c), e.c, 0);
    fbb.push_slot(slot(S::tensor_desc::h), e.h, 0);
    fbb.push_slot(slot(S::tensor_desc::w), e.w, 0);
    for (i, s) in e.strides.iter().enumerate() {
        fbb.push_slot(slot(S::tensor_desc::stride_0 + i), *s, 0);
    }
    fbb.end_table(t)
}

fn reloc(fbb: &mut Fbb, e: &RelocListEntry) -> Done {
    let t = fbb.start_table();
    fbb.push_slot(slot(S::reloc::address_id), e.address_id, 0);
    fbb.push_slot(slot(S::reloc::write_id), e.write_id, 0);
    fbb.push_slot(slot(S::reloc::offset), e.offset, 0);
    fbb.push_slot(slot(S::reloc::interface), e.interface.0, 0);
    fbb.push_slot(slot(S::reloc::sub_interface), e.sub_interface, 0);
    fbb.push_slot(slot(S::reloc::reloc_type), e.reloc_type.0, 0);
    fbb.end_table(t)
}

fn list<'a, T>(
    fbb: &mut Fbb<'a>,
    items: &[T],
    f: impl Fn(&mut Fbb<'a>, &T) -> Done,
) -> WIPOffset<
    flatbuffers::Vector<'a, flatbuffers::ForwardsUOffset<flatbuffers::TableFinishedWIPOffset>>,
> {
    let offs: Vec<Done> = items.iter().map(|e| f(fbb, e)).collect();
    fbb.create_vector(&offs)
}

/// A serialized loadable whose reserved blob payloads are still zeros, for
/// the caller to fill in place (see [`Loadable::write_reserving`]).
#[derive(Debug)]
pub struct Reserved {
    buf: Vec<u8>,
    start: usize,
    /// Per reserved blob, in the order asked: the byte range of its payload
    /// in [`Reserved::bytes`].
    pub payloads: Vec<Range<usize>>,
}

impl Reserved {
    /// The loadable's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// The loadable's bytes, writable (to fill the reserved payloads).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.start..]
    }

    /// The loadable's bytes, owned (moved to the front of the buffer).
    pub fn into_vec(mut self) -> Vec<u8> {
        self.buf.drain(..self.start);
        self.buf
    }
}

impl std::ops::Deref for Reserved {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

impl Loadable {
    /// Serialises the loadable (identifier `NVDA`). Deterministic: the same
    /// model always gives the same bytes.
    pub fn write(&self) -> Vec<u8> {
        self.write_reserving(&[]).into_vec()
    }

    /// Serialises the loadable with room for payloads made later: each
    /// `(blob index, n)` of `reserve` writes that blob with `n` zero bytes
    /// instead of its `data`. Out: the bytes, and where each reserved
    /// payload is; once the caller writes the payloads there, the bytes are
    /// those [`Loadable::write`] gives with the payloads in `data`. The
    /// buffer is sized up front, so nothing is copied as it grows.
    pub fn write_reserving(&self, reserve: &[(usize, usize)]) -> Reserved {
        let mut wanted: Vec<Option<usize>> = vec![None; self.blobs.len()];
        for &(i, n) in reserve {
            wanted[i] = Some(n);
        }
        let zeros = vec![0u8; reserve.iter().map(|r| r.1).max().unwrap_or(0)];
        let payload: usize = self
            .blobs
            .iter()
            .zip(&wanted)
            .map(|(b, w)| w.unwrap_or(b.data.len()))
            .sum();
        let entries = self.task_list.len()
            + self.memory_list.len()
            + self.address_list.len()
            + self.event_list.len()
            + self.blobs.len()
            + self.tensor_desc_list.len()
            + self.reloc_list.len()
            + self.submit_list.len();
        let mut fbb = FlatBufferBuilder::with_capacity(payload + 256 * entries + 4096);
        let tasks = list(&mut fbb, &self.task_list, task);
        let memories = list(&mut fbb, &self.memory_list, memory);
        let addresses = list(&mut fbb, &self.address_list, address);
        let events = list(&mut fbb, &self.event_list, event);
        let mut ends = vec![0usize; self.blobs.len()];
        let offs: Vec<Done> = self
            .blobs
            .iter()
            .enumerate()
            .map(|(i, e)| blob(&mut fbb, e, wanted[i], &zeros, &mut ends[i]))
            .collect();
        let blobs = fbb.create_vector(&offs);
        let tensors = list(&mut fbb, &self.tensor_desc_list, tensor_desc);
        let relocs = list(&mut fbb, &self.reloc_list, reloc);
        let submits = list(&mut fbb, &self.submit_list, submit);
        let t = fbb.start_table();
        push_version(&mut fbb, S::loadable::version, self.version);
        fbb.push_slot_always(slot(S::loadable::task_list), tasks);
        fbb.push_slot_always(slot(S::loadable::memory_list), memories);
        fbb.push_slot_always(slot(S::loadable::address_list), addresses);
        fbb.push_slot_always(slot(S::loadable::event_list), events);
        fbb.push_slot_always(slot(S::loadable::blobs), blobs);
        fbb.push_slot_always(slot(S::loadable::tensor_desc_list), tensors);
        fbb.push_slot_always(slot(S::loadable::reloc_list), relocs);
        fbb.push_slot_always(slot(S::loadable::submit_list), submits);
        let root = fbb.end_table(t);
        fbb.finish(root, Some("NVDA"));
        let (buf, start) = fbb.collapse();
        let len = buf.len() - start;
        let payloads = reserve
            .iter()
            .map(|&(i, n)| {
                let at = len - ends[i];
                at..at + n
            })
            .collect();
        Reserved {
            buf,
            start,
            payloads,
        }
    }
}
