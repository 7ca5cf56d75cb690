//! Truncated and garbage input gives errors, never panics: the reader, the
//! dumper, the verifier and the descriptor decoders are fed truncations and
//! byte mutations of every golden file, and pure random buffers.

mod common;

use common::*;
use onnc_nvdla_loadable::desc::container::decode_array;
use onnc_nvdla_loadable::desc::{
    CommonOpDesc, ConvSurfaceDesc, DataCube, Descriptor, EmuBufferDescs, LutParam, NetworkDesc,
    OpSlot, SurfaceSlot,
};
use onnc_nvdla_loadable::{convert_abi, dump, dump_detected, verify, Abi, Error, Loadable};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Everything downstream of a successful read must not panic either.
fn exercise(bytes: &[u8]) {
    if let Ok(l) = Loadable::read(bytes) {
        let _ = dump_detected(&l);
        let _ = dump(&l, Abi::Current);
        let _ = verify(&l, Abi::Legacy);
        let _ = verify(&l, Abi::Current);
        let _ = Loadable::read(&l.write());
        if let Ok(c) = convert_abi(&l, Abi::Legacy, Abi::Current) {
            let _ = verify(&c, Abi::Current);
            let _ = convert_abi(&c, Abi::Current, Abi::Legacy);
        }
    }
}

/// Lengths to try: every length near both ends, then a stride through the middle.
fn cut_points(len: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..len.min(600)).collect();
    v.extend(len.saturating_sub(64)..len);
    let step = (len / 300).max(1);
    v.extend((0..len).step_by(step));
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn truncations_never_panic() {
    for name in GOLDEN {
        let bytes = golden_bytes(name);
        for cut in cut_points(bytes.len()) {
            let r = Loadable::read(&bytes[..cut]);
            if cut < 8 {
                assert!(r.is_err(), "{name}: {cut} bytes parsed");
            }
            exercise(&bytes[..cut]);
        }
    }
}

#[test]
fn truncation_errors_are_malformed() {
    let bytes = golden_bytes("PDP_L0_0_fbuf");
    let e = Loadable::read(&bytes[..100]).unwrap_err();
    assert!(matches!(e, Error::Malformed { .. }), "{e}");
}

#[test]
fn byte_mutations_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for name in GOLDEN {
        let bytes = golden_bytes(name);
        let rounds = if bytes.len() > 200_000 { 60 } else { 400 };
        for _ in 0..rounds {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below(8) {
                // Mostly hit the header and tables, which sit in the first KiB
                // of the file and at its end.
                let pos = match rng.below(3) {
                    0 => rng.below(b.len().min(1024)),
                    1 => b.len() - 1 - rng.below(b.len().min(4096)),
                    _ => rng.below(b.len()),
                };
                b[pos] = rng.next() as u8;
            }
            exercise(&b);
        }
    }
}

#[test]
fn random_buffers_never_panic() {
    let mut rng = Rng(42);
    for _ in 0..2000 {
        let len = rng.below(512);
        let b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        exercise(&b);
    }
}

#[test]
fn descriptor_decoders_reject_wrong_lengths() {
    let mut rng = Rng(7);
    for len in 0..1500 {
        let b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        for abi in [Abi::Current, Abi::Legacy] {
            assert_eq!(NetworkDesc::decode(&b, abi).is_ok(), len == 40);
            assert_eq!(
                DataCube::decode(&b, abi).is_ok(),
                len == DataCube::size(abi)
            );
            assert_eq!(
                ConvSurfaceDesc::decode(&b, abi).is_ok(),
                len == ConvSurfaceDesc::size(abi)
            );
            assert_eq!(LutParam::decode(&b, abi).is_ok(), len == 700);
            let _ = decode_array::<CommonOpDesc>(&b, abi);
            let _ = decode_array::<EmuBufferDescs>(&b, abi);
            for ty in 0..8 {
                assert_eq!(OpSlot::decode(&b, ty, abi).is_ok(), len == 116);
                assert_eq!(SurfaceSlot::decode(&b, ty, abi).is_ok(), len == 644);
            }
        }
    }
}

#[test]
fn random_descriptor_bytes_round_trip() {
    let mut rng = Rng(99);
    for _ in 0..200 {
        for abi in [Abi::Current, Abi::Legacy] {
            let op: Vec<u8> = (0..116).map(|_| rng.next() as u8).collect();
            let surf: Vec<u8> = (0..644).map(|_| rng.next() as u8).collect();
            for ty in 0..7 {
                assert_eq!(OpSlot::decode(&op, ty, abi).unwrap().encode(abi), op);
                assert_eq!(
                    SurfaceSlot::decode(&surf, ty, abi).unwrap().encode(abi),
                    surf
                );
            }
        }
    }
}
