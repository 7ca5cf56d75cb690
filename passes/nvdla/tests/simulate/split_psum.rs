//! A convolution too big for nv_small's convolution buffer, split by the
//! legalizer over its input channels (`nvdla/conv-split-channels`: one Conv
//! per channel chunk, the bias on the first, joined by Adds), calibrated on
//! the ONNX graph as `onnc compile --calib` does: the parts and their sums
//! exist only after legalization, and take their scales from the
//! calibrator's `#psum` entry for the Conv (`onnc_calib::psum_conv`). Before
//! it, nvdla-load-ctable refused the compile ("no scale for '…/part1'").
//!
//! In: graphs built here. Out: the split is made, the compile is accepted,
//! and the simulated INT8 result agrees with the FP32 interpreter within
//! [`INT8_TOL`].

use onnc_nvdla::ctable::ApplyOptions;
use onnc_nvdla::ConfigName;

use crate::harness::{Check, INT8_TOL};
use crate::int8::{self, Calib};
use crate::net::{ConvGeom, Net};

/// `relu(conv3×3(x))` over 2048 channels, 28 wide, as FCN's classifier:
/// 168 KiB of input rows plus 144 KiB of kernels, more than twice nv_small's
/// 128 KiB, so three parts: the first a prefix, the last a suffix, and the
/// sum of the first two (`add0`) a prefix again.
#[test]
fn a_channel_split_conv_calibrated_on_the_onnx_graph() {
    let mut n = Net::new("i8_split_psum", &[1, 2048, 28, 28], 7);
    let y = n.conv("x", 2048, 8, ConvGeom::same(3), true);
    let y = n.op("Relu", &[&y], &[]);
    n.output(&y);
    let c = Check {
        target: onnc_legalize::Target::NvSmall,
        config: ConfigName::NvSmall,
        tol: INT8_TOL,
        ..Check::full()
    };
    let (r, _) = int8::run_int8_from(n.g, c, false, &ApplyOptions::default(), Calib::Onnx);
    assert!(
        r.count("CONV") >= 3,
        "the conv is split over its input channels: {:?}",
        r.ops
    );
}
