//! Verifier: the golden loadables are clean; mutated ones report exactly the
//! broken rule.

mod common;

use common::*;
use onnc_nvdla_loadable::desc::container::encode_array;
use onnc_nvdla_loadable::desc::{Descriptor, OpDesc, SurfaceDesc};
use onnc_nvdla_loadable::enums::{MemoryDomain, MemoryFlags};
use onnc_nvdla_loadable::layout::{task_descs, BlobRole, DlaTaskDescs, EmuTaskDescs, TaskDescs};
use onnc_nvdla_loadable::{
    detect_abi, verify, verify_with, Abi, Loadable, Severity, VerifyOptions,
};

fn report(l: &Loadable) -> Vec<String> {
    verify(l, detect_abi(l).abi)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn errors(l: &Loadable) -> Vec<String> {
    verify(l, detect_abi(l).abi)
        .iter()
        .filter(|v| v.severity == Severity::Error)
        .map(ToString::to_string)
        .collect()
}

fn set_blob(l: &mut Loadable, task: usize, role: BlobRole, bytes: Vec<u8>) {
    let b = role_blob(l, task, role);
    l.blobs[b].size = bytes.len() as u64;
    l.blobs[b].data = bytes;
}

/// Decodes a DLA task's descriptors, lets `f` edit them, writes them back.
fn edit_dla(l: &mut Loadable, task: usize, f: impl FnOnce(&mut DlaTaskDescs)) {
    let abi = Abi::Legacy;
    let TaskDescs::Dla(mut d) = task_descs(l, &l.task_list[task], abi) else {
        panic!("not DLA")
    };
    f(&mut d);
    set_blob(
        l,
        task,
        BlobRole::NetworkDesc,
        d.network.value.unwrap().encode(abi),
    );
    set_blob(
        l,
        task,
        BlobRole::DepGraph,
        encode_array(&d.deps.value.unwrap(), abi),
    );
    let ops = d
        .ops
        .value
        .unwrap()
        .iter()
        .flat_map(|s| s.encode(abi))
        .collect();
    set_blob(l, task, BlobRole::OpList, ops);
    let surfs = d
        .surfaces
        .value
        .unwrap()
        .iter()
        .flat_map(|s| s.encode(abi))
        .collect();
    set_blob(l, task, BlobRole::SurfList, surfs);
}

fn edit_emu(l: &mut Loadable, task: usize, f: impl FnOnce(&mut EmuTaskDescs)) {
    let abi = Abi::Legacy;
    let TaskDescs::Emu(mut d) = task_descs(l, &l.task_list[task], abi) else {
        panic!("not EMU")
    };
    f(&mut d);
    set_blob(
        l,
        task,
        BlobRole::EmuOpBufList,
        encode_array(&d.buffers.value.unwrap(), abi),
    );
}

fn nn() -> Loadable {
    golden("NN_L0_0_fbuf")
}

#[test]
fn goldens_have_no_errors_and_only_documented_warnings() {
    for name in GOLDEN {
        let l = golden(name);
        let mut expected: Vec<String> = Vec::new();
        if name != "NN_L0_0_fbuf" {
            // KMD test-generator files (see README.md "Golden loadables").
            expected.push("warning[task-instance] task_list[0].instance: 0 (the runtime warns unless -1 = any)".into());
            expected.push("warning[dep-graph-name] blobs[3].name: task 0's dependency graph \"m3_DEPGraph_i3\" lacks \"dep_graph\": the runtime will not restore its dependency counts before a second submit".into());
        }
        if name == "SDP_X1_L0_0_fbuf" {
            expected.push("warning[dep-index] task_list[0].dep_graph[0].index: 2 at slot 0; compilers write the slot".into());
        }
        assert_eq!(report(&l), expected, "{name}");
        // nv_full/nv_large files also satisfy the 32-byte atom.
        let atom = if is_small(name) { 8 } else { 32 };
        let opts = VerifyOptions {
            abi: Abi::Legacy,
            atom_size: atom,
        };
        let errs: Vec<_> = verify_with(&l, &opts)
            .into_iter()
            .filter(|v| v.severity == Severity::Error)
            .collect();
        assert!(errs.is_empty(), "{name} atom {atom}: {errs:?}");
    }
}

#[test]
fn broken_output_bind_id() {
    let mut l = nn();
    l.memory_list[12].bind_id = 1;
    assert_eq!(
        errors(&l),
        ["error[bind-id] memory_list[12].bind_id: OUTPUT bind id 1 outside 0..1: ids must be contiguous from 0"]
    );
}

#[test]
fn duplicate_input_bind_id() {
    let mut l = nn();
    l.memory_list[12].flags = MemoryFlags(MemoryFlags::ALLOC.0 | MemoryFlags::INPUT.0);
    let e = errors(&l);
    assert!(e.contains(&"error[bind-id] memory_list[12].bind_id: INPUT bind id 0 already used by memory_list[2]".to_string()), "{e:?}");
}

#[test]
fn bad_tensor_desc_id() {
    let mut l = nn();
    l.memory_list[2].tensor_desc_id = 7;
    assert_eq!(errors(&l), ["error[tensor-desc-id] memory_list[2].tensor_desc_id: 7 but tensor_desc_list has 2 entries"]);
}

#[test]
fn shrunk_dep_graph_blob() {
    let mut l = nn();
    let b = role_blob(&l, 1, BlobRole::DepGraph);
    l.blobs[b].data.truncate(360);
    l.blobs[b].size = 360;
    let e = errors(&l);
    assert!(e.contains(&"error[descriptor-size] task_list[1].dep_graph: blob is 360 bytes, 11 entries need 396".to_string()), "{e:?}");
}

#[test]
fn blob_size_beyond_data() {
    let mut l = nn();
    let b = role_blob(&l, 1, BlobRole::NetworkDesc);
    l.blobs[b].size = 41;
    let e = errors(&l);
    assert!(e.contains(&"error[blob-size] blobs[3].size: 41 exceeds the 40 data bytes (the runtime copies `size` bytes)".to_string()), "{e:?}");
}

#[test]
fn network_desc_blob_of_wrong_size() {
    let mut l = nn();
    let b = role_blob(&l, 1, BlobRole::NetworkDesc);
    l.blobs[b].data.truncate(36);
    l.blobs[b].size = 36;
    let e = errors(&l);
    assert!(e.contains(&"error[task-descriptor] task_list[1].network_desc: dla_network_desc: expected 40 bytes, got 36".to_string()), "{e:?}");
}

#[test]
fn pdp_kernel_nine() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let OpDesc::Pdp(p) = &mut d.ops.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        p.pool_width = 8; // POOL_SIZE_9
    });
    assert_eq!(
        errors(&l),
        ["error[pdp-kernel] task_list[1].op[2].pdp.pool_width: kernel 9 (stored 8) exceeds 8"]
    );
}

