//! Grouped and depthwise convolutions that fit the convolution buffer whole
//! are still emitted as independent channel chunks when their chunks'
//! weight blocks are smaller than the merged block-diagonal weight
//! (issue 17 item 4), end to end through the simulator.
//!
//! In: small depthwise and grouped convs built here, compiled (legalize →
//! lower → plan → emit). Out: assertions that the simulator matches the
//! reference interpreter (nv_full FP16 ≤ 1e-2 of max |ref|, nv_small INT8
//! ≤ 5e-2 after calibration), that the conv was (or was not) chunked, and
//! that the loadable carries the blocks' bytes, not the dense weight's.
//! `--nocapture` prints each case's worst error ratio and its ops.

#[path = "simulate/harness.rs"]
#[allow(dead_code)]
mod harness;
#[path = "simulate/int8.rs"]
#[allow(dead_code)]
mod int8;
#[path = "simulate/net.rs"]
#[allow(dead_code)]
mod net;

use harness::{check, Check, Report};
use net::{ConvGeom, Net};
use onnc_legalize::Target;
use onnc_nvdla::{ConfigName, TensorKind};
use onnc_nvdla_loadable::enums::MemoryFlags;
use onnc_nvdla_loadable::Loadable;

/// `Relu(Conv(x) + b)` over `c` channels of `hw×hw`, `k×k`, in `groups`
/// groups, with `stride`.
fn grouped(name: &str, c: usize, hw: usize, k: usize, groups: usize, stride: i64) -> Net {
    let mut n = Net::new(name, &[1, c, hw, hw], 31);
    let g = ConvGeom {
        group: groups,
        stride,
        ..ConvGeom::same(k)
    };
    let y = n.conv("x", c, c, g, true);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    n
}

fn nv_small() -> Check {
    Check {
        target: Target::NvSmall,
        config: ConfigName::NvSmall,
        tol: harness::INT8_TOL,
        ..Check::full()
    }
}

fn convs(r: &Report) -> usize {
    r.count("CONV")
}

#[test]
fn depthwise_3x3_stride_2_over_96_and_192_channels_is_chunked_on_nv_full() {
    for c in [96, 192] {
        let r = check(
            grouped(&format!("dw{c}_s2"), c, 56, 3, c, 2).g,
            Check::full(),
        );
        // At least two chunks of whole 16-channel output atoms.
        assert!(convs(&r) >= 2 && convs(&r) <= c / 16, "{c}: {:?}", r.ops);
        assert_eq!(r.count("SDP"), convs(&r), "{:?}", r.ops);
    }
    // 32 channels are one input atom on nv_full (64 channels per MAC
    // atom): chunks would save no MAC and 18 KB of weights, less than the
    // cost of a second pair, so the conv stays whole.
    let r = check(grouped("dw32_s2", 32, 14, 3, 32, 2).g, Check::full());
    assert_eq!(convs(&r), 1, "{:?}", r.ops);
}

#[test]
fn depthwise_3x3_stride_1_with_channels_not_a_multiple_of_the_atom() {
    // 136 channels: chunks of whole 16-kernel atoms and a partial last one.
    let r = check(grouped("dw136", 136, 28, 3, 136, 1).g, Check::full());
    assert!(convs(&r) >= 2, "{:?}", r.ops);
}

#[test]
fn three_groups_of_6_channels_stay_one_conv() {
    // Every 16-kernel chunk would read all 18 input channels: no saving.
    let r = check(grouped("g3x6", 18, 10, 3, 3, 1).g, Check::full());
    assert_eq!(convs(&r), 1, "{:?}", r.ops);
}

#[test]
fn three_groups_of_32_channels_are_chunked_by_group() {
    let r = check(grouped("g3x32", 96, 10, 3, 3, 2).g, Check::full());
    assert!(convs(&r) >= 3, "{:?}", r.ops);
}

#[test]
fn depthwise_3x3_over_96_channels_in_int8_on_nv_small() {
    let r = int8::check_int8(grouped("dw96_small", 96, 14, 3, 96, 2).g, nv_small());
    assert!(convs(&r) >= 2, "{:?}", r.ops);
}

/// 2112 depthwise channels at 28×28 on nv_small: one chunk per 8-channel
/// atom, and the 1×1 conv after it reads what all their SDPs wrote — more
/// producers than a dependency count (a `u8`) can count.
#[test]
fn a_conv_after_more_than_255_chunks_waits_for_all_of_them_on_nv_small() {
    let c = 2112;
    let mut n = Net::new("dw2112_small", &[1, c, 28, 28], 37);
    let g = ConvGeom {
        group: c,
        ..ConvGeom::same(3)
    };
    let y = n.conv("x", c, c, g, true);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.conv(&y, c, 8, ConvGeom::same(1), true);
    n.output(&y);
    let r = int8::check_int8(n.g, nv_small());
    assert!(convs(&r) > 256, "{} convs", convs(&r));
}

