//! Front-end exactness (a): an ONNX graph with the 17 convolution shapes of
//! BARVINN's distilled ResNet-18 (no shortcuts), compiled at 2/2/2 bits,
//! gives the table of BARVINN `docs/software.rst` (shared/seeds/004) row for
//! row, byte for byte, total countdown 532872.

mod common;

use onnc_mvu::{compile, CompileOptions};

const SEED_TABLE: &str = include_str!("data/resnet18_seed_table.txt");

fn barvinn_2bit() -> CompileOptions {
    CompileOptions {
        aprec: 2,
        wprec: 2,
        oprec: 2,
        check_capacity: false,
        test_vectors: false,
        ..CompileOptions::default()
    }
}

#[test]
fn resnet18_at_2_bits_is_the_seed_table() {
    let c = compile(&common::resnet18(), &barvinn_2bit()).unwrap();
    let t = c.table();
    assert_eq!(t.rows.len(), 17);
    assert_eq!(t.total_countdown, 532872);
    assert_eq!(c.table_text(), SEED_TABLE);
    // Spot-check a stride-2 row and the last row as typed numbers too.
    let r = &t.rows[5];
    assert_eq!(
        (r.name.as_str(), r.i_shape, r.f_shape),
        ("conv3_x.0.residual_function.0", [1, 32, 32], [2, 3, 3])
    );
    assert_eq!(
        (r.ijump, r.wjump, r.total_layer_countdown),
        ([-130, -132, 60, 2, 0], [-34, 2, -16, 2, 0], 18360)
    );
    let r = &t.rows[16];
    assert_eq!(
        (r.ilength, r.wlength, r.countdown, r.total_layer_countdown),
        ([0, 31, 2, 23, 0], [0, 7, 3, 71, 0], 4608, 27648)
    );
    // Weights were float, quantized to signed 2 bits: one file per layer, 2 lines per 4096 weights.
    let l = &c.lowered()[16];
    assert!(l.layer.precision.weight_signed && l.relu);
    let hex = c
        .files()
        .iter()
        .find(|f| f.name == "conv5_x.1.residual_function.3.weight.hex")
        .unwrap();
    assert_eq!(hex.bytes.len(), (512 * 512 * 9 / 4096) * 2 * 4097);
}

#[test]
fn resnet18_with_ram_checks_names_the_first_layer_that_does_not_fit() {
    let opts = CompileOptions {
        check_capacity: true,
        ..barvinn_2bit()
    };
    let e = compile(&common::resnet18(), &opts).unwrap_err();
    let msg = e.to_string();
    // 8 * 4 * 3 * 3 * 2 = 576 weight words; one MVU holds 512. Rows 14..17 all overflow.
    assert_eq!(e.problems().len(), 4, "{msg}");
    assert_eq!(
        e.problems()[0].node.as_deref(),
        Some("conv5_x.0.residual_function.0")
    );
    assert!(
        msg.contains("weights (weight RAM) needs 576 words but holds 512"),
        "{msg}"
    );
    assert!(msg.contains("--no-ram-check"), "{msg}");
}
