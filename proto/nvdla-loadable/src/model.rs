//! The in-memory model of a loadable: one Rust struct per schema table.
//!
//! In: nothing (plain data). Out: [`Loadable`] and its list entries, filled
//! by [`Loadable::read`](crate::Loadable::read) or by hand, serialised by
//! [`Loadable::write`](crate::Loadable::write). Field names follow
//! `proto/nvdla/loadable.fbs`; enum-typed fields are open newtypes from
//! [`crate::enums`] so that every value survives a round trip. Optional
//! per-entry vectors read as empty when absent.

use crate::enums::*;

/// A `major.minor.sub_minor` version (a 3-byte struct in the schema).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Version {
    /// Major.
    pub major: u8,
    /// Minor.
    pub minor: u8,
    /// Sub-minor.
    pub sub_minor: u8,
}

impl Version {
    /// Builds a version.
    pub const fn new(major: u8, minor: u8, sub_minor: u8) -> Self {
        Version {
            major,
            minor,
            sub_minor,
        }
    }

    /// The loadable container version every known producer writes.
    pub const LOADABLE: Version = Version::new(0, 7, 0);
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.sub_minor)
    }
}

/// The eight top-level lists of a loadable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ListKind {
    /// `task_list`.
    Tasks,
    /// `memory_list`.
    Memories,
    /// `address_list`.
    Addresses,
    /// `event_list`.
    Events,
    /// `blobs`.
    Blobs,
    /// `tensor_desc_list`.
    TensorDescs,
    /// `reloc_list`.
    Relocs,
    /// `submit_list`.
    Submits,
}

impl ListKind {
    /// The schema field name.
    pub fn field_name(self) -> &'static str {
        match self {
            ListKind::Tasks => "task_list",
            ListKind::Memories => "memory_list",
            ListKind::Addresses => "address_list",
            ListKind::Events => "event_list",
            ListKind::Blobs => "blobs",
            ListKind::TensorDescs => "tensor_desc_list",
            ListKind::Relocs => "reloc_list",
            ListKind::Submits => "submit_list",
        }
    }
}

/// Root table `Loadable`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Loadable {
    /// Container version (0.7.0).
    pub version: Version,
    /// `task_list`.
    pub task_list: Vec<TaskListEntry>,
    /// `memory_list`.
    pub memory_list: Vec<MemoryListEntry>,
    /// `address_list`.
    pub address_list: Vec<AddressListEntry>,
    /// `event_list`.
    pub event_list: Vec<EventListEntry>,
    /// `blobs`.
    pub blobs: Vec<Blob>,
    /// `tensor_desc_list`.
    pub tensor_desc_list: Vec<TensorDescListEntry>,
    /// `reloc_list`.
    pub reloc_list: Vec<RelocListEntry>,
    /// `submit_list`.
    pub submit_list: Vec<SubmitListEntry>,
    /// The 4-byte file identifier found by the reader (`NVDA` for compiler
    /// output), `None` if the bytes are not 4 printable ASCII letters or
    /// digits. The writer always writes `NVDA`.
    pub file_identifier: Option<[u8; 4]>,
    /// Top-level lists absent from the input (the NVIDIA runtime
    /// dereferences all eight). The writer always writes every list.
    pub missing_lists: Vec<ListKind>,
}

/// `TaskListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TaskListEntry {
    /// Must equal the index.
    pub id: u16,
    /// DLA1 or EMU1.
    pub interface: Interface,
    /// Engine instance, −1 = any.
    pub instance: i16,
    /// Global address-list ids; entry 0 is the task's network descriptor.
    pub address_list: Vec<u16>,
    /// Event ids waited on before the task.
    pub pre_actions: Vec<u16>,
    /// Event ids signalled after the task.
    pub post_actions: Vec<u16>,
}

/// `SubmitListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SubmitListEntry {
    /// Submit id.
    pub id: u16,
    /// Task ids submitted together.
    pub task_id: Vec<u16>,
}

/// `MemoryListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemoryListEntry {
    /// Must equal the index.
    pub id: u16,
    /// SYSTEM or SRAM.
    pub domain: MemoryDomain,
    /// ALLOC / SET / INPUT / OUTPUT bit set.
    pub flags: MemoryFlags,
    /// Bytes to allocate.
    pub size: u64,
    /// Alignment (ignored by the runtime).
    pub alignment: u32,
    /// Blob names copied in when SET.
    pub contents: Vec<String>,
    /// Byte offset of each content.
    pub offsets: Vec<u64>,
    /// Bind id (INPUT/OUTPUT only).
    pub bind_id: u16,
    /// Tensor desc index (bindable only).
    pub tensor_desc_id: u16,
}

/// `AddressListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AddressListEntry {
    /// Must equal the index.
    pub id: u16,
    /// Memory entry id.
    pub mem_id: u16,
    /// Byte offset in the memory.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
}

/// `EventListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventListEntry {
    /// Event id.
    pub id: u16,
    /// Event type.
    pub event_type: EventType,
    /// Target.
    pub target: u16,
    /// Value.
    pub val: u32,
    /// WAIT or SIGNAL.
    pub op: EventOp,
}

/// `Blob`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blob {
    /// Symbol name (unique), referenced from memory contents.
    pub name: String,
    /// Bytes the runtime copies (must be ≤ `data.len()`).
    pub size: u64,
    /// NONE (raw data), DLA1 or EMU1.
    pub interface: Interface,
    /// See [`crate::enums::sub_interface`].
    pub sub_interface: u32,
    /// Firmware interface version for descriptor blobs; `None` if absent.
    pub version: Option<Version>,
    /// Payload.
    pub data: Vec<u8>,
}

/// `TensorDescListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TensorDescListEntry {
    /// Tensor name (required by the runtime).
    pub name: String,
    /// Id.
    pub id: u16,
    /// Memory id.
    pub mem_id: u16,
    /// Size in bytes.
    pub size: u64,
    /// Offset in the memory.
    pub offset: u64,
    /// Data format.
    pub data_format: DataFormat,
    /// Element type.
    pub data_type: DataType,
    /// Category.
    pub data_category: DataCategory,
    /// Pixel format.
    pub pixel_format: PixelFormat,
    /// Pixel mapping.
    pub pixel_mapping: PixelMapping,
    /// Batch.
    pub n: i32,
    /// Channels.
    pub c: i32,
    /// Height.
    pub h: i32,
    /// Width.
    pub w: i32,
    /// `stride_0..stride_7`: bytes per element, line, surface, plane, 0….
    pub strides: [u32; 8],
}

/// `RelocListEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RelocListEntry {
    /// Address id whose memory is relocated.
    pub address_id: u16,
    /// Memory id written.
    pub write_id: u16,
    /// Byte offset written.
    pub offset: u64,
    /// Interface of the written blob.
    pub interface: Interface,
    /// Sub-interface of the written blob.
    pub sub_interface: u32,
    /// What is rewritten.
    pub reloc_type: RelocType,
}
