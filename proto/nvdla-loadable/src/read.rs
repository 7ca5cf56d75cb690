//! Container reader: FlatBuffers bytes → [`Loadable`].
//!
//! In: the bytes of a `.nvdla` loadable (with or without the `NVDA`
//! identifier). Out: the model, or an [`Error`](crate::Error) for any
//! malformed input (never a panic). Absent top-level lists are read as
//! empty and recorded in [`Loadable::missing_lists`].

use crate::enums::*;
use crate::error::{Error, Result};
use crate::fb::{Table, Vector};
use crate::model::*;
use crate::schema as S;

fn version(bytes: Option<[u8; 3]>) -> Option<Version> {
    bytes.map(|[major, minor, sub_minor]| Version::new(major, minor, sub_minor))
}

fn u16s(t: &Table, slot: usize) -> Result<Vec<u16>> {
    match t.vector(slot, 2)? {
        Some(v) => v.scalars(),
        None => Ok(Vec::new()),
    }
}

fn tables<T>(v: Option<Vector>, f: impl Fn(&Table) -> Result<T>) -> Result<Vec<T>> {
    match v {
        Some(v) => (0..v.len()).map(|i| f(&v.table(i)?)).collect(),
        None => Ok(Vec::new()),
    }
}

fn task(t: &Table) -> Result<TaskListEntry> {
    Ok(TaskListEntry {
        id: t.scalar(S::task::id, 0)?,
        interface: Interface(t.scalar(S::task::interface, 0)?),
        instance: t.scalar(S::task::instance, 0)?,
        address_list: u16s(t, S::task::address_list)?,
        pre_actions: u16s(t, S::task::pre_actions)?,
        post_actions: u16s(t, S::task::post_actions)?,
    })
}

fn submit(t: &Table) -> Result<SubmitListEntry> {
    Ok(SubmitListEntry {
        id: t.scalar(S::submit::id, 0)?,
        task_id: u16s(t, S::submit::task_id)?,
    })
}

fn memory(t: &Table) -> Result<MemoryListEntry> {
    let contents = match t.vector(S::memory::contents, 4)? {
        Some(v) => (0..v.len()).map(|i| v.string(i)).collect::<Result<_>>()?,
        None => Vec::new(),
    };
    let offsets = match t.vector(S::memory::offsets, 8)? {
        Some(v) => v.scalars()?,
        None => Vec::new(),
    };
    Ok(MemoryListEntry {
        id: t.scalar(S::memory::id, 0)?,
        domain: MemoryDomain(t.scalar(S::memory::domain, 0)?),
        flags: MemoryFlags(t.scalar(S::memory::flags, 0)?),
        size: t.scalar(S::memory::size, 0)?,
        alignment: t.scalar(S::memory::alignment, 0)?,
        contents,
        offsets,
        bind_id: t.scalar(S::memory::bind_id, 0)?,
        tensor_desc_id: t.scalar(S::memory::tensor_desc_id, 0)?,
    })
}

fn address(t: &Table) -> Result<AddressListEntry> {
    Ok(AddressListEntry {
        id: t.scalar(S::address::id, 0)?,
        mem_id: t.scalar(S::address::mem_id, 0)?,
        offset: t.scalar(S::address::offset, 0)?,
        size: t.scalar(S::address::size, 0)?,
    })
}

