//! Exactness test (b): BARVINN's SimpleConv anchor.
//!
//! `test/data/barvinn/SimpleConv.onnx` holds one Conv node "Conv_0":
//! input "input" [1, 64, 32, 32], weight "conv1.weight" [64, 64, 3, 3]
//! (values in {0..3}), kernel_shape [3, 3], pads [1, 1, 1, 1], strides [1, 1],
//! dilations [1, 1], group 1, output [1, 64, 32, 32] (checked with the onnx
//! Python package). BARVINN `docs/examples.rst` documents its configuration at
//! `--aprec 8 --wprec 8 --oprec 8 --input_shape 64 32 32`, and at 2 bits it is
//! the first row of the distilled ResNet-18 table (the values
//! `csrc/conv/asm/CorrectedSimpleConv.S` programs).

use onnc_mvu::{emit, export_weights, generate, ConvShape, Layer, Options, Precision};

fn simple_conv(bits: u32) -> Layer {
    Layer::conv(
        "Conv_0",
        ConvShape::new(64, 32, 32, 64, [3, 3])
            .with_strides([1, 1])
            .with_pads([1, 1, 1, 1]),
        Precision::new(bits, bits, bits),
    )
    .with_weight_name("conv1.weight")
}

#[test]
fn simple_conv_8bit_matches_barvinn_examples() {
    let t = generate(&[simple_conv(8)], &Options::default()).unwrap();
    let r = &t.rows[0];
    assert_eq!(r.i_shape, [1, 32, 32]);
    assert_eq!(r.f_shape, [1, 3, 3]);
    assert_eq!(r.ilength, [0, 63, 2, 2, 0]);
    assert_eq!(r.ijump, [-528, -528, 240, 8, 0]);
    assert_eq!(r.wlength, [0, 0, 63, 8, 0]);
    assert_eq!(r.wjump, [-64, 8, -64, 8, 0]);
    assert_eq!(r.countdown, 17280);
    assert_eq!(r.total_layer_countdown, 587520);
    assert_eq!(t.total_countdown, 587520);
}

#[test]
fn simple_conv_2bit_is_corrected_simple_conv() {
    let t = generate(&[simple_conv(2)], &Options::default()).unwrap();
    let r = &t.rows[0];
    assert_eq!(r.ilength, [0, 3, 2, 2, 0]);
    assert_eq!(r.ijump, [-132, -132, 60, 2, 0]);
    assert_eq!(r.wlength, [0, 0, 3, 8, 0]);
    assert_eq!(r.wjump, [-16, 2, -16, 2, 0]);
    assert_eq!((r.countdown, r.total_layer_countdown), (1080, 36720));
    // CorrectedSimpleConv.S writes mvuprecision = 2 | 2<<6 | 2<<12 and kicks (1<<30)|1080.
    assert_eq!(r.precision_word(), 2 | (2 << 6) | (2 << 12));
    assert_eq!(r.command_word(), (1 << 30) | 1080);
}

#[test]
fn simple_conv_weights_export_one_block_per_tap() {
    // 64*64*9 weights = 9 blocks of 4096; 8 bit planes each.
    let l = simple_conv(8);
    let w: Vec<i32> = (0..64 * 64 * 9).map(|i| i % 4).collect();
    let f = export_weights(&l, &w).unwrap();
    assert_eq!(f.file_name, "conv1.weight.hex");
    assert_eq!(f.lines.len(), 9 * 8);
    assert!(f.lines.iter().all(|s| s.len() == 4096));
    // Values < 4 leave the six upper bit planes empty.
    assert!(f.lines[..6].iter().all(|s| !s.contains('1')));
    let t = generate(&[l], &Options::default()).unwrap();
    let files = emit::bundle(&t, &[f], &emit::AsmOptions::default()).unwrap();
    assert_eq!(files.len(), 5);
}

/// FNV-1a 64 of a byte string.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn simple_conv_real_weights_match_barvinn_exporter() {
    // tests/fixtures/simple_conv_weights.txt holds SimpleConv.onnx's conv1.weight
    // (ONNX order, one digit per weight; made by make_simple_conv_weights.py).
    // Reference: BARVINN's own Generator.__process_weigths (MVU_Code_Gen f43a5a0),
    // run on the same tensor at wprec 2 in a scratch directory: 18 lines of 4096
    // characters, FNV-1a 64 of the file = 0xc40aaf2229ecb70b. Its bugs do not
    // trigger here (nine full blocks, no negative values), so the two must agree.
    let digits = include_str!("fixtures/simple_conv_weights.txt").trim();
    let w: Vec<i32> = digits.bytes().map(|b| i32::from(b - b'0')).collect();
    assert_eq!(w.len(), 64 * 64 * 9);
    let f = export_weights(&simple_conv(2), &w).unwrap();
    assert_eq!(f.lines.len(), 18);
    assert_eq!(fnv1a(f.contents().as_bytes()), 0xc40a_af22_29ec_b70b);
}
