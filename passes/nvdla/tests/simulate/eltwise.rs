//! Element-wise ops of two activations through the SDP (issue #19 item 6,
//! issue #18 item 5): squeeze-excitation (a `[1, C, 1, 1]` activation times
//! a `[1, C, H, W]` one, read as a per-kernel operand), per-point Add, Sub,
//! Max, Min and Mul, fused after a conv or standalone, on every
//! configuration that has the sub-units (nv_small: X1 and X2 only).
//!
//! In: graphs built with [`Net`]. Out: each compiled, simulated bit-exact
//! and compared with the reference interpreter ([`check`] for FP16 on
//! nv_full, [`int8::check_int8_with`] for INT8 on nv_large and nv_small).

use crate::harness::{self, check, Check, Report};
use crate::int8;
use crate::net::{ConvGeom, Net};
use onnc_legalize::Target;
use onnc_nvdla::ConfigName;

/// INT8 on `config`, the tolerance of INT8 cases.
fn int8_on(config: ConfigName) -> Check {
    let target = match config {
        ConfigName::NvFull => Target::NvFull,
        ConfigName::NvLarge => Target::NvLarge,
        ConfigName::NvSmall => Target::NvSmall,
    };
    Check {
        target,
        config,
        tol: harness::INT8_TOL,
        ..Check::full()
    }
}

/// Squeeze-excitation: `a = relu(conv(x))`, `s = relu(conv(relu(conv(gap(a)))))`
/// (`[1, C, 1, 1]`; ReLU stands in for the usual sigmoid), `y = a · s` or
/// `s · a` when `swapped`.
fn se_block(name: &str, c: usize, hw: usize, swapped: bool) -> Net {
    let mut n = Net::new(name, &[1, c, hw, hw], 51);
    let a = n.conv("x", c, c, ConvGeom::same(3), true);
    let a = n.op("Relu", &[&a], &[]);
    let s = n.op("GlobalAveragePool", &[&a], &[]);
    let s = n.conv(&s, c, c / 4, ConvGeom::same(1), true);
    let s = n.op("Relu", &[&s], &[]);
    let s = n.conv(&s, c / 4, c, ConvGeom::same(1), true);
    let s = n.op("Relu", &[&s], &[]);
    let y = if swapped {
        n.op("Mul", &[&s, &a], &[])
    } else {
        n.op("Mul", &[&a, &s], &[])
    };
    n.output(&y);
    n
}

/// How many SDP ops read a per-point or per-kernel operand: the report's
/// op list does not say, so count the SDPs.
fn sdps(r: &Report) -> usize {
    r.count("SDP")
}

#[test]
fn squeeze_excitation_mul_by_a_per_channel_activation() {
    // The SE vector is a per-kernel operand of a standalone SDP reading
    // the block's output (which the GAP reads too, so no conv's SDP can
    // absorb the Mul): 3 convs, 4 SDPs, 1 PDP for the GAP.
    let r = check(se_block("se_mul", 16, 8, false).g, Check::full());
    assert_eq!(
        (r.count("CONV"), sdps(&r), r.count("PDP")),
        (3, 4, 1),
        "{r:?}"
    );
    // The per-channel operand first: the SDP still reads the full cube.
    check(se_block("se_mul_swapped", 16, 8, true).g, Check::full());
    // 64 channels (several memory atoms) over 14×14.
    check(se_block("se_mul_64", 64, 14, false).g, Check::full());
}

