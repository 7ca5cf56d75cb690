//! Activations through the SDP on nv_full (FP16): Sigmoid, Tanh, SiLU,
//! HardSigmoid, HardSwish, Softplus and Mish, alone and fused after a
//! convolution, in blocks shaped like MobileNetV3's and EfficientNet's,
//! each compiled, simulated bit-exactly and compared with the reference
//! interpreter (`harness::check`, 1 % of max |ref|). The LUT's own error
//! is measured in `tests/lut_error.rs`.
//!
//! In: graphs built here. Out: assertions on the agreement and on the ops
//! the loadable runs (a fused activation adds no SDP pass).

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::ConfigName;
use onnc_tensor::Attr;

use crate::harness::{check, Check};
use crate::net::{ConvGeom, Net};

/// `x · Sigmoid(x)` as PyTorch exports SiLU.
fn silu(n: &mut Net, x: &str) -> String {
    let s = n.op("Sigmoid", &[x], &[]);
    n.op("Mul", &[x, &s], &[])
}

/// `x · HardSigmoid(x)` as older exporters write HardSwish.
fn hard_swish_decomposed(n: &mut Net, x: &str) -> String {
    let h = n.op(
        "HardSigmoid",
        &[x],
        &[
            ("alpha", Attr::Float(1.0 / 6.0)),
            ("beta", Attr::Float(0.5)),
        ],
    );
    n.op("Mul", &[&h, x], &[])
}

/// Depthwise `k×k` conv over `c` channels.
fn depthwise(n: &mut Net, x: &str, c: usize, k: usize, stride: i64) -> String {
    let g = ConvGeom {
        stride,
        group: c,
        ..ConvGeom::same(k)
    };
    n.conv(x, c, c, g, true)
}

