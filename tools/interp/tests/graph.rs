//! The graph executor: values flow by name, initializers feed nodes,
//! intermediates shared by several nodes stay alive until their last use,
//! and failures name the node or value.

use onnc_interp::{run_graph, run_graph_observed, Error};
use onnc_onnx::{Graph, Node, ValueInfo};
use onnc_tensor::{Attr, Tensor};

fn vi(name: &str, dims: &[usize]) -> ValueInfo {
    ValueInfo::f32(name, dims)
}
fn f(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_f32(shape.to_vec(), v.to_vec()).unwrap()
}

/// y = relu(x + w); z = y * y + y (y read three times, and also an output).
fn graph() -> Graph {
    Graph {
        name: "g".into(),
        inputs: vec![vi("x", &[2])],
        outputs: vec![vi("z", &[2]), vi("y", &[2])],
        initializers: vec![("w".into(), f(&[2], &[1.0, -5.0]))],
        nodes: vec![
            Node::new("add", "Add", &["x", "w"], &["s"]),
            Node::new("relu", "Relu", &["s"], &["y"]),
            Node::new("sq", "Mul", &["y", "y"], &["y2"]),
            Node::new("sum", "Add", &["y2", "y"], &["z"]),
        ],
    }
}

#[test]
fn runs_a_small_graph_with_initializers_and_shared_values() {
    let out = run_graph(&graph(), &[("x".into(), f(&[2], &[1.0, 1.0]))]).unwrap();
    assert_eq!(out[0].0, "z");
    assert_eq!(out[0].1.as_f32().unwrap(), &[6.0, 0.0]);
    assert_eq!(out[1].1.as_f32().unwrap(), &[2.0, 0.0]);
}

#[test]
fn observer_sees_every_node_in_order() {
    let mut seen = Vec::new();
    run_graph_observed(
        &graph(),
        &[("x".into(), f(&[2], &[0.0, 0.0]))],
        &mut |n, outs| seen.push((n.name.clone(), outs.len())),
    )
    .unwrap();
    let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["add", "relu", "sq", "sum"]);
}

#[test]
fn feeding_errors_name_the_value() {
    let g = graph();
    assert!(matches!(run_graph(&g, &[]), Err(Error::MissingGraphInput(n)) if n == "x"));
    let e = run_graph(
        &g,
        &[
            ("x".into(), f(&[2], &[0.0; 2])),
            ("q".into(), f(&[1], &[0.0])),
        ],
    )
    .unwrap_err();
    assert!(matches!(&e, Error::UnknownGraphInput(n) if n == "q"), "{e}");
    let e = run_graph(&g, &[("x".into(), f(&[3], &[0.0; 3]))]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "graph input `x` is declared tensor<2xf32>, was fed tensor<3xf32>"
    );
}

#[test]
fn kernel_errors_name_the_node() {
    let mut g = graph();
    g.nodes[1] = Node::new("soft", "Softmax", &["s"], &["y"]).with_attr("axis", Attr::Int(3));
    let e = run_graph(&g, &[("x".into(), f(&[2], &[0.0; 2]))]).unwrap_err();
    assert!(
        matches!(&e, Error::Node { node, .. } if node == "soft"),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("node `soft`: Softmax: attribute `axis`"),
        "{e}"
    );
}

#[test]
fn other_domains_and_dangling_names_are_errors() {
    let mut g = graph();
    g.nodes[0].domain = "com.example".into();
    assert!(matches!(
        run_graph(&g, &[("x".into(), f(&[2], &[0.0; 2]))]),
        Err(Error::UnknownDomain { .. })
    ));
    let mut g = graph();
    g.nodes[1] = Node::new("relu", "Relu", &["nowhere"], &["y"]);
    let e = run_graph(&g, &[("x".into(), f(&[2], &[0.0; 2]))]).unwrap_err();
    assert!(
        matches!(&e, Error::UndefinedValue { value, .. } if value == "nowhere"),
        "{e}"
    );
}

#[test]
fn an_output_listed_twice_is_returned_twice() {
    let mut g = graph();
    g.outputs = vec![vi("z", &[2]), vi("z", &[2])];
    let out = run_graph(&g, &[("x".into(), f(&[2], &[1.0, 1.0]))]).unwrap();
    assert_eq!(out[0], out[1]);
}

