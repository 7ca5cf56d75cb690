//! Lowering 3-D token activations (`lower::tokens`): the cube
//! `[N, K, T, 1]`, MatMul by a constant as a 1×1 conv, per-feature biases,
//! LayerNorm's convolutions and lookup table, and the precise problems for
//! token tensors the hardware cannot hold (graph inputs and outputs read as
//! tokens, ops without a token mapping).
//!
//! In: graphs built here, lowered for nv_full without legalization (the
//! legality of the same ops is tested in onnc-legalize). Out: assertions on
//! the program's ops and tensor shapes, and on the problems' text.

use onnc_nvdla::lower::{engine_counts, lower, LowerOptions};
use onnc_nvdla::{ConfigName, Engine, Program};
use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::{Attr, DType, Tensor};

fn vi(name: &str, d: &[usize]) -> ValueInfo {
    ValueInfo {
        name: name.into(),
        dtype: DType::F32,
        dims: d.iter().map(|&x| Dim::Fixed(x)).collect(),
    }
}

fn t(shape: &[usize], v: f32) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f32(
        shape.to_vec(),
        (0..n).map(|i| v + i as f32 * 1e-3).collect(),
    )
    .unwrap()
}

fn transpose(name: &str, x: &str, y: &str) -> Node {
    Node::new(name, "Transpose", &[x], &[y]).with_attr("perm", Attr::Ints(vec![0, 2, 1]))
}

/// `x [1, K, T]` → tokens → `body` (reads "tok", writes "out") → `y [1, M, T]`.
fn wrapped(k: usize, m: usize, tt: usize, body: Vec<Node>, inits: Vec<(&str, Tensor)>) -> Graph {
    let mut nodes = vec![transpose("in", "x", "tok")];
    nodes.extend(body);
    nodes.push(transpose("back", "out", "y"));
    Graph {
        name: "tokens".into(),
        inputs: vec![vi("x", &[1, k, tt])],
        outputs: vec![vi("y", &[1, m, tt])],
        initializers: inits.into_iter().map(|(n, t)| (n.to_string(), t)).collect(),
        nodes,
    }
}