/// The program holds the grouped `[96, 1, 3, 3]` kernel and the loadable
/// each chunk's block, not the dense block-diagonal kernel: the weight blob of a 96-channel depthwise 3×3 FP16 conv is
/// `96 × step × 9 × 2` bytes (chunks of `step` channels), and the weight
/// memory is far below the dense `96 × 96 × 9 × 2`.
#[test]
fn the_loadable_holds_the_blocks_not_the_dense_weight() {
    let c = 96;
    let g = harness::through_the_loader(&grouped("dw96_bytes", c, 14, 3, c, 1).g);
    let (p, bytes) = harness::compile(&g, Target::NvFull, ConfigName::NvFull);
    let l = Loadable::read(&bytes).expect("the loadable reads back");
    let chunks = harness::op_kinds(&bytes)
        .iter()
        .filter(|k| *k == "CONV")
        .count();
    assert!(chunks >= 2, "{chunks} convs");
    let step = c / chunks;
    let w = p
        .tensors
        .iter()
        .position(|t| matches!(t.kind, TensorKind::Weight(_)) && t.shape == [c, 1, 3, 3])
        .expect("the depthwise weight, grouped");
    let blob = l
        .blobs
        .iter()
        .find(|b| b.name == format!("tb-{w}"))
        .expect("the weight's blob");
    let dense = c * c * 9 * 2;
    assert_eq!(blob.data.len(), c * step * 9 * 2, "step {step}");
    assert_eq!(blob.size as usize, blob.data.len());
    assert_eq!(
        p.tensors[w].place.unwrap().size as usize,
        blob.data.len(),
        "the plan reserves the blocks only"
    );
    let weight_mem: u64 = l
        .memory_list
        .iter()
        .filter(|m| {
            m.flags.0 & MemoryFlags::SET.0 != 0 && m.contents.iter().any(|n| n.starts_with("tb-"))
        })
        .map(|m| m.size)
        .sum();
    let blobs: usize = l
        .blobs
        .iter()
        .filter(|b| b.name.starts_with("tb-"))
        .map(|b| b.data.len())
        .sum();
    assert!(
        weight_mem as usize <= (blobs + 4096).div_ceil(4096) * 4096,
        "{weight_mem}"
    );
    assert!((weight_mem as usize) < dense, "{weight_mem} >= {dense}");
    // The report counts what the chunks multiply: each 14×14 output pixel
    // of a chunk of `step` kernels over its `step` channels, 9 taps; the
    // dense block-diagonal weight would count `c` channels per kernel.
    let k = p
        .ops
        .iter()
        .position(|o| o.inputs.get(1).copied().flatten() == Some(w))
        .expect("the conv");
    assert_eq!(
        p.ops[k].int("group"),
        Some(c as i64),
        "the conv keeps its groups"
    );
    let macs = onnc_nvdla::emit::conv_macs(&p);
    assert_eq!(macs[k], (14 * 14 * c * step * 9) as u64, "step {step}");
    assert!(macs.iter().enumerate().all(|(i, &m)| i == k || m == 0));
}

/// A depthwise conv that stays whole (32 channels on nv_full) keeps its
/// grouped `[32, 1, 3, 3]` kernel in the program, and its blob is the
/// direct-convolution layout of the dense block-diagonal `[32, 32, 3, 3]`
/// kernel, byte for byte, as when lowering densified it.
#[test]
fn a_whole_depthwise_conv_is_laid_out_as_its_dense_kernel() {
    use onnc_nvdla::emit::weights::conv_dc;
    use onnc_nvdla::{Config, Precision};
    let c = 32;
    let g = harness::through_the_loader(&grouped("dw32_whole", c, 14, 3, c, 2).g);
    let (p, bytes) = harness::compile(&g, Target::NvFull, ConfigName::NvFull);
    assert_eq!(convs_in(&bytes), 1, "stays whole");
    let w = p
        .tensors
        .iter()
        .position(|t| matches!(t.kind, TensorKind::Weight(_)) && t.shape == [c, 1, 3, 3])
        .expect("the depthwise weight, grouped");
    let TensorKind::Weight(values) = &p.tensors[w].kind else {
        unreachable!()
    };
    let v = values.values();
    let mut dense = vec![0f32; c * c * 9];
    for k in 0..c {
        dense[(k * c + k) * 9..(k * c + k + 1) * 9].copy_from_slice(&v[k * 9..(k + 1) * 9]);
    }
    let cfg = Config::get(ConfigName::NvFull);
    let want = conv_dc(&dense, [c, c, 3, 3], &cfg, Precision::Fp16, 0);
    let l = Loadable::read(&bytes).expect("the loadable reads back");
    let blob = l
        .blobs
        .iter()
        .find(|b| b.name == format!("tb-{w}"))
        .expect("the weight's blob");
    assert_eq!(blob.data, want);
    assert_eq!(p.tensors[w].place.unwrap().size as usize, want.len());
}

fn convs_in(bytes: &[u8]) -> usize {
    harness::op_kinds(bytes)
        .iter()
        .filter(|k| *k == "CONV")
        .count()
}
