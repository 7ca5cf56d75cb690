//! Layer biases through the MVU's bias RAM: a Conv or Gemm with a nonzero
//! bias compiles, its bias-RAM image and CSRs are emitted, and the functional
//! model (which adds the bias in the scaler, `acc + c`) equals `onnc-interp`
//! on the reference graph (which adds the same integer `c`); split layers add
//! it in their first partial; calibration accepts biased layers.

mod common;
use common::{int_weights, vi, weights};
use onnc_mvu::frontend::{
    accumulator_bias, check_splits, compile, random_codes, reference_codes, simulate,
    CompileOptions, PieceKind,
};
use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, Tensor};

fn opts(bits: u32, msb: Option<u32>) -> CompileOptions {
    CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        quant_msb: msb,
        test_vectors: false,
        ..CompileOptions::default()
    }
}

/// `n` biases cycling through large positive and negative values.
fn bias(n: usize, scale: f32) -> Tensor {
    let v = (0..n)
        .map(|o| ((o * 37 % 23) as f32 - 11.0) * scale)
        .collect();
    Tensor::from_f32(vec![n], v).unwrap()
}

/// Conv 8 → 70 (3×3, pad 1, integer weights in ±7, so scale 1) with bias,
/// ReLU: two output blocks, so the bias address walks two words per pixel.
fn conv_net(b: Tensor) -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, 8, 6, 6])],
        outputs: vec![vi("r", &[1, 70, 6, 6])],
        initializers: vec![
            ("w".into(), int_weights(&[70, 8, 3, 3], 7, 1)),
            ("b".into(), b),
        ],
        nodes: vec![conv_with_bias(), Node::new("relu", "Relu", &["y"], &["r"])],
        ..Graph::default()
    }
}

/// `conv3x3` reading the bias `b` as its third input.
fn conv_with_bias() -> Node {
    let mut n = common::conv3x3("conv", "x", "w", "y", 1);
    n.inputs.push(Some("b".into()));
    n
}

fn model_equals_interpreter(g: &Graph, c: &onnc_mvu::Compiled, n: usize, bits: u32) -> Vec<i64> {
    let x = random_codes(n, bits, 3);
    let mvu = simulate(c, &x).unwrap_or_else(|e| panic!("{e}"));
    let reference = reference_codes(g, c, &x).expect("interpreter");
    assert_eq!(mvu, reference);
    mvu
}

#[test]
fn a_conv_bias_is_added_exactly_and_changes_the_output() {
    // Integer weights: one accumulator unit is one graph unit, c = B.
    let g = conv_net(bias(70, 40.0));
    let c = compile(&g, &opts(8, Some(12))).unwrap_or_else(|e| panic!("{e}"));
    let acc = accumulator_bias(&c.lowered()[0]).expect("a bias");
    assert_eq!(acc[0], -440);
    assert_eq!(acc[1], 40 * ((37 % 23) - 11));
    let with = model_equals_interpreter(&g, &c, 8 * 36, 8);
    // The same network without the bias gives other codes: the bias counts.
    let zero = conv_net(Tensor::from_f32(vec![70], vec![0.0; 70]).unwrap());
    let c0 = compile(&zero, &opts(8, Some(12))).unwrap();
    let without = model_equals_interpreter(&zero, &c0, 8 * 36, 8);
    let differ = with.iter().zip(&without).filter(|(a, b)| a != b).count();
    assert!(differ > with.len() / 4, "{differ} of {} differ", with.len());
}

#[test]
fn the_bias_image_and_csrs_are_emitted() {
    let g = conv_net(bias(70, 40.0));
    let c = compile(&g, &opts(8, Some(12))).unwrap();
    let text = file_text(&c, "w.bias.hex");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "two 64-channel blocks");
    let lane = |w: usize, i: usize| {
        let at = 2048 - (i + 1) * 32;
        u32::from_str_radix(&lines[w][at..at + 32], 2).unwrap() as i32
    };
    let acc = accumulator_bias(&c.lowered()[0]).unwrap();
    for (o, &v) in acc.iter().enumerate() {
        assert_eq!(i64::from(lane(o / 64, o % 64)), v);
    }
    assert_eq!(lane(1, 6), 0, "padding lanes are zero");
    let asm = file_text(&c, "mvu_program.s");
    for line in [
        "csrwi mvuusebias_mem, 1",
        "csrwi mvubbaseptr, 0",
        "csrwi mvublength_1, 1",
        "li t0, -1\n    csrw mvubjump_0, t0",
        "csrwi mvubjump_1, 1",
        "csrwi mvuscaler, 1",
    ] {
        assert!(asm.contains(line), "missing {line:?}");
    }
    assert!(
        !asm.contains("csrw mvublength_2"),
        "decoded into blength[1]"
    );
    assert!(
        !asm.contains("csrwi mvublength_2"),
        "decoded into blength[1]"
    );
    assert_eq!(c.table().rows[0].bias_base, Some(0));
    let header = file_text(&c, "mvu_config.h");
    assert!(header.contains("#define ONNC_MVU_LAYER_CONV_BIAS_BASE 0u"));
}

