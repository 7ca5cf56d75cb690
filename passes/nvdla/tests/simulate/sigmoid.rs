//! Sigmoid, SiLU and Tanh in INT8 on nv_small, which has no SDP lookup
//! table (issue #19): the legalizer's `nvdla/sigmoid-to-ramps` rewrites
//! `Sigmoid(x)` into `Σ w_i · HardSigmoid_i(x)` (X-unit passes and
//! element-wise Adds), `Tanh(x)` into `2σ(2x) − 1` the same way.
//!
//! In: graphs built with [`Net`]. Out: each compiled for nv_small in INT8,
//! simulated bit-exact and compared with the FP32 interpreter running the
//! *exact* functions. Calibration observes the ONNX graph ([`Calib::Onnx`],
//! as `onnc --calib` does), so the ramps and partial sums the legalizer
//! made get their scales from `ctable::derive`'s bounds, not from data.

use crate::harness::{self, Check};
use crate::int8::{self, Calib};
use crate::net::{ConvGeom, Net};
use onnc_legalize::rules::sigmoid_pwl::{Fit, FIT, FITS, SEGMENTS};
use onnc_legalize::Target;
use onnc_nvdla::ctable::ApplyOptions;
use onnc_nvdla::ConfigName;

/// `g` compiled INT8 for nv_small, calibrated on the ONNX graph (as
/// `onnc compile --calib` does), simulated and checked within `tol`.
fn small_from_onnx(g: onnc_onnx::Graph, tol: f32) -> harness::Report {
    int8::run_int8_from(g, small(tol), false, &ApplyOptions::default(), Calib::Onnx).0
}

/// INT8 on nv_small with tolerance `tol` (relative to max |ref|).
fn small(tol: f32) -> Check {
    Check {
        target: Target::NvSmall,
        config: ConfigName::NvSmall,
        tol,
        ..Check::full()
    }
}

/// One INT8 step of a [0, 1] gate.
const STEP: f64 = 1.0 / 127.0;

/// The tolerance of a Sigmoid output in [0, 1] against the exact
/// function: the fit's bound plus three INT8 steps (the input's rounding
/// through a slope ≤ ¼, the ramps' and the sums' output rounding).
fn sigmoid_tol() -> f32 {
    (FIT.max_error + 3.0 * STEP) as f32
}

fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `y = Σ w_i · HardSigmoid_i(6x)` written out with the ramps of `fit`.
fn ramps_net(name: &str, fit: &Fit) -> Net {
    let mut n = Net::new(name, &[1, 8, 16, 16], 71);
    let k = n.constant(&[1], vec![6.0]);
    let x = n.op("Mul", &["x", &k], &[]);
    let mut sum: Option<String> = None;
    for (alpha, beta, w) in fit.ramps() {
        let r = n.op(
            "HardSigmoid",
            &[&x],
            &[
                ("alpha", onnc_tensor::Attr::Float(alpha as f32)),
                ("beta", onnc_tensor::Attr::Float(beta as f32)),
            ],
        );
        let k = n.constant(&[1], vec![w as f32]);
        let t = n.op("Mul", &[&r, &k], &[]);
        sum = Some(match sum {
            None => t,
            Some(s) => n.op("Add", &[&s, &t], &[]),
        });
    }
    n.output(&sum.expect("at least one ramp"));
    n
}

/// Segment count against INT8 error: each fit written out as ramps,
/// compiled for nv_small in INT8, simulated, and compared with the exact
/// σ(6x). The fit's own error dominates up to 5 segments; beyond, the
/// INT8 rounding of the terms and sums does. `--nocapture` prints the
/// table the docs quote.
#[test]
fn int8_sigmoid_error_by_segment_count() {
    let mut errors = Vec::new();
    for fit in FITS {
        let segs = fit.ramps().len();
        let n = ramps_net(&format!("i8_ramps_{segs}"), fit);
        let inputs = harness::inputs_for(&n.g, small(1.0).seed);
        let x = inputs[0].1.as_f32().unwrap().to_vec();
        let (r, pairs) = int8::run_int8(n.g, small(1.0), false, &ApplyOptions::default());
        assert_eq!(
            r.count("SDP"),
            2 * segs,
            "Mul 6, then ramps and Adds: {r:?}"
        );
        let (reference, sim) = &pairs[0];
        let worst = |v: &[f32]| {
            v.iter()
                .zip(&x)
                .map(|(&y, &xi)| (f64::from(y) - sigma(6.0 * f64::from(xi))).abs())
                .fold(0f64, f64::max)
        };
        let (fit_err, sim_err) = (worst(reference), worst(sim));
        println!(
            "{segs} segments: fit {fit_err:.4} (bound {:.4}), INT8 on nv_small {sim_err:.4} = {:.2} steps of 1/127, {} SDP passes per Sigmoid",
            fit.max_error,
            sim_err / STEP,
            2 * segs - 1
        );
        assert!(fit_err <= fit.max_error + 1e-6, "{segs}: {fit_err}");
        assert!(sim_err <= fit.max_error + 3.0 * STEP, "{segs}: {sim_err}");
        errors.push(sim_err);
    }
    // More segments must help until the INT8 rounding dominates.
    assert!(errors[1] < errors[0], "{errors:?}");
}

