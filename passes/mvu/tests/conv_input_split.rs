//! A convolution whose 64-channel output block needs more weight-RAM words
//! than the MVU has is split over its input channels: partial convolutions
//! over the whole conv grid (16-bit codes, no ReLU) and a 1×1 sum job that
//! carries the layer's ReLU and max pooling. Exact splits equal `onnc-interp`
//! on the unsplit graph bit for bit; windowed ones (8 bits, raised output
//! window) are the unsplit layer's output or one LSB below, mostly equal.
//! A kernel whose one input block alone exceeds the weight RAM (AlexNet's
//! 11×11 stem at 8 bits) is split over its kernel rows instead.

mod common;
use common::{int_weights as weights, vi};
use onnc_mvu::frontend::{
    compile, random_codes, reference_codes, simulate, CompileOptions, PieceKind,
};
use onnc_mvu::Error;
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// Conv `c → 64`, 3×3, pad 1, on 8×8, + Relu + MaxPool 2×2/2, weights in `-m..=m`.
fn conv_pool(c: usize, m: i64) -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, c, 8, 8])],
        outputs: vec![vi("p", &[1, 64, 4, 4])],
        initializers: vec![("w".into(), weights(&[64, c, 3, 3], m, 3))],
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
    }
}

fn opts(bits: u32, msb: Option<u32>) -> CompileOptions {
    CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        test_vectors: false,
        quant_msb: msb,
        ..CompileOptions::default()
    }
}

/// The distinct input ranges of the partials and the pieces' kinds.
fn parts(c: &onnc_mvu::Compiled) -> Vec<(u32, u32)> {
    let mut v: Vec<_> = c.pieces()[0]
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .map(|p| (p.inputs.start, p.inputs.end))
        .collect();
    v.dedup();
    v
}