/// A float Gemm (scale `max|w| / 127`) with a bias, split over its inputs
/// at 8 bits with a calibrated window: the first partial adds the bias, the split is
/// within one LSB below the layer run whole, and calibration accepts the
/// biased layers.
#[test]
fn calibration_accepts_biased_layers_and_the_first_partial_adds_the_bias() {
    let (inp, out) = (8192usize, 96usize);
    let g = Graph {
        inputs: vec![vi("x", &[1, inp])],
        outputs: vec![vi("y", &[1, out])],
        initializers: vec![
            ("w".into(), weights(&[out, inp], 9)),
            ("b".into(), bias(out, 1000.0)),
        ],
        nodes: vec![
            Node::new("fc", "Gemm", &["x", "w", "b"], &["g"]).with_attr("transB", Attr::Int(1)),
            Node::new("relu", "Relu", &["g"], &["y"]),
        ],
        ..Graph::default()
    };
    let calib = vec![random_codes(inp, 8, 40)
        .into_iter()
        .map(|v| v as i64)
        .collect()];
    let o = CompileOptions {
        calibration: calib,
        ..opts(8, None)
    };
    let c = compile(&g, &o).unwrap_or_else(|e| panic!("{e}"));
    let l = &c.lowered()[0];
    let acc = accumulator_bias(l).expect("a bias");
    let scale = f64::from(l.weights.scales[0]);
    // Biases of up to 2^20 accumulator units: the calibrated window and the
    // sum's floored bias both matter.
    assert!(acc.iter().any(|&v| v.abs() > 1 << 20), "{acc:?}");
    for (o, &v) in acc.iter().enumerate() {
        let b = f64::from(bias(out, 1000.0).data().to_f64_vec()[o] as f32);
        assert!((v as f64 - b / scale).abs() <= 0.5, "{v} vs {}", b / scale);
    }
    let pieces = &c.pieces()[0];
    assert!(pieces.iter().any(|p| p.kind == PieceKind::Partial));
    // The first partial of each channel group adds the bias; the rest and
    // the sums do not.
    for p in pieces {
        let first = p.kind == PieceKind::Partial && p.inputs.start == 0;
        assert_eq!(p.layer.bias_base.is_some(), first, "{}", p.layer.name);
    }
    let s = pieces
        .iter()
        .find(|p| p.kind == PieceKind::Partial)
        .and_then(|p| p.layer.quant_msb)
        .expect("partials")
        - 15;
    assert!(s > 0, "a windowed split");
    let k = check_splits(&c, &random_codes(inp, 8, 2)).expect("model");
    eprintln!("s {s}: {k:?}");
    assert_eq!((k.len(), k[0].other), (1, 0));
    assert_eq!(k[0].equal + k[0].below, out);
    assert!(k[0].equal > k[0].below, "{k:?}");
}

/// The exact split (partials within 16 bits) adds the bias in its first partial and
/// equals the interpreter on the unsplit layer bit for bit.
#[test]
fn an_exact_split_with_a_bias_equals_the_interpreter() {
    let (inp, out) = (19200usize, 70usize);
    let g = Graph {
        inputs: vec![vi("x", &[1, inp])],
        outputs: vec![vi("y", &[1, out])],
        initializers: vec![
            ("w".into(), int_weights(&[out, inp], 1, 5)),
            ("b".into(), bias(out, 3.0)),
        ],
        nodes: vec![
            Node::new("fc", "Gemm", &["x", "w", "b"], &["y"]).with_attr("transB", Attr::Int(1))
        ],
        ..Graph::default()
    };
    let c = compile(&g, &opts(2, None)).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.pieces()[0].iter().any(|p| p.kind == PieceKind::Partial));
    model_equals_interpreter(&g, &c, inp, 2);
}

/// A pooled conv adds its bias before the pooler (bias, ReLU, max pool as in
/// the graph): one job per pooled pixel and block, each pointing
/// `mvubbaseptr` at its block's word.
#[test]
fn a_pooled_conv_with_a_bias_equals_the_interpreter() {
    let mut g = conv_net(bias(70, 40.0));
    g.nodes.push(
        Node::new("pool", "MaxPool", &["r"], &["p"])
            .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
            .with_attr("strides", Attr::Ints(vec![2, 2])),
    );
    g.outputs = vec![vi("p", &[1, 70, 3, 3])];
    let c = compile(&g, &opts(8, Some(12))).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.table().rows[0].pool.is_some());
    model_equals_interpreter(&g, &c, 8 * 36, 8);
    let asm = file_text(&c, "mvu_program.s");
    assert!(asm.contains("li t0, 2\n    sub t0, t0, s6\n    csrw mvubbaseptr, t0"));
    assert!(asm.contains("csrwi mvublength_1, 0"));
}

/// The text of the generated file `name` of `c` (panics naming a missing one).
fn file_text(c: &onnc_mvu::Compiled, name: &str) -> String {
    let f = c
        .files()
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no generated file '{name}'"));
    String::from_utf8(f.bytes.clone()).expect("generated text is UTF-8")
}