#[test]
fn pdp_stride_zero_and_dst_hw() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let OpDesc::Pdp(p) = &mut d.ops.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        p.stride_y = 0;
        let SurfaceDesc::Pdp(s) = &mut d.surfaces.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        s.dst_data.mem_type = 2;
        s.dst_data.address = -1;
    });
    assert_eq!(
        errors(&l),
        [
            "error[pdp-stride] task_list[1].op[2].pdp.stride_y: 0 outside 1..=8",
            "error[pdp-dst-hw] task_list[1].op[2].pdp_surface.dst_data.type: PDP cannot write on the fly (HW)",
        ]
    );
}

#[test]
fn memory_id_not_positional() {
    let mut l = nn();
    l.memory_list[5].id = 6;
    assert_eq!(
        errors(&l),
        ["error[id-positional] memory_list[5].id: id 6 at index 5; ids are positional"]
    );
}

#[test]
fn set_content_outside_memory() {
    let mut l = nn();
    l.memory_list[3].size = 99;
    l.address_list[3].size = 99;
    assert_eq!(
        errors(&l),
        [
            "error[set-contents] memory_list[3].contents[0]: blob \"tb-10\" (100 bytes) at offset 0 overflows the 99-byte memory",
            // The bias cube reading that memory now overflows too.
            "error[cube-extent] task_list[1].op[4].sdp_surface.x1_data: offset 0 + size 100 exceeds the 99 bytes of memory after the address",
        ]
    );
}

