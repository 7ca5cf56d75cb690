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
fn resnet18_with_ram_checks_splits_the_layers_that_do_not_fit() {
    let opts = CompileOptions {
        check_capacity: true,
        test_vectors: false,
        ..barvinn_2bit()
    };
    let c = compile(&common::resnet18(), &opts).expect("split to fit");
    // conv5_x.0.residual_function.0: 8 blocks * 4 * 3 * 3 * 2 = 576 weight
    // words, one MVU holds 512: 7 blocks (448 channels), then 1. The three
    // 512 -> 512 layers after it: 144 words per block, 3 blocks per piece.
    let rows = &c.table().rows;
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(rows.len(), 13 + 2 + 3 * 3, "{names:?}");
    assert_eq!(
        names[15..18],
        [
            "conv5_x.0.residual_function.3.oc0_192",
            "conv5_x.0.residual_function.3.oc192_384",
            "conv5_x.0.residual_function.3.oc384_512"
        ]
    );
    assert_eq!(rows[13].name, "conv5_x.0.residual_function.0.oc0_448");
    assert_eq!(rows[14].name, "conv5_x.0.residual_function.0.oc448_512");
    assert_eq!(
        (rows[13].memory.weight_words, rows[14].memory.weight_words),
        (7 * 72, 72)
    );
    assert!(rows.iter().all(|r| r.memory.weight_words <= 512));
    assert!(c
        .files()
        .iter()
        .any(|f| f.name == "conv5_x.0.residual_function.0.weight.oc448_512.hex"));
}