#[test]
fn per_channel_activation_operands_of_add_sub_max_min() {
    let mut n = Net::new("per_channel_ops", &[1, 16, 6, 6], 52);
    n.input("s", &[1, 16, 1, 1]);
    for op in ["Add", "Sub", "Max", "Min", "Mul"] {
        let y = n.op(op, &["x", "s"], &[]);
        n.output(&y);
    }
    // The per-channel value as the minuend: −x + s.
    let y = n.op("Sub", &["s", "x"], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn two_activations_add_sub_max_min_mul() {
    let mut n = Net::new("two_acts", &[1, 8, 5, 7], 53);
    n.input("b", &[1, 8, 5, 7]);
    for op in ["Add", "Sub", "Max", "Min", "Mul"] {
        let y = n.op(op, &["x", "b"], &[]);
        n.output(&y);
    }
    let y = n.op("Sub", &["b", "x"], &[]);
    n.output(&y);
    // x − x and x · x: one activation on both sides.
    let y = n.op("Sub", &["x", "x"], &[]);
    n.output(&y);
    let y = n.op("Mul", &["x", "x"], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

/// `conv(x) op skip [→ Relu]`, or `skip op conv(x)` when `skip_first`.
fn fused_case(name: &str, op: &str, skip_first: bool, relu: bool) -> Net {
    let mut n = Net::new(name, &[1, 8, 6, 6], 54);
    let c = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let c = n.op("Relu", &[&c], &[]);
    let c = n.conv(&c, 8, 8, ConvGeom::same(3), true);
    let mut y = if skip_first {
        n.op(op, &["x", &c], &[])
    } else {
        n.op(op, &[&c, "x"], &[])
    };
    if relu {
        y = n.op("Relu", &[&y], &[]);
    }
    n.output(&y);
    n
}

#[test]
fn fused_after_a_conv() {
    for op in ["Sub", "Max", "Min", "Mul"] {
        for skip_first in [false, true] {
            let name = format!("fused_{op}_{skip_first}");
            let r = check(fused_case(&name, op, skip_first, false).g, Check::full());
            // Every op fuses into the second conv's SDP: 2 convs, 2 SDPs.
            assert_eq!((r.count("CONV"), sdps(&r)), (2, 2), "{name}: {r:?}");
        }
    }
    // x − conv: the subtrahend is the chain (X1 bias, −1; X2 + x), and a
    // ReLU after it still fits X2.
    let r = check(
        fused_case("fused_sub_relu", "Sub", true, true).g,
        Check::full(),
    );
    assert_eq!(sdps(&r), 2, "{r:?}");
}

#[test]
fn int8_residual_add_on_nv_small_and_nv_large() {
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        let n = fused_case(&format!("i8_res_{config}"), "Add", false, true);
        let r = int8::check_int8_with(n.g, int8_on(config), true);
        assert_eq!((r.count("CONV"), sdps(&r)), (2, 2), "{r:?}");
    }
}

#[test]
fn int8_sub_max_min_of_two_activations_on_nv_small() {
    for op in ["Sub", "Max", "Min"] {
        for skip_first in [false, true] {
            let name = format!("i8_{op}_{skip_first}");
            let n = fused_case(&name, op, skip_first, false);
            int8::check_int8_with(n.g, int8_on(ConfigName::NvSmall), true);
        }
    }
    // conv − x on nv_large: −(−conv + x) fused, the second negation on Y.
    let n = fused_case("i8_sub_on_y", "Sub", false, false);
    let r = int8::check_int8_with(n.g, int8_on(ConfigName::NvLarge), true);
    assert_eq!((r.count("CONV"), sdps(&r)), (2, 2), "{r:?}");
}

#[test]
fn nv_small_refuses_only_what_needs_the_y_unit() {
    // x − s with s per channel: −(−x + s) needs a third sub-unit to negate.
    let mut n = Net::new("small_sub", &[1, 8, 4, 4], 55);
    n.input("s", &[1, 8, 1, 1]);
    let y = n.op("Sub", &["x", "s"], &[]);
    n.output(&y);
    let mut g = n.g;
    let inputs = harness::inputs_for(&g, 1);
    harness::reference(&mut g, &inputs);
    let g = harness::through_the_loader(&g);
    let l = onnc_legalize::legalize(g, Target::NvSmall, &Default::default()).unwrap();
    let e = onnc_nvdla::lower::lower(&l.graph, ConfigName::NvSmall, &Default::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("needs more SDP sub-units than nv_small has: X1 and X2 (no Y unit)")
            && e.contains("compile for nv_full or nv_large"),
        "{e}"
    );
    // The same on nv_full runs (X1 ×−1, X2 + s, Y ×−1).
    let mut n = Net::new("full_sub", &[1, 8, 4, 4], 55);
    n.input("s", &[1, 8, 1, 1]);
    let y = n.op("Sub", &["x", "s"], &[]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert_eq!(sdps(&r), 1, "{r:?}");
}

/// The light model-zoo nets in INT8 on nv_small, calibrated with the
/// harness's scales (residuals aligned). Before the X1/X2 per-point path,
/// every residual and concatenating net was refused there; VGG-19 and
/// ZFNet-512 compile since the legalizer cuts their fully connected layers'
/// input channels into parts that fit whole CBUF banks (issue #19 item 8).
#[test]
fn zoo_compiles_for_nv_small_int8() {
    let zoo = [
        "vgg19",
        "zfnet512",
        "bvlc_alexnet",
        "shufflenet",
        "squeezenet",
        "densenet121",
        "inception_v1",
        "inception_v2",
        "resnet50",
    ];
    let mut lines = Vec::new();
    for name in zoo {
        let path = crate::common::zoo_dir().join(format!("light_{name}.onnx"));
        let mut g = onnc_onnx::load(&path, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .graph;
        crate::randomize_weights(&mut g, 1234);
        crate::logits_out(&mut g);
        let inputs = harness::inputs_for(&g, 1);
        harness::reference(&mut g, &inputs);
        let g = harness::through_the_loader(&g);
        let c = int8_on(ConfigName::NvSmall);
        let (p, bytes, _) = int8::compile_int8(&g, &inputs, c, true);
        assert!(
            p.ops.iter().all(|o| o.int("y_op.enable") != Some(1)),
            "{name}"
        );
        let ops = harness::op_kinds(&bytes);
        lines.push(format!("{name}: {} loadable ops", ops.len()));
    }
    println!("{}", lines.join("\n"));
}

/// A small ResNet in INT8 on nv_small, end to end: a stem, an identity
/// block, a downsampling block with a 1×1 projection shortcut, global
/// average pooling and a classifier. Every residual Add runs on X2 of its
/// conv's SDP (scales aligned, as calibration needs on X units).
#[test]
fn int8_small_resnet_on_nv_small() {
    let mut n = Net::new("i8_mini_resnet", &[1, 8, 12, 12], 56);
    let stem = n.conv("x", 8, 16, ConvGeom::same(3), true);
    let stem = n.op("Relu", &[&stem], &[]);
    let y = n.conv(&stem, 16, 16, ConvGeom::same(3), true);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.conv(&y, 16, 16, ConvGeom::same(3), true);
    let y = n.op("Add", &[&y, &stem], &[]);
    let b1 = n.op("Relu", &[&y], &[]);
    let s2 = ConvGeom {
        stride: 2,
        ..ConvGeom::same(3)
    };
    let y = n.conv(&b1, 16, 32, s2, true);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.conv(&y, 32, 32, ConvGeom::same(3), true);
    let proj = ConvGeom {
        stride: 2,
        ..ConvGeom::same(1)
    };
    let skip = n.conv(&b1, 16, 32, proj, true);
    let y = n.op("Add", &[&y, &skip], &[]);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.op("GlobalAveragePool", &[&y], &[]);
    let y = n.op("Flatten", &[&y], &[("axis", onnc_tensor::Attr::Int(1))]);
    let y = n.fc(&y, 32, 10);
    n.output(&y);
    let c = Check {
        classifier: true,
        ..int8_on(ConfigName::NvSmall)
    };
    let r = int8::check_int8_with(n.g, c, true);
    assert_eq!(r.count("CONV"), 7, "{r:?}");
}

/// INT8 products of two activations: the product `X · B` counts
/// `unit · s_b`, and the output converter maps that unit (before, the
/// calibration refused every such Mul). Scales are the harness's own,
/// not aligned: a product needs no common unit.
#[test]
fn int8_mul_by_an_activation() {
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        // Fused after a conv (X2 multiplies the accumulator by `x`), both
        // operand orders.
        for skip_first in [false, true] {
            let name = format!("i8_mul_{skip_first}_{}", config.as_str());
            let n = fused_case(&name, "Mul", skip_first, false);
            let r = int8::check_int8_with(n.g, int8_on(config), false);
            assert_eq!((r.count("CONV"), sdps(&r)), (2, 2), "{name}: {r:?}");
        }
        // Standalone, per point: `x · b` with `b` an output of its own SDP.
        let name = format!("i8_mul_two_{}", config.as_str());
        let mut n = Net::new(&name, &[1, 8, 5, 7], 58);
        n.input("b", &[1, 8, 5, 7]);
        let k = n.constant(&[1], vec![3.3]);
        let b = n.op("Mul", &["b", &k], &[]);
        let y = n.op("Mul", &["x", &b], &[]);
        n.output(&b);
        n.output(&y);
        let r = int8::check_int8_with(n.g, int8_on(config), false);
        assert_eq!(sdps(&r), 2, "{name}: {r:?}");
    }
}

/// Squeeze-excitation in INT8: the `[1, C, 1, 1]` gate is a per-kernel
/// operand read from memory, on nv_small's X units and on nv_large.
#[test]
fn int8_squeeze_excitation() {
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        for (c, hw, swapped) in [(16, 8, false), (16, 8, true), (64, 14, false)] {
            let name = format!("i8_se_{c}_{swapped}_{}", config.as_str());
            let r =
                int8::check_int8_with(se_block(&name, c, hw, swapped).g, int8_on(config), false);
            assert_eq!(r.count("CONV"), 3, "{name}: {r:?}");
        }
    }
}

/// HardSwish in INT8 on nv_small (no lookup table): legalized to
/// `x · HardSigmoid(x)`, the gate an SDP of its own (scale 1/127), the
/// product a second SDP reading both (MobileNetV3, LR-ASPP).
#[test]
fn int8_hard_swish_on_nv_small() {
    let mut n = Net::new("i8_hswish", &[1, 16, 9, 9], 59);
    let c = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let y = n.op("HardSwish", &[&c], &[]);
    let y = n.conv(&y, 16, 8, ConvGeom::same(1), true);
    n.output(&y);
    let r = int8::check_int8_with(n.g, int8_on(ConfigName::NvSmall), false);
    assert_eq!(r.count("CONV"), 2, "{r:?}");
}

/// Standalone INT8 Add, Sub, Max and Min of two activations whose
/// calibrated scales are not a power of two apart (`b · 3.3`, an output
/// of its own SDP, against `x`): the X1 multiplier moves the input to the
/// operand's unit (a per-layer immediate, or folded into Sub's −1 factors),
/// and the result agrees with the interpreter. Before, calibration refused
/// these ("can only shift it left by whole bits").
#[test]
fn int8_two_activations_any_scale_ratio() {
    use onnc_nvdla::Engine;
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        for op in ["Add", "Sub", "Max", "Min"] {
            let name = format!("i8_two_{op}_{}", config.as_str());
            let mut n = Net::new(&name, &[1, 8, 5, 7], 57);
            n.input("b", &[1, 8, 5, 7]);
            let k = n.constant(&[1], vec![3.3]);
            let b = n.op("Mul", &["b", &k], &[]);
            let y = n.op(op, &["x", &b], &[]);
            // `b · 3.3` is an output too: its own SDP writes it to memory.
            n.output(&b);
            n.output(&y);
            let c = int8_on(config);
            let inputs = harness::inputs_for(&n.g, c.seed);
            let (p, _, scales) = int8::compile_int8(&n.g, &inputs, c, false);
            let ratio = scales[&b] / scales["x"];
            let whole = ratio.log2().round().exp2();
            assert!((ratio / whole - 1.0).abs() > 0.01, "{name}: ratio {ratio}");
            let sdp = p
                .ops
                .iter()
                .find(|o| {
                    o.engine == Engine::Sdp
                        && o.inputs.iter().flatten().any(|&t| p.tensors[t].name == b)
                })
                .unwrap_or_else(|| panic!("{name}: no SDP reads {b}"));
            assert_eq!(sdp.str("x1_op.type"), Some("mul"), "{name}");
            let r = int8::check_int8_with(n.g, c, false);
            assert_eq!(sdps(&r), 2, "{name}: {r:?}");
        }
    }
}

/// The SDP ops of `g` compiled in INT8 with `c` (calibrated on the test
/// inputs) for which `pick` holds.
fn int8_sdps(
    g: &onnc_onnx::Graph,
    c: Check,
    pick: impl Fn(&onnc_nvdla::Op) -> bool,
) -> Vec<onnc_nvdla::Op> {
    let inputs = harness::inputs_for(g, c.seed);
    let (p, _, _) = int8::compile_int8(g, &inputs, c, false);
    p.ops
        .into_iter()
        .filter(|o| o.engine == onnc_nvdla::Engine::Sdp && pick(o))
        .collect()
}

/// MobileNetV3's squeeze-excitation gate in INT8: global average pool,
/// two 1×1 convs, HardSigmoid(1/6, 1/2), the product with the block. On
/// nv_large the gate's `min(·, 1)` lands on the Y ALU, whose constant
/// operand needs more than int16 in accumulator steps: Y has no operand
/// shift, so its converter must scale it back (`y_op.cvt.alu_cvt.scale =
/// 2^s`). Before, calibration wrote `y_op.shift_value`, which the Y unit
/// ignores, and the gate clamped at 2^-s (0.5 here) instead of 1.
#[test]
fn int8_hard_sigmoid_gate() {
    for config in [ConfigName::NvSmall, ConfigName::NvLarge] {
        let name = format!("i8_hsig_{}", config.as_str());
        let mut n = Net::new(&name, &[1, 16, 8, 8], 60);
        let a = n.conv("x", 16, 16, ConvGeom::same(3), true);
        let a = n.op("Relu", &[&a], &[]);
        let s = n.op("GlobalAveragePool", &[&a], &[]);
        let s = n.conv(&s, 16, 8, ConvGeom::same(1), true);
        let s = n.op("Relu", &[&s], &[]);
        let s = n.conv(&s, 8, 16, ConvGeom::same(1), true);
        let s = n.op(
            "HardSigmoid",
            &[&s],
            &[
                ("alpha", onnc_tensor::Attr::Float(1.0 / 6.0)),
                ("beta", onnc_tensor::Attr::Float(0.5)),
            ],
        );
        n.output(&s);
        let y = n.op("Mul", &[&a, &s], &[]);
        n.output(&y);
        let c = int8_on(config);
        let on_y = int8_sdps(&n.g, c, |o| {
            o.str("y_op.alu_type") == Some("min") && o.int("y_op.enable") == Some(1)
        });
        if config == ConfigName::NvSmall {
            assert!(on_y.is_empty(), "{name}: nv_small has no Y unit");
        } else {
            assert_eq!(on_y.len(), 1, "{name}: the gate's min(·, 1) on Y");
            let op = &on_y[0];
            assert_eq!(op.int("y_op.shift_value"), Some(0), "{name}");
            assert_eq!(op.int("y_op.cvt.alu_cvt.enable"), Some(1), "{name}");
            let scale = op.int("y_op.cvt.alu_cvt.scale").unwrap();
            assert!(
                scale > 1 && scale.count_ones() == 1,
                "{name}: scale {scale}"
            );
        }
        int8::check_int8_with(n.g, c, false);
    }
}

/// A residual Add that lands on the Y unit in INT8 (nv_large): the conv's
/// SDP has its bias and per-channel rescale on X1 and an affine step with
/// a ReLU on X2, so the Add of the other branch goes to Y. Y has no operand
/// shift; its converter brings the branch to the accumulator's unit with
/// any ratio (`y_op.cvt.alu_cvt = fixed_point(s_b / U)`), so the sum is
/// right whatever the two branches' scales.
#[test]
fn int8_residual_add_on_the_y_unit() {
    let config = ConfigName::NvLarge;
    let mut n = Net::new("i8_add_on_y", &[1, 16, 6, 6], 61);
    n.input("b", &[1, 16, 6, 6]);
    let k = n.constant(&[1], vec![3.3]);
    let b = n.op("Mul", &["b", &k], &[]);
    n.output(&b);
    let a = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let g = n.constant(
        &[1, 16, 1, 1],
        (0..16).map(|i| 0.5 + 0.05 * i as f32).collect(),
    );
    let a = n.op("Mul", &[&a, &g], &[]);
    let h = n.constant(
        &[1, 16, 1, 1],
        (0..16).map(|i| 0.1 * i as f32 - 0.8).collect(),
    );
    let a = n.op("Add", &[&a, &h], &[]);
    let a = n.op("Relu", &[&a], &[]);
    let y = n.op("Add", &[&a, &b], &[]);
    n.output(&y);
    let c = int8_on(config);
    let on_y = int8_sdps(&n.g, c, |o| {
        o.str("y_op.type") == Some("add") && o.str("y_op.mode") == Some("per_point")
    });
    assert_eq!(on_y.len(), 1, "the residual Add on Y");
    assert_eq!(on_y[0].int("y_op.shift_value"), Some(0));
    assert_eq!(on_y[0].int("y_op.cvt.alu_cvt.enable"), Some(1));
    int8::check_int8_with(n.g, c, false);
}
