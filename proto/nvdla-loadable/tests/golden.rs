//! Round trips and ABI detection on the ten golden loadables.

mod common;

use common::*;
use onnc_nvdla_loadable::desc::container::{decode_array, encode_array};
use onnc_nvdla_loadable::desc::{
    CommonOpDesc, Descriptor, EmuBufferDescs, EmuNetworkDesc, LutParam, NetworkDesc,
};
use onnc_nvdla_loadable::layout::{blob_bytes, blob_roles, task_descs, BlobRole, TaskDescs};
use onnc_nvdla_loadable::{detect_abi, Abi, Loadable};

#[test]
fn container_round_trip_is_model_identical_and_deterministic() {
    for name in GOLDEN {
        let bytes = golden_bytes(name);
        let l = Loadable::read(&bytes).unwrap();
        assert!(l.missing_lists.is_empty(), "{name}");
        let w = l.write();
        assert_eq!(w, l.write(), "{name}: writer is not deterministic");
        assert_eq!(&w[4..8], b"NVDA", "{name}");
        let mut back = Loadable::read(&w).unwrap();
        assert_eq!(back.file_identifier, Some(*b"NVDA"));
        back.file_identifier = l.file_identifier;
        assert_eq!(back, l, "{name}");
        // Re-writing what we wrote is a fixed point.
        assert_eq!(Loadable::read(&w).unwrap().write(), w, "{name}");
    }
}

#[test]
fn identifiers_match_the_readme() {
    for name in GOLDEN {
        let l = golden(name);
        let expected = (name == "NN_L0_0_fbuf").then_some(*b"NVDA");
        assert_eq!(l.file_identifier, expected, "{name}");
    }
}

#[test]
fn every_golden_is_legacy_abi() {
    for name in GOLDEN {
        let g = detect_abi(&golden(name));
        assert_eq!(g.abi, Abi::Legacy, "{name}: {}", g.reason);
    }
    let nn = detect_abi(&golden("NN_L0_0_fbuf"));
    assert_eq!(
        nn.reason,
        "task 0: EMU op_list is 16 bytes for 1 op(s), 16 per op"
    );
    let conv = detect_abi(&golden("CONV_D_L0_0_fbuf"));
    assert_eq!(
        conv.reason,
        "DLA surface cubes: 0 implausible under the 28-byte (legacy) layout, 7 under the other"
    );
}

/// Re-encodes one descriptor blob from its decoded form.
fn reencode(l: &Loadable, task: usize, role: BlobRole, abi: Abi) -> Vec<u8> {
    let bytes = blob_bytes(l, blob_of(l, task, role));
    let descs = task_descs(l, &l.task_list[task], abi);
    match (role, descs) {
        (BlobRole::NetworkDesc, _) => NetworkDesc::decode(bytes, abi).unwrap().encode(abi),
        (BlobRole::DepGraph, _) => {
            encode_array(&decode_array::<CommonOpDesc>(bytes, abi).unwrap(), abi)
        }
        (BlobRole::LutList, _) => encode_array(&decode_array::<LutParam>(bytes, abi).unwrap(), abi),
        (BlobRole::OpList, TaskDescs::Dla(d)) => d
            .ops
            .value
            .unwrap()
            .iter()
            .flat_map(|s| s.encode(abi))
            .collect(),
        (BlobRole::SurfList, TaskDescs::Dla(d)) => d
            .surfaces
            .value
            .unwrap()
            .iter()
            .flat_map(|s| s.encode(abi))
            .collect(),
        (BlobRole::EmuNetworkDesc, _) => EmuNetworkDesc::decode(bytes, abi).unwrap().encode(abi),
        (BlobRole::EmuOpList, TaskDescs::Emu(d)) => d
            .ops
            .value
            .unwrap()
            .iter()
            .flat_map(|s| s.encode(abi))
            .collect(),
        (BlobRole::EmuOpBufList, _) => {
            encode_array(&decode_array::<EmuBufferDescs>(bytes, abi).unwrap(), abi)
        }
        (role, _) => panic!("unexpected {role:?}"),
    }
}

fn blob_of(l: &Loadable, task: usize, role: BlobRole) -> usize {
    role_blob(l, task, role)
}

#[test]
fn every_descriptor_blob_round_trips_byte_exactly() {
    let mut checked = 0;
    for name in GOLDEN {
        let l = golden(name);
        let abi = detect_abi(&l).abi;
        let roles = blob_roles(&l);
        assert!(!roles.is_empty(), "{name}");
        for (b, t, role) in roles {
            let original = blob_bytes(&l, b);
            assert_eq!(
                reencode(&l, t, role, abi),
                original,
                "{name}: blob {} ({role:?})",
                l.blobs[b].name
            );
            checked += 1;
        }
    }
    // 9 KMD files × 4 or 5 blobs (CDP has a LUT) + NN (2 EMU × 3 + DLA 5).
    assert_eq!(checked, 7 * 4 + 2 * 5 + 11);
}

#[test]
fn every_non_descriptor_blob_is_raw_data() {
    for name in GOLDEN {
        let l = golden(name);
        let described: Vec<usize> = blob_roles(&l).into_iter().map(|(b, _, _)| b).collect();
        for (i, b) in l.blobs.iter().enumerate() {
            if !described.contains(&i) {
                assert_eq!(b.sub_interface, 0, "{name}: {}", b.name);
            }
        }
    }
}

#[test]
fn golden_descriptor_facts() {
    // NN_L0_0: LeNet, 11 DLA ops; first CONV→SDP fused pair as in research §2.2.
    let l = golden("NN_L0_0_fbuf");
    let TaskDescs::Dla(d) = task_descs(&l, &l.task_list[1], Abi::Legacy) else {
        panic!()
    };
    let nd = d.network.value.unwrap();
    assert_eq!(
        (nd.num_operations, nd.num_addresses, nd.op_head),
        (11, 25, [-1, 0, 1, 2, -1, -1])
    );
    let deps = d.deps.value.unwrap();
    assert_eq!(deps[1].fused_parent.index, 0);
    assert_eq!(deps[1].fused_parent.event, 3);
    assert_eq!(deps[3].dependency_count, 3);
    // RBK_L0_0: contract 8x8x640 → 80x32x16.
    let l = golden("RBK_L0_0_fbuf");
    let TaskDescs::Dla(d) = task_descs(&l, &l.task_list[0], Abi::Legacy) else {
        panic!()
    };
    let s = &d.surfaces.value.unwrap()[0];
    let onnc_nvdla_loadable::desc::SurfaceDesc::Rubik(r) = &s.desc else {
        panic!()
    };
    assert_eq!(
        (r.src_data.width, r.src_data.height, r.src_data.channel),
        (8, 8, 640)
    );
    assert_eq!(
        (r.dst_data.width, r.dst_data.height, r.dst_data.channel),
        (80, 32, 16)
    );
}
