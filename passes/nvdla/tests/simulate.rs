//! Differential tests of the NVDLA back end: each small ONNX graph built
//! here is compiled (legalize → lower → plan → emit), run in the bit-exact
//! simulator `onnc-nvdla-sim`, and compared with the reference interpreter
//! (`onnc-interp`) on seeded random inputs; see `simulate/harness.rs` for the
//! tolerance. `--nocapture` prints each case's worst error ratio and times.
//!
//! nv_full cases check FP16 (≤ 1 % of max |ref|); nv_large cases check INT8
//! after calibrating from the reference's activations (`simulate/int8.rs`,
//! ≤ 5 %). The nine light nets get random weights (theirs are constants)
//! and are compared at the logits; each is its own test, the slow ones
//! (VGG-19 about 4 min of simulation, ResNet-50, DenseNet-121, ZFNet about
//! 1 min each on a loaded 2-core machine) included.
//!
//! In: graphs built here and the nine light model-zoo nets (`onnx` Python
//! package). Out: assertions that the simulator agrees with the reference.

#[path = "simulate/activations.rs"]
mod activations;
mod common;
#[path = "simulate/convnext.rs"]
mod convnext;
#[path = "simulate/eltwise.rs"]
mod eltwise;
#[path = "simulate/harness.rs"]
mod harness;
#[path = "simulate/ideal.rs"]
mod ideal;
#[path = "simulate/int8.rs"]
mod int8;
#[path = "simulate/net.rs"]
mod net;
#[path = "simulate/perchan.rs"]
mod perchan;
#[path = "simulate/sigmoid.rs"]
mod sigmoid;
#[path = "simulate/split_psum.rs"]
mod split_psum;
#[path = "simulate/transformer.rs"]
mod transformer;
#[path = "simulate/upsample.rs"]
mod upsample;
#[path = "simulate/upsample_small.rs"]
mod upsample_small;

use harness::{check, Check};
use net::{ints, ConvGeom, Net};
use onnc_tensor::Attr;

/// `x → conv(geom, bias) [→ Relu]` on `[1, cin, h, w]`.
fn conv_case(
    name: &str,
    cin: usize,
    hw: [usize; 2],
    cout: usize,
    g: ConvGeom,
    bias: bool,
    relu: bool,
) -> Net {
    let mut n = Net::new(name, &[1, cin, hw[0], hw[1]], 1);
    let mut y = n.conv("x", cin, cout, g, bias);
    if relu {
        y = n.op("Relu", &[&y], &[]);
    }
    n.output(&y);
    n
}

#[test]
fn conv_3x3_with_bias() {
    check(
        conv_case("conv3x3", 8, [10, 10], 16, ConvGeom::same(3), true, false).g,
        Check::full(),
    );
}

#[test]
fn conv_1x1() {
    check(
        conv_case("conv1x1", 16, [8, 8], 8, ConvGeom::same(1), false, false).g,
        Check::full(),
    );
}

#[test]
fn conv_strided_and_asymmetrically_padded() {
    let g = ConvGeom {
        k: 3,
        stride: 2,
        pads: [1, 0, 2, 1],
        dilation: 1,
        group: 1,
    };
    check(
        conv_case("conv_s2_pad", 5, [11, 12], 7, g, true, false).g,
        Check::full(),
    );
}

#[test]
fn conv_dilated_with_relu() {
    let g = ConvGeom {
        k: 3,
        stride: 1,
        pads: [2; 4],
        dilation: 2,
        group: 1,
    };
    check(
        conv_case("conv_dil2_relu", 6, [9, 9], 8, g, true, true).g,
        Check::full(),
    );
}

#[test]
fn conv_5x5_stride_3() {
    let g = ConvGeom {
        k: 5,
        stride: 3,
        pads: [2; 4],
        dilation: 1,
        group: 1,
    };
    check(
        conv_case("conv5x5_s3", 3, [16, 14], 4, g, true, true).g,
        Check::full(),
    );
}

