//! A matmul whose 64-feature output block needs more weight-RAM words than
//! the MVU has (VGG's first classifier layer) is split over its input
//! features, and the partial sums are added by a sum job, when every partial
//! fits 16 signed bits; the functional model (partials stored as 16-bit codes,
//! read back as signed activations) equals `onnc-interp` on the unsplit graph.
//! Otherwise the layer is refused with the words needed and the bound.

mod common;
use common::opts;
use common::{int_weights as weights, vi};
use onnc_mvu::frontend::{
    compile, random_codes, reference_codes, simulate, CompileOptions, PieceKind,
};
use onnc_mvu::Error;
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// `Gemm(x[1, inputs], w[out, inputs]ᵀ)`, then `Relu`.
fn gemm_relu(inputs: usize, out: usize, m: i64) -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, inputs])],
        outputs: vec![vi("r", &[1, out])],
        initializers: vec![("w".into(), weights(&[out, inputs], m, 5))],
        nodes: vec![
            Node::new("fc6", "Gemm", &["x", "w"], &["y"]).with_attr("transB", Attr::Int(1)),
            Node::new("relu", "Relu", &["y"], &["r"]),
        ],
        ..Graph::default()
    }
}

/// Compiles, simulates and compares with the interpreter on two seeds.
fn check(g: &Graph, o: CompileOptions) -> onnc_mvu::Compiled {
    let c = compile(g, &o).unwrap_or_else(|e| panic!("{e}"));
    let shape = g.inputs[0].type_info().static_shape().expect("static");
    for seed in [1, 2] {
        let x = random_codes(shape.iter().product(), o.aprec, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        let want = reference_codes(g, &c, &x).expect("interp");
        assert_eq!(mvu, want, "seed {seed}");
        assert!(mvu.iter().any(|&v| v != 0));
    }
    for r in &c.table().rows {
        let m = &r.memory;
        assert!(
            m.weight_words <= 512 && m.input_words <= 16384,
            "{}: {m:?}",
            r.name
        );
    }
    c
}

/// 19200 inputs (300 blocks) at 2 bits: 600 weight words per output block; two
/// parts of 150 blocks fit (300 words, one output block at a time), and with
/// weights in -1..=1 a partial reaches at most 9600 · 3 = 28800 ≤ 32767: two
/// partials per output block and one sum (2 blocks of 1-bit weights per block).
#[test]
fn two_bit_classifier_splits_into_two_partials_and_a_sum() {
    let c = check(&gemm_relu(19200, 96, 1), opts(2));
    let names: Vec<_> = c.table().rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "fc6.in0_9600.oc0_64",
            "fc6.in0_9600.oc64_96",
            "fc6.in9600_19200.oc0_64",
            "fc6.in9600_19200.oc64_96",
            "fc6.sum"
        ]
    );
    let kinds: Vec<_> = c.pieces()[0].iter().map(|p| p.kind).collect();
    assert_eq!(kinds[..4], [PieceKind::Partial; 4]);
    assert_eq!(kinds[4], PieceKind::Sum { parts: 2 });
    let sum = &c.layers()[4];
    assert_eq!(
        (sum.precision.act, sum.precision.weight, sum.precision.out),
        (16, 1, 2)
    );
    assert!(sum.precision.act_signed && sum.relu);
    assert!(c.layers()[..4]
        .iter()
        .all(|l| l.precision.out == 16 && l.quant_msb == Some(15) && !l.relu));
}

/// At 4 bits the RAM alone needs 3 parts (128 blocks each), but a partial of
/// 100 blocks of weights ±1..7 at 15 would overflow 16 bits: more, smaller
/// parts are taken until every partial fits, and the result is still exact.
#[test]
fn parts_shrink_until_every_partial_fits_sixteen_bits() {
    let c = check(&gemm_relu(19200, 64, 1), opts(4));
    let parts = c.pieces()[0]
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .count();
    // weights -1..=1, activations ≤ 15: at most 32767 / 15 = 2184 nonzero weights per part.
    assert!(parts > 3, "{parts} parts");
    let last = c.pieces()[0].last().expect("a sum");
    assert_eq!(
        last.kind,
        PieceKind::Sum {
            parts: parts as u32
        }
    );
}

/// 8-bit weights up to 127 at 8-bit activations: one 64-feature block already
/// reaches far beyond 16 bits, so no split is exact; the refusal names the
/// layer, the words needed and the bound.
#[test]
fn eight_bit_classifier_is_refused_with_the_words_and_the_bound() {
    let g = gemm_relu(25088, 8, 127);
    let Error::Problems(p) = compile(&g, &opts(8)).unwrap_err() else {
        panic!("problems expected")
    };
    assert_eq!(p.len(), 1);
    let m = p[0].to_string();
    assert!(
        m.starts_with(
            "node 'fc6' (Gemm): one 64-feature output block needs 3136 weight-RAM words (in_blocks·wprec), \
             more than the 512; split into 392 parts of its input features, a partial sum still reaches "
        ),
        "{m}"
    );
    assert!(
        m.contains(
            "beyond the 16 signed bits (≤ 32767) in which the MVU adds partial sums exactly"
        ),
        "{m}"
    );
}

/// A convolution whose output block exceeds the weight RAM is split over its
/// input channels; at 8 bits with the default quantizer no split exists (a
/// single input block's partial exceeds 16 bits, and the output LSB 0 leaves
/// no window), and the refusal says so.
#[test]
fn oversized_conv_block_without_a_split_is_refused_with_the_bound() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 512, 4, 4])],
        outputs: vec![vi("y", &[1, 64, 2, 2])],
        initializers: vec![("w".into(), weights(&[64, 512, 3, 3], 100, 9))],
        nodes: vec![Node::new("conv5", "Conv", &["x", "w"], &["y"])],
        ..Graph::default()
    };
    let Error::Problems(p) = compile(&g, &opts(8)).unwrap_err() else {
        panic!("problems expected")
    };
    let m = p[0].to_string();
    assert!(
        m.starts_with(
            "node 'conv5' (Conv): one 64-channel output block needs 576 weight-RAM words \
             (iC·fH·fW·wprec), more than the 512; split into 8 parts of its input channels, \
             a partial sum still reaches "
        ),
        "{m}"
    );
    assert!(m.contains("a higher --quant-msb may allow one"), "{m}");
}

/// VGG's classifier shape at 2 bits, 25088 -> 2048: the sum's 1-bit image is
/// dense (K·n² words for n output blocks), so with 2 parts each sum covers at
/// most 16 blocks (512 words) and there are two sums.
#[test]
fn wide_sums_are_split_so_their_dense_identity_fits_the_weight_ram() {
    let c = check(&gemm_relu(25088, 2048, 1), opts(2));
    let sums: Vec<_> = c
        .table()
        .rows
        .iter()
        .filter(|r| r.name.contains(".sum"))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(sums, ["fc6.sum.oc0_1024", "fc6.sum.oc1024_2048"]);
}
