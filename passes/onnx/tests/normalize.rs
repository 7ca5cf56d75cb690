//! Opset normalization: each legacy form becomes the modern operand form,
//! defaults are materialized, and the modern form is left as it is.

mod common;

use common::*;
use onnc_onnx::onnc_tensor::{Attr, DType};
use onnc_onnx::{Model, Node};

fn only(m: &Model, op: &str) -> Node {
    let v: Vec<&Node> = m.graph.nodes.iter().filter(|n| n.op_type == op).collect();
    assert_eq!(v.len(), 1, "one {op} in {:?}", m.graph.nodes);
    v[0].clone()
}

fn init_f32(m: &Model, name: &str) -> Vec<f32> {
    m.graph
        .initializer(name)
        .unwrap_or_else(|| panic!("initializer {name}"))
        .as_f32()
        .unwrap()
        .to_vec()
}

fn init_i64(m: &Model, name: &str) -> Vec<i64> {
    m.graph
        .initializer(name)
        .unwrap_or_else(|| panic!("initializer {name}"))
        .as_i64()
        .unwrap()
        .to_vec()
}

#[test]
fn clip_attributes_become_inputs() {
    let n = node(
        "c",
        "Clip",
        &["x"],
        &["y"],
        vec![a_float("min", -1.0), a_float("max", 6.0)],
    );
    let m = decode_ok(&one_node(6, &[2, 3], vec![], n));
    let c = only(&m, "Clip");
    assert_eq!(
        c.inputs,
        vec![
            Some("x".into()),
            Some("c__min".into()),
            Some("c__max".into())
        ]
    );
    assert!(c.attrs.is_empty());
    assert_eq!(init_f32(&m, "c__min"), vec![-1.0]);
    assert_eq!(init_f32(&m, "c__max"), vec![6.0]);
    assert_eq!(
        m.graph.initializer("c__max").unwrap().shape(),
        &[] as &[usize]
    );

    // Only `max`: `min` is an absent input.
    let n = node("c", "Clip", &["x"], &["y"], vec![a_float("max", 6.0)]);
    let c = only(&decode_ok(&one_node(6, &[2], vec![], n)), "Clip");
    assert_eq!(
        c.inputs,
        vec![Some("x".into()), None, Some("c__max".into())]
    );

    // Opset 11: unchanged.
    let n = node("c", "Clip", &["x", "lo"], &["y"], vec![]);
    let m = decode_ok(&one_node(11, &[2], vec![tf32("lo", &[], &[0.0])], n));
    assert_eq!(
        only(&m, "Clip").inputs,
        vec![Some("x".into()), Some("lo".into())]
    );
}

#[test]
fn reshape_shape_attribute_becomes_input() {
    let n = node(
        "r",
        "Reshape",
        &["x"],
        &["y"],
        vec![a_ints("shape", &[0, -1])],
    );
    let m = decode_ok(&one_node(4, &[2, 3, 4], vec![], n));
    let r = only(&m, "Reshape");
    assert_eq!(r.input(1), Some("r__shape"));
    assert!(!r.attrs.contains_key("shape"));
    assert_eq!(r.attrs.get("allowzero"), Some(&Attr::Int(0)));
    assert_eq!(init_i64(&m, "r__shape"), vec![0, -1]);
    assert_eq!(y_shape(&m), vec![2, 12]);

    let n = node("r", "Reshape", &["x", "s"], &["y"], vec![]);
    let m = decode_ok(&one_node(
        13,
        &[2, 3, 4],
        vec![ti64("s", &[3], &[-1, 2, 2])],
        n,
    ));
    assert_eq!(y_shape(&m), vec![6, 2, 2]);
}