/// FP16 storage: the input, the initializer and every node output are
/// rounded to FP16, the arithmetic inside a node is not. `x = 1 + 2⁻¹²` is
/// stored as 1, `w = 0.1` as 0.0999755859375, so `p = x·w` is that again;
/// `z = p + p` is exact in FP16. In f32, `z = 2·(x·0.1)`.
#[test]
fn fp16_storage_rounds_initializers_and_every_node_output() {
    let x_val = 1.0 + 2f32.powi(-12);
    let g = Graph {
        name: "g".into(),
        inputs: vec![vi("x", &[1])],
        outputs: vec![vi("z", &[1])],
        initializers: vec![("w".into(), f(&[1], &[0.1]))],
        nodes: vec![
            Node::new("mul", "Mul", &["x", "w"], &["p"]),
            Node::new("add", "Add", &["p", "p"], &["z"]),
        ],
    };
    let feed = [("x".into(), f(&[1], &[x_val]))];
    let exact = run_graph(&g, &feed).unwrap();
    let stored = onnc_interp::run_graph_fp16_storage(&g, &feed).unwrap();
    let w16 = half::f16::from_f32(0.1).to_f32();
    assert_eq!(w16, 0.099_975_586);
    assert_eq!(stored[0].1.as_f32().unwrap(), &[2.0 * w16]);
    assert_eq!(exact[0].1.as_f32().unwrap(), &[2.0 * (x_val * 0.1)]);
    assert_ne!(exact[0].1.as_f32().unwrap(), stored[0].1.as_f32().unwrap());
}

/// INT8 storage: a value with a scale is stored as `s · round(x / s)`,
/// saturated to [−128, 127]; one without keeps f32, and so do initializers.
/// `x = [0.26, −0.9, 5]` with scale 0.1 is stored as `[0.3, −0.9, 5]`;
/// `p = x · 0.5` has no scale and is kept exact; `z = p + 60` with scale
/// 0.25 saturates at 127 · 0.25.
#[test]
fn int8_storage_quantizes_the_values_with_a_scale() {
    let g = Graph {
        name: "g".into(),
        inputs: vec![vi("x", &[3])],
        outputs: vec![vi("p", &[3]), vi("z", &[3])],
        initializers: vec![
            ("w".into(), f(&[1], &[0.5])),
            ("c".into(), f(&[1], &[60.0])),
        ],
        nodes: vec![
            Node::new("mul", "Mul", &["x", "w"], &["p"]),
            Node::new("add", "Add", &["p", "c"], &["z"]),
        ],
    };
    let feed = [("x".into(), f(&[3], &[0.26, -0.9, 5.0]))];
    let scales: std::collections::HashMap<String, f32> =
        [("x".to_string(), 0.1f32), ("z".to_string(), 0.25f32)].into();
    let out = onnc_interp::run_graph_int8_storage(&g, &feed, &scales).unwrap();
    let x_q = [0.3f32, -0.9, 5.0].map(|v| (v / 0.1f32).round() * 0.1);
    let p: Vec<f32> = x_q.iter().map(|v| v * 0.5).collect();
    assert_eq!(out[0].1.as_f32().unwrap(), &p[..], "p has no scale: exact");
    // z = p + 60: 60.15 → 240.6 steps → 127 (saturated) · 0.25 = 31.75.
    assert_eq!(out[1].1.as_f32().unwrap(), &[31.75, 31.75, 31.75]);
    let exact = run_graph(&g, &feed).unwrap();
    assert_ne!(exact[1].1.as_f32().unwrap(), out[1].1.as_f32().unwrap());
    // Rounding half away from zero, at the negative end too.
    let neg = onnc_interp::run_graph_int8_storage(
        &g,
        &[("x".into(), f(&[3], &[-0.25, -100.0, 0.04]))],
        &[("x".to_string(), 0.1f32)].into(),
    )
    .unwrap();
    let want: Vec<f32> = [-3.0f32, -128.0, 0.0]
        .iter()
        .map(|q| q * 0.1 * 0.5)
        .collect();
    assert_eq!(neg[0].1.as_f32().unwrap(), &want[..]);
}

/// Non-float values pass through FP16 storage untouched.
#[test]
fn fp16_storage_leaves_integer_values_alone() {
    let g = Graph {
        name: "g".into(),
        inputs: vec![ValueInfo {
            name: "x".into(),
            dtype: onnc_tensor::DType::I64,
            dims: vec![onnc_onnx::Dim::Fixed(1)],
        }],
        outputs: vec![ValueInfo {
            name: "y".into(),
            dtype: onnc_tensor::DType::I64,
            dims: vec![onnc_onnx::Dim::Fixed(1)],
        }],
        initializers: vec![],
        nodes: vec![Node::new("n", "Neg", &["x"], &["y"])],
    };
    let big = 100_003i64;
    let feed = [("x".into(), Tensor::from_i64(vec![1], vec![big]).unwrap())];
    let out = onnc_interp::run_graph_fp16_storage(&g, &feed).unwrap();
    assert_eq!(out[0].1.as_i64().unwrap(), &[-big]);
}
