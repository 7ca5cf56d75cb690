//! ABI conversion: the 2018 goldens converted to the current ABI verify
//! clean under it, detect as current, and convert back to the same bytes.

mod common;

use common::*;
use onnc_nvdla_loadable::layout::{blob_roles, task_descs, TaskDescs};
use onnc_nvdla_loadable::{convert_abi, detect_abi, dump_detected, verify, Abi, Error, Severity};

#[test]
fn goldens_convert_to_current_and_back() {
    for name in GOLDEN {
        let legacy = golden(name);
        let current = convert_abi(&legacy, Abi::Legacy, Abi::Current).unwrap();
        assert_eq!(detect_abi(&current).abi, Abi::Current, "{name}");
        let errs: Vec<_> = verify(&current, Abi::Current)
            .into_iter()
            .filter(|v| v.severity == Severity::Error)
            .collect();
        assert!(errs.is_empty(), "{name}: {errs:?}");
        // The written file reads back identically.
        let reread = onnc_nvdla_loadable::Loadable::read(&current.write()).unwrap();
        assert_eq!(reread.blobs, current.blobs, "{name}");
        // Back to legacy: every descriptor blob has its original bytes.
        let back = convert_abi(&current, Abi::Current, Abi::Legacy).unwrap();
        for (b, _, role) in blob_roles(&legacy) {
            assert_eq!(back.blobs[b].data, legacy.blobs[b].data, "{name}: {role:?}");
        }
        assert_eq!(back.memory_list, legacy.memory_list, "{name}");
        assert_eq!(back.reloc_list, legacy.reloc_list, "{name}");
    }
}

#[test]
fn nn_current_layout_facts() {
    let current = convert_abi(&golden("NN_L0_0_fbuf"), Abi::Legacy, Abi::Current).unwrap();
    // EMU op slots grow to 24 bytes, and their memory with them.
    let op_list = current
        .blobs
        .iter()
        .position(|b| b.name == "task-0-op_list")
        .unwrap();
    assert_eq!(current.blobs[op_list].size, 24);
    assert_eq!(current.memory_list[20].size, 24);
    // Relocations follow the EMU buffer strides: line_stride at 18, surf at 22.
    let offs: Vec<u64> = current.reloc_list.iter().map(|r| r.offset).collect();
    assert_eq!(offs, [18, 22, 274, 278]);
    // FP16 is format 3 (FF16) in the current numbering.
    let TaskDescs::Emu(d) = task_descs(&current, &current.task_list[2], Abi::Current) else {
        panic!()
    };
    assert_eq!(d.buffers.value.unwrap()[0].src_data.format, 3);
    let dump = dump_detected(&current);
    assert!(dump.contains("format=3(FF16)"), "{dump}");
    assert!(dump.contains("address_index=10 address_index_offset=0 size=32"));
}

#[test]
fn current_snapshot_of_converted_nn() {
    let current = convert_abi(&golden("NN_L0_0_fbuf"), Abi::Legacy, Abi::Current).unwrap();
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("NN_L0_0_fbuf.current", dump_detected(&current));
    });
}

#[test]
fn cube_offset_cannot_go_legacy() {
    let current = convert_abi(&golden("PDP_L0_0_fbuf"), Abi::Legacy, Abi::Current).unwrap();
    let mut bumped = current.clone();
    let TaskDescs::Dla(d) = task_descs(&current, &current.task_list[0], Abi::Current) else {
        panic!()
    };
    let mut surfs = d.surfaces.value.unwrap();
    let onnc_nvdla_loadable::desc::SurfaceDesc::Pdp(p) = &mut surfs[0].desc else {
        panic!()
    };
    p.dst_data.offset = 64;
    let b = d.surfaces.blob.unwrap();
    bumped.blobs[b].data = surfs.iter().flat_map(|s| s.encode(Abi::Current)).collect();
    let e = convert_abi(&bumped, Abi::Current, Abi::Legacy).unwrap_err();
    assert_eq!(
        e,
        Error::Convert("task 0 op 0: cube offset 64 has no legacy field".into())
    );
}