#[test]
fn conv_then_sigmoid_is_one_fused_sdp() {
    let mut n = Net::new("conv_sigmoid", &[1, 8, 10, 10], 31);
    let c = n.conv("x", 8, 16, ConvGeom::same(3), true);
    let y = n.op("Sigmoid", &[&c], &[]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert_eq!(r.ops, ["CONV", "SDP"], "the sigmoid runs in the conv's SDP");
}

#[test]
fn tanh_softplus_and_mish_on_memory_inputs() {
    for (name, op) in [("tanh", "Tanh"), ("softplus", "Softplus"), ("mish", "Mish")] {
        let mut n = Net::new(name, &[1, 5, 7, 9], 32);
        // Scale the [-1, 1) input to reach the tables' tails.
        let k = n.constant(&[1], vec![6.0]);
        let x = n.op("Mul", &["x", &k], &[]);
        let y = n.op(op, &[&x], &[]);
        n.output(&y);
        let r = check(n.g, Check::full());
        assert_eq!(r.ops, ["SDP"], "{op}: the scale and the LUT share one SDP");
    }
}

#[test]
fn silu_after_conv_and_batch_norm_is_one_sdp() {
    let mut n = Net::new("conv_bn_silu", &[1, 6, 9, 9], 33);
    let c = n.conv("x", 6, 12, ConvGeom::same(3), false);
    let b = n.bn(&c, 12);
    let y = silu(&mut n, &b);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert_eq!(r.ops, ["CONV", "SDP"]);
}

#[test]
fn mish_written_as_x_tanh_softplus_is_one_sdp() {
    let mut n = Net::new("conv_mish_decomposed", &[1, 4, 8, 8], 34);
    let c = n.conv("x", 4, 8, ConvGeom::same(3), true);
    let s = n.op("Softplus", &[&c], &[]);
    let t = n.op("Tanh", &[&s], &[]);
    let y = n.op("Mul", &[&c, &t], &[]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert_eq!(r.ops, ["CONV", "SDP"]);
}

#[test]
fn hard_sigmoid_runs_on_the_x_units() {
    let mut n = Net::new("hard_sigmoid", &[1, 8, 6, 6], 35);
    let c = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let k = n.constant(&[1], vec![4.0]);
    let s = n.op("Mul", &[&c, &k], &[]);
    let y = n.op(
        "HardSigmoid",
        &[&s],
        &[("alpha", Attr::Float(0.2)), ("beta", Attr::Float(0.5))],
    );
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn a_sigmoid_with_two_consumers_stays_a_sigmoid() {
    // s feeds the Mul and is a graph output: no SiLU rewrite, and the
    // product of two activations runs as a per-point multiply.
    let mut n = Net::new("sigmoid_shared", &[1, 8, 6, 6], 36);
    let c = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let s = n.op("Sigmoid", &[&c], &[]);
    let t = n.op("Tanh", &[&c], &[]);
    let y = n.op("Add", &[&s, &t], &[]);
    n.output(&s);
    n.output(&y);
    check(n.g, Check::full());
}

/// MobileNetV3's inverted residual: 1×1 expand → HardSwish → 3×3
/// depthwise → HardSwish (the ONNX op, and as `x · HardSigmoid(x)`) → 1×1
/// project → residual add.
#[test]
fn mobilenet_v3_block_with_hard_swish() {
    let mut n = Net::new("mnv3_block", &[1, 16, 14, 14], 37);
    let stem = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let stem = n.op("HardSwish", &[&stem], &[]);
    let e = n.conv(&stem, 16, 48, ConvGeom::same(1), true);
    let e = n.op("HardSwish", &[&e], &[]);
    let d = depthwise(&mut n, &e, 48, 3, 1);
    let d = hard_swish_decomposed(&mut n, &d);
    let p = n.conv(&d, 48, 16, ConvGeom::same(1), true);
    let y = n.op("Add", &[&p, &stem], &[]);
    n.output(&y);
    let r = check(n.g, Check::full());
    // Four convs, each with its one SDP: every HardSwish and the residual
    // add are fused.
    assert_eq!((r.count("CONV"), r.count("SDP")), (4, 4), "{:?}", r.ops);
}

/// EfficientNet's MBConv without squeeze-excitation: 1×1 expand + BN +
/// SiLU → 5×5 depthwise stride 2 + BN + SiLU → 1×1 project + BN.
#[test]
fn efficientnet_block_with_silu() {
    let mut n = Net::new("effnet_block", &[1, 8, 16, 16], 38);
    let e = n.conv("x", 8, 32, ConvGeom::same(1), false);
    let e = n.bn(&e, 32);
    let e = silu(&mut n, &e);
    let d = depthwise(&mut n, &e, 32, 5, 2);
    let d = n.bn(&d, 32);
    let d = silu(&mut n, &d);
    let p = n.conv(&d, 32, 16, ConvGeom::same(1), false);
    let y = n.bn(&p, 16);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert_eq!((r.count("CONV"), r.count("SDP")), (3, 3), "{:?}", r.ops);
}

/// The refusals: nv_small has no LUT (the legalizer says so for the
/// functions without an X-unit rewrite), nv_large runs INT8, for which the
/// table is not built (the lowering says so, naming the node).
#[test]
fn int8_configurations_refuse_lut_activations_precisely() {
    let mut n = Net::new("sigmoid_int8", &[1, 8, 6, 6], 39);
    let c = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let y = silu(&mut n, &c);
    n.output(&y);
    let mut g = n.g;
    let inputs = crate::harness::inputs_for(&g, 1);
    crate::harness::reference(&mut g, &inputs);
    let l = legalize(g.clone(), Target::NvLarge, &Options::default()).expect("legalizes");
    let e = lower(&l.graph, ConfigName::NvLarge, &LowerOptions::default())
        .expect_err("INT8 LUT is refused")
        .to_string();
    // x·sigmoid(x) is fused into one LUT op only where the LUT runs (FP16
    // with a Y unit); on INT8 nv_large the Sigmoid itself is refused.
    assert!(
        e.contains("INT8")
            && e.contains("Sigmoid")
            && e.contains("lookup table")
            && e.contains("nv_full"),
        "{e}"
    );
    // nv_small has no LUT: SiLU's Sigmoid becomes ramps on the X units
    // (`nvdla/sigmoid-to-ramps`, tests/simulate/sigmoid.rs) and lowers;
    // Softplus, which has no such rewrite, is refused by the legalizer.
    let l = legalize(g, Target::NvSmall, &Options::default()).expect("SiLU legalizes");
    lower(&l.graph, ConfigName::NvSmall, &LowerOptions::default()).expect("SiLU lowers");
    let mut n = Net::new("softplus_int8", &[1, 8, 6, 6], 39);
    let y = n.op("Softplus", &["x"], &[]);
    n.output(&y);
    let msg = legalize(n.g, Target::NvSmall, &Options::default())
        .expect_err("nv_small has no LUT")
        .to_string();
    assert!(
        msg.contains("Softplus") && msg.contains("lookup table"),
        "{msg}"
    );
}
