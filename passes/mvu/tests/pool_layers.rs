//! `MaxPool`s that do not ride in a convolution's output pipeline run as
//! pooling layers of their own (an identity 1×1 conv with the pooler,
//! `frontend/pool_layer.rs`): SqueezeNet's pooling of a fire `Concat` with
//! `ceil_mode`, GoogLeNet's inception pool branch (a 3×3/1 pooling of an
//! activation other branches read too) and its pooling of a block's
//! `Concat`. Each network is compiled at 2, 4 and 8 bits and the model of
//! its MVU jobs compared with `onnc-interp` on the same integer network;
//! the layers' shapes, deterministic bytes and the refusal that remains.

mod common;
use common::net::{matches_interpreter, Net};
use common::{opts, problems, weights};

use onnc_mvu::frontend::{compile, CompileOptions, Compiled};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// Appends `MaxPool` `name` (k×k, stride `s`, pads `p` on every side,
/// `ceil_mode` when `ceil`) of `x`; returns its output.
fn max_pool(n: &mut Net, name: &str, x: &str, k: i64, s: i64, p: i64, ceil: bool) -> String {
    let y = format!("{name}.out");
    n.g.nodes.push(
        Node::new(name, "MaxPool", &[x], &[&y])
            .with_attr("kernel_shape", Attr::Ints(vec![k, k]))
            .with_attr("strides", Attr::Ints(vec![s, s]))
            .with_attr("pads", Attr::Ints(vec![p; 4]))
            .with_attr("ceil_mode", Attr::Int(ceil.into())),
    );
    y
}

/// SqueezeNet's `features.3 .. 6`: a fire module (32 + 32 channels) whose
/// `Concat` is max-pooled 3×3/2 with `ceil_mode` (6×6 → 3×3: the last
/// window hangs one row and column over the map), then a 1×1 conv.
fn squeeze_pool() -> Graph {
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let sq = n.conv("squeeze", &stem, 16, 8, 1, true);
    let e1 = n.conv("expand1x1", &sq, 8, 32, 1, true);
    let e3 = n.conv("expand3x3", &sq, 8, 32, 3, true);
    let cat = n.concat("fire_concat", &[&e1, &e3]);
    let p = max_pool(&mut n, "pool", &cat, 3, 2, 0, true);
    let y = n.conv("classifier", &p, 64, 10, 1, true);
    n.output(&y, &[1, 10, 3, 3])
}

/// GoogLeNet's stem pooling and inception block: conv → MaxPool 2×2/2
/// (folds into the conv), then branches 1×1 ‖ 1×1 → 3×3 ‖ MaxPool 3×3/1
/// pad 1 → 1×1 (the pooling reads the block input the other branches read),
/// a `Concat` of 16 + 24 + 8 channels, its MaxPool 2×2/2, a
/// GlobalAveragePool and a Gemm.
fn inception_pool() -> Graph {
    let mut n = Net::new(&[1, 8, 8, 8]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let block_in = max_pool(&mut n, "stem_pool", &stem, 2, 2, 0, false);
    let a = n.conv("b1_1x1", &block_in, 16, 16, 1, true);
    let b0 = n.conv("b2_reduce", &block_in, 16, 8, 1, true);
    let b = n.conv("b2_3x3", &b0, 8, 24, 3, true);
    let p = max_pool(&mut n, "b4_pool", &block_in, 3, 1, 1, true);
    let c = n.conv("b4_proj", &p, 16, 8, 1, true);
    let cat = n.concat("inception_concat", &[&a, &b, &c]);
    let q = max_pool(&mut n, "block_pool", &cat, 2, 2, 0, true);
    n.g.nodes
        .push(Node::new("gap", "GlobalAveragePool", &[&q], &["gap.out"]));
    n.g.nodes
        .push(Node::new("flatten", "Flatten", &["gap.out"], &["flat"]));
    n.salt += 1;
    n.g.initializers
        .push(("fc.weight".into(), weights(&[10, 48], n.salt)));
    n.g.nodes.push(
        Node::new("fc", "Gemm", &["flat", "fc.weight"], &["logits"])
            .with_attr("transB", Attr::Int(1)),
    );
    n.output("logits", &[1, 10])
}

/// The lowered layer named `name` of `c`.
fn layer<'a>(c: &'a Compiled, name: &str) -> &'a onnc_mvu::frontend::Lowered {
    c.lowered()
        .iter()
        .find(|l| l.node == name)
        .unwrap_or_else(|| panic!("no layer '{name}'"))
}

