//! Conv and SDP engines against NVIDIA's golden outputs, without the
//! scheduler: the single DLA task of each test is run op by op (CONV → SDP
//! on the fly, or SDP from memory) and the output buffer is repacked the way
//! the 2018 test app wrote `o_000000.dimg` (C-H-W; x32 addressing for 1-byte
//! formats, x16 for 2-byte ones; nvdla-arith.md §13), then compared with
//! the golden payload byte for byte.

use onnc_nvdla_loadable::desc::{OpDesc, SurfaceDesc};
use onnc_nvdla_loadable::layout::{task_descs, TaskDescs};
use onnc_nvdla_loadable::{detect_abi, Loadable};
use onnc_nvdla_sim::engine::{Flying, Hw, OpCtx};
use onnc_nvdla_sim::memory::Memory;
use onnc_nvdla_sim::{conv, sdp, At};
use std::path::PathBuf;

/// `test/data/nvdla-golden` of the repository (or `$NVDLA_GOLDEN_DIR`).
fn data_dir() -> PathBuf {
    std::env::var_os("NVDLA_GOLDEN_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test/data/nvdla-golden"),
        PathBuf::from,
    )
}

/// Runs the DLA task (conv and SDP ops in op order); returns the output
/// buffer and the loadable.
fn run(name: &str, hw: &Hw) -> (Vec<u8>, Loadable) {
    let bytes = std::fs::read(data_dir().join(format!("{name}_fbuf"))).unwrap();
    let l = Loadable::read(&bytes).unwrap();
    let abi = detect_abi(&l).abi;
    let mut mem = Memory::load(&l).unwrap();
    let task = &l.task_list[0];
    let TaskDescs::Dla(d) = task_descs(&l, task, abi) else {
        panic!("not a DLA task")
    };
    let ops = d.ops.value.unwrap();
    let surfs = d.surfaces.value.unwrap();
    let luts = d.luts.value.unwrap_or_default();
    let mut flying: Option<Flying> = None;
    for (i, (op, s)) in ops.iter().zip(&surfs).enumerate() {
        let at = At {
            task: 0,
            op: Some(i),
            engine: "",
        };
        let mut ctx = OpCtx {
            mem: mem.task(&task.address_list, at),
            luts: &luts,
            hw,
        };
        match (&op.desc, &s.desc) {
            (OpDesc::Conv(o), SurfaceDesc::Conv(s)) => {
                flying = Some(conv::run(o, s, &mut ctx).unwrap());
            }
            (OpDesc::Sdp(o), SurfaceDesc::Sdp(s)) => {
                let out = sdp::run(o, s, flying.take(), &mut ctx).unwrap();
                assert!(out.is_none());
            }
            (other, _) => panic!("op {i}: unexpected {other:?}"),
        }
    }
    let t = &l.tensor_desc_list[0];
    let out = mem.mems[t.mem_id as usize].clone();
    (out, l)
}

/// The DIMG payload of `buf` with the golden file's header.
fn repack(buf: &[u8], header: &[u8]) -> Vec<u8> {
    let u =
        |i: usize| u32::from_le_bytes(header[8 + 4 * i..12 + 4 * i].try_into().unwrap()) as usize;
    let (fmt, w, h, c, ls, ss) = (u(0), u(1), u(2), u(3), u(4), u(5));
    let (x, bpe) = match fmt {
        40 => (32, 1),
        41 | 42 => (16, 2),
        _ => panic!("format {fmt}"),
    };
    let mut out = Vec::new();
    for ch in 0..c {
        for y in 0..h {
            for xx in 0..w {
                let o = ch / x * ss + y * ls + xx * x * bpe + (ch % x) * bpe;
                out.extend_from_slice(&buf[o..o + bpe]);
            }
        }
    }
    out
}

fn check(name: &str, dir: &str, hw: &Hw) {
    let golden = std::fs::read(
        data_dir()
            .join("golden")
            .join(dir)
            .join("dla/o_000000.dimg"),
    )
    .unwrap();
    let (buf, _) = run(name, hw);
    let payload = repack(&buf, &golden[..36]);
    assert_eq!(payload.len(), golden.len() - 36, "{name}: payload size");
    let diff = payload
        .iter()
        .zip(&golden[36..])
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(diff, 0, "{name}: {diff} bytes differ from the golden");
}

#[test]
fn conv_d_l0_0_int16_nv_full() {
    check("CONV_D_L0_0", "CONV_D_L0_0_6d2d02", &Hw::NV_FULL);
}

#[test]
fn conv_d_l0_0_small_int8_nv_small() {
    check(
        "CONV_D_L0_0_small",
        "CONV_D_L0_0_small_3c77f6",
        &Hw::NV_SMALL,
    );
}

#[test]
fn sdp_x1_l0_0_int16_nv_full() {
    check("SDP_X1_L0_0", "SDP_X1_L0_0_b9bf63", &Hw::NV_FULL);
}

#[test]
fn sdp_x1_l0_0_small_int8_nv_small() {
    check(
        "SDP_X1_L0_0_small",
        "SDP_X1_L0_0_small_c9894d",
        &Hw::NV_SMALL,
    );
}