/// 1024 → 64 at 4 bits: 16 blocks · 9 taps · 4 bits = 576 words per output
/// block. Two parts would fit the RAM, but with weights in ±1 a part of 8
/// blocks reaches 512·9·15 = 69120 > 32767, so the split takes parts of 3
/// blocks (27·64·15 = 25920); every output equals the interpreter's.
#[test]
fn four_bit_conv_splits_exactly_and_the_sum_pools() {
    let g = conv_pool(1024, 1);
    let c = compile(&g, &opts(4, None)).unwrap_or_else(|e| panic!("{e}"));
    let ps = parts(&c);
    assert!(ps.len() > 2, "{ps:?}");
    assert!(
        ps.iter().all(|(a, b)| (b - a) % 64 == 0 || *b == 1024),
        "{ps:?}"
    );
    let pieces = &c.pieces()[0];
    let sum = pieces.last().expect("a sum");
    assert_eq!(
        sum.kind,
        PieceKind::Sum {
            parts: ps.len() as u32
        }
    );
    assert!(sum.layer.pool.is_some() && sum.layer.relu);
    assert!(pieces
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .all(|p| p.layer.pool.is_none() && !p.layer.relu && p.layer.quant_msb == Some(15)));
    assert!(c.table().rows.iter().all(|r| r.memory.weight_words <= 512));
    for seed in [1, 2] {
        let x = random_codes(1024 * 64, 4, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        let want = reference_codes(&g, &c, &x).expect("interp");
        assert_eq!(mvu, want);
        assert!(mvu.iter().filter(|&&v| v != 0).count() > 64);
    }
}

/// 512 → 64 at 8 bits (576 words per block), weights in ±127: one input
/// block reaches 64·9·127·255 > 2^15, so no exact split exists. With output
/// bits 22..15 the partials are windows dropping `s` bits: every output is
/// the unsplit layer's or one LSB below (after ReLU and the 2×2 pool), and
/// most are equal.
#[test]
fn eight_bit_conv_splits_with_windowed_partials_within_one_lsb() {
    let g = conv_pool(512, 127);
    let c = compile(&g, &opts(8, Some(22))).unwrap_or_else(|e| panic!("{e}"));
    let k = parts(&c).len() as u64;
    let pieces = &c.pieces()[0];
    let partial = pieces
        .iter()
        .find(|p| p.kind == PieceKind::Partial)
        .expect("partials");
    let s = partial.layer.quant_msb.expect("a window") - 15;
    assert!(s > 0 && k * ((1 << s) - 1) < 1 << 15, "k = {k}, s = {s}");
    let sum = pieces.last().expect("a sum");
    assert_eq!(sum.layer.quant_msb, Some(22 - s));
    let (mut equal, mut below, mut nonzero) = (0, 0, 0);
    for seed in [1, 2, 3] {
        let x = random_codes(512 * 64, 8, seed);
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
    assert!(equal >= 3 * below, "{equal} equal, {below} one below");
    assert!(nonzero > 3 * 64, "{nonzero} nonzero");
}

/// Conv `3 → 64`, `k×k` / 2, pad 3, + Relu + MaxPool 3×3/2 on 3×42×42.
fn stem(k: usize, m: i64) -> Graph {
    let o = (42 + 6 - k) / 2 + 1;
    let p = (o - 3) / 2 + 1;
    Graph {
        inputs: vec![vi("x", &[1, 3, 42, 42])],
        outputs: vec![vi("p", &[1, 64, p, p])],
        initializers: vec![("w".into(), weights(&[64, 3, k, k], m, 4))],
        nodes: vec![
            Node::new("stem", "Conv", &["x", "w"], &["y"])
                .with_attr("kernel_shape", Attr::Ints(vec![k as i64, k as i64]))
                .with_attr("strides", Attr::Ints(vec![2, 2]))
                .with_attr("pads", Attr::Ints(vec![3, 3, 3, 3])),
            Node::new("relu", "Relu", &["y"], &["r"]),
            Node::new("pool", "MaxPool", &["r"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
        ],
        ..Graph::default()
    }
}

/// The distinct kernel-row ranges of the partials.
fn kernel_rows(c: &onnc_mvu::Compiled) -> Vec<(u32, u32)> {
    let mut v: Vec<_> = c.pieces()[0]
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .map(|p| (p.kernel_rows.start, p.kernel_rows.end))
        .collect();
    v.dedup();
    v
}

/// A 13×13 stem at 4 bits: one input block with its 169 taps needs 676
/// weight words, so the split is over kernel rows (each part a conv with
/// fewer kernel rows over the input rows its taps reach, 52 words a row);
/// with ternary weights the partials fit 16 bits and the model equals the
/// interpreter exactly.
#[test]
fn a_kernel_too_large_for_one_input_block_splits_over_kernel_rows_exactly() {
    let g = stem(13, 1);
    let c = compile(&g, &opts(4, None)).unwrap_or_else(|e| panic!("{e}"));
    let rows = kernel_rows(&c);
    assert_eq!(rows.first().map(|r| r.0), Some(0));
    assert_eq!(rows.last().map(|r| r.1), Some(13));
    assert!(
        rows.len() >= 2 && rows.windows(2).all(|w| w[0].1 == w[1].0),
        "{rows:?}"
    );
    assert!(c.pieces()[0]
        .iter()
        .filter(|p| p.kind == PieceKind::Partial)
        .all(|p| p.layer.name.contains(".kr") && p.inputs == (0..3)));
    assert!(c.table().rows.iter().all(|r| r.memory.weight_words <= 512));
    for seed in [1, 2] {
        let x = random_codes(3 * 42 * 42, 4, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mvu, reference_codes(&g, &c, &x).expect("interp"));
        assert!(mvu.iter().filter(|&&v| v != 0).count() > 64);
    }
}

/// AlexNet's 11×11 stem at 8 bits (968 words per block, weights in ±127):
/// kernel-row partials cannot fit 16 bits, so with output bits 22..15 they
/// are windows; every output is within one LSB below the unsplit layer's.
#[test]
fn an_eight_bit_stem_splits_over_kernel_rows_with_windowed_partials() {
    let g = stem(11, 127);
    let c = compile(&g, &opts(8, Some(22))).unwrap_or_else(|e| panic!("{e}"));
    let rows = kernel_rows(&c);
    assert!(rows.len() >= 2, "{rows:?}");
    let s = c.pieces()[0]
        .iter()
        .find(|p| p.kind == PieceKind::Partial)
        .and_then(|p| p.layer.quant_msb)
        .expect("partials")
        - 15;
    assert!(s > 0);
    let (mut equal, mut below) = (0, 0);
    for seed in [1, 2, 3] {
        let x = random_codes(3 * 42 * 42, 8, seed);
        let mvu = simulate(&c, &x).unwrap_or_else(|e| panic!("{e}"));
        let whole = reference_codes(&g, &c, &x).expect("interp");
        for (a, b) in mvu.iter().zip(&whole) {
            if a == b {
                equal += 1;
            } else {
                assert_eq!((a + 1) % 256, *b, "split {a}, unsplit {b}");
                below += 1;
            }
        }
        assert!(whole.iter().filter(|&&v| v != 0).count() > 64);
    }
    eprintln!(
        "{} kernel-row parts, s = {s}: {equal} equal, {below} one below",
        rows.len()
    );
    assert!(equal >= 3 * below, "{equal} equal, {below} one below");
}

/// 512 → 64 with a 9×9 kernel at 8 bits: even one kernel row over the 8
/// input blocks needs 576 words; no split fits, and the refusal says so.
#[test]
fn a_kernel_row_beyond_the_weight_ram_is_refused() {
    let g = Graph {
        inputs: vec![vi("x", &[1, 512, 9, 9])],
        outputs: vec![vi("y", &[1, 64, 1, 1])],
        initializers: vec![("w".into(), weights(&[64, 512, 9, 9], 100, 4))],
        nodes: vec![Node::new("big", "Conv", &["x", "w"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![9, 9]))],
        ..Graph::default()
    };
    let Error::Problems(p) = compile(&g, &opts(8, Some(22))).unwrap_err() else {
        panic!("problems expected")
    };
    assert!(
        p[0].to_string().starts_with(
            "node 'big' (Conv): one 64-channel output block needs 5184 weight-RAM words \
             (iC·fH·fW·wprec), more than the 512, and even one kernel row over all input \
             channels needs 576 (iC·fW·wprec), so no split over input channels or kernel rows fits"
        ),
        "{}",
        p[0]
    );
}