#[test]
fn set_content_missing_blob() {
    let mut l = nn();
    l.memory_list[3].contents[0] = "tb-nope".into();
    assert_eq!(
        errors(&l),
        ["error[set-contents] memory_list[3].contents[0]: no blob named \"tb-nope\""]
    );
}

#[test]
fn address_count_mismatch() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        d.network.value.as_mut().unwrap().num_addresses = 24
    });
    assert_eq!(
        errors(&l),
        ["error[num-addresses] task_list[1].network_desc.num_addresses: 24 but the task address list has 25 entries"]
    );
}

#[test]
fn task_address_list_too_long() {
    let mut l = nn();
    l.task_list[0].address_list.resize(6145, 1);
    assert_eq!(
        errors(&l),
        ["error[task-address-count] task_list[0].address_list: 6145 entries, more than NVDLA_MAX_BUFFERS_PER_TASK = 6144"]
    );
}

#[test]
fn dependency_count_off_by_one() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        d.deps.value.as_mut().unwrap()[3].dependency_count = 2
    });
    assert_eq!(
        errors(&l),
        ["error[dependency-count] task_list[1].dep_graph[3].dependency_count: 2 but 3 consumer/fused-parent edge(s) point at op 3"]
    );
}

#[test]
fn broken_engine_chain() {
    let mut l = nn();
    // op 0 (CONV) no longer hands over to op 3 (the next CONV).
    edit_dla(&mut l, 1, |d| {
        d.deps.value.as_mut().unwrap()[0].consumers[1].index = -1
    });
    let e = errors(&l);
    assert!(e.contains(&"error[engine-chain] task_list[1].dep_graph[3]: CONV op 3 is not on the consumers[CONV] chain from op 0; the firmware never dequeues it".to_string()), "{e:?}");
    assert!(e.contains(&"error[dependency-count] task_list[1].dep_graph[3].dependency_count: 3 but 2 consumer/fused-parent edge(s) point at op 3".to_string()), "{e:?}");
}

#[test]
fn consumer_of_wrong_type() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let deps = d.deps.value.as_mut().unwrap();
        deps[0].consumers[2].index = 2; // op 2 is a PDP, not an SDP
        deps[1].dependency_count -= 1;
        deps[2].dependency_count += 1;
    });
    assert_eq!(
        errors(&l),
        ["error[consumer] task_list[1].dep_graph[0].consumers[SDP]: op 2 is PDP, not SDP"]
    );
}

#[test]
fn fused_parent_of_wrong_type() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let deps = d.deps.value.as_mut().unwrap();
        deps[1].fused_parent.index = 2; // a PDP cannot be an SDP's fused parent
        deps[0].dependency_count -= 1;
        deps[2].dependency_count += 1;
    });
    assert_eq!(
        errors(&l),
        ["error[fused-parent] task_list[1].dep_graph[1].fused_parent: op 2 is PDP; a SDP op's fused parent must be of type op_type - 1"]
    );
}

#[test]
fn op_head_of_wrong_type() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        d.network.value.as_mut().unwrap().op_head[3] = 1
    });
    let e = errors(&l);
    assert!(
        e.contains(
            &"error[op-head] task_list[1].network_desc.op_head[PDP]: op 1 is SDP, not PDP"
                .to_string()
        ),
        "{e:?}"
    );
}

#[test]
fn conv_out_cvt_scale() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let OpDesc::Conv(c) = &mut d.ops.value.as_mut().unwrap()[0].desc else {
            panic!()
        };
        c.out_cvt.scale = 2;
    });
    assert_eq!(
        errors(&l),
        ["error[conv-out-cvt] task_list[1].op[0].conv.out_cvt: scale 2 offset 0; the firmware requires scale 1, offset 0"]
    );
}