#[test]
fn squeeze_unsqueeze_axes_become_inputs() {
    let n = node(
        "u",
        "Unsqueeze",
        &["x"],
        &["y"],
        vec![a_ints("axes", &[0, 3])],
    );
    let m = decode_ok(&one_node(11, &[2, 3], vec![], n));
    assert_eq!(only(&m, "Unsqueeze").input(1), Some("u__axes"));
    assert_eq!(init_i64(&m, "u__axes"), vec![0, 3]);
    assert_eq!(y_shape(&m), vec![1, 2, 3, 1]);

    let n = node("s", "Squeeze", &["x"], &["y"], vec![a_ints("axes", &[-1])]);
    let m = decode_ok(&one_node(11, &[2, 3, 1], vec![], n));
    assert_eq!(only(&m, "Squeeze").input(1), Some("s__axes"));
    assert_eq!(y_shape(&m), vec![2, 3]);

    // No axes: squeeze every 1.
    let n = node("s", "Squeeze", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(13, &[1, 3, 1], vec![], n));
    assert_eq!(only(&m, "Squeeze").inputs.len(), 1);
    assert_eq!(y_shape(&m), vec![3]);

    // Opset 13 form is kept.
    let n = node("u", "Unsqueeze", &["x", "a"], &["y"], vec![]);
    let m = decode_ok(&one_node(13, &[2], vec![ti64("a", &[1], &[1])], n));
    assert_eq!(only(&m, "Unsqueeze").input(1), Some("a"));
    assert_eq!(y_shape(&m), vec![2, 1]);
}

#[test]
fn reduce_axes_become_inputs() {
    let n = node(
        "r",
        "ReduceMean",
        &["x"],
        &["y"],
        vec![a_ints("axes", &[2, 3])],
    );
    let m = decode_ok(&one_node(13, &[1, 8, 4, 4], vec![], n));
    let r = only(&m, "ReduceMean");
    assert_eq!(r.input(1), Some("r__axes"));
    assert_eq!(r.attrs.get("keepdims"), Some(&Attr::Int(1)));
    assert_eq!(y_shape(&m), vec![1, 8, 1, 1]);

    let n = node(
        "r",
        "ReduceSum",
        &["x"],
        &["y"],
        vec![a_ints("axes", &[1]), a_int("keepdims", 0)],
    );
    let m = decode_ok(&one_node(11, &[2, 3, 4], vec![], n));
    assert_eq!(init_i64(&m, "r__axes"), vec![1]);
    assert_eq!(y_shape(&m), vec![2, 4]);

    // No axes: reduce everything.
    let n = node("r", "ReduceSum", &["x"], &["y"], vec![a_int("keepdims", 0)]);
    assert_eq!(
        y_shape(&decode_ok(&one_node(13, &[2, 3], vec![], n))),
        Vec::<usize>::new()
    );
}

#[test]
fn split_attribute_becomes_input() {
    let m = model(
        11,
        vec![vi("x", F32, &[6, 2])],
        vec![vi_untyped("a"), vi_untyped("b")],
        vec![],
        vec![node(
            "s",
            "Split",
            &["x"],
            &["a", "b"],
            vec![a_ints("split", &[2, 4])],
        )],
    );
    let m = decode_ok(&m);
    assert_eq!(only(&m, "Split").input(1), Some("s__split"));
    assert_eq!(init_i64(&m, "s__split"), vec![2, 4]);
    let shapes: Vec<_> = m
        .graph
        .outputs
        .iter()
        .map(|o| o.type_info().static_shape().unwrap())
        .collect();
    assert_eq!(shapes, vec![vec![2, 2], vec![4, 2]]);

    // Opset 18 num_outputs, uneven.
    let m = model(
        18,
        vec![vi("x", F32, &[7])],
        vec![vi_untyped("a"), vi_untyped("b")],
        vec![],
        vec![node(
            "s",
            "Split",
            &["x"],
            &["a", "b"],
            vec![a_int("num_outputs", 2)],
        )],
    );
    let m = decode_ok(&m);
    let shapes: Vec<_> = m
        .graph
        .outputs
        .iter()
        .map(|o| o.type_info().static_shape().unwrap())
        .collect();
    assert_eq!(shapes, vec![vec![4], vec![3]]);
}

