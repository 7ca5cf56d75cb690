//! Per-layer output windows from calibration inputs (`CompileOptions::
//! calibration`): each layer's quantizer MSB is the lowest window holding the
//! largest value it reaches on the calibration codes. The functional model
//! still equals `onnc-interp` bit for bit where no split is windowed, and at
//! 8 bits the raised windows let layers whose partial sums exceed 16 bits
//! split with windowed partials, without a hand-picked `--quant-msb`.

mod common;
use common::{int_weights as weights, vi};
use onnc_mvu::frontend::{
    check_splits, compile, random_codes, reference_codes, simulate, CompileOptions, PieceKind,
};
use onnc_mvu::Error;
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

fn codes(n: usize, bits: u32, seed: u64) -> Vec<i64> {
    random_codes(n, bits, seed)
        .into_iter()
        .map(|v| v as i64)
        .collect()
}

fn opts(bits: u32, calibration: Vec<Vec<i64>>) -> CompileOptions {
    CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        test_vectors: false,
        calibration,
        ..CompileOptions::default()
    }
}

fn load(name: &str) -> Graph {
    let p = format!(
        "{}/tests/data/plain/{name}.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    onnc_onnx::load(&p, &onnc_onnx::Options::default())
        .expect("fixture loads")
        .graph
}

/// Counts outputs equal to the unsplit layer's and one LSB below over
/// `seeds`, asserting no other difference.
fn within_one_lsb(g: &Graph, c: &onnc_mvu::Compiled, n: usize, seeds: &[u64]) -> (usize, usize) {
    let (mut equal, mut below) = (0, 0);
    for &seed in seeds {
        let x = random_codes(n, 8, seed);
        let mvu = simulate(c, &x).unwrap_or_else(|e| panic!("{e}"));
        let whole = reference_codes(g, c, &x).expect("interp");
        assert_eq!(mvu.len(), whole.len());
        for (a, b) in mvu.iter().zip(&whole) {
            if a == b {
                equal += 1;
            } else {
                assert_eq!((a + 1) % 256, *b, "split {a}, unsplit {b}");
                below += 1;
            }
        }
    }
    (equal, below)
}

/// VGG-style net at 8 bits: the calibrated windows sit above the default
/// (the accumulators exceed 8 bits), the model equals the interpreter, and
/// the outputs are not all 0 (as they would be with a window far too high).
#[test]
fn calibrated_windows_match_the_interpreter_and_rise_above_the_default() {
    let g = load("vgg_pool");
    let calib = vec![codes(3 * 16 * 16, 8, 40), codes(3 * 16 * 16, 8, 41)];
    let c = compile(&g, &opts(8, calib)).unwrap_or_else(|e| panic!("{e}"));
    let msbs: Vec<_> = c.lowered().iter().map(|l| l.layer.quant_msb).collect();
    assert!(
        msbs.iter()
            .all(|m| m.is_some_and(|m| (8..=26).contains(&m))),
        "{msbs:?}"
    );
    // The chosen windows reach the table.
    assert_eq!(c.layers()[0].quant_msb, msbs[0]);
    for seed in [1, 2] {
        let x = random_codes(3 * 16 * 16, 8, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mvu, reference_codes(&g, &c, &x).expect("interp"));
        assert!(mvu.iter().filter(|&&v| v != 0).count() >= 3, "{mvu:?}");
    }
}

/// Conv 512 → 64 (3×3, pad 1) + Relu + MaxPool 2×2 at 8 bits, weights in
/// ±127: refused with the default window, split with windowed partials with
/// a calibrated one, every output within one LSB below the unsplit layer's.
#[test]
fn a_calibrated_window_admits_a_windowed_conv_split_at_8_bits() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 512, 8, 8])],
        outputs: vec![vi("p", &[1, 64, 4, 4])],
        initializers: vec![("w".into(), weights(&[64, 512, 3, 3], 127, 3))],
        nodes: vec![
            Node::new("conv", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1])),
            Node::new("relu", "Relu", &["y"], &["r"]),
            Node::new("pool", "MaxPool", &["r"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
        ],
        ..Graph::default()
    };
    let e = compile(&g, &opts(8, Vec::new())).unwrap_err();
    assert!(matches!(e, Error::Problems(_)), "{e}");
    let calib = vec![codes(512 * 64, 8, 50)];
    let c = compile(&g, &opts(8, calib)).unwrap_or_else(|e| panic!("{e}"));
    let msb = c.lowered()[0].layer.quant_msb.expect("calibrated");
    let pieces = &c.pieces()[0];
    let s = pieces
        .iter()
        .find(|p| p.kind == PieceKind::Partial)
        .and_then(|p| p.layer.quant_msb)
        .expect("partials")
        - 15;
    assert!(s > 0, "a windowed split: msb {msb}");
    let (equal, below) = within_one_lsb(&g, &c, 512 * 64, &[1, 2]);
    // The same, layer by layer: the pieces against the layer run whole.
    let k = check_splits(&c, &random_codes(512 * 64, 8, 1)).expect("model");
    assert_eq!(k.len(), 1);
    assert_eq!((k[0].node.as_str(), k[0].other), ("conv", 0));
    assert_eq!(k[0].equal + k[0].below, 64 * 4 * 4);
    eprintln!("msb {msb}, s {s}: {equal} equal, {below} one below");
    assert!(equal >= 3 * below, "{equal} equal, {below} one below");
}
