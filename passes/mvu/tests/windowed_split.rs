//! A matmul too big for the weight RAM whose partial sums cannot fit 16
//! signed bits (8-bit weights and activations) is split with windowed
//! partials when its output window sits high enough (`--quant-msb`): each
//! partial drops `s` low bits, the sum's window is `s` lower, and every output
//! equals the unsplit layer's (`onnc-interp` on the unsplit graph, equal to
//! the unsplit functional model) or is one LSB below — and most are equal.

mod common;
use common::vi;
use onnc_mvu::frontend::{
    compile, random_codes, reference_codes, simulate, CompileOptions, PieceKind,
};
use onnc_mvu::Error;
use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, Tensor};

/// `Gemm(x[1, inputs], w[out, inputs]ᵀ)`, `Relu`, with integer weights in
/// `-127..=127` from a fixed hash (kept with scale 1 at 8 bits).
fn gemm_relu(inputs: usize, out: usize) -> Graph {
    let v = (0..inputs * out)
        .map(|i| ((i + 7_000_021) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33)
        .map(|h| (h % 255) as f32 - 127.0)
        .collect();
    let w = Tensor::from_f32(vec![out, inputs], v).expect("weights");
    Graph {
        inputs: vec![vi("x", &[1, inputs])],
        outputs: vec![vi("r", &[1, out])],
        initializers: vec![("w".into(), w)],
        nodes: vec![
            Node::new("fc6", "Gemm", &["x", "w"], &["y"]).with_attr("transB", Attr::Int(1)),
            Node::new("relu", "Relu", &["y"], &["r"]),
        ],
        ..Graph::default()
    }
}

fn opts(msb: Option<u32>) -> CompileOptions {
    CompileOptions {
        aprec: 8,
        wprec: 8,
        oprec: 8,
        test_vectors: false,
        quant_msb: msb,
        ..CompileOptions::default()
    }
}

/// 25088 inputs at 8 bits, output bits 22..15: 7 parts fit the RAM; each
/// partial drops `s` bits, `7 · (2^s − 1) < 2^15`, the sum's MSB is `22 − s`.
#[test]
fn eight_bit_classifier_splits_with_windowed_partials_within_one_lsb() {
    let g = gemm_relu(25088, 128);
    let c = compile(&g, &opts(Some(22))).unwrap_or_else(|e| panic!("{e}"));
    let pieces = &c.pieces()[0];
    let partials: Vec<_> = pieces
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .collect();
    let mut starts: Vec<u32> = partials.iter().map(|p| p.inputs.start).collect();
    starts.dedup();
    let k = starts.len() as u32;
    assert_eq!(
        pieces.last().map(|p| p.kind),
        Some(PieceKind::Sum { parts: k })
    );
    let s = partials[0].layer.quant_msb.expect("a window") - 15;
    assert!(s > 0, "an exact split was not expected");
    assert!(partials.iter().all(|p| p.layer.quant_msb == Some(15 + s)));
    assert!(u64::from(k) * ((1 << s) - 1) < 1 << 15, "k = {k}, s = {s}");
    assert_eq!(pieces.last().and_then(|p| p.layer.quant_msb), Some(22 - s));
    for r in &c.table().rows {
        assert!(r.memory.weight_words <= 512, "{}: {:?}", r.name, r.memory);
    }
    let (mut equal, mut below, mut nonzero) = (0, 0, 0);
    for seed in [1, 2, 3] {
        let x = random_codes(25088, 8, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        let whole = reference_codes(&g, &c, &x).expect("interp");
        assert_eq!(mvu.len(), whole.len());
        for (a, b) in mvu.iter().zip(&whole) {
            if a == b {
                equal += 1;
            } else {
                assert_eq!((a + 1) % 256, *b, "split {a}, unsplit {b}");
                below += 1;
            }
            nonzero += usize::from(*b != 0);
        }
    }
    eprintln!("k = {k}, s = {s}: {equal} equal, {below} one below, {nonzero} nonzero");
    // The bound matters: most outputs are exact, and the outputs are not all 0.
    assert!(equal >= 3 * below, "{equal} equal, {below} one below");
    assert!(nonzero > 64, "{nonzero} nonzero");
}

/// The same layer with the default quantizer (output LSB 0) has no window
/// that keeps the bound: it is refused as before.
#[test]
fn without_a_raised_output_window_the_layer_is_still_refused() {
    let Error::Problems(p) = compile(&gemm_relu(25088, 8), &opts(None)).unwrap_err() else {
        panic!("problems expected")
    };
    assert!(
        p[0].to_string().contains("beyond the 16 signed bits")
            && p[0]
                .to_string()
                .contains("a higher --quant-msb may allow one"),
        "{}",
        p[0]
    );
}
