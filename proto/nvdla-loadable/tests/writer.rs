//! Writing a hand-built model.

use onnc_nvdla_loadable::enums::{Interface, MemoryDomain, MemoryFlags};
use onnc_nvdla_loadable::*;

fn tiny() -> Loadable {
    Loadable {
        version: Version::LOADABLE,
        task_list: vec![TaskListEntry {
            id: 0,
            interface: Interface::DLA1,
            instance: -1,
            address_list: vec![1, 0],
            pre_actions: vec![],
            post_actions: vec![0],
        }],
        memory_list: vec![
            MemoryListEntry {
                id: 0,
                domain: MemoryDomain::SYSTEM,
                flags: MemoryFlags::ALLOC,
                size: 4096,
                alignment: 4096,
                ..Default::default()
            },
            MemoryListEntry {
                id: 1,
                flags: MemoryFlags(MemoryFlags::ALLOC.0 | MemoryFlags::SET.0),
                size: 40,
                alignment: 4096,
                contents: vec!["task-0-addr0".into()],
                offsets: vec![0],
                ..Default::default()
            },
        ],
        address_list: vec![
            AddressListEntry {
                id: 0,
                mem_id: 0,
                offset: 0,
                size: 4096,
            },
            AddressListEntry {
                id: 1,
                mem_id: 1,
                offset: 0,
                size: 40,
            },
        ],
        event_list: vec![EventListEntry {
            id: 0,
            op: enums::EventOp::SIGNAL,
            val: 1,
            ..Default::default()
        }],
        blobs: vec![Blob {
            name: "task-0-addr0".into(),
            size: 40,
            interface: Interface::DLA1,
            sub_interface: enums::sub_interface::ADDR0,
            version: Some(Version::new(0, 12, 3)),
            data: vec![0; 40],
        }],
        tensor_desc_list: vec![],
        reloc_list: vec![],
        submit_list: vec![SubmitListEntry {
            id: 0,
            task_id: vec![0],
        }],
        file_identifier: Some(*b"NVDA"),
        missing_lists: vec![],
    }
}

#[test]
fn hand_built_model_round_trips() {
    let l = tiny();
    let bytes = l.write();
    assert_eq!(&bytes[4..8], b"NVDA");
    assert_eq!(Loadable::read(&bytes).unwrap(), l);
}

#[test]
fn writer_emits_every_list_even_empty() {
    let l = Loadable {
        version: Version::LOADABLE,
        ..Default::default()
    };
    let back = Loadable::read(&l.write()).unwrap();
    assert!(back.missing_lists.is_empty());
    assert_eq!(back.version, Version::LOADABLE);
}

#[test]
fn detection_defaults_to_current_and_uses_blob_version() {
    let l = tiny();
    let g = detect_abi(&l);
    assert_eq!(g.abi, Abi::Current);
    assert_eq!(
        g.reason,
        "task 0: DLA network-desc blob has firmware interface version 0.12.3"
    );
    let empty = Loadable::default();
    assert_eq!(detect_abi(&empty).reason, "no evidence; default");
}