fn event(t: &Table) -> Result<EventListEntry> {
    Ok(EventListEntry {
        id: t.scalar(S::event::id, 0)?,
        event_type: EventType(t.scalar(S::event::r#type, 0)?),
        target: t.scalar(S::event::target, 0)?,
        val: t.scalar(S::event::val, 0)?,
        op: EventOp(t.scalar(S::event::op, 0)?),
    })
}

fn blob(t: &Table) -> Result<Blob> {
    Ok(Blob {
        name: t.string(S::blob::name)?.unwrap_or_default(),
        size: t.scalar(S::blob::size, 0)?,
        interface: Interface(t.scalar(S::blob::interface, 0)?),
        sub_interface: t.scalar(S::blob::sub_interface, 0)?,
        version: version(t.inline::<3>(S::blob::version)?),
        data: match t.vector(S::blob::data, 1)? {
            Some(v) => v.bytes().to_vec(),
            None => Vec::new(),
        },
    })
}

fn tensor_desc(t: &Table) -> Result<TensorDescListEntry> {
    let mut strides = [0u32; 8];
    for (i, s) in strides.iter_mut().enumerate() {
        *s = t.scalar(S::tensor_desc::stride_0 + i, 0)?;
    }
    Ok(TensorDescListEntry {
        name: t.string(S::tensor_desc::name)?.unwrap_or_default(),
        id: t.scalar(S::tensor_desc::id, 0)?,
        mem_id: t.scalar(S::tensor_desc::mem_id, 0)?,
        size: t.scalar(S::tensor_desc::size, 0)?,
        offset: t.scalar(S::tensor_desc::offset, 0)?,
        data_format: DataFormat(t.scalar(S::tensor_desc::data_format, 0)?),
        data_type: DataType(t.scalar(S::tensor_desc::data_type, 0)?),
        data_category: DataCategory(t.scalar(S::tensor_desc::data_category, 0)?),
        pixel_format: PixelFormat(t.scalar(S::tensor_desc::pixel_format, 0)?),
        pixel_mapping: PixelMapping(t.scalar(S::tensor_desc::pixel_mapping, 0)?),
        n: t.scalar(S::tensor_desc::n, 0)?,
        c: t.scalar(S::tensor_desc::c, 0)?,
        h: t.scalar(S::tensor_desc::h, 0)?,
        w: t.scalar(S::tensor_desc::w, 0)?,
        strides,
    })
}

fn reloc(t: &Table) -> Result<RelocListEntry> {
    Ok(RelocListEntry {
        address_id: t.scalar(S::reloc::address_id, 0)?,
        write_id: t.scalar(S::reloc::write_id, 0)?,
        offset: t.scalar(S::reloc::offset, 0)?,
        interface: Interface(t.scalar(S::reloc::interface, 0)?),
        sub_interface: t.scalar(S::reloc::sub_interface, 0)?,
        reloc_type: RelocType(t.scalar(S::reloc::reloc_type, 0)?),
    })
}

impl Loadable {
    /// Parses a loadable. Every offset is bounds-checked; malformed input
    /// yields an error.
    pub fn read(bytes: &[u8]) -> Result<Loadable> {
        let root = Table::root(bytes)?;
        let version =
            version(root.inline::<3>(S::loadable::version)?).ok_or(Error::MissingField {
                table: "Loadable",
                field: "version",
            })?;
        let file_identifier = bytes
            .get(4..8)
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
            .filter(|id| id.iter().all(u8::is_ascii_alphanumeric));
        let mut missing_lists = Vec::new();
        let mut list = |slot: usize, kind: ListKind| -> Result<Option<Vector>> {
            let v = root.vector(slot, 4)?;
            if v.is_none() {
                missing_lists.push(kind);
            }
            Ok(v)
        };
        let task_list = list(S::loadable::task_list, ListKind::Tasks)?;
        let memory_list = list(S::loadable::memory_list, ListKind::Memories)?;
        let address_list = list(S::loadable::address_list, ListKind::Addresses)?;
        let event_list = list(S::loadable::event_list, ListKind::Events)?;
        let blobs = list(S::loadable::blobs, ListKind::Blobs)?;
        let tensor_desc_list = list(S::loadable::tensor_desc_list, ListKind::TensorDescs)?;
        let reloc_list = list(S::loadable::reloc_list, ListKind::Relocs)?;
        let submit_list = list(S::loadable::submit_list, ListKind::Submits)?;
        Ok(Loadable {
            version,
            task_list: tables(task_list, task)?,
            memory_list: tables(memory_list, memory)?,
            address_list: tables(address_list, address)?,
            event_list: tables(event_list, event)?,
            blobs: tables(blobs, blob)?,
            tensor_desc_list: tables(tensor_desc_list, tensor_desc)?,
            reloc_list: tables(reloc_list, reloc)?,
            submit_list: tables(submit_list, submit)?,
            file_identifier,
            missing_lists,
        })
    }
}