#[test]
fn pad_attributes_become_inputs() {
    let n = node(
        "p",
        "Pad",
        &["x"],
        &["y"],
        vec![a_ints("pads", &[0, 1, 0, 2]), a_float("value", 3.0)],
    );
    let m = decode_ok(&one_node(2, &[2, 3], vec![], n));
    let p = only(&m, "Pad");
    assert_eq!(
        p.inputs,
        vec![
            Some("x".into()),
            Some("p__pads".into()),
            Some("p__value".into())
        ]
    );
    assert_eq!(p.attrs.get("mode"), Some(&Attr::String("constant".into())));
    assert_eq!(init_f32(&m, "p__value"), vec![3.0]);
    assert_eq!(y_shape(&m), vec![2, 6]);

    // Opset 1 spells it `paddings`.
    let n = node(
        "p",
        "Pad",
        &["x"],
        &["y"],
        vec![a_ints("paddings", &[1, 1, 1, 1])],
    );
    assert_eq!(
        y_shape(&decode_ok(&one_node(1, &[2, 3], vec![], n))),
        vec![4, 5]
    );

    // Opset 18 with axes.
    let n = node("p", "Pad", &["x", "pads", "", "axes"], &["y"], vec![]);
    let inits = vec![ti64("pads", &[2], &[2, 3]), ti64("axes", &[1], &[1])];
    assert_eq!(
        y_shape(&decode_ok(&one_node(18, &[2, 3], inits, n))),
        vec![2, 8]
    );
}

#[test]
fn slice_attributes_become_inputs() {
    let n = node(
        "s",
        "Slice",
        &["x"],
        &["y"],
        vec![
            a_ints("starts", &[1, 0]),
            a_ints("ends", &[1000, -1]),
            a_ints("axes", &[0, 1]),
        ],
    );
    let m = decode_ok(&one_node(9, &[4, 5], vec![], n));
    let s = only(&m, "Slice");
    assert_eq!(s.inputs.len(), 4);
    assert_eq!(init_i64(&m, "s__ends"), vec![1000, -1]);
    assert_eq!(y_shape(&m), vec![3, 4]);

    // Opset 10+ with negative steps.
    let n = node("s", "Slice", &["x", "st", "en", "ax", "sp"], &["y"], vec![]);
    let inits = vec![
        ti64("st", &[1], &[-1]),
        ti64("en", &[1], &[-1000]),
        ti64("ax", &[1], &[1]),
        ti64("sp", &[1], &[-2]),
    ];
    assert_eq!(
        y_shape(&decode_ok(&one_node(13, &[4, 5], inits, n))),
        vec![4, 3]
    );
}

#[test]
fn upsample_becomes_resize() {
    let n = node(
        "u",
        "Upsample",
        &["x"],
        &["y"],
        vec![a_floats("scales", &[1.0, 1.0, 2.0, 2.0])],
    );
    let m = decode_ok(&one_node(7, &[1, 3, 4, 4], vec![], n));
    let r = only(&m, "Resize");
    assert_eq!(
        r.inputs,
        vec![Some("x".into()), None, Some("u__scales".into())]
    );
    assert_eq!(r.attrs.get("mode"), Some(&Attr::String("nearest".into())));
    assert_eq!(
        r.attrs.get("coordinate_transformation_mode"),
        Some(&Attr::String("asymmetric".into()))
    );
    assert_eq!(
        r.attrs.get("nearest_mode"),
        Some(&Attr::String("floor".into()))
    );
    assert_eq!(y_shape(&m), vec![1, 3, 8, 8]);

    // Opset 9: scales input; `bilinear` is `linear`.
    let n = node(
        "u",
        "Upsample",
        &["x", "sc"],
        &["y"],
        vec![a_str("mode", "bilinear")],
    );
    let m = decode_ok(&one_node(
        9,
        &[1, 3, 4, 4],
        vec![tf32("sc", &[4], &[1.0, 1.0, 1.5, 3.0])],
        n,
    ));
    let r = only(&m, "Resize");
    assert_eq!(r.attrs.get("mode"), Some(&Attr::String("linear".into())));
    assert_eq!(y_shape(&m), vec![1, 3, 6, 12]);

    // Resize-10 (X, scales) → (X, roi=absent, scales).
    let n = node("r", "Resize", &["x", "sc"], &["y"], vec![]);
    let m = decode_ok(&one_node(
        10,
        &[1, 1, 2, 2],
        vec![tf32("sc", &[4], &[1.0, 1.0, 2.0, 2.0])],
        n,
    ));
    assert_eq!(
        only(&m, "Resize").inputs,
        vec![Some("x".into()), None, Some("sc".into())]
    );

    // Resize-13 with sizes.
    let n = node("r", "Resize", &["x", "", "", "sz"], &["y"], vec![]);
    let m = decode_ok(&one_node(
        13,
        &[1, 1, 2, 2],
        vec![ti64("sz", &[4], &[1, 1, 5, 7])],
        n,
    ));
    assert_eq!(y_shape(&m), vec![1, 1, 5, 7]);
    assert_eq!(
        only(&m, "Resize")
            .attrs
            .get("coordinate_transformation_mode"),
        Some(&Attr::String("half_pixel".into()))
    );
}

