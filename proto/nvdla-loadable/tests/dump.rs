//! insta snapshots of the text dump of every golden loadable.

mod common;

use common::*;
use onnc_nvdla_loadable::{dump, dump_detected, Abi};

fn snap(name: &str) {
    let text = dump_detected(&golden(name));
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn dump_bdma() {
    snap("BDMA_L0_0_fbuf");
}
#[test]
fn dump_cdp() {
    snap("CDP_L0_0_fbuf");
}
#[test]
fn dump_cdp_small() {
    snap("CDP_L0_0_small_fbuf");
}
#[test]
fn dump_conv() {
    snap("CONV_D_L0_0_fbuf");
}
#[test]
fn dump_conv_small() {
    snap("CONV_D_L0_0_small_fbuf");
}
#[test]
fn dump_nn() {
    snap("NN_L0_0_fbuf");
}
#[test]
fn dump_pdp() {
    snap("PDP_L0_0_fbuf");
}
#[test]
fn dump_rbk() {
    snap("RBK_L0_0_fbuf");
}
#[test]
fn dump_sdp_x1() {
    snap("SDP_X1_L0_0_fbuf");
}
#[test]
fn dump_sdp_x1_small() {
    snap("SDP_X1_L0_0_small_fbuf");
}

#[test]
fn abi_override_changes_cube_layout() {
    let l = golden("CONV_D_L0_0_fbuf");
    let legacy = dump(&l, Abi::Legacy);
    let current = dump(&l, Abi::Current);
    assert!(legacy.contains("abi: legacy (fw 0.10/0.11, 28-byte data cube) [given]"));
    assert!(current.contains("abi: current (fw 0.12.x, 32-byte data cube) [given]"));
    // The correct (legacy) reading of the conv source cube.
    assert!(legacy.contains(
        "src_data: type=0(MC) address=5 size=16384 whc=8x8x128 line_stride=256 surf_stride=2048 plane_stride=0"
    ));
    assert!(!current.contains("whc=8x8x128 line_stride=256"));
}

#[test]
fn dump_is_deterministic() {
    for name in GOLDEN {
        let l = golden(name);
        assert_eq!(dump_detected(&l), dump_detected(&l));
    }
}