#[test]
fn hw_cube_with_address_and_misaligned_stride() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let SurfaceDesc::Conv(c) = &mut d.surfaces.value.as_mut().unwrap()[0].desc else {
            panic!()
        };
        c.dst_data.address = 3;
        let SurfaceDesc::Pdp(p) = &mut d.surfaces.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        p.dst_data.line_stride = 385;
    });
    assert_eq!(
        errors(&l),
        [
            "error[cube-address] task_list[1].op[0].conv_surface.dst_data.address: 3 on a HW cube; must be -1",
            "error[cube-extent] task_list[1].op[2].pdp_surface.dst_data: offset 0 + the 12×12×20 cube's 9227 bytes (line stride 385, surface stride 4608) exceed the 9216 bytes of memory after the address",
            "error[cube-align] task_list[1].op[2].pdp_surface.dst_data.line_stride: 385 is not a multiple of the 8-byte atom",
        ]
    );
}

#[test]
fn cube_beyond_its_memory() {
    let mut l = nn();
    edit_dla(&mut l, 1, |d| {
        let SurfaceDesc::Pdp(p) = &mut d.surfaces.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        p.dst_data.height = 13;
    });
    assert_eq!(
        errors(&l),
        ["error[cube-extent] task_list[1].op[2].pdp_surface.dst_data: offset 0 + the 12×13×20 cube's 9600 bytes (line stride 384, surface stride 4608) exceed the 9216 bytes of memory after the address"]
    );
}

/// The firmware never programs a feature cube's `size`: one past the
/// memory is a warning, as long as the cube's footprint fits.
#[test]
fn feature_cube_size_past_its_memory_is_a_warning() {
    let mut l = nn();
    let clean = report(&l);
    edit_dla(&mut l, 1, |d| {
        let SurfaceDesc::Pdp(p) = &mut d.surfaces.value.as_mut().unwrap()[2].desc else {
            panic!()
        };
        p.dst_data.size = 9217;
    });
    let now: Vec<String> = report(&l)
        .into_iter()
        .filter(|v| !clean.contains(v))
        .collect();
    assert_eq!(
        now,
        ["warning[cube-size] task_list[1].op[2].pdp_surface.dst_data.size: offset 0 + size 9217 exceeds the 9216 bytes of memory after the address; the firmware never programs this field (the engine reads the cube's 9216 bytes, which fit)"]
    );
}

/// The runtime never reads an address entry's `size`; an offset past the
/// memory is still an error.
#[test]
fn address_size_past_its_memory_is_a_warning_offset_is_not() {
    let mut l = nn();
    let clean = report(&l);
    let m = usize::from(l.address_list[3].mem_id);
    l.address_list[3].size = l.memory_list[m].size + 1;
    let now: Vec<String> = report(&l)
        .into_iter()
        .filter(|v| !clean.contains(v))
        .collect();
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(
        now[0].starts_with("warning[address-size] address_list[3].size: offset 0 + size"),
        "{now:?}"
    );
    l.address_list[3].offset = l.memory_list[m].size + 32;
    assert!(
        errors(&l)
            .iter()
            .any(|e| e.starts_with("error[address-extent] address_list[3].offset:")),
        "{:?}",
        errors(&l)
    );
}

#[test]
fn emu_format_mismatch() {
    let mut l = nn();
    edit_emu(&mut l, 2, |d| {
        d.buffers.value.as_mut().unwrap()[0].dst_data.format = 0
    });
    assert_eq!(
        errors(&l),
        ["error[emu-format] task_list[2].op_buf[0].dst_data.format: INT8 differs from the source's FP16; the emulator needs equal formats"]
    );
}

#[test]
fn bdma_line_size_not_multiple_of_32() {
    let mut l = golden("BDMA_L0_0_fbuf");
    edit_dla(&mut l, 0, |d| {
        let SurfaceDesc::Bdma(b) = &mut d.surfaces.value.as_mut().unwrap()[0].desc else {
            panic!()
        };
        b.transfers[0].line_size = 100;
    });
    assert_eq!(
        errors(&l),
        ["error[bdma-line] task_list[0].op[0].bdma_surface.transfers[0].line_size: 100 is not a multiple of 32"]
    );
}