#[test]
fn batch_norm_drops_legacy_attributes() {
    let n = node(
        "bn",
        "BatchNormalization",
        &["x", "s", "b", "m", "v"],
        &["y"],
        vec![
            a_int("spatial", 1),
            a_ints("consumed_inputs", &[0, 0, 0, 1, 1]),
            a_int("is_test", 1),
        ],
    );
    let inits = ["s", "b", "m", "v"]
        .iter()
        .map(|k| zeros(k, &[3]))
        .collect();
    let m = decode_ok(&one_node(6, &[1, 3, 2, 2], inits, n));
    let bn = only(&m, "BatchNormalization");
    assert_eq!(
        bn.attrs.keys().collect::<Vec<_>>(),
        vec!["epsilon", "momentum", "training_mode"]
    );
    assert_eq!(y_shape(&m), vec![1, 3, 2, 2]);
}

#[test]
fn dropout_ratio_becomes_input() {
    let m = model(
        10,
        vec![vi("x", F32, &[2, 2])],
        vec![vi_untyped("y"), vi_untyped("mask")],
        vec![],
        vec![node(
            "d",
            "Dropout",
            &["x"],
            &["y", "mask"],
            vec![a_float("ratio", 0.25)],
        )],
    );
    let m = decode_ok(&m);
    assert_eq!(only(&m, "Dropout").input(1), Some("d__ratio"));
    assert_eq!(init_f32(&m, "d__ratio"), vec![0.25]);
    assert_eq!(m.graph.outputs[1].dtype, DType::Bool);

    // Default ratio 0.5 is materialized as an input too.
    let n = node("d", "Dropout", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(7, &[2], vec![], n));
    assert_eq!(init_f32(&m, "d__ratio"), vec![0.5]);
}

#[test]
fn gemm_defaults_and_legacy_broadcast() {
    let n = node(
        "g",
        "Gemm",
        &["x", "w", "c"],
        &["y"],
        vec![a_int("broadcast", 1), a_int("transB", 1)],
    );
    let m = decode_ok(&one_node(
        6,
        &[2, 4],
        vec![zeros("w", &[5, 4]), zeros("c", &[5])],
        n,
    ));
    let g = only(&m, "Gemm");
    assert_eq!(
        g.attrs.keys().collect::<Vec<_>>(),
        vec!["alpha", "beta", "transA", "transB"]
    );
    assert_eq!(y_shape(&m), vec![2, 5]);
}

#[test]
fn legacy_broadcast_with_axis_inserts_unsqueeze() {
    // Opset 6: B [3] added to A [2,3,4,5] at axis 1 means B as [3,1,1].
    let n = node(
        "a",
        "Add",
        &["x", "b"],
        &["y"],
        vec![a_int("broadcast", 1), a_int("axis", 1)],
    );
    let m = decode_ok(&one_node(6, &[2, 3, 4, 5], vec![zeros("b", &[3])], n));
    let add = only(&m, "Add");
    assert!(add.attrs.is_empty());
    let un = only(&m, "Unsqueeze");
    assert_eq!(un.input(0), Some("b"));
    assert_eq!(add.input(1), Some(un.outputs[0].as_str()));
    assert_eq!(init_i64(&m, un.input(1).unwrap()), vec![1, 2]);
    assert_eq!(y_shape(&m), vec![2, 3, 4, 5]);
    assert!(
        m.graph.nodes.iter().position(|n| n.op_type == "Unsqueeze")
            < m.graph.nodes.iter().position(|n| n.op_type == "Add")
    );

    // Trailing alignment needs nothing.
    let n = node("a", "Mul", &["x", "b"], &["y"], vec![a_int("broadcast", 1)]);
    let m = decode_ok(&one_node(6, &[2, 3], vec![zeros("b", &[3])], n));
    assert_eq!(m.graph.nodes.len(), 1);
}

