//! Exactness test (a): BARVINN's distilled ResNet-18 (17 convolutions, no
//! shortcuts) at aprec = wprec = oprec = 2 gives the table published in BARVINN
//! `docs/software.rst` (shared/seeds/004), row for row, total 532872, and the
//! text writer reproduces the printed table byte for byte.
//!
//! The model itself is not available (research/targets.md §A.7); the table only
//! depends on conv shapes: CIFAR ResNet-18, input [3, 32, 32], 3x3 kernels with
//! pad 1, 64/128/256/512 channels, stride 2 at conv3_x.0, conv4_x.0, conv5_x.0.

use onnc_mvu::{emit, generate, ConvShape, Error, Layer, Options, Precision};

/// One row as printed in the seed.
struct Expected {
    i_shape: [u64; 3],
    f_shape: [u64; 3],
    ilength: [i64; 5],
    ijump: [i64; 5],
    wlength: [i64; 5],
    wjump: [i64; 5],
    countdown: u64,
    total: u64,
}

/// The seed's table, typed row for row.
const EXPECTED: [Expected; 17] = [
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [1, 3, 3],
        ilength: [0, 3, 2, 2, 0],
        ijump: [-132, -132, 60, 2, 0],
        wlength: [0, 0, 3, 8, 0],
        wjump: [-16, 2, -16, 2, 0],
        countdown: 1080,
        total: 36720,
    },
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [1, 3, 3],
        ilength: [0, 3, 2, 2, 0],
        ijump: [-132, -132, 60, 2, 0],
        wlength: [0, 0, 3, 8, 0],
        wjump: [-16, 2, -16, 2, 0],
        countdown: 1080,
        total: 36720,
    },
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [1, 3, 3],
        ilength: [0, 3, 2, 2, 0],
        ijump: [-132, -132, 60, 2, 0],
        wlength: [0, 0, 3, 8, 0],
        wjump: [-16, 2, -16, 2, 0],
        countdown: 1080,
        total: 36720,
    },
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [1, 3, 3],
        ilength: [0, 3, 2, 2, 0],
        ijump: [-132, -132, 60, 2, 0],
        wlength: [0, 0, 3, 8, 0],
        wjump: [-16, 2, -16, 2, 0],
        countdown: 1080,
        total: 36720,
    },
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [1, 3, 3],
        ilength: [0, 3, 2, 2, 0],
        ijump: [-132, -132, 60, 2, 0],
        wlength: [0, 0, 3, 8, 0],
        wjump: [-16, 2, -16, 2, 0],
        countdown: 1080,
        total: 36720,
    },
    Expected {
        i_shape: [1, 32, 32],
        f_shape: [2, 3, 3],
        ilength: [0, 7, 2, 2, 0],
        ijump: [-130, -132, 60, 2, 0],
        wlength: [0, 1, 3, 8, 0],
        wjump: [-34, 2, -16, 2, 0],
        countdown: 1080,
        total: 18360,
    },
    Expected {
        i_shape: [2, 16, 16],
        f_shape: [2, 3, 3],
        ilength: [0, 7, 2, 5, 0],
        ijump: [-134, -138, 54, 2, 0],
        wlength: [0, 1, 3, 17, 0],
        wjump: [-70, 2, -34, 2, 0],
        countdown: 2016,
        total: 36288,
    },
    Expected {
        i_shape: [2, 16, 16],
        f_shape: [2, 3, 3],
        ilength: [0, 7, 2, 5, 0],
        ijump: [-134, -138, 54, 2, 0],
        wlength: [0, 1, 3, 17, 0],
        wjump: [-70, 2, -34, 2, 0],
        countdown: 2016,
        total: 36288,
    },
    Expected {
        i_shape: [2, 16, 16],
        f_shape: [2, 3, 3],
        ilength: [0, 7, 2, 5, 0],
        ijump: [-134, -138, 54, 2, 0],
        wlength: [0, 1, 3, 17, 0],
        wjump: [-70, 2, -34, 2, 0],
        countdown: 2016,
        total: 36288,
    },
    Expected {
        i_shape: [2, 16, 16],
        f_shape: [4, 3, 3],
        ilength: [0, 15, 2, 5, 0],
        ijump: [-130, -138, 54, 2, 0],
        wlength: [0, 3, 3, 17, 0],
        wjump: [-142, 2, -34, 2, 0],
        countdown: 2016,
        total: 18144,
    },
    Expected {
        i_shape: [4, 8, 8],
        f_shape: [4, 3, 3],
        ilength: [0, 15, 2, 11, 0],
        ijump: [-138, -150, 42, 2, 0],
        wlength: [0, 3, 3, 35, 0],
        wjump: [-286, 2, -70, 2, 0],
        countdown: 3456,
        total: 34560,
    },
    Expected {
        i_shape: [4, 8, 8],
        f_shape: [4, 3, 3],
        ilength: [0, 15, 2, 11, 0],
        ijump: [-138, -150, 42, 2, 0],
        wlength: [0, 3, 3, 35, 0],
        wjump: [-286, 2, -70, 2, 0],
        countdown: 3456,
        total: 34560,
    },
    Expected {
        i_shape: [4, 8, 8],
        f_shape: [4, 3, 3],
        ilength: [0, 15, 2, 11, 0],
        ijump: [-138, -150, 42, 2, 0],
        wlength: [0, 3, 3, 35, 0],
        wjump: [-286, 2, -70, 2, 0],
        countdown: 3456,
        total: 34560,
    },
    Expected {
        i_shape: [4, 8, 8],
        f_shape: [8, 3, 3],
        ilength: [0, 31, 2, 11, 0],
        ijump: [-130, -150, 42, 2, 0],
        wlength: [0, 7, 3, 35, 0],
        wjump: [-574, 2, -70, 2, 0],
        countdown: 3456,
        total: 17280,
    },
    Expected {
        i_shape: [8, 4, 4],
        f_shape: [8, 3, 3],
        ilength: [0, 31, 2, 23, 0],
        ijump: [-146, -174, 18, 2, 0],
        wlength: [0, 7, 3, 71, 0],
        wjump: [-1150, 2, -142, 2, 0],
        countdown: 4608,
        total: 27648,
    },
    Expected {
        i_shape: [8, 4, 4],
        f_shape: [8, 3, 3],
        ilength: [0, 31, 2, 23, 0],
        ijump: [-146, -174, 18, 2, 0],
        wlength: [0, 7, 3, 71, 0],
        wjump: [-1150, 2, -142, 2, 0],
        countdown: 4608,
        total: 27648,
    },
    Expected {
        i_shape: [8, 4, 4],
        f_shape: [8, 3, 3],
        ilength: [0, 31, 2, 23, 0],
        ijump: [-146, -174, 18, 2, 0],
        wlength: [0, 7, 3, 71, 0],
        wjump: [-1150, 2, -142, 2, 0],
        countdown: 4608,
        total: 27648,
    },
];

