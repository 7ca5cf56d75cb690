//! Front-end exactness (b): BARVINN's SimpleConv.onnx (tests/data, a copy of
//! test/data/barvinn/SimpleConv.onnx, MIT, MVU_Code_Gen f43a5a0).
//! At 8/8/8 its configuration is the one BARVINN `docs/examples.rst`
//! documents (countdown 17280, total 587520); at 2/2/2 the table files equal
//! the golden files and the weight image equals BARVINN's own exporter's.

mod common;

use onnc_mvu::{compile, CompileOptions};

fn simple_conv() -> onnc_onnx::Graph {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/simple_conv.onnx");
    onnc_onnx::load(p, &onnc_onnx::Options::default())
        .unwrap()
        .graph
}

fn bits(b: u32) -> CompileOptions {
    CompileOptions {
        aprec: b,
        wprec: b,
        oprec: b,
        ..CompileOptions::default()
    }
}

#[test]
fn simple_conv_8bit_matches_barvinn_examples() {
    let c = compile(&simple_conv(), &bits(8)).unwrap();
    let r = &c.table().rows[0];
    assert_eq!(
        (r.name.as_str(), r.i_shape, r.f_shape),
        ("Conv_0", [1, 32, 32], [1, 3, 3])
    );
    assert_eq!(r.ilength, [0, 63, 2, 2, 0]);
    assert_eq!(r.ijump, [-528, -528, 240, 8, 0]);
    assert_eq!(r.wlength, [0, 0, 63, 8, 0]);
    assert_eq!(r.wjump, [-64, 8, -64, 8, 0]);
    assert_eq!(
        (
            r.countdown,
            r.total_layer_countdown,
            c.table().total_countdown
        ),
        (17280, 587520, 587520)
    );
    // The weights are BARVINN's 2-bit codes stored as floats: taken as they are.
    let w = &c.lowered()[0].weights;
    assert_eq!((w.scales.as_slice(), w.signed), (&[1.0f32][..], false));
    assert!(w.values.iter().all(|v| (0..=3).contains(v)));
}

/// FNV-1a 64 of a byte string.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn simple_conv_2bit_files_equal_golden_and_barvinn_exporter() {
    let c = compile(&simple_conv(), &bits(2)).unwrap();
    let golden = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/simple_conv_2bit");
    for name in [
        "mvu_config.json",
        "mvu_config.txt",
        "mvu_config.h",
        "mvu_program.s",
    ] {
        let f = c.files().iter().find(|f| f.name == name).unwrap();
        let want = std::fs::read(format!("{golden}/{name}")).unwrap();
        assert!(f.bytes == want, "{name} differs from the golden file");
    }
    // Reference hash from tests/weights_hex.rs: BARVINN's Generator.__process_weigths on these weights.
    let hex = c
        .files()
        .iter()
        .find(|f| f.name == "conv1.weight.hex")
        .unwrap();
    assert_eq!(fnv1a(&hex.bytes), 0xc40a_af22_29ec_b70b);
}

#[test]
fn simple_conv_expected_output_is_the_integer_convolution() {
    let c = compile(
        &simple_conv(),
        &CompileOptions {
            seed: 11,
            ..bits(2)
        },
    )
    .unwrap();
    let v = c.vectors().unwrap();
    let x = v.input.as_f32().unwrap();
    assert!(x
        .iter()
        .all(|&a| (0.0..=3.0).contains(&a) && a.fract() == 0.0));
    // Recompute three outputs by hand from the integer weights (pad 1).
    let w = &c.lowered()[0].weights.values;
    let y = v.output.as_f32().unwrap();
    for &(o, r, col) in &[(0usize, 0usize, 0usize), (17, 5, 31), (63, 31, 12)] {
        let mut acc = 0i64;
        for ci in 0..64 {
            for kh in 0..3 {
                for kw in 0..3 {
                    let (ir, ic) = (r as i64 + kh as i64 - 1, col as i64 + kw as i64 - 1);
                    if (0..32).contains(&ir) && (0..32).contains(&ic) {
                        let a = x[ci * 1024 + ir as usize * 32 + ic as usize] as i64;
                        acc += a * i64::from(w[((o * 64 + ci) * 3 + kh) * 3 + kw]);
                    }
                }
            }
        }
        assert_eq!(
            y[o * 1024 + r * 32 + col],
            acc as f32,
            "output ({o}, {r}, {col})"
        );
    }
    // input_0.hex: 32*32 pixels x 1 channel block x 2 bit planes, 64 characters each.
    assert_eq!(v.input_lines.len(), 32 * 32 * 2);
    assert!(v
        .input_lines
        .iter()
        .all(|l| l.len() == 64 && l.bytes().all(|b| b == b'0' || b == b'1')));
    // Pixel (0, 0), channel 0 is the rightmost bit of its two planes (MSB first).
    let code =
        (v.input_lines[0].as_bytes()[63] - b'0') * 2 + (v.input_lines[1].as_bytes()[63] - b'0');
    assert_eq!(f32::from(code), x[0]);
}