#[test]
fn prelu_per_channel_slope_is_reshaped_before_opset_7() {
    let n = node("p", "PRelu", &["x", "s"], &["y"], vec![]);
    let m = decode_ok(&one_node(6, &[1, 3, 4, 4], vec![zeros("s", &[3])], n));
    let un = only(&m, "Unsqueeze");
    assert_eq!(init_i64(&m, un.input(1).unwrap()), vec![1, 2]);
    assert_eq!(y_shape(&m), vec![1, 3, 4, 4]);
}

#[test]
fn softmax_before_13_is_made_single_axis() {
    // Trailing dims are 1: only the axis is made explicit.
    let n = node("s", "Softmax", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(11, &[1, 1000, 1, 1], vec![], n));
    assert_eq!(m.graph.nodes.len(), 1);
    assert_eq!(only(&m, "Softmax").attrs.get("axis"), Some(&Attr::Int(1)));

    // Otherwise: Shape, Flatten, Softmax(-1), Reshape.
    let n = node("s", "Softmax", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(11, &[2, 3, 4], vec![], n));
    let ops: Vec<&str> = m.graph.nodes.iter().map(|n| n.op_type.as_str()).collect();
    assert_eq!(ops, vec!["Shape", "Flatten", "Softmax", "Reshape"]);
    assert_eq!(only(&m, "Softmax").attrs.get("axis"), Some(&Attr::Int(-1)));
    assert_eq!(only(&m, "Flatten").attrs.get("axis"), Some(&Attr::Int(1)));
    assert_eq!(y_shape(&m), vec![2, 3, 4]);

    // Opset 13: default axis -1 materialized, nothing rewritten.
    let n = node("s", "LogSoftmax", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(13, &[2, 3, 4], vec![], n));
    assert_eq!(
        only(&m, "LogSoftmax").attrs.get("axis"),
        Some(&Attr::Int(-1))
    );
}

#[test]
fn cast_string_target_becomes_code() {
    let n = node("c", "Cast", &["x"], &["y"], vec![a_str("to", "INT64")]);
    let m = decode_ok(&one_node(5, &[2], vec![], n));
    assert_eq!(only(&m, "Cast").attrs.get("to"), Some(&Attr::Int(7)));
    assert_eq!(m.graph.outputs[0].dtype, DType::I64);
}

#[test]
fn constants_become_initializers() {
    let m = model(
        13,
        vec![vi("x", F32, &[3])],
        vec![vi_untyped("y"), vi_untyped("z")],
        vec![],
        vec![
            node(
                "k1",
                "Constant",
                &[],
                &["c1"],
                vec![a_tensor("value", tf32("", &[3], &[1.0, 2.0, 3.0]))],
            ),
            node(
                "k2",
                "Constant",
                &[],
                &["c2"],
                vec![a_float("value_float", 2.0)],
            ),
            node(
                "k3",
                "Constant",
                &[],
                &["c3"],
                vec![a_ints("value_ints", &[3])],
            ),
            node("add", "Add", &["x", "c1"], &["t"], vec![]),
            node("mul", "Mul", &["t", "c2"], &["y"], vec![]),
            node("r", "Reshape", &["t", "c3"], &["z"], vec![]),
        ],
    );
    let m = decode_ok(&m);
    assert!(m.graph.nodes.iter().all(|n| n.op_type != "Constant"));
    assert_eq!(init_f32(&m, "c1"), vec![1.0, 2.0, 3.0]);
    assert_eq!(init_f32(&m, "c2"), vec![2.0]);
    assert_eq!(init_i64(&m, "c3"), vec![3]);
    assert_eq!(y_shape(&m), vec![3]);
}