/// The seed's printed output, verbatim.
const SEED_TEXT: &str = "\
Generated MVU configuration:
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| iShape      | fShape    | ilength           | ijump                  | wlength          | wjump                  | countdown | total layer countdown |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0]   | [-132, -132, 60, 2, 0] | [0, 0, 3, 8, 0]  | [-16, 2, -16, 2, 0]    | 1080      | 36720                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0]   | [-132, -132, 60, 2, 0] | [0, 0, 3, 8, 0]  | [-16, 2, -16, 2, 0]    | 1080      | 36720                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0]   | [-132, -132, 60, 2, 0] | [0, 0, 3, 8, 0]  | [-16, 2, -16, 2, 0]    | 1080      | 36720                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0]   | [-132, -132, 60, 2, 0] | [0, 0, 3, 8, 0]  | [-16, 2, -16, 2, 0]    | 1080      | 36720                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [1, 3, 3] | [0, 3, 2, 2, 0]   | [-132, -132, 60, 2, 0] | [0, 0, 3, 8, 0]  | [-16, 2, -16, 2, 0]    | 1080      | 36720                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [1, 32, 32] | [2, 3, 3] | [0, 7, 2, 2, 0]   | [-130, -132, 60, 2, 0] | [0, 1, 3, 8, 0]  | [-34, 2, -16, 2, 0]    | 1080      | 18360                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [2, 16, 16] | [2, 3, 3] | [0, 7, 2, 5, 0]   | [-134, -138, 54, 2, 0] | [0, 1, 3, 17, 0] | [-70, 2, -34, 2, 0]    | 2016      | 36288                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [2, 16, 16] | [2, 3, 3] | [0, 7, 2, 5, 0]   | [-134, -138, 54, 2, 0] | [0, 1, 3, 17, 0] | [-70, 2, -34, 2, 0]    | 2016      | 36288                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [2, 16, 16] | [2, 3, 3] | [0, 7, 2, 5, 0]   | [-134, -138, 54, 2, 0] | [0, 1, 3, 17, 0] | [-70, 2, -34, 2, 0]    | 2016      | 36288                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [2, 16, 16] | [4, 3, 3] | [0, 15, 2, 5, 0]  | [-130, -138, 54, 2, 0] | [0, 3, 3, 17, 0] | [-142, 2, -34, 2, 0]   | 2016      | 18144                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [4, 8, 8]   | [4, 3, 3] | [0, 15, 2, 11, 0] | [-138, -150, 42, 2, 0] | [0, 3, 3, 35, 0] | [-286, 2, -70, 2, 0]   | 3456      | 34560                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [4, 8, 8]   | [4, 3, 3] | [0, 15, 2, 11, 0] | [-138, -150, 42, 2, 0] | [0, 3, 3, 35, 0] | [-286, 2, -70, 2, 0]   | 3456      | 34560                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [4, 8, 8]   | [4, 3, 3] | [0, 15, 2, 11, 0] | [-138, -150, 42, 2, 0] | [0, 3, 3, 35, 0] | [-286, 2, -70, 2, 0]   | 3456      | 34560                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [4, 8, 8]   | [8, 3, 3] | [0, 31, 2, 11, 0] | [-130, -150, 42, 2, 0] | [0, 7, 3, 35, 0] | [-574, 2, -70, 2, 0]   | 3456      | 17280                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [8, 4, 4]   | [8, 3, 3] | [0, 31, 2, 23, 0] | [-146, -174, 18, 2, 0] | [0, 7, 3, 71, 0] | [-1150, 2, -142, 2, 0] | 4608      | 27648                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [8, 4, 4]   | [8, 3, 3] | [0, 31, 2, 23, 0] | [-146, -174, 18, 2, 0] | [0, 7, 3, 71, 0] | [-1150, 2, -142, 2, 0] | 4608      | 27648                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
| [8, 4, 4]   | [8, 3, 3] | [0, 31, 2, 23, 0] | [-146, -174, 18, 2, 0] | [0, 7, 3, 71, 0] | [-1150, 2, -142, 2, 0] | 4608      | 27648                 |
+-------------+-----------+-------------------+------------------------+------------------+------------------------+-----------+-----------------------+
Total countdown: 532872
";