/// `Sigmoid(6x)` on nv_small in INT8, calibrated on the ONNX graph: the
/// rule fires, the new tensors' scales are derived, and the result is
/// within the fit's bound and three INT8 steps of the exact sigmoid.
#[test]
fn int8_sigmoid_on_nv_small_calibrated_on_onnx() {
    let mut n = Net::new("i8_sigmoid", &[1, 8, 16, 16], 72);
    let k = n.constant(&[1], vec![6.0]);
    let x = n.op("Mul", &["x", &k], &[]);
    let y = n.op("Sigmoid", &[&x], &[]);
    n.output(&y);
    let r = small_from_onnx(n.g, sigmoid_tol());
    assert_eq!(r.count("SDP"), 2 * SEGMENTS, "{r:?}");
}

/// SiLU `c · Sigmoid(c)` after a conv (EfficientNet, YOLO), then a conv:
/// the ramps read the conv's output, the product is the element-wise Mul
/// of two activations. Calibrated on the ONNX graph.
#[test]
fn int8_silu_on_nv_small() {
    let mut n = Net::new("i8_silu", &[1, 16, 9, 9], 73);
    let c = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let s = n.op("Sigmoid", &[&c], &[]);
    let y = n.op("Mul", &[&c, &s], &[]);
    let y = n.conv(&y, 16, 8, ConvGeom::same(1), true);
    n.output(&y);
    let r = small_from_onnx(n.g, harness::INT8_TOL);
    assert_eq!(r.count("CONV"), 2, "{r:?}");
}

/// Squeeze-excitation with a Sigmoid gate (EfficientNet's MBConv):
/// global average pool, two 1×1 convs, Sigmoid on the `[1, C, 1, 1]`
/// vector, its product with the block. Calibrated on the ONNX graph.
#[test]
fn int8_squeeze_excitation_sigmoid_gate_on_nv_small() {
    let mut n = Net::new("i8_se_sigmoid", &[1, 16, 8, 8], 74);
    let a = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let a = n.op("Relu", &[&a], &[]);
    let s = n.op("GlobalAveragePool", &[&a], &[]);
    let s = n.conv(&s, 16, 8, ConvGeom::same(1), true);
    let s = n.op("Relu", &[&s], &[]);
    let s = n.conv(&s, 8, 16, ConvGeom::same(1), true);
    let s = n.op("Sigmoid", &[&s], &[]);
    n.output(&s);
    let y = n.op("Mul", &[&a, &s], &[]);
    n.output(&y);
    let r = small_from_onnx(n.g, harness::INT8_TOL);
    assert_eq!(r.count("CONV"), 3, "{r:?}");
}

/// `Tanh(3x)` on nv_small in INT8 (`2σ(2x) − 1`), calibrated on the ONNX
/// graph: within twice the Sigmoid's tolerance of the exact tanh (the
/// doubling scales every error of σ, the input's rounding included).
#[test]
fn int8_tanh_on_nv_small_calibrated_on_onnx() {
    let mut n = Net::new("i8_tanh", &[1, 8, 16, 16], 75);
    let k = n.constant(&[1], vec![3.0]);
    let x = n.op("Mul", &["x", &k], &[]);
    let y = n.op("Tanh", &[&x], &[]);
    n.output(&y);
    let tol = 2.0 * sigmoid_tol();
    let r = small_from_onnx(n.g, tol);
    assert_eq!(r.count("SDP"), 2 * SEGMENTS + 1, "{r:?}");
}

/// GELU `c · ½(1 + erf(c/√2))` after a conv (ConvNeXt's MLP), then a
/// conv, on nv_small in INT8: `nvdla/erf-to-ramps` rewrites the Erf into
/// ramps of the normal CDF (|error| ≤ 0.0264 before rounding), the rest is
/// X-unit arithmetic and the element-wise Mul. Calibrated on the ONNX
/// graph, simulated, within INT8's tolerance of the exact GELU.
#[test]
fn int8_gelu_on_nv_small() {
    let mut n = Net::new("i8_gelu", &[1, 16, 9, 9], 76);
    let c = n.conv("x", 16, 16, ConvGeom::same(3), true);
    let r2 = n.constant(&[1], vec![std::f32::consts::FRAC_1_SQRT_2]);
    let z = n.op("Mul", &[&c, &r2], &[]);
    let e = n.op("Erf", &[&z], &[]);
    let one = n.constant(&[1], vec![1.0]);
    let e1 = n.op("Add", &[&e, &one], &[]);
    let half = n.constant(&[1], vec![0.5]);
    let h = n.op("Mul", &[&e1, &half], &[]);
    let y = n.op("Mul", &[&c, &h], &[]);
    let y = n.conv(&y, 16, 8, ConvGeom::same(1), true);
    n.output(&y);
    let r = small_from_onnx(n.g, harness::INT8_TOL);
    assert_eq!(r.count("CONV"), 2, "{r:?}");
    assert!(
        r.count("SDP") >= 2 * SEGMENTS,
        "the ramps run on the SDP: {r:?}"
    );
}
