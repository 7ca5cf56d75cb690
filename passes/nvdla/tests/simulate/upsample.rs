//! Upsampling on nv_full (FP16): `Resize` (nearest, linear) and
//! `ConvTranspose` as a phase convolution and a RUBIK contract, compiled,
//! simulated bit-exactly and compared with the reference interpreter.
//! Nearest neighbours copy FP16 inputs through ×1 weights, so they agree
//! exactly; the rest within FP16's rounding.
//!
//! In: graphs built here. Out: assertions on the agreement and on the ops
//! the loadable runs.

use onnc_tensor::Attr;

use crate::harness::{check, Check};
use crate::net::{ints, Net};

/// `Resize(x)` with `mode`, `ctm`, nearest `floor`, and `scales` or `sizes`.
/// A net of one nearest 2× `Resize` (`asymmetric`, by scales) of an input
/// of `shape` with random values from `seed`: the graph's only output.
pub(crate) fn nearest_2x(name: &str, shape: &[usize], seed: u64) -> Net {
    let mut n = Net::new(name, shape, seed);
    let up = resize(
        &mut n,
        "x",
        "nearest",
        "asymmetric",
        Some([1.0, 1.0, 2.0, 2.0]),
        None,
    );
    n.output(&up);
    n
}

pub(crate) fn resize(
    n: &mut Net,
    x: &str,
    mode: &str,
    ctm: &str,
    scales: Option<[f32; 4]>,
    sizes: Option<[i64; 4]>,
) -> String {
    let attrs = [
        ("mode", Attr::String(mode.into())),
        ("coordinate_transformation_mode", Attr::String(ctm.into())),
        ("nearest_mode", Attr::String("floor".into())),
    ];
    match (scales, sizes) {
        (Some(s), _) => {
            let s = n.constant(&[4], s.to_vec());
            n.op("Resize", &[x, "", &s], &attrs)
        }
        (_, Some(z)) => {
            let z = n.int64(&z);
            n.op("Resize", &[x, "", "", &z], &attrs)
        }
        _ => unreachable!("scales or sizes"),
    }
}

#[test]
fn nearest_2x_is_a_1x1_conv_and_a_contract_and_exact() {
    // YOLO's FPN: conv, 2× nearest, concatenated with a skip of the same size.
    let n = nearest_2x("nearest2x", &[1, 20, 5, 6], 3);
    let r = check(n.g, Check::full());
    assert_eq!(r.ops, ["CONV", "SDP", "RUBIK"]);
    assert_eq!(r.worst(), 0.0, "a nearest upsample copies values");
}

#[test]
fn nearest_by_sizes_with_different_factors() {
    let mut n = Net::new("nearest3x2", &[1, 3, 4, 5], 5);
    let up = resize(
        &mut n,
        "x",
        "nearest",
        "asymmetric",
        None,
        Some([1, 3, 12, 10]),
    );
    n.output(&up);
    assert_eq!(check(n.g, Check::full()).worst(), 0.0);
}

#[test]
fn linear_half_pixel_and_align_corners() {
    for (name, ctm, scales, sizes) in [
        (
            "linear2x",
            "pytorch_half_pixel",
            Some([1.0, 1.0, 2.0, 2.0]),
            None,
        ),
        ("linear4x", "half_pixel", Some([1.0, 1.0, 4.0, 4.0]), None),
        ("linear_ac", "align_corners", None, Some([1, 4, 9, 11])),
    ] {
        let mut n = Net::new(name, &[1, 4, 5, 6], 9);
        let up = resize(&mut n, "x", "linear", ctm, scales, sizes);
        n.output(&up);
        let r = check(n.g, Check::full());
        assert!(r.ops.contains(&"RUBIK".to_string()), "{name}: {:?}", r.ops);
    }
}

#[test]
fn conv_transpose_strides_pads_and_groups() {
    // (kernel, stride, pads, output_padding, group, c_out)
    for (k, s, p, op, g, co) in [
        (4, 2, 1, 0, 1, 5),
        (3, 2, 1, 1, 1, 4),
        (3, 2, 1, 0, 1, 4),
        (2, 2, 0, 0, 4, 4),
        (5, 3, 2, 0, 2, 6),
    ] {
        let (k, s, p, op, g, co): (usize, i64, i64, i64, usize, usize) = (k, s, p, op, g, co);
        let name = format!("deconv_k{k}s{s}p{p}op{op}g{g}");
        let mut n = Net::new(&name, &[1, 4, 5, 6], 11);
        let w = n.init(&[4, co / g, k, k], -0.5, 0.5);
        let b = n.init(&[co], -0.2, 0.2);
        let y = n.op(
            "ConvTranspose",
            &["x", &w, &b],
            &[
                ("strides", ints(&[s, s])),
                ("pads", ints(&[p, p, p, p])),
                ("output_padding", ints(&[op, op])),
                ("group", Attr::Int(g as i64)),
            ],
        );
        let y = n.op("Relu", &[&y], &[]);
        n.output(&y);
        let r = check(n.g, Check::full());
        assert_eq!(r.count("RUBIK"), 1, "{name}: {:?}", r.ops);
    }
}