/// The 17 convolutions with BARVINN's shape propagation (`ceil(C/64)` blocks,
/// `oH = (iH - 3 + 2) / s + 1`).
fn resnet18_layers() -> Vec<Layer> {
    let prec = Precision::new(2, 2, 2);
    let mut names = vec!["conv1.0".to_string()];
    for stage in 2..=5 {
        for block in 0..2 {
            for conv in [0, 3] {
                names.push(format!("conv{stage}_x.{block}.residual_function.{conv}"));
            }
        }
    }
    let (mut c, mut hw) = (3u32, 32u32);
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            // Stage k (k = 2..5) has 64 * 2^(k-2) channels; the first conv of stages 3..5 strides by 2.
            let stage = if i == 0 { 2 } else { 2 + (i as u32 - 1) / 4 };
            let out = 64 << (stage - 2);
            let stride = if i > 1 && (i - 1) % 4 == 0 { 2 } else { 1 };
            let l = Layer::conv(
                &name,
                ConvShape::new(c, hw, hw, out, [3, 3])
                    .with_stride(stride)
                    .with_pad(1),
                prec,
            )
            .with_weight_name(format!("{name}.weight"));
            c = out;
            hw = (hw - 3 + 2) / stride + 1;
            l
        })
        .collect()
}

#[test]
fn resnet18_rows_match_the_seed() {
    let layers = resnet18_layers();
    assert_eq!(layers.len(), 17);
    let t = generate(&layers, &Options::barvinn()).unwrap();
    assert_eq!(t.rows.len(), 17);
    for (i, (r, e)) in t.rows.iter().zip(EXPECTED.iter()).enumerate() {
        assert_eq!(r.i_shape, e.i_shape, "row {i} iShape");
        assert_eq!(r.f_shape, e.f_shape, "row {i} fShape");
        assert_eq!(r.ilength, e.ilength, "row {i} ilength");
        assert_eq!(r.ijump, e.ijump, "row {i} ijump");
        assert_eq!(r.wlength, e.wlength, "row {i} wlength");
        assert_eq!(r.wjump, e.wjump, "row {i} wjump");
        assert_eq!(r.countdown, e.countdown, "row {i} countdown");
        assert_eq!(
            r.total_layer_countdown, e.total,
            "row {i} total layer countdown"
        );
    }
    assert_eq!(t.total_countdown, 532872);
}

#[test]
fn resnet18_text_is_byte_identical_to_the_seed() {
    let t = generate(&resnet18_layers(), &Options::barvinn()).unwrap();
    assert_eq!(emit::text(&t), SEED_TEXT);
}

#[test]
fn resnet18_default_options_flag_weight_ram_overflow() {
    // BARVINN never checked capacities: row 14 (conv5_x.0.residual_function.0, 256 -> 512)
    // needs fC*iC*fH*fW*wp = 8*4*3*3*2 = 576 weight words; one MVU holds 512.
    let err = generate(&resnet18_layers(), &Options::default()).unwrap_err();
    assert_eq!(
        err,
        Error::Capacity {
            layer: "conv5_x.0.residual_function.0".into(),
            memory: "weights (weight RAM)",
            needed: 576,
            capacity: 512,
        }
    );
}

#[test]
fn resnet18_json_has_the_documented_keys() {
    let t = generate(&resnet18_layers(), &Options::barvinn()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&emit::json(&t)).unwrap();
    assert_eq!(v["total_countdown"], 532872);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 17);
    for key in [
        "name",
        "kind",
        "aprec",
        "wprec",
        "oprec",
        "iShape",
        "fShape",
        "ilength",
        "ijump",
        "wlength",
        "wjump",
        "countdown",
        "total_layer_countdown",
    ] {
        assert!(rows[0].get(key).is_some(), "missing key {key}");
    }
    assert_eq!(rows[16]["wjump"], serde_json::json!([-1150, 2, -142, 2, 0]));
    assert_eq!(rows[0]["kind"], "conv");
    assert_eq!(rows[0]["name"], "conv1.0");
}
