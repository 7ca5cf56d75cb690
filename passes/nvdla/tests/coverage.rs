//! Regression tests for the ops issue 19 found refused on nv_full although
//! the hardware computes them exactly: ceil-mode MaxPool, a tensor that is a
//! member of two Concats (DenseNet), strided spatial Slice and zero Pad
//! (ResNet option-A shortcuts). Each small graph is legalized, lowered,
//! planned, emitted, run in the bit-exact simulator and compared with the
//! reference interpreter (`simulate/harness.rs`: FP16 tolerance 1e-2 of
//! max |ref|); `--nocapture` prints the measured error ratio.
//!
//! In: graphs built here. Out: assertions that each compiles and computes
//! the model, and that what stays refused says why without blaming the user.

#[allow(dead_code)]
#[path = "simulate/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "simulate/net.rs"]
mod net;

use harness::{check, Check};
use net::{ints, ConvGeom, Net};
use onnc_tensor::Attr;

/// Pooling with `ceil_mode=1` (kernel, stride, pads t/l/b/r).
fn ceil_pool(n: &mut Net, op: &str, x: &str, k: i64, s: i64, pads: [i64; 4]) -> String {
    n.op(
        op,
        &[x],
        &[
            ("kernel_shape", ints(&[k, k])),
            ("strides", ints(&[s, s])),
            ("pads", ints(&pads)),
            ("ceil_mode", Attr::Int(1)),
        ],
    )
}

#[test]
fn max_pool_ceil_mode_is_extra_end_padding() {
    // 3×3/2 over 8×8 (GoogLeNet, SqueezeNet): 4×4 in ceil mode, 3×3 in floor.
    let mut n = Net::new("maxpool_ceil", &[1, 8, 8, 8], 31);
    let y = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let a = ceil_pool(&mut n, "MaxPool", &y, 3, 2, [0; 4]);
    // 2×2/2 over a 7×9 plane with a top pad: the end pad differs per axis.
    let z = n.conv(
        "x",
        8,
        8,
        ConvGeom {
            k: 2,
            stride: 1,
            pads: [0, 0, 0, 1],
            dilation: 1,
            group: 1,
        },
        false,
    );
    let b = ceil_pool(&mut n, "MaxPool", &z, 2, 2, [1, 0, 0, 0]);
    n.output(&a);
    n.output(&b);
    let r = check(n.g, Check::full());
    assert_eq!(r.count("PDP"), 2, "{}", r.line());
}

#[test]
fn average_pool_ceil_mode_stays_refused_with_the_reason() {
    let mut n = Net::new("avgpool_ceil", &[1, 8, 7, 7], 32);
    let y = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let a = ceil_pool(&mut n, "AveragePool", &y, 2, 2, [0; 4]);
    n.output(&a);
    let mut g = n.g;
    let inputs = harness::inputs_for(&g, 1);
    harness::reference(&mut g, &inputs);
    let g = harness::through_the_loader(&g);
    let l = onnc_legalize::legalize(g, onnc_legalize::Target::NvFull, &Default::default())
        .expect("legalizes");
    let e = onnc_nvdla::lower::lower(
        &l.graph,
        onnc_nvdla::ConfigName::NvFull,
        &Default::default(),
    )
    .expect_err("refused")
    .to_string();
    assert!(
        e.contains("averagepool") || e.contains("AveragePool"),
        "{e}"
    );
    assert!(e.contains("ceil_mode") && e.contains("whole kernel"), "{e}");
    assert!(
        !e.contains("legalize"),
        "the hint must not ask for what compile already did: {e}"
    );
}

