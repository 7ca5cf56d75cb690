//! Convolutions too big for the convolution buffer, end to end through the
//! simulator (issue 19 item 8): merged depthwise and grouped convolutions
//! split into channel chunks by the emitter, and fully connected layers
//! split into input-channel partial sums by the legalizer on nv_small.
//!
//! Each case is built here, compiled (legalize → lower → plan → emit), run
//! in `onnc-nvdla-sim` and compared with the reference interpreter; nv_full
//! cases in FP16 (≤ 1e-2 of max |ref|), nv_small cases in INT8 after
//! calibration from the reference's activations (≤ 5e-2). `--nocapture`
//! prints each case's worst error ratio and its loadable's ops.
//!
//! In: graphs built here. Out: assertions that the simulator agrees and
//! that the conv really was split (more than one CONV descriptor).

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

/// `Relu(DepthwiseConv_k×k(x) + b)` over `c` channels of `hw×hw`, with a
/// residual `+ x` when `residual` (a per-point operand of the conv's SDP).
fn depthwise(name: &str, c: usize, hw: usize, k: usize, residual: bool) -> Net {
    let mut n = Net::new(name, &[1, c, hw, hw], 19);
    let g = ConvGeom {
        group: c,
        ..ConvGeom::same(k)
    };
    let mut y = n.conv("x", c, c, g, true);
    if residual {
        y = n.op("Add", &[&y, "x"], &[]);
    }
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

/// The case was split: more than one conv descriptor.
fn split(r: &Report, convs: usize) {
    assert_eq!(r.count("CONV"), convs, "{}: {:?}", r.name, r.ops);
}

/// MnasNet's 5×5 depthwise over 1152 channels at 7×7: one kernel group of
/// the merged conv needs 29 CBUF banks; 36 chunks of 32 channels.
#[test]
fn mnasnet_depthwise_5x5_1152_at_7x7_on_nv_full() {
    let r = check(depthwise("dw1152_7", 1152, 7, 5, false).g, Check::full());
    split(&r, 36);
}

/// The same at 14×14 (a chunk's input is 4× larger).
#[test]
fn depthwise_5x5_1152_at_14x14_on_nv_full() {
    let r = check(depthwise("dw1152_14", 1152, 14, 5, false).g, Check::full());
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// A residual add after the depthwise conv: the SDP's per-point operand is
/// cut into the same channel chunks as its output.
#[test]
fn depthwise_with_a_residual_operand_on_nv_full() {
    let r = check(depthwise("dw640_res", 640, 7, 5, true).g, Check::full());
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// A grouped conv (16 groups of 64 channels, 5×5): block-diagonal weights
/// whose chunks read 64 channels each.
#[test]
fn grouped_5x5_conv_over_1024_channels_on_nv_full() {
    let mut n = Net::new("group16", &[1, 1024, 7, 7], 23);
    let g = ConvGeom {
        group: 16,
        ..ConvGeom::same(5)
    };
    let y = n.conv("x", 1024, 1024, g, true);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// The depthwise conv in INT8 on nv_small (kernel groups of 8 channels, 32
/// banks of 4 KiB).
#[test]
fn depthwise_5x5_1152_at_7x7_on_nv_small() {
    let r = int8::check_int8(depthwise("dw1152_small", 1152, 7, 5, false).g, nv_small());
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// VGG-19's first fully connected layer (25088 → 4096 on a 512×7×7 cube),
/// here to 256 outputs: the legalizer cuts the input channels into parts
/// whose 7×7 conv fits nv_small's banks and sums the INT8 partial results
/// on the SDP (scales aligned to whole-bit shifts).
#[test]
fn vgg_fc_input_channels_split_on_nv_small() {
    let mut n = Net::new("vgg_fc", &[1, 512, 7, 7], 29);
    let f = n.op("Flatten", &["x"], &[]);
    let y = n.fc(&f, 25088, 256);
    n.output(&y);
    let r = int8::check_int8_with(n.g, nv_small(), true);
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// The same layer in FP16 on nv_full (12.8 MB of FP16 weights against a
/// 512 KiB CBUF): the legalizer cuts the input channels into parts, each a
/// strided slice of the model's kernel bytes, and every stage up to the
/// packed loadable reads them where they lie — no weight of the program is
/// decoded or gathered into a copy (issue 17, "weights stored once";
/// VGG-19's peak memory 3.3× → 1.6× its file). The simulator agrees.
#[test]
fn vgg_fc_input_channels_split_on_nv_full_reads_the_model_bytes_in_place() {
    let mut n = Net::new("vgg_fc_full", &[1, 512, 7, 7], 31);
    let f = n.op("Flatten", &["x"], &[]);
    let y = n.fc(&f, 25088, 256);
    n.output(&y);
    let g = harness::through_the_loader(&n.g);
    let (p, _) = harness::compile(&g, Target::NvFull, ConfigName::NvFull);
    let mut parts = 0;
    for t in &p.tensors {
        if let TensorKind::Weight(w) = &t.kind {
            parts += usize::from(w.le_view().run_count() > 1);
            assert!(!w.is_copied_out(), "weight '{}' was copied out", t.name);
        }
    }
    assert!(parts > 1, "the kernel is cut into strided parts: {parts}");
    let r = check(n.g, Check::full());
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// A batch normalization after a conv is folded by the legalizer lazily
/// (issue 17, "weights stored once"): the folded kernel is the model's
/// bytes times a per-channel factor, applied by the packer as it writes
/// FP16, so no stage copies the kernel. The loadable is byte for byte the
/// one compiled from the same kernel multiplied out beforehand, and the
/// simulator agrees with the interpreter.
#[test]
fn folded_batch_norm_is_scaled_while_packed_and_changes_no_byte() {
    use onnc_nvdla::emit::{emit, Abi, EmitOptions};
    let mut n = Net::new("conv_bn", &[1, 96, 14, 14], 37);
    let y = n.conv("x", 96, 128, ConvGeom::same(3), false);
    let y = n.bn(&y, 128);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    let g = harness::through_the_loader(&n.g);
    let (p, lazy_bytes) = harness::compile(&g, Target::NvFull, ConfigName::NvFull);
    let mut scaled = 0;
    for t in &p.tensors {
        if let TensorKind::Weight(w) = &t.kind {
            scaled += usize::from(w.row_scaled().is_some());
            assert!(!w.is_copied_out(), "weight '{}' was copied out", t.name);
        }
    }
    assert_eq!(scaled, 1, "the folded kernel reaches the packer unscaled");

    // The same legalized graph with every folded kernel multiplied out.
    let opts = onnc_legalize::Options::default();
    let mut l = onnc_legalize::legalize(g.clone(), Target::NvFull, &opts)
        .unwrap()
        .graph;
    let mut multiplied = 0;
    for (_, t) in &mut l.initializers {
        if t.row_scaled().is_some() {
            let eager =
                onnc_tensor::Tensor::from_f32(t.shape().to_vec(), t.as_f32().unwrap().to_vec());
            *t = eager.unwrap();
            multiplied += 1;
        }
    }
    assert_eq!(multiplied, 1);
    let mut q = onnc_nvdla::lower::lower(&l, ConfigName::NvFull, &Default::default()).unwrap();
    onnc_nvdla::emit::split_convs(&mut q).unwrap();
    onnc_nvdla::plan::plan(&mut q, &Default::default()).unwrap();
    let eager_bytes = emit(&q, &EmitOptions { abi: Abi::Current })
        .unwrap()
        .write();
    assert!(
        lazy_bytes == eager_bytes,
        "the loadables differ ({} and {} bytes)",
        lazy_bytes.len(),
        eager_bytes.len()
    );
    check(n.g, Check::full());
}
