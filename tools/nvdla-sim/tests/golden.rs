//! NVIDIA's KMD regression goldens (test/data/nvdla-golden, BSD-3, see its
//! PROVENANCE): the md5 of the simulated DIMG output must equal `lead.md5`.
//! Plus robustness: mutated and truncated loadables give errors, never
//! panics; an out-of-bounds surface names the op.

use md5::{Digest, Md5};
use onnc_nvdla_sim::{golden_dimg, simulate, Error, Options};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test/data/nvdla-golden")
}

fn fbuf(test: &str) -> Vec<u8> {
    let p = data_dir().join(format!("{test}_fbuf"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `golden/<test>_<hash>/dla/lead.md5`.
fn lead_md5(test: &str) -> String {
    let dir = data_dir().join("golden");
    let entry = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            n.rsplit_once('_').is_some_and(|(t, _)| t == test)
        })
        .unwrap_or_else(|| panic!("no golden for {test}"));
    let text = std::fs::read_to_string(entry.join("dla/lead.md5")).unwrap();
    text.split_whitespace().next().unwrap().to_string()
}

fn md5_hex(b: &[u8]) -> String {
    Md5::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

fn check(test: &str) {
    let dimg =
        golden_dimg(&fbuf(test), &Options::default()).unwrap_or_else(|e| panic!("{test}: {e}"));
    assert_eq!(md5_hex(&dimg), lead_md5(test), "{test}: DIMG md5");
}

#[test]
fn bdma_l0_0() {
    check("BDMA_L0_0");
}

#[test]
fn rbk_l0_0() {
    check("RBK_L0_0");
}

#[test]
fn pdp_l0_0() {
    check("PDP_L0_0");
}

#[test]
fn sdp_x1_l0_0() {
    check("SDP_X1_L0_0");
}

#[test]
fn sdp_x1_l0_0_small() {
    check("SDP_X1_L0_0_small");
}

#[test]
fn cdp_l0_0() {
    check("CDP_L0_0");
}

#[test]
fn cdp_l0_0_small() {
    check("CDP_L0_0_small");
}

#[test]
fn conv_d_l0_0() {
    check("CONV_D_L0_0");
}

#[test]
fn conv_d_l0_0_small() {
    check("CONV_D_L0_0_small");
}

#[test]
fn nn_l0_0() {
    check("NN_L0_0");
}

/// The golden DIMG files themselves match their md5 (the data is intact).
#[test]
fn golden_files_match_their_md5() {
    for e in std::fs::read_dir(data_dir().join("golden")).unwrap() {
        let dla = e.unwrap().path().join("dla");
        let dimg = std::fs::read(dla.join("o_000000.dimg")).unwrap();
        let md5 = std::fs::read_to_string(dla.join("lead.md5")).unwrap();
        assert_eq!(md5_hex(&dimg), md5.split_whitespace().next().unwrap());
    }
}

/// The BDMA golden's DIMG is the one byte BDMA copied: the simulated
/// output equals the golden file byte for byte.
#[test]
fn bdma_dimg_bytes() {
    let dir = std::fs::read_dir(data_dir().join("golden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("BDMA_L0_0"))
        .unwrap();
    let want = std::fs::read(dir.join("dla/o_000000.dimg")).unwrap();
    let got = golden_dimg(&fbuf("BDMA_L0_0"), &Options::default()).unwrap();
    assert_eq!(got, want);
}

/// Deterministic byte mutations: xorshift positions and values.
fn mutations(bytes: &[u8], count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut s = seed;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|i| {
            let mut b = bytes.to_vec();
            match i % 4 {
                0 => b.truncate((next() as usize) % bytes.len()),
                _ => {
                    for _ in 0..1 + i % 3 {
                        let at = (next() as usize) % b.len();
                        b[at] = match next() % 4 {
                            0 => 0,
                            1 => 0xFF,
                            2 => b[at] ^ (1 << (next() % 8)),
                            _ => next() as u8,
                        };
                    }
                }
            }
            b
        })
        .collect()
}

/// A mutated or truncated loadable is simulated or refused; it never
/// panics.
#[test]
fn mutated_loadables_never_panic() {
    for (test, seed) in [
        ("BDMA_L0_0", 0x9E37_79B9_7F4A_7C15u64),
        ("PDP_L0_0", 0xD1B5_4A32_D192_ED03),
    ] {
        let bytes = fbuf(test);
        let mut refused = 0;
        for (i, m) in mutations(&bytes, 300, seed).into_iter().enumerate() {
            let r = std::panic::catch_unwind(|| {
                let _ = simulate(&m, &[], &Options::default());
                golden_dimg(&m, &Options::default()).is_err()
            });
            match r {
                Ok(true) => refused += 1,
                Ok(false) => {}
                Err(_) => panic!("{test} mutation {i} panicked"),
            }
        }
        assert!(refused > 0, "{test}: no mutation was refused");
    }
}

/// Byte mutations inside the descriptor and data blobs (dependency graph,
/// op and surface lists, network desc, …), run with and without the
/// verifier, so that the scheduler and the engines see hostile values:
/// never a panic.
#[test]
fn mutated_descriptors_never_panic() {
    let unchecked = Options {
        skip_verify: true,
        ..Options::default()
    };
    for (test, seed) in [
        ("BDMA_L0_0", 0x2545_F491_4F6C_DD1Du64),
        ("PDP_L0_0", 0x9E37_79B9_7F4A_7C15),
    ] {
        let l = onnc_nvdla_loadable::Loadable::read(&fbuf(test)).unwrap();
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for i in 0..300 {
            let mut m = l.clone();
            let b = (next() as usize) % m.blobs.len();
            let data = &mut m.blobs[b].data;
            for _ in 0..1 + i % 3 {
                let at = (next() as usize) % data.len();
                data[at] = match next() % 3 {
                    0 => 0xFF,
                    1 => data[at] ^ (1 << (next() % 8)),
                    _ => next() as u8,
                };
            }
            let bytes = m.write();
            for opts in [&Options::default(), &unchecked] {
                let r = std::panic::catch_unwind(|| golden_dimg(&bytes, opts).map(|_| ()));
                assert!(r.is_ok(), "{test} mutation {i} (blob {b}) panicked");
            }
        }
    }
}

/// Every truncation of a small loadable is refused without a panic.
#[test]
fn truncated_loadables_are_refused() {
    let bytes = fbuf("BDMA_L0_0");
    for len in (0..bytes.len()).step_by(97) {
        assert!(
            golden_dimg(&bytes[..len], &Options::default()).is_err(),
            "{len}"
        );
    }
}

/// A BDMA transfer reading past its memory is `OutOfBounds`, naming the op.
#[test]
fn out_of_bounds_names_the_op() {
    let bytes = fbuf("BDMA_L0_0");
    let mut l = onnc_nvdla_loadable::Loadable::read(&bytes).unwrap();
    // Shrink the source memory (mem 4) and its address below one line.
    l.memory_list[4].size = 1024;
    l.memory_list[4].contents.clear();
    l.memory_list[4].offsets.clear();
    l.memory_list[4].flags = onnc_nvdla_loadable::enums::MemoryFlags::ALLOC;
    l.address_list[4].size = 1024;
    let err = golden_dimg(&l.write(), &Options::default()).unwrap_err();
    match &err {
        Error::OutOfBounds {
            at, surface, mem, ..
        } => {
            assert_eq!((at.task, at.op, at.engine), (0, Some(0), "BDMA"));
            assert_eq!((*surface, *mem), ("src", 4));
        }
        other => panic!("expected OutOfBounds, got {other}"),
    }
    let text = err.to_string();
    assert!(text.contains("task 0, op 0 (BDMA)"), "{text}");
}

/// The public API on LeNet: a zero f32 input gives the golden
/// probabilities (the DIMG payload decoded), and they sum to about 1.
#[test]
fn nn_simulate_matches_golden_values() {
    use onnc_nvdla_sim::{Tensor, TensorData};
    let input = Tensor {
        bind_id: 0,
        data: TensorData::F32(vec![0.0; 28 * 28]),
    };
    let out = simulate(&fbuf("NN_L0_0"), &[input], &Options::default()).unwrap();
    let prob = &out.tensors[0];
    assert_eq!((prob.name.as_str(), prob.dims), ("prob", [1, 10, 1, 1]));
    let dir = std::fs::read_dir(data_dir().join("golden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("NN_L0_0"))
        .unwrap();
    let dimg = std::fs::read(dir.join("dla/o_000000.dimg")).unwrap();
    let want: Vec<f32> = dimg[36..]
        .chunks(2)
        .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
        .collect();
    assert_eq!(prob.values, want);
    let sum: f32 = prob.values.iter().sum();
    assert!((sum - 1.0).abs() < 0.01, "{sum}");
}

/// The reading of the format ONNC 1.3.0's loadables settle: the runtime
/// never reads an address entry's `size` (`Runtime::fillTaskAddressList`
/// hands the firmware a handle and an offset) and the firmware never
/// programs a RUBIK cube's `size` (`kmd/firmware/rubik.c`). ONNC sizes
/// every address entry and RUBIK surface as its whole memory, at non-zero
/// offsets. RBK_L0_0 rewritten that way — its source and destination moved
/// 4096 bytes into bigger memories — loads with warnings only and gives the
/// golden output byte for byte.
#[test]
fn onnc_style_whole_memory_sizes_run() {
    use onnc_nvdla_loadable::desc::SurfaceDesc;
    use onnc_nvdla_loadable::layout::{blob_roles, task_descs, BlobRole, TaskDescs};
    use onnc_nvdla_loadable::{Abi, Severity};
    const PAD: u64 = 4096;
    let mut l = onnc_nvdla_loadable::Loadable::read(&fbuf("RBK_L0_0")).unwrap();
    let abi = Abi::Legacy;
    let TaskDescs::Dla(mut d) = task_descs(&l, &l.task_list[0], abi) else {
        panic!("RBK_L0_0's task is DLA")
    };
    let (src, dst) = {
        let SurfaceDesc::Rubik(r) = &d.surfaces.value.as_ref().unwrap()[0].desc else {
            panic!("op 0 is RUBIK")
        };
        (r.src_data.address as usize, r.dst_data.address as usize)
    };
    for slot in [src, dst] {
        let a = usize::from(l.task_list[0].address_list[slot]);
        let m = usize::from(l.address_list[a].mem_id);
        l.memory_list[m].size += PAD;
        for off in &mut l.memory_list[m].offsets {
            *off += PAD;
        }
        l.address_list[a].offset = PAD;
        l.address_list[a].size = l.memory_list[m].size;
    }
    let out_mem = usize::from(l.address_list[usize::from(l.task_list[0].address_list[dst])].mem_id);
    let t = usize::from(l.memory_list[out_mem].tensor_desc_id);
    l.tensor_desc_list[t].offset = PAD;
    let whole = (l.memory_list[out_mem].size) as u32;
    let SurfaceDesc::Rubik(r) = &mut d.surfaces.value.as_mut().unwrap()[0].desc else {
        unreachable!()
    };
    r.src_data.size = whole;
    r.dst_data.size = whole;
    let surfs: Vec<u8> = d
        .surfaces
        .value
        .unwrap()
        .iter()
        .flat_map(|s| s.encode(abi))
        .collect();
    let (b, _, _) = blob_roles(&l)
        .into_iter()
        .find(|&(_, task, role)| task == 0 && role == BlobRole::SurfList)
        .expect("a surface blob");
    l.blobs[b].size = surfs.len() as u64;
    l.blobs[b].data = surfs;
    let bytes = l.write();

    let opts = onnc_nvdla_loadable::VerifyOptions::new(abi);
    let report = onnc_nvdla_loadable::verify_with(&l, &opts);
    let errors: Vec<String> = report
        .iter()
        .filter(|v| v.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let rules: Vec<&str> = report.iter().map(|v| v.rule).collect();
    assert_eq!(
        rules.iter().filter(|r| **r == "address-size").count(),
        2,
        "{report:?}"
    );
    assert_eq!(
        rules.iter().filter(|r| **r == "cube-size").count(),
        2,
        "{report:?}"
    );

    let dimg = golden_dimg(&bytes, &Options::default()).expect("runs");
    assert_eq!(md5_hex(&dimg), lead_md5("RBK_L0_0"));
}
