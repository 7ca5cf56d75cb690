//! Container rules (research/nvdla.md §1.2–§1.5): lists present, ids
//! positional, blobs, memory contents, bind ids, addresses, tasks, submits,
//! tensor descs, relocations.

use super::Sink;
use crate::enums::{sub_interface, Interface, MemoryDomain, MemoryFlags};
use crate::layout::{blob_roles, BlobRole};
use crate::model::{Loadable, Version};
use std::collections::{BTreeMap, HashMap, HashSet};

/// `NVDLA_MAX_BUFFERS_PER_TASK` (and the EMU equivalent).
pub const MAX_BUFFERS_PER_TASK: usize = 6144;

pub(super) fn check(l: &Loadable, s: &mut Sink) {
    header(l, s);
    ids(l, s);
    blobs(l, s);
    memories(l, s);
    bind_ids(l, s);
    addresses(l, s);
    tasks(l, s);
    submits(l, s);
    tensor_descs(l, s);
    relocs(l, s);
    dep_graph_names(l, s);
}

fn header(l: &Loadable, s: &mut Sink) {
    for k in &l.missing_lists {
        s.error(
            "missing-list",
            format!("loadable.{}", k.field_name()),
            "absent; the runtime dereferences all eight lists (write an empty vector)",
        );
    }
    if l.version != Version::LOADABLE {
        s.warn(
            "loadable-version",
            "loadable.version",
            format!("{} (expected 0.7.0)", l.version),
        );
    }
    for (name, len) in [
        ("submit_list", l.submit_list.len()),
        ("task_list", l.task_list.len()),
        ("memory_list", l.memory_list.len()),
    ] {
        if len == 0 {
            s.error(
                "empty-list",
                format!("loadable.{name}"),
                "the runtime requires at least one entry",
            );
        }
    }
}

fn ids(l: &Loadable, s: &mut Sink) {
    let positional = |s: &mut Sink, list: &str, ids: Vec<u16>, error: bool| {
        for (i, id) in ids.into_iter().enumerate() {
            if usize::from(id) != i {
                let msg = format!("id {id} at index {i}; ids are positional");
                if error {
                    s.error("id-positional", format!("{list}[{i}].id"), msg);
                } else {
                    s.warn("id-positional", format!("{list}[{i}].id"), msg);
                }
            }
        }
    };
    positional(
        s,
        "memory_list",
        l.memory_list.iter().map(|e| e.id).collect(),
        true,
    );
    positional(
        s,
        "address_list",
        l.address_list.iter().map(|e| e.id).collect(),
        true,
    );
    positional(
        s,
        "task_list",
        l.task_list.iter().map(|e| e.id).collect(),
        true,
    );
    positional(
        s,
        "event_list",
        l.event_list.iter().map(|e| e.id).collect(),
        false,
    );
    positional(
        s,
        "submit_list",
        l.submit_list.iter().map(|e| e.id).collect(),
        false,
    );
}

fn blobs(l: &Loadable, s: &mut Sink) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, b) in l.blobs.iter().enumerate() {
        if let Some(first) = seen.insert(&b.name, i) {
            s.error(
                "blob-name-unique",
                format!("blobs[{i}].name"),
                format!("\"{}\" already names blobs[{first}]", b.name),
            );
        }
        if b.size > b.data.len() as u64 {
            s.error(
                "blob-size",
                format!("blobs[{i}].size"),
                format!(
                    "{} exceeds the {} data bytes (the runtime copies `size` bytes)",
                    b.size,
                    b.data.len()
                ),
            );
        }
        if b.version.is_none() {
            s.error(
                "blob-version",
                format!("blobs[{i}].version"),
                "absent; the runtime dereferences it",
            );
        }
    }
}

fn memories(l: &Loadable, s: &mut Sink) {
    let blob_size: HashMap<&str, u64> = l.blobs.iter().map(|b| (b.name.as_str(), b.size)).collect();
    for (i, m) in l.memory_list.iter().enumerate() {
        if m.domain.name().is_none() {
            s.error(
                "memory-domain",
                format!("memory_list[{i}].domain"),
                format!("unknown domain {}", m.domain),
            );
        }
        if m.flags.0 & !31 != 0 {
            s.error(
                "memory-flags",
                format!("memory_list[{i}].flags"),
                format!("unknown flag bits in {}", m.flags),
            );
        }
        let bindable =
            m.flags.contains(MemoryFlags::INPUT) || m.flags.contains(MemoryFlags::OUTPUT);
        if !m.flags.contains(MemoryFlags::SET) {
            continue;
        }
        if bindable {
            s.warn(
                "bindable-set",
                format!("memory_list[{i}].flags"),
                format!(
                    "{}: bindable memory is never loaded, its SET contents are ignored",
                    m.flags
                ),
            );
            continue;
        }
        if m.contents.len() != m.offsets.len() {
            s.error(
                "set-contents",
                format!("memory_list[{i}].offsets"),
                format!(
                    "{} contents but {} offsets",
                    m.contents.len(),
                    m.offsets.len()
                ),
            );
        }
        for (j, (name, &off)) in m.contents.iter().zip(&m.offsets).enumerate() {
            match blob_size.get(name.as_str()) {
                None => s.error(
                    "set-contents",
                    format!("memory_list[{i}].contents[{j}]"),
                    format!("no blob named \"{name}\""),
                ),
                Some(&size) if off.checked_add(size).is_none_or(|end| end > m.size) => s.error(
                    "set-contents",
                    format!("memory_list[{i}].contents[{j}]"),
                    format!("blob \"{name}\" ({size} bytes) at offset {off} overflows the {}-byte memory", m.size),
                ),
                Some(_) => {}
            }
        }
    }
}