/// DenseNet's dense block: every layer concatenates the block input and all
/// earlier layers, so the same tensors are members of several Concats.
#[test]
fn densenet_block_members_of_several_concats() {
    let mut n = Net::new("dense_block", &[1, 16, 6, 6], 33);
    let x0 = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let x0 = n.op("Relu", &[&x0], &[]);
    let mut feats = vec![x0];
    for layer in 0..3 {
        let refs: Vec<&str> = feats.iter().map(String::as_str).collect();
        let cat = n.op("Concat", &refs, &[("axis", Attr::Int(1))]);
        let c = 16 * (layer + 1);
        let y = n.conv(&cat, c, 16, ConvGeom::same(3), true);
        feats.push(n.op("Relu", &[&y], &[]));
    }
    let refs: Vec<&str> = feats.iter().map(String::as_str).collect();
    let cat = n.op("Concat", &refs, &[("axis", Attr::Int(1))]);
    let y = n.conv(&cat, 64, 8, ConvGeom::same(1), true);
    n.output(&y);
    let r = check(n.g, Check::full());
    assert!(r.worst() <= harness::FP16_TOL);
}

/// The same tensor twice in one Concat.
#[test]
fn concat_of_a_tensor_with_itself() {
    let mut n = Net::new("concat_twice", &[1, 8, 4, 4], 34);
    let a = n.conv("x", 8, 16, ConvGeom::same(1), true);
    let cat = n.op("Concat", &[&a, &a], &[("axis", Attr::Int(1))]);
    let y = n.conv(&cat, 32, 8, ConvGeom::same(1), false);
    n.output(&y);
    check(n.g, Check::full());
}

/// `Slice(x, starts, ends, axes, steps)` with int64 operands.
fn slice(
    n: &mut Net,
    x: &str,
    starts: &[i64],
    ends: &[i64],
    axes: &[i64],
    steps: &[i64],
) -> String {
    let (s, e, a, st) = (
        n.int64(starts),
        n.int64(ends),
        n.int64(axes),
        n.int64(steps),
    );
    n.op("Slice", &[x, &s, &e, &a, &st], &[])
}

#[test]
fn strided_spatial_slices() {
    let mut n = Net::new("strided_slice", &[1, 8, 9, 8], 35);
    let y = n.conv("x", 8, 8, ConvGeom::same(3), true);
    let big = i64::MAX;
    // x[:, :, ::2, ::2]
    let a = slice(&mut n, &y, &[0, 0], &[big, big], &[2, 3], &[2, 2]);
    // x[:, 2:6, 1::3, 1:] (channel window, offset stride, offset crop)
    let b = slice(
        &mut n,
        &y,
        &[2, 1, 1],
        &[6, big, big],
        &[1, 2, -1],
        &[1, 3, 1],
    );
    // a graph input sliced directly
    let c = slice(&mut n, "x", &[-4], &[big], &[3], &[1]);
    n.output(&a);
    n.output(&b);
    n.output(&c);
    check(n.g, Check::full());
}

/// ResNet-20 option A: `F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, c/4, c/4))`
/// added to a stride-2 conv branch.
#[test]
fn resnet_option_a_shortcut() {
    let mut n = Net::new("option_a", &[1, 16, 8, 8], 36);
    let x = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let x = n.op("Relu", &[&x], &[]);
    let g = ConvGeom {
        stride: 2,
        ..ConvGeom::same(3)
    };
    let b = n.conv(&x, 16, 32, g, true);
    let b = n.op("Relu", &[&b], &[]);
    let b = n.conv(&b, 32, 32, ConvGeom::same(3), true);
    let big = i64::MAX;
    let s = slice(&mut n, &x, &[0, 0], &[big, big], &[2, 3], &[2, 2]);
    let pads = n.int64(&[0, 8, 0, 0, 0, 8, 0, 0]);
    let s = n.op(
        "Pad",
        &[&s, &pads],
        &[("mode", Attr::String("constant".into()))],
    );
    let y = n.op("Add", &[&b, &s], &[]);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    check(n.g, Check::full());
}

#[test]
fn zero_pad_of_channels_and_borders() {
    let mut n = Net::new("zero_pad", &[1, 6, 5, 5], 37);
    let y = n.conv("x", 6, 6, ConvGeom::same(3), true);
    let pads = n.int64(&[0, 3, 1, 2, 0, 7, 2, 0]);
    let zero = n.constant(&[], vec![0.0]);
    let p = n.op("Pad", &[&y, &pads, &zero], &[]);
    let z = n.op("Relu", &[&p], &[]);
    n.output(&z);
    check(n.g, Check::full());
}
