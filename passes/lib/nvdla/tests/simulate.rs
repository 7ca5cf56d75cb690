//! Differential tests of the NVDLA back end: each small ONNX graph built
//! here is compiled (legalize → lower → plan → emit), run in the bit-exact
//! simulator `onnc-nvdla-sim`, and compared with the reference interpreter
//! (`onnc-interp`) on seeded random inputs; see `simulate/harness.rs` for the
//! tolerance. `--nocapture` prints each case's worst error ratio and times.
//!
//! In: graphs built here and the nine light model-zoo nets (`onnx` Python
//! package). Out: assertions that the simulator agrees with the reference.

mod common;
#[path = "simulate/harness.rs"]
mod harness;
#[path = "simulate/net.rs"]
mod net;

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