fn bind_ids(l: &Loadable, s: &mut Sink) {
    // The runtime takes the bind id from INPUT (checked first) or OUTPUT.
    let mut by_dir: BTreeMap<&str, Vec<(usize, u16)>> = BTreeMap::new();
    for (i, m) in l.memory_list.iter().enumerate() {
        let dir = if m.flags.contains(MemoryFlags::INPUT) {
            "INPUT"
        } else if m.flags.contains(MemoryFlags::OUTPUT) {
            "OUTPUT"
        } else {
            continue;
        };
        by_dir.entry(dir).or_default().push((i, m.bind_id));
        if usize::from(m.tensor_desc_id) >= l.tensor_desc_list.len() {
            s.error(
                "tensor-desc-id",
                format!("memory_list[{i}].tensor_desc_id"),
                format!(
                    "{} but tensor_desc_list has {} entries",
                    m.tensor_desc_id,
                    l.tensor_desc_list.len()
                ),
            );
        }
        if !m.flags.contains(MemoryFlags::ALLOC) {
            s.warn(
                "bindable-flags",
                format!("memory_list[{i}].flags"),
                format!("{}: bindable memory without ALLOC", m.flags),
            );
        }
    }
    for (dir, entries) in by_dir {
        let mut seen: HashMap<u16, usize> = HashMap::new();
        for &(i, id) in &entries {
            if let Some(first) = seen.insert(id, i) {
                s.error(
                    "bind-id",
                    format!("memory_list[{i}].bind_id"),
                    format!("{dir} bind id {id} already used by memory_list[{first}]"),
                );
            }
        }
        let n = entries.len();
        for &(i, id) in &entries {
            if usize::from(id) >= n {
                s.error(
                    "bind-id",
                    format!("memory_list[{i}].bind_id"),
                    format!("{dir} bind id {id} outside 0..{n}: ids must be contiguous from 0"),
                );
            }
        }
    }
}

fn addresses(l: &Loadable, s: &mut Sink) {
    for (i, a) in l.address_list.iter().enumerate() {
        let Some(m) = l.memory_list.get(usize::from(a.mem_id)) else {
            s.error(
                "address-memory",
                format!("address_list[{i}].mem_id"),
                format!(
                    "{} but memory_list has {} entries",
                    a.mem_id,
                    l.memory_list.len()
                ),
            );
            continue;
        };
        // The runtime hands the firmware a handle and `offset` only
        // (`Runtime::fillTaskAddressList`); `size` is never read. An address
        // past its memory is an error; a size past it (ONNC 1.3.0 sizes
        // every entry as its whole memory) is a warning.
        if a.offset > m.size {
            s.error(
                "address-extent",
                format!("address_list[{i}].offset"),
                format!(
                    "{} lies past the end of memory {} ({} bytes)",
                    a.offset, a.mem_id, m.size
                ),
            );
        } else if a.offset.checked_add(a.size).is_none_or(|end| end > m.size) {
            s.warn(
                "address-size",
                format!("address_list[{i}].size"),
                format!(
                    "offset {} + size {} exceeds memory {} ({} bytes); the runtime never reads this field",
                    a.offset, a.size, a.mem_id, m.size
                ),
            );
        }
    }
}