#[test]
fn rubik_merge_needs_plane_stride() {
    let mut l = golden("RBK_L0_0_fbuf");
    edit_dla(&mut l, 0, |d| {
        let OpDesc::Rubik(r) = &mut d.ops.value.as_mut().unwrap()[0].desc else {
            panic!()
        };
        r.mode = 2;
    });
    assert_eq!(
        errors(&l),
        ["error[rubik-plane-stride] task_list[0].op[0].rubik_surface.src_data.plane_stride: 0; merge mode needs a non-zero multiple of 32"]
    );
}

#[test]
fn cdp_precision_mismatch() {
    let mut l = golden("CDP_L0_0_fbuf");
    edit_dla(&mut l, 0, |d| {
        let OpDesc::Cdp(c) = &mut d.ops.value.as_mut().unwrap()[0].desc else {
            panic!()
        };
        c.out_precision = 0;
    });
    assert_eq!(
        errors(&l),
        ["error[cdp-precision] task_list[0].op[0].cdp.out_precision: 0 differs from in_precision 1"]
    );
}

#[test]
fn duplicate_blob_name() {
    let mut l = nn();
    l.blobs[12].name = "tb-10".into();
    let e = errors(&l);
    assert!(
        e.contains(
            &"error[blob-name-unique] blobs[12].name: \"tb-10\" already names blobs[11]"
                .to_string()
        ),
        "{e:?}"
    );
}

#[test]
fn sram_memory_in_a_task() {
    let mut l = nn();
    l.memory_list[4].domain = MemoryDomain::SRAM;
    let e = errors(&l);
    assert!(e.contains(&"error[sram-memory] task_list[1].address_list[4]: memory 4 is SRAM, which the runtime never allocates".to_string()), "{e:?}");
}

#[test]
fn deps_relocation_rejected() {
    let mut l = nn();
    l.reloc_list[0].sub_interface = 2;
    assert_eq!(errors(&l), ["error[reloc] reloc_list[0].sub_interface: DEPS relocations are rejected by the runtime"]);
}

#[test]
fn empty_submit_list() {
    let mut l = nn();
    l.submit_list.clear();
    let e = errors(&l);
    assert!(
        e.contains(
            &"error[empty-list] loadable.submit_list: the runtime requires at least one entry"
                .to_string()
        ),
        "{e:?}"
    );
}

#[test]
fn missing_top_level_list_is_reported() {
    // A root table with only `version` (field 0) and `task_list` (field 1).
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    let tasks =
        fbb.create_vector::<flatbuffers::WIPOffset<flatbuffers::TableFinishedWIPOffset>>(&[]);
    let t = fbb.start_table();
    fbb.push(0u8);
    fbb.push(7u8);
    fbb.push_slot_always(4, 0u8);
    fbb.push_slot_always(6, tasks);
    let root = fbb.end_table(t);
    fbb.finish_minimal(root);
    let l = Loadable::read(fbb.finished_data()).unwrap();
    assert_eq!(l.missing_lists.len(), 7);
    let e = errors(&l);
    assert_eq!(e[0], "error[missing-list] loadable.memory_list: absent; the runtime dereferences all eight lists (write an empty vector)");
    assert_eq!(e.len(), 7 + 3, "{e:?}");
}

#[test]
fn engine_chain_loop() {
    let mut l = nn();
    // The last CONV (op 10) hands back to op 3: the chain loops.
    edit_dla(&mut l, 1, |d| {
        let deps = d.deps.value.as_mut().unwrap();
        let last_conv = (0..deps.len())
            .rev()
            .find(|&i| deps[i].op_type == 1)
            .unwrap();
        deps[last_conv].consumers[1].index = 3;
        deps[last_conv].consumers[1].event = 2;
        deps[3].dependency_count += 1;
    });
    let e = errors(&l);
    assert!(
        e.iter().any(|v| v.starts_with("error[engine-chain]")
            && v.ends_with("points back to op 3: the CONV chain loops")),
        "{e:?}"
    );
}

#[test]
fn reloc_outside_its_memory() {
    let mut l = nn();
    l.reloc_list[3].offset = 510;
    assert_eq!(
        errors(&l),
        ["error[reloc] reloc_list[3].offset: 510 + 4 bytes outside memory 33 (512 bytes)"]
    );
}
