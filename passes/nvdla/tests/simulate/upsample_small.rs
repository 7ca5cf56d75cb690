//! Upsampling on nv_small (no RUBIK; and nv_large, which has none either) in INT8: the phases are interleaved by
//! identity SDP passes through strided views (`lower::nodes::interleave`),
//! compiled, calibrated on the ONNX graph (as `onnc compile --calib`
//! does), simulated bit-exactly and compared with the FP32 interpreter.
//!
//! Tolerances, relative to max |ref|: a nearest upsample copies the INT8
//! input (the copies convert with ratio 1), so it is off by at most the
//! input's rounding, half a step of 1/127; linear interpolation and
//! ConvTranspose add the phase convolution's output rounding (one more
//! half step, plus the border factor's) and stay within [`INT8_TOL`].
//!
//! In: graphs built here. Out: assertions on the agreement and on the ops
//! the loadable runs (no RUBIK; SDP passes as counted in the module doc of
//! `interleave`).

use onnc_nvdla::ctable::ApplyOptions;
use onnc_nvdla::ConfigName;
use onnc_tensor::Attr;

use crate::harness::{Check, Report, INT8_TOL};
use crate::int8::{self, Calib};
use crate::net::{ints, ConvGeom, Net};
use crate::upsample::resize;

/// Half an INT8 step of max |x| (and a float margin).
const HALF_STEP: f32 = 0.5 / 127.0 + 1e-6;

/// INT8 on nv_small within `tol`, calibrated on the ONNX graph.
fn small(g: onnc_onnx::Graph, tol: f32) -> Report {
    on(g, tol, onnc_legalize::Target::NvSmall, ConfigName::NvSmall)
}

/// INT8 on `config` within `tol`, calibrated on the ONNX graph.
fn on(g: onnc_onnx::Graph, tol: f32, target: onnc_legalize::Target, config: ConfigName) -> Report {
    let c = Check {
        target,
        config,
        tol,
        ..Check::full()
    };
    int8::run_int8_from(g, c, false, &ApplyOptions::default(), Calib::Onnx).0
}

#[test]
fn nearest_2x_is_four_copies_and_exact_to_the_input_rounding() {
    // 20 channels: three surfaces of 8 on nv_small, the last one partial.
    let n = crate::upsample::nearest_2x("i8_near2", &[1, 20, 5, 6], 3);
    let r = small(n.g, HALF_STEP);
    assert_eq!(
        r.ops, ["SDP"; 4],
        "2 column passes + 2 row passes, no convolution"
    );
}

#[test]
fn nearest_into_a_concat_and_a_conv_like_yolo() {
    // YOLO's neck: pool, conv, 2× nearest, concat with a skip, conv. The
    // upsample's result is the concat's member: its row passes write
    // straight into the concat.
    let mut n = Net::new("i8_yolo_up", &[1, 8, 12, 12], 4);
    let a = n.pool("MaxPool", "x", [2, 2], [2, 2], [0; 4]);
    let a = n.conv(&a, 8, 16, ConvGeom::same(3), true);
    let up = resize(
        &mut n,
        &a,
        "nearest",
        "asymmetric",
        Some([1.0, 1.0, 2.0, 2.0]),
        None,
    );
    let skip = n.conv("x", 8, 8, ConvGeom::same(1), true);
    let cat = n.op("Concat", &[&up, &skip], &[("axis", Attr::Int(1))]);
    let y = n.conv(&cat, 24, 8, ConvGeom::same(3), true);
    n.output(&y);
    let r = small(n.g, INT8_TOL);
    assert_eq!(r.count("RUBIK"), 0, "{:?}", r.ops);
    assert_eq!(r.count("CONV"), 3, "no copy into the concat: {:?}", r.ops);
    assert_eq!(
        r.count("SDP"),
        3 + 4,
        "three conv SDPs and the four copies: {:?}",
        r.ops
    );
}