fn tasks(l: &Loadable, s: &mut Sink) {
    let event_ids: HashSet<u16> = l.event_list.iter().map(|e| e.id).collect();
    for (t, task) in l.task_list.iter().enumerate() {
        if task.interface != Interface::DLA1 && task.interface != Interface::EMU1 {
            s.error(
                "task-interface",
                format!("task_list[{t}].interface"),
                format!("{}: only DLA1 and EMU1 run", task.interface),
            );
        }
        if task.interface == Interface::DLA1 && task.instance != -1 {
            s.warn(
                "task-instance",
                format!("task_list[{t}].instance"),
                format!("{} (the runtime warns unless -1 = any)", task.instance),
            );
        }
        let n = task.address_list.len();
        if n == 0 {
            s.error(
                "task-address-count",
                format!("task_list[{t}].address_list"),
                "empty; entry 0 must be the network descriptor",
            );
        }
        if n > MAX_BUFFERS_PER_TASK {
            s.error(
                "task-address-count",
                format!("task_list[{t}].address_list"),
                format!(
                    "{n} entries, more than NVDLA_MAX_BUFFERS_PER_TASK = {MAX_BUFFERS_PER_TASK}"
                ),
            );
        }
        for (j, &id) in task.address_list.iter().enumerate() {
            match l.address_list.get(usize::from(id)) {
                None => s.error(
                    "task-address-id",
                    format!("task_list[{t}].address_list[{j}]"),
                    format!(
                        "address id {id} but address_list has {} entries",
                        l.address_list.len()
                    ),
                ),
                Some(a) => {
                    if let Some(m) = l.memory_list.get(usize::from(a.mem_id)) {
                        if m.domain == MemoryDomain::SRAM {
                            s.error(
                                "sram-memory",
                                format!("task_list[{t}].address_list[{j}]"),
                                format!(
                                    "memory {} is SRAM, which the runtime never allocates",
                                    a.mem_id
                                ),
                            );
                        }
                    }
                }
            }
        }
        for (field, ids) in [
            ("pre_actions", &task.pre_actions),
            ("post_actions", &task.post_actions),
        ] {
            for (j, id) in ids.iter().enumerate() {
                if !event_ids.contains(id) {
                    s.warn(
                        "task-event-id",
                        format!("task_list[{t}].{field}[{j}]"),
                        format!("no event with id {id}"),
                    );
                }
            }
        }
    }
}

fn submits(l: &Loadable, s: &mut Sink) {
    let mut submitted = HashSet::new();
    for (i, sub) in l.submit_list.iter().enumerate() {
        for (j, &id) in sub.task_id.iter().enumerate() {
            if usize::from(id) >= l.task_list.len() {
                s.error(
                    "submit-task-id",
                    format!("submit_list[{i}].task_id[{j}]"),
                    format!("task {id} but task_list has {} entries", l.task_list.len()),
                );
            }
            submitted.insert(id);
        }
    }
    for t in 0..l.task_list.len() {
        if u16::try_from(t).is_ok_and(|t| !submitted.contains(&t)) {
            s.warn(
                "task-not-submitted",
                format!("task_list[{t}]"),
                "no submit entry runs this task",
            );
        }
    }
}

fn tensor_descs(l: &Loadable, s: &mut Sink) {
    for (i, t) in l.tensor_desc_list.iter().enumerate() {
        if usize::from(t.mem_id) >= l.memory_list.len() {
            s.error(
                "tensor-desc-memory",
                format!("tensor_desc_list[{i}].mem_id"),
                format!(
                    "{} but memory_list has {} entries",
                    t.mem_id,
                    l.memory_list.len()
                ),
            );
        }
        if t.name.is_empty() {
            s.warn(
                "tensor-desc-name",
                format!("tensor_desc_list[{i}].name"),
                "empty (the runtime requires a name)",
            );
        }
    }
}

fn relocs(l: &Loadable, s: &mut Sink) {
    for (i, r) in l.reloc_list.iter().enumerate() {
        if usize::from(r.address_id) >= l.address_list.len() {
            s.error(
                "reloc",
                format!("reloc_list[{i}].address_id"),
                format!(
                    "{} but address_list has {} entries",
                    r.address_id,
                    l.address_list.len()
                ),
            );
        }
        if usize::from(r.write_id) >= l.memory_list.len() {
            s.error(
                "reloc",
                format!("reloc_list[{i}].write_id"),
                format!(
                    "{} but memory_list has {} entries",
                    r.write_id,
                    l.memory_list.len()
                ),
            );
        }
        if r.reloc_type.name().is_none() {
            s.error(
                "reloc",
                format!("reloc_list[{i}].reloc_type"),
                format!("unknown type {}", r.reloc_type),
            );
        }
        if let Some(m) = l.memory_list.get(usize::from(r.write_id)) {
            // The runtime rewrites a u32 at `offset`.
            if r.offset.checked_add(4).is_none_or(|end| end > m.size) {
                s.error(
                    "reloc",
                    format!("reloc_list[{i}].offset"),
                    format!(
                        "{} + 4 bytes outside memory {} ({} bytes)",
                        r.offset, r.write_id, m.size
                    ),
                );
            }
        }
        if r.sub_interface == sub_interface::DEPS {
            s.error(
                "reloc",
                format!("reloc_list[{i}].sub_interface"),
                "DEPS relocations are rejected by the runtime",
            );
        }
    }
}

fn dep_graph_names(l: &Loadable, s: &mut Sink) {
    for (b, t, role) in blob_roles(l) {
        if role != BlobRole::DepGraph {
            continue;
        }
        if let Some(blob) = l.blobs.get(b) {
            if !blob.name.contains("dep_graph") {
                s.warn(
                    "dep-graph-name",
                    format!("blobs[{b}].name"),
                    format!(
                        "task {t}'s dependency graph \"{}\" lacks \"dep_graph\": the runtime will not restore its dependency counts before a second submit",
                        blob.name
                    ),
                );
            }
        }
    }
}