#[test]
fn conv_with_batch_norm_folded_and_relu() {
    let mut n = Net::new("conv_bn_relu", &[1, 4, 8, 8], 2);
    let y = n.conv("x", 4, 12, ConvGeom::same(3), false);
    let y = n.bn(&y, 12);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn grouped_conv() {
    let g = ConvGeom {
        group: 4,
        ..ConvGeom::same(3)
    };
    check(
        conv_case("conv_group4", 8, [7, 7], 12, g, true, false).g,
        Check::full(),
    );
}

#[test]
fn depthwise_conv() {
    let g = ConvGeom {
        group: 20,
        stride: 2,
        ..ConvGeom::same(3)
    };
    check(
        conv_case("conv_depthwise", 20, [9, 9], 20, g, true, true).g,
        Check::full(),
    );
}

/// A 1×1 conv whose fp16 input (16 × 160 × 160, 800 KiB) does not fit the
/// 512 KiB CBUF: the emitter splits it into row bands.
#[test]
fn conv_too_large_for_the_cbuf_is_split_into_row_bands() {
    let r = check(
        conv_case(
            "conv_row_bands",
            16,
            [160, 160],
            4,
            ConvGeom::same(1),
            true,
            false,
        )
        .g,
        Check::full(),
    );
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// The same with a 3×3 kernel: the bands overlap by two rows.
#[test]
fn conv_3x3_row_bands_overlap() {
    let g = ConvGeom {
        stride: 2,
        ..ConvGeom::same(3)
    };
    let r = check(
        conv_case("conv3x3_row_bands", 16, [161, 150], 4, g, true, true).g,
        Check::full(),
    );
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

#[test]
fn max_pool_3x3_stride_2_padded() {
    let mut n = Net::new("maxpool3s2", &[1, 6, 11, 11], 3);
    let y = n.pool("MaxPool", "x", [3, 3], [2, 2], [1, 1, 1, 1]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn average_pool_2x2_and_3x3() {
    let mut n = Net::new("avgpool", &[1, 6, 12, 12], 4);
    let a = n.pool("AveragePool", "x", [2, 2], [2, 2], [0; 4]);
    let b = n.pool("AveragePool", "x", [3, 3], [1, 1], [0; 4]);
    n.output(&a);
    n.output(&b);
    check(n.g, Check::full());
}

#[test]
fn average_pool_padded_counts_only_real_values() {
    let mut n = Net::new("avgpool_pad", &[1, 4, 9, 9], 5);
    let a = n.pool("AveragePool", "x", [3, 3], [2, 2], [1, 1, 1, 1]);
    n.output(&a);
    check(n.g, Check::full());
}

/// Without the attribute, `count_include_pad` is 0 (the ONNX default): a
/// graph that did not come through the loader (no defaults filled in) must
/// not be compiled as if the padding counted (it was, and computed the
/// corner averages over 9 instead of 4).
#[test]
fn average_pool_without_count_include_pad_is_not_taken_as_1() {
    let mut n = Net::new("avgpool_pad_raw", &[1, 4, 9, 9], 5);
    let a = n.pool("AveragePool", "x", [3, 3], [2, 2], [1, 1, 1, 1]);
    n.output(&a);
    let e = onnc_legalize::legalize(n.g, onnc_legalize::Target::NvFull, &Default::default())
        .unwrap_err();
    assert!(e.to_string().contains("count_include_pad=0"), "{e}");
}

/// A pool whose kernel (1) is narrower than its stride (2) with an output
/// (150 columns) wider than the PDP line buffer (128): split in two
/// stripes, the second must start at column 256 (regression: it read 21
/// outputs' worth from column 255).
#[test]
fn pool_narrower_than_its_stride_split_by_width() {
    let mut n = Net::new("pool_k1s2_split", &[1, 4, 4, 300], 6);
    let a = n.pool("MaxPool", "x", [1, 1], [2, 2], [0; 4]);
    n.output(&a);
    assert_eq!(check(n.g, Check::full()).ops, ["PDP split 2"]);
}

/// A 3×3 stride-2 max pool over 301 columns: three stripes of 64, 64, 22.
#[test]
fn wide_pool_split_in_three_stripes() {
    let mut n = Net::new("pool_3x3_split", &[1, 4, 5, 301], 8);
    let a = n.pool("MaxPool", "x", [3, 3], [2, 2], [0; 4]);
    n.output(&a);
    assert_eq!(check(n.g, Check::full()).ops, ["PDP split 3"]);
}

#[test]
fn global_average_pool() {
    let mut n = Net::new("gap", &[1, 16, 7, 7], 9);
    let y = n.op("GlobalAveragePool", &["x"], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn residual_add_then_relu() {
    let mut n = Net::new("residual", &[1, 8, 8, 8], 10);
    let y = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.conv(&y, 8, 8, ConvGeom::same(3), true);
    let y = n.op("Add", &[&y, "x"], &[]);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn mul_by_constants() {
    let mut n = Net::new("mul_const", &[1, 8, 6, 6], 11);
    let y = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let s = n.constant(&[1], vec![0.37]);
    let a = n.op("Mul", &[&y, &s], &[]);
    let c = n.init(&[1, 8, 1, 1], -2.0, 2.0);
    let b = n.op("Mul", &["x", &c], &[]);
    n.output(&a);
    n.output(&b);
    check(n.g, Check::full());
}

#[test]
fn concat_aligned_channels() {
    let mut n = Net::new("concat_aligned", &[1, 8, 6, 6], 12);
    let a = n.conv("x", 8, 16, ConvGeom::same(3), true);
    let b = n.conv("x", 8, 16, ConvGeom::same(1), true);
    let y = n.op("Concat", &[&a, &b], &[("axis", Attr::Int(1))]);
    let y = n.conv(&y, 32, 8, ConvGeom::same(1), true);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn concat_unaligned_channels() {
    let mut n = Net::new("concat_unaligned", &[1, 4, 6, 6], 13);
    let a = n.conv("x", 4, 3, ConvGeom::same(3), true);
    let b = n.conv("x", 4, 5, ConvGeom::same(1), true);
    let y = n.op("Concat", &[&a, &b], &[("axis", Attr::Int(1))]);
    let z = n.conv(&y, 8, 4, ConvGeom::same(1), true);
    n.output(&y);
    n.output(&z);
    check(n.g, Check::full());
}

#[test]
fn split_and_slice_views() {
    let mut n = Net::new("split_slice", &[1, 32, 5, 5], 14);
    let sizes = n.int64(&[16, 16]);
    let parts = n.ops("Split", &["x", &sizes], &[("axis", Attr::Int(1))], 2);
    let a = n.conv(&parts[0], 16, 4, ConvGeom::same(3), true);
    let b = n.op("Relu", &[&parts[1]], &[]);
    let (st, en, ax) = (n.int64(&[3]), n.int64(&[11]), n.int64(&[1]));
    let c = n.op("Slice", &["x", &st, &en, &ax], &[]);
    let c = n.conv(&c, 8, 4, ConvGeom::same(1), false);
    n.output(&a);
    n.output(&b);
    n.output(&c);
    check(n.g, Check::full());
}

#[test]
fn channel_shuffle() {
    let mut n = Net::new("shuffle", &[1, 12, 4, 4], 15);
    let y = n.conv("x", 12, 12, ConvGeom::same(1), true);
    let s1 = n.int64(&[1, 3, 4, 4, 4]);
    let r = n.op("Reshape", &[&y, &s1], &[]);
    let t = n.op("Transpose", &[&r], &[("perm", ints(&[0, 2, 1, 3, 4]))]);
    let s2 = n.int64(&[1, 12, 4, 4]);
    let z = n.op("Reshape", &[&t, &s2], &[]);
    let z = n.conv(&z, 12, 8, ConvGeom::same(3), true);
    n.output(&z);
    check(n.g, Check::full());
}

#[test]
fn lrn_on_the_cdp() {
    let mut n = Net::new("lrn", &[1, 20, 5, 5], 16);
    let y = n.conv("x", 20, 20, ConvGeom::same(3), true);
    let y = n.op(
        "LRN",
        &[&y],
        &[
            ("size", Attr::Int(5)),
            ("alpha", Attr::Float(1e-4)),
            ("beta", Attr::Float(0.75)),
            ("bias", Attr::Float(1.0)),
        ],
    );
    n.output(&y);
    assert_eq!(check(n.g, Check::full()).count("CDP"), 1);
}

#[test]
fn gemm_fully_connected() {
    let mut n = Net::new("gemm", &[1, 8, 3, 3], 17);
    let f = n.op("Flatten", &["x"], &[("axis", Attr::Int(1))]);
    let y = n.fc(&f, 72, 10);
    n.output(&y);
    check(n.g, Check::classifier());
}

#[test]
fn softmax_on_the_emu() {
    let mut n = Net::new("softmax", &[1, 32], 18);
    let y = n.fc("x", 32, 10);
    let y = n.op("Softmax", &[&y], &[("axis", Attr::Int(1))]);
    n.output(&y);
    check(n.g, Check::classifier());
}

#[test]
fn pow_on_the_emu() {
    let mut n = Net::new("pow", &[1, 8, 4, 4], 19);
    let y = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let y = n.op("Relu", &[&y], &[]);
    let e = n.constant(&[1], vec![0.5]);
    let y = n.op("Pow", &[&y, &e], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn relu_prelu_clip() {
    let mut n = Net::new("activations", &[1, 8, 5, 5], 20);
    let y = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let a = n.op("Relu", &[&y], &[]);
    let slope = n.init(&[8, 1, 1], 0.05, 0.3);
    let b = n.op("PRelu", &[&y, &slope], &[]);
    let (lo, hi) = (n.constant(&[], vec![-0.5]), n.constant(&[], vec![0.75]));
    let c = n.op("Clip", &[&y, &lo, &hi], &[]);
    n.output(&a);
    n.output(&b);
    n.output(&c);
    check(n.g, Check::full());
}

/// LeNet: conv 5×5 → max pool → conv 5×5 → max pool → FC 500 → ReLU → FC 10 → Softmax.
fn lenet() -> Net {
    let mut n = Net::new("lenet", &[1, 1, 28, 28], 21);
    let g5 = ConvGeom {
        pads: [0; 4],
        ..ConvGeom::same(5)
    };
    let y = n.conv("x", 1, 20, g5, true);
    let y = n.pool("MaxPool", &y, [2, 2], [2, 2], [0; 4]);
    let y = n.conv(&y, 20, 50, g5, true);
    let y = n.pool("MaxPool", &y, [2, 2], [2, 2], [0; 4]);
    let y = n.op("Flatten", &[&y], &[("axis", Attr::Int(1))]);
    let y = n.fc(&y, 800, 500);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.fc(&y, 500, 10);
    let y = n.op("Softmax", &[&y], &[("axis", Attr::Int(1))]);
    n.output(&y);
    n
}

#[test]
fn lenet_end_to_end() {
    check(lenet().g, Check::classifier());
}

// ------------------------------------------------------------ nv_large (INT8)

/// nv_large, INT8 tolerance (per-tensor symmetric scales: half a step of
/// 1/127 per layer, compounded).
fn large() -> Check {
    Check {
        target: onnc_legalize::Target::NvLarge,
        config: onnc_nvdla::ConfigName::NvLarge,
        tol: harness::INT8_TOL,
        ..Check::full()
    }
}

#[test]
fn int8_conv_bias_relu() {
    int8::check_int8(
        conv_case(
            "i8_conv3x3_relu",
            8,
            [10, 10],
            16,
            ConvGeom::same(3),
            true,
            true,
        )
        .g,
        large(),
    );
}

#[test]
fn int8_conv_strided_padded() {
    let g = ConvGeom {
        k: 3,
        stride: 2,
        pads: [1, 0, 2, 1],
        dilation: 1,
        group: 1,
    };
    int8::check_int8(
        conv_case("i8_conv_s2_pad", 5, [11, 12], 7, g, true, false).g,
        large(),
    );
}

#[test]
fn int8_max_and_average_pool() {
    let mut n = Net::new("i8_pools", &[1, 8, 12, 12], 30);
    let a = n.pool("MaxPool", "x", [3, 3], [2, 2], [1, 1, 1, 1]);
    let b = n.pool("AveragePool", "x", [2, 2], [2, 2], [0; 4]);
    n.output(&a);
    n.output(&b);
    int8::check_int8(n.g, large());
}

/// An average pool between two convs: the calibtable's entry for the pool
/// output (smaller than its input's) must not be applied — the PDP has no
/// converter, its output is in its input's unit.
#[test]
fn int8_conv_average_pool_conv() {
    let mut n = Net::new("i8_conv_avgpool_conv", &[1, 4, 8, 8], 32);
    let y = n.conv("x", 4, 8, ConvGeom::same(3), true);
    let y = n.pool("AveragePool", &y, [2, 2], [2, 2], [0; 4]);
    let y = n.conv(&y, 8, 8, ConvGeom::same(3), true);
    n.output(&y);
    int8::check_int8(n.g, large());
}

#[test]
fn int8_residual_add() {
    let mut n = Net::new("i8_residual", &[1, 8, 8, 8], 31);
    let y = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.conv(&y, 8, 8, ConvGeom::same(3), true);
    let y = n.op("Add", &[&y, "x"], &[]);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    // Plain max/127 scales: the skip input is 384× the accumulator unit.
    // Per channel (the default), X1 rescales the accumulator to a unit a
    // whole power of two below the skip's, so X2 adds it exactly.
    int8::check_int8(n.g.clone(), large());
    // Per tensor, the X2 ALU cannot shift the skip to the accumulator's
    // unit: calibration refuses (it used to compute a wrong sum silently).
    let per_tensor = onnc_nvdla::ctable::ApplyOptions { per_channel: false };
    let refused =
        std::panic::catch_unwind(|| int8::run_int8(n.g.clone(), large(), false, &per_tensor))
            .unwrap_err();
    let m = refused
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        m.contains("calibrate") && m.contains("can only shift it left by whole bits"),
        "{m}"
    );
    // Scales a power of two apart: the hardware sum is right either way.
    int8::check_int8_with(n.g.clone(), large(), true);
    int8::run_int8(n.g, large(), true, &per_tensor);
}

#[test]
fn int8_lenet() {
    int8::check_int8(
        lenet().g,
        Check {
            classifier: true,
            ..large()
        },
    );
}

// ------------------------------------------------------------ model zoo

/// Loads light net `name`, gives it random weights and checks it on
/// nv_full as a classifier. The light nets' weights are constants
/// (`ConstantOfShape`), which make every logit equal and the softmax
/// uniform: a check that would pass with almost any arithmetic.
fn zoo(name: &str) -> harness::Report {
    let path = common::zoo_dir().join(format!("light_{name}.onnx"));
    let mut g = onnc_onnx::load(&path, &Default::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .graph;
    randomize_weights(&mut g, 1234);
    logits_out(&mut g);
    check(g, Check::classifier())
}

/// Makes the final Softmax's input the output: random weights give logits
/// in the hundreds, where one FP16 step (0.25–0.5) moves a softmax
/// probability by tens of percent; the logits and their argmax are the
/// well-conditioned thing to compare.
fn logits_out(g: &mut onnc_onnx::Graph) {
    let Some(last) = g
        .nodes
        .last()
        .filter(|n| n.op_type == "Softmax" && g.outputs.len() == 1)
    else {
        return;
    };
    let logits = last.inputs[0].clone().expect("Softmax input");
    g.nodes.pop();
    g.outputs[0].name = logits;
    g.outputs[0].dims.clear();
}

/// Turns every `ConstantOfShape` weight into a random initializer that
/// keeps activations in FP16 range: conv and FC weights (rank ≥ 2) uniform
/// in ±√(3 / fan-in) (variance-preserving before the ReLU), batch-norm
/// scale in [0.5, 1), variance in [1, 2), mean and bias in ±0.1; other
/// rank-1 constants (DenseNet's per-channel scale) in [0.5, 1).
fn randomize_weights(g: &mut onnc_onnx::Graph, seed: u64) {
    let mut r = Net::new("weights", &[1], seed);
    let role = |g: &onnc_onnx::Graph, v: &str| {
        g.nodes.iter().find_map(|n| {
            n.inputs
                .iter()
                .position(|i| i.as_deref() == Some(v))
                .map(|k| (n.op_type.clone(), k))
        })
    };
    let mut kept = Vec::new();
    let probe = onnc_onnx::Graph {
        nodes: std::mem::take(&mut g.nodes),
        ..Default::default()
    };
    for n in &probe.nodes {
        let shape = (n.op_type == "ConstantOfShape")
            .then(|| n.input(0).and_then(|i| g.initializer(i)))
            .flatten()
            .and_then(|t| {
                t.as_i64()
                    .ok()
                    .map(|v| v.iter().map(|&d| d as usize).collect::<Vec<_>>())
            });
        let Some(shape) = shape.filter(|s| s.iter().product::<usize>() > 1) else {
            kept.push(n.clone());
            continue;
        };
        let count: usize = shape.iter().product();
        let (lo, hi) = match role(&probe, &n.outputs[0]) {
            _ if shape.len() >= 2 => {
                let s = (3.0 / (count / shape[0]) as f32).sqrt();
                (-s, s)
            }
            Some((op, 1)) if op == "BatchNormalization" => (0.5, 1.0),
            Some((op, 4)) if op == "BatchNormalization" => (1.0, 2.0),
            Some((op, _)) if op == "Unsqueeze" => (0.5, 1.0),
            _ => (-0.1, 0.1),
        };
        let v = r.rand(count, lo, hi);
        g.initializers.push((
            n.outputs[0].clone(),
            onnc_tensor::Tensor::from_f32(shape, v).unwrap(),
        ));
    }
    g.nodes = kept;
}

#[test]
fn zoo_bvlc_alexnet() {
    zoo("bvlc_alexnet");
}

#[test]
fn zoo_densenet121() {
    zoo("densenet121");
}

#[test]
fn zoo_inception_v1() {
    zoo("inception_v1");
}

#[test]
fn zoo_inception_v2() {
    zoo("inception_v2");
}

#[test]
fn zoo_resnet50() {
    zoo("resnet50");
}

#[test]
fn zoo_shufflenet() {
    zoo("shufflenet");
}

#[test]
fn zoo_squeezenet() {
    zoo("squeezenet");
}

#[test]
fn zoo_vgg19() {
    zoo("vgg19");
}

#[test]
fn zoo_zfnet512() {
    zoo("zfnet512");
}

/// DenseNet's pre-activation: BN → Mul → Add → Relu on one SDP. The Y unit
/// has no ReLU (its activation is the LUT): the lowering put the ReLU
/// there and negative outputs survived (found on DenseNet-121 with random
/// weights).
#[test]
fn batch_norm_mul_add_relu_chain() {
    let mut n = Net::new("bn_mul_add_relu", &[1, 64, 6, 6], 40);
    let y = n.pool("MaxPool", "x", [3, 3], [2, 2], [1, 1, 1, 1]);
    let y = n.bn(&y, 64);
    let w = n.init(&[64, 1, 1], 0.5, 1.5);
    let y = n.op("Mul", &[&y, &w], &[]);
    let b = n.init(&[64, 1, 1], 0.5, 1.5);
    let y = n.op("Add", &[&y, &b], &[]);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn int8_gemm_depthwise_lrn() {
    let mut n = Net::new("i8_gemm", &[1, 8, 3, 3], 17);
    let f = n.op("Flatten", &["x"], &[("axis", Attr::Int(1))]);
    let y = n.fc(&f, 72, 10);
    n.output(&y);
    int8::check_int8(
        n.g,
        Check {
            classifier: true,
            ..large()
        },
    );
    let g = ConvGeom {
        group: 16,
        stride: 2,
        ..ConvGeom::same(3)
    };
    int8::check_int8(
        conv_case("i8_depthwise", 16, [9, 9], 16, g, true, false).g,
        large(),
    );
    let mut n = Net::new("i8_lrn", &[1, 16, 5, 5], 16);
    let y = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let lrn = [
        ("size", Attr::Int(5)),
        ("alpha", Attr::Float(1e-4)),
        ("beta", Attr::Float(0.75)),
        ("bias", Attr::Float(1.0)),
    ];
    let y = n.op("LRN", &[&y], &lrn);
    n.output(&y);
    assert_eq!(int8::check_int8(n.g, large()).count("CDP"), 1);
}

/// INT8 concat of two 32-channel branches (one nv_large atom each): views.
#[test]
fn int8_concat_aligned() {
    let mut n = Net::new("i8_concat", &[1, 8, 6, 6], 12);
    let a = n.conv("x", 8, 32, ConvGeom::same(3), true);
    let b = n.conv("x", 8, 32, ConvGeom::same(1), true);
    let y = n.op("Concat", &[&a, &b], &[("axis", Attr::Int(1))]);
    let y = n.conv(&y, 64, 8, ConvGeom::same(1), true);
    n.output(&y);
    int8::check_int8(n.g, large());
}

/// A ResNet-50 bottleneck with a projection shortcut (1×1 stride-2 conv +
/// BN), then GAP and an FC.
#[test]
fn bottleneck_with_projection() {
    let mut n = Net::new("bottleneck", &[1, 16, 8, 8], 50);
    let g1 = ConvGeom {
        pads: [0; 4],
        ..ConvGeom::same(1)
    };
    let a = n.conv("x", 16, 8, g1, false);
    let a = n.bn(&a, 8);
    let a = n.op("Relu", &[&a], &[]);
    let a = n.conv(
        &a,
        8,
        8,
        ConvGeom {
            stride: 2,
            ..ConvGeom::same(3)
        },
        false,
    );
    let a = n.bn(&a, 8);
    let a = n.op("Relu", &[&a], &[]);
    let a = n.conv(&a, 8, 32, g1, false);
    let a = n.bn(&a, 32);
    let b = n.conv("x", 16, 32, ConvGeom { stride: 2, ..g1 }, false);
    let b = n.bn(&b, 32);
    let y = n.op("Add", &[&a, &b], &[]);
    let y = n.op("Relu", &[&y], &[]);
    let y = n.op("GlobalAveragePool", &[&y], &[]);
    let y = n.op("Flatten", &[&y], &[("axis", Attr::Int(1))]);
    let y = n.fc(&y, 32, 10);
    n.output(&y);
    check(n.g, Check::classifier());
}

/// ResNet's stem: 7×7 stride 2 pad 3 over 3 × 224 × 224 (row bands).
#[test]
fn conv_7x7_stem_in_row_bands() {
    let g = ConvGeom {
        k: 7,
        stride: 2,
        pads: [3; 4],
        dilation: 1,
        group: 1,
    };
    let r = check(
        conv_case("stem7x7", 3, [224, 224], 8, g, true, true).g,
        Check::full(),
    );
    assert!(r.count("CONV") > 1, "{:?}", r.ops);
}

/// A residual Add fused into a conv that the CBUF splits into row bands
/// (the per-point operand must be read band by band).
#[test]
fn residual_add_in_row_bands() {
    let mut n = Net::new("residual_bands", &[1, 64, 96, 96], 51);
    let g1 = ConvGeom {
        pads: [0; 4],
        ..ConvGeom::same(1)
    };
    let a = n.conv("x", 64, 16, ConvGeom { stride: 2, ..g1 }, true);
    let b = n.conv("x", 64, 16, ConvGeom { stride: 2, ..g1 }, true);
    let y = n.op("Add", &[&a, &b], &[]);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.count("CONV") > 2, "{:?}", r.ops);
}

/// Two convolutions, the second split into CBUF bands, then a pool: the
/// planner once gave the second conv's output the first conv's bytes
/// (their lifetimes ended and began at the conv and its fused SDP), so
/// the first bands' SDP overwrote input rows the later bands still read
/// (found by the simulator on VGG-19, ResNet-50 and ZFNet-512: 2–60% off).
#[test]
fn banded_conv_does_not_overwrite_its_input() {
    let mut n = Net::new("banded_conv_chain", &[1, 64, 112, 112], 3);
    let y = n.conv("x", 64, 64, ConvGeom::same(3), true);
    let y = n.conv(&y, 64, 64, ConvGeom::same(3), true);
    let y = n.pool("MaxPool", &y, [2, 2], [2, 2], [0; 4]);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(
        r.ops.iter().filter(|o| *o == "CONV").count() > 2,
        "the second conv is banded: {:?}",
        r.ops
    );
}