#[test]
fn nearest_3x2_by_sizes_and_a_single_channel() {
    let mut n = Net::new("i8_near3x2", &[1, 3, 4, 5], 5);
    let up = resize(
        &mut n,
        "x",
        "nearest",
        "asymmetric",
        None,
        Some([1, 3, 12, 10]),
    );
    n.output(&up);
    let r = small(n.g, HALF_STEP);
    assert_eq!(r.ops, ["SDP"; 5], "2 column passes + 3 row passes");
}

#[test]
fn linear_2x_half_pixel_and_align_corners() {
    for (name, ctm, scales, sizes) in [
        (
            "i8_linear2x",
            "pytorch_half_pixel",
            Some([1.0, 1.0, 2.0, 2.0]),
            None,
        ),
        ("i8_linear_ac", "align_corners", None, Some([1, 4, 9, 11])),
        (
            "i8_linear4x",
            "half_pixel",
            Some([1.0, 1.0, 4.0, 4.0]),
            None,
        ),
    ] {
        let mut n = Net::new(name, &[1, 4, 5, 6], 9);
        let up = resize(&mut n, "x", "linear", ctm, scales, sizes);
        n.output(&up);
        let r = small(n.g, INT8_TOL);
        // align_corners at 2·(in − 1) + 1: the phases overrun by one row and column, cut by a selection conv.
        let convs = if ctm == "align_corners" { 2 } else { 1 };
        assert_eq!(r.count("CONV"), convs, "{name}: {:?}", r.ops);
        assert_eq!(r.count("RUBIK"), 0, "{name}: {:?}", r.ops);
        println!("{name}: {:.2e} of max |ref|", r.worst());
    }
}

#[test]
fn conv_transpose_stride_2_with_crop_and_groups() {
    // (kernel, stride, pads, group, c_out)
    for (k, s, p, g, co) in [(4, 2, 1, 1, 5), (3, 2, 1, 1, 12), (2, 2, 0, 4, 4)] {
        let (k, s, p, g, co): (usize, i64, i64, usize, usize) = (k, s, p, g, co);
        let name = format!("i8_deconv_k{k}s{s}p{p}g{g}");
        let mut n = Net::new(&name, &[1, 4, 5, 6], 11);
        let w = n.init(&[4, co / g, k, k], -0.5, 0.5);
        let b = n.init(&[co], -0.2, 0.2);
        let y = n.op(
            "ConvTranspose",
            &["x", &w, &b],
            &[
                ("strides", ints(&[s, s])),
                ("pads", ints(&[p, p, p, p])),
                ("group", Attr::Int(g as i64)),
            ],
        );
        n.output(&y);
        let r = small(n.g, INT8_TOL);
        assert_eq!(r.count("RUBIK"), 0, "{name}: {:?}", r.ops);
        println!("{name}: {:.2e} of max |ref| [{}]", r.worst(), r.ops.len());
    }
}

#[test]
fn nv_large_interleaves_too_with_32_byte_atoms() {
    // 40 channels: two 32-channel surfaces, the second partial.
    let n = crate::upsample::nearest_2x("i8_large_near2", &[1, 40, 5, 6], 6);
    let large = (onnc_legalize::Target::NvLarge, ConfigName::NvLarge);
    let r = on(n.g, HALF_STEP, large.0, large.1);
    assert_eq!(r.ops, ["SDP"; 4]);
    let mut n = Net::new("i8_large_deconv", &[1, 4, 5, 6], 12);
    let w = n.init(&[4, 6, 4, 4], -0.5, 0.5);
    let y = n.op(
        "ConvTranspose",
        &["x", &w],
        &[("strides", ints(&[2, 2])), ("pads", ints(&[1, 1, 1, 1]))],
    );
    n.output(&y);
    let r = on(n.g, INT8_TOL, large.0, large.1);
    assert_eq!(r.count("RUBIK"), 0, "{:?}", r.ops);
    println!("i8_large_deconv: {:.2e} of max |ref|", r.worst());
}