fn lowered(g: &Graph) -> Program {
    lower(g, ConfigName::NvFull, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn problems(g: &Graph) -> String {
    lower(g, ConfigName::NvFull, &LowerOptions::default())
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

fn shape_of(p: &Program, name: &str) -> Vec<usize> {
    p.tensors
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tensor {name}"))
        .shape
        .clone()
}

#[test]
fn matmul_by_a_constant_is_a_1x1_conv_with_the_bias_on_its_sdp() {
    let g = wrapped(
        16,
        24,
        5,
        vec![
            Node::new("fc", "MatMul", &["tok", "w"], &["h"]),
            Node::new("bias", "Add", &["h", "b"], &["out"]),
        ],
        vec![("w", t(&[16, 24], 0.1)), ("b", t(&[24], 0.5))],
    );
    let p = lowered(&g);
    let engines: Vec<Engine> = p.ops.iter().map(|o| o.engine).collect();
    assert_eq!(
        engines,
        [Engine::Reshape, Engine::Conv, Engine::Sdp, Engine::Reshape]
    );
    assert_eq!(
        shape_of(&p, "tok"),
        [1, 16, 5, 1],
        "K channels, T positions"
    );
    assert_eq!(shape_of(&p, "out"), [1, 24, 5, 1]);
    let conv = &p.ops[1];
    let w = conv.inputs[1].unwrap();
    assert_eq!(p.tensors[w].shape, [24, 16, 1, 1]);
    assert_eq!(p.ops[2].str("x1_op.mode"), Some("per_kernel"), "the bias");
    assert_eq!(p.ops[2].onnx_nodes, ["fc", "bias"]);
}

#[test]
fn a_full_size_constant_is_transposed_into_the_cube() {
    // A position embedding [1, T, K]: element (t, k) lands on channel k, position t.
    let g = wrapped(
        4,
        4,
        3,
        vec![Node::new("pos", "Add", &["tok", "e"], &["out"])],
        vec![("e", t(&[1, 3, 4], 0.0))],
    );
    let p = lowered(&g);
    let sdp = p.ops.iter().find(|o| o.engine == Engine::Sdp).unwrap();
    let operand = sdp.inputs.iter().skip(1).flatten().next().unwrap();
    assert_eq!(p.tensors[*operand].shape, [1, 4, 3, 1]);
}

#[test]
fn layer_norm_is_convolutions_sdp_products_and_the_rsqrt_table() {
    let g = wrapped(
        32,
        32,
        6,
        vec![
            Node::new("ln", "LayerNormalization", &["tok", "g", "b"], &["out"])
                .with_attr("epsilon", Attr::Float(1e-5)),
        ],
        vec![("g", t(&[32], 1.0)), ("b", t(&[32], 0.0))],
    );
    let p = lowered(&g);
    let counts = engine_counts(&p);
    assert_eq!(
        counts[&Engine::Conv],
        4,
        "mean, its broadcast, variance, 1/σ's broadcast"
    );
    let luts: Vec<&str> = p.ops.iter().filter_map(|o| o.str("lut_fn")).collect();
    assert_eq!(luts, ["rsqrt"]);
    assert!(p.ops.iter().all(|o| o
        .onnx_nodes
        .iter()
        .all(|n| n == "in" || n == "ln" || n == "back")));
}

#[test]
fn tokens_straight_from_a_graph_input_are_refused_with_the_fix() {
    let g = Graph {
        name: "tokens_in".into(),
        inputs: vec![vi("t", &[1, 8, 16])],
        outputs: vec![vi("y", &[1, 16, 8])],
        initializers: vec![("w".into(), t(&[16, 16], 0.0))],
        nodes: vec![
            Node::new("proj", "MatMul", &["t", "w"], &["h"]),
            transpose("back", "h", "y"),
        ],
    };
    let e = problems(&g);
    assert!(e.contains("node 'proj'") || e.contains("proj"), "{e}");
    assert!(
        e.contains("reads the graph input 't' [1, 8, 16] as tokens"),
        "{e}"
    );
    assert!(
        e.contains("feed the tokens as [N, K, T] and Transpose(x, [0, 2, 1])"),
        "{e}"
    );
}

#[test]
fn a_token_graph_output_is_refused() {
    let mut g = wrapped(
        8,
        8,
        4,
        vec![Node::new("fc", "MatMul", &["tok", "w"], &["out"])],
        vec![("w", t(&[8, 8], 0.0))],
    );
    g.nodes.pop();
    g.outputs = vec![vi("out", &[1, 4, 8])];
    let e = problems(&g);
    assert!(e.contains("writes the graph output 'out'"), "{e}");
}

#[test]
fn an_op_without_a_token_mapping_is_named() {
    let g = wrapped(
        8,
        8,
        4,
        vec![
            Node::new("fc", "MatMul", &["tok", "w"], &["h"]),
            Node::new("sm", "Softmax", &["h"], &["out"]).with_attr("axis", Attr::Int(-1)),
        ],
        vec![("w", t(&[8, 8], 0.0))],
    );
    let e = problems(&g);
    assert!(e.contains("sm"), "{e}");
    assert!(e.contains("reads or writes the token tensor 'h'"), "{e}");
}

/// In INT8 (nv_large, whose INT8 table is not built, and nv_small, which
/// has none) the layer norm's `(v + ε)^−½` is one EMU power op with ε as
/// its shift, on the `[1, 1, T, 1]` variance map, and no Newton steps.
#[test]
fn layer_norm_in_int8_takes_its_rsqrt_from_the_emu() {
    let g = wrapped(
        16,
        16,
        4,
        vec![
            Node::new("ln", "LayerNormalization", &["tok", "g"], &["out"])
                .with_attr("epsilon", Attr::Float(1e-3)),
        ],
        vec![("g", t(&[16], 1.0))],
    );
    for config in [ConfigName::NvLarge, ConfigName::NvSmall] {
        let p = lower(&g, config, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let emu: Vec<_> = p.ops.iter().filter(|o| o.engine == Engine::Emu).collect();
        assert_eq!(emu.len(), 1, "{config:?}");
        let e = emu[0];
        assert_eq!(e.str("op_type"), Some("power"));
        assert_eq!(e.float("power"), Some(-0.5));
        assert_eq!(e.float("shift"), Some(f64::from(1e-3f32)));
        assert_eq!(p.tensors[e.inputs[0].unwrap()].shape, [1, 1, 4, 1]);
        assert_eq!(p.tensors[e.output].name, "ln#rsqrt");
        assert!(
            p.ops.iter().all(|o| o.str("lut_fn").is_none()),
            "{config:?}"
        );
        assert!(
            !p.tensors.iter().any(|t| t.name.contains("#n1_")),
            "no Newton step in INT8"
        );
    }
}

/// `x [1, 8, 4, 6]` → Reshape `[1, 8, 24]` → tokens → LayerNorm → back →
/// Reshape `back` → `y`: the channel layer norm as legalization writes it.
fn channel_layer_norm(back: &[usize]) -> Graph {
    let shape = |d: &[usize]| {
        Tensor::from_i64(vec![d.len()], d.iter().map(|&v| v as i64).collect()).unwrap()
    };
    Graph {
        name: "channel_ln".into(),
        inputs: vec![vi("x", &[1, 8, 4, 6])],
        outputs: vec![vi("y", back)],
        initializers: vec![
            ("flat".into(), shape(&[1, 8, 24])),
            ("map".into(), shape(back)),
            ("g".into(), t(&[8], 1.0)),
            ("b".into(), t(&[8], 0.0)),
        ],
        nodes: vec![
            Node::new("relu", "Relu", &["x"], &["r"]),
            Node::new("flatten", "Reshape", &["r", "flat"], &["f"]),
            transpose("in", "f", "tok"),
            Node::new("ln", "LayerNormalization", &["tok", "g", "b"], &["out"])
                .with_attr("epsilon", Attr::Float(1e-6)),
            transpose("back", "out", "o"),
            Node::new("unflatten", "Reshape", &["o", "map"], &["u"]),
            Node::new("relu2", "Relu", &["u"], &["y"]),
        ],
    }
}

#[test]
fn a_channel_layer_norm_on_a_feature_map_keeps_its_grid_and_both_reshapes_are_views() {
    let p = lowered(&channel_layer_norm(&[1, 8, 4, 6]));
    assert_eq!(shape_of(&p, "tok"), [1, 8, 4, 6]);
    assert_eq!(shape_of(&p, "out"), [1, 8, 4, 6]);
    assert_eq!(engine_counts(&p)[&Engine::Conv], 4);
    let luts: Vec<&str> = p.ops.iter().filter_map(|o| o.str("lut_fn")).collect();
    assert_eq!(luts, ["rsqrt"]);
}

#[test]
fn a_reshape_back_onto_another_grid_is_refused_as_a_layout_change() {
    let e = problems(&channel_layer_norm(&[1, 8, 6, 4]));
    assert!(
        e.contains("'unflatten'") && e.contains("changes the feature layout"),
        "{e}"
    );
}