#[test]
fn a_pooled_fire_concat_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("squeeze_pool", &squeeze_pool(), bits, 4);
        let pool = layer(&c, "pool");
        assert_eq!(pool.op, "MaxPool");
        let onnc_mvu::LayerOp::Conv(cv) = pool.layer.op else {
            panic!("a pooling layer is a conv");
        };
        // It reads the Concat's 96 stored channels (32 | gap | 32); the
        // ceil_mode window hanging over the 6x6 map is a zero pad of the
        // identity conv.
        assert_eq!(
            (cv.in_channels, cv.kernel, cv.pads),
            (96, [1, 1], [0, 0, 1, 1])
        );
        let p = pool.layer.pool.unwrap();
        assert_eq!(
            (p.kernel, p.strides, p.pads, p.ceil_mode),
            ([3, 3], [2, 2], [0; 4], false)
        );
        // Identity weights (output o takes stored channel o, or o + 32 in
        // the second part), 1 bit, unsigned; the quantizer copies the codes.
        assert_eq!(pool.layer.precision.weight, 1);
        let w = &pool.weights.values;
        let source = |o: usize| if o < 32 { o } else { o + 32 };
        assert!((0..64).all(|o| (0..96).all(|i| w[o * 96 + i] == i32::from(i == source(o)))));
        // One job per pooled pixel and 64-channel block.
        let row = c.table().rows.iter().find(|r| r.name == "pool").unwrap();
        assert_eq!(
            row.quant_word(),
            bits - 1,
            "the quantizer keeps bits oprec-1..0"
        );
        assert_eq!(row.jobs, 3 * 3);
    }
}

#[test]
fn inception_pool_branch_and_block_pooling_match_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("inception_pool", &inception_pool(), bits, 5);
        // The stem's pooling folds into its conv (sole reader, whole windows).
        assert!(layer(&c, "stem").layer.pool.is_some());
        assert!(c.lowered().iter().all(|l| l.node != "stem_pool"));
        // The pool branch is a layer reading the block input, as b1 and b2 do.
        let f = c.flow();
        let at = |n: &str| c.lowered().iter().position(|l| l.node == n).unwrap();
        assert_eq!(f.layers[at("b4_pool")].input, f.layers[at("b1_1x1")].input);
        let onnc_mvu::LayerOp::Conv(cv) = layer(&c, "b4_pool").layer.op else {
            panic!("a pooling layer is a conv");
        };
        assert_eq!((cv.in_channels, cv.pads), (16, [1, 1, 1, 1]));
        // The block's pooling reads the Concat's 136 stored channels
        // (16 | 24 | 8 in words 0, 1, 2) and outputs the 48 real ones.
        let bp = layer(&c, "block_pool");
        assert_eq!((bp.layer.in_channels(), bp.layer.out_channels()), (136, 48));
        assert_eq!(
            f.layers[at("block_pool")].input_map.as_ref().map(Vec::len),
            Some(48)
        );
    }
}

#[test]
fn pooling_layers_compile_to_the_same_bytes_twice() {
    for g in [squeeze_pool(), inception_pool()] {
        let o = CompileOptions {
            test_vectors: true,
            ..opts(4)
        };
        let a = compile(&g, &o).unwrap();
        let b = compile(&g, &o).unwrap();
        assert_eq!(a.files(), b.files());
        assert!(a
            .files()
            .iter()
            .any(|f| f.name.contains("pool.identity") && f.name.ends_with(".hex")));
    }
}

#[test]
fn a_pooling_layer_of_values_without_relu_is_refused() {
    // 'left' has no ReLU and two readers: its pooling cannot fold, and a
    // pooling layer's pooler starts from 0.
    let mut n = Net::new(&[1, 8, 6, 6]);
    let stem = n.conv("stem", "x", 8, 16, 3, true);
    let a = n.conv("left", &stem, 16, 8, 1, false);
    let p = max_pool(&mut n, "pool", &a, 2, 2, 0, false);
    let b = n.conv("right", &a, 8, 8, 3, true);
    let q = max_pool(&mut n, "pool_r", &b, 2, 2, 0, false);
    let cat = n.concat("cat", &[&p, &q]);
    let g = n.output(&cat, &[1, 16, 3, 3]);
    let e = problems(compile(&g, &opts(2)).unwrap_err());
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with(
            "node 'pool' (MaxPool): pools 'left.out', written by 'left', which has no ReLU"
        ),
        "{e:?}"
    );
}

#[test]
fn a_13x13_global_average_pool_sums_exactly_like_the_interpreter() {
    // SqueezeNet's tail: a 13x13 map of 1000 channels summed (split over
    // input channels). The reference multiplies the f32 mean back by 169,
    // which can miss the integer sum by an ulp; it rounds before the
    // quantizer, as the MVU's sum is an integer.
    let mut n = Net::new(&[1, 64, 13, 13]);
    let y = n.conv("cls", "x", 64, 1000, 1, true);
    n.g.nodes
        .push(Node::new("gap", "GlobalAveragePool", &[&y], &["g"]));
    let g = n.output("g", &[1, 1000, 1, 1]);
    matches_interpreter("squeezenet_tail", &g, 2, 1);
}