#[test]
fn conv_and_pool_defaults_are_materialized() {
    let n = node("c", "Conv", &["x", "w"], &["y"], vec![]);
    let m = decode_ok(&one_node(
        11,
        &[1, 3, 8, 8],
        vec![zeros("w", &[16, 3, 3, 3])],
        n,
    ));
    let c = only(&m, "Conv");
    assert_eq!(c.attrs.get("kernel_shape"), Some(&Attr::Ints(vec![3, 3])));
    assert_eq!(c.attrs.get("strides"), Some(&Attr::Ints(vec![1, 1])));
    assert_eq!(c.attrs.get("dilations"), Some(&Attr::Ints(vec![1, 1])));
    assert_eq!(c.attrs.get("pads"), Some(&Attr::Ints(vec![0, 0, 0, 0])));
    assert_eq!(c.attrs.get("group"), Some(&Attr::Int(1)));
    assert_eq!(
        c.attrs.get("auto_pad"),
        Some(&Attr::String("NOTSET".into()))
    );
    assert_eq!(y_shape(&m), vec![1, 16, 6, 6]);

    // SAME_UPPER resolves to explicit pads (extra at the end).
    let n = node(
        "c",
        "Conv",
        &["x", "w"],
        &["y"],
        vec![a_str("auto_pad", "SAME_UPPER"), a_ints("strides", &[2, 2])],
    );
    let m = decode_ok(&one_node(
        11,
        &[1, 3, 8, 8],
        vec![zeros("w", &[4, 3, 3, 3])],
        n,
    ));
    let c = only(&m, "Conv");
    assert_eq!(c.attrs.get("pads"), Some(&Attr::Ints(vec![0, 0, 1, 1])));
    assert_eq!(
        c.attrs.get("auto_pad"),
        Some(&Attr::String("NOTSET".into()))
    );
    assert_eq!(y_shape(&m), vec![1, 4, 4, 4]);

    let n = node(
        "p",
        "MaxPool",
        &["x"],
        &["y"],
        vec![a_ints("kernel_shape", &[2, 2])],
    );
    let m = decode_ok(&one_node(8, &[1, 3, 5, 5], vec![], n));
    let p = only(&m, "MaxPool");
    assert_eq!(p.attrs.get("ceil_mode"), Some(&Attr::Int(0)));
    assert_eq!(p.attrs.get("storage_order"), Some(&Attr::Int(0)));
    assert_eq!(y_shape(&m), vec![1, 3, 4, 4]);
}

#[test]
fn transpose_default_perm_is_materialized() {
    let n = node("t", "Transpose", &["x"], &["y"], vec![]);
    let m = decode_ok(&one_node(13, &[2, 3, 4], vec![], n));
    assert_eq!(
        only(&m, "Transpose").attrs.get("perm"),
        Some(&Attr::Ints(vec![2, 1, 0]))
    );
    assert_eq!(y_shape(&m), vec![4, 3, 2]);
}

#[test]
fn unknown_operators_are_kept_untouched() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node(
                "",
                "MyOp",
                &["x"],
                &["t"],
                vec![a_str("mode", "fast"), a_ints("k", &[1, 2])],
            ),
            {
                let mut n = node("", "Relu", &["t"], &["y"], vec![]);
                n.domain = "com.example".into();
                n
            },
        ],
    );
    let m = decode_ok(&m);
    let my = &m.graph.nodes[0];
    assert_eq!(my.name, "MyOp_0");
    assert_eq!(my.attrs.len(), 2);
    assert_eq!(my.attrs.get("mode"), Some(&Attr::String("fast".into())));
    assert_eq!(m.graph.nodes[1].domain, "com.example");
    assert_eq!(m.graph.nodes[1].name, "Relu_1");
}

#[test]
fn duplicate_node_names_are_made_unique() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node("n", "Relu", &["x"], &["t"], vec![]),
            node("n", "Relu", &["t"], &["y"], vec![]),
        ],
    );
    let names: Vec<String> = decode_ok(&m)
        .graph
        .nodes
        .iter()
        .map(|n| n.name.clone())
        .collect();
    assert_eq!(names, vec!["n", "n_1"]);
}

#[test]
fn nodes_are_sorted_topologically() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node("b", "Relu", &["t"], &["y"], vec![]),
            node("a", "Neg", &["x"], &["t"], vec![]),
        ],
    );
    let names: Vec<String> = decode_ok(&m)
        .graph
        .nodes
        .iter()
        .map(|n| n.name.clone())
        .collect();
    assert_eq!(names, vec!["a", "b"]);
}
