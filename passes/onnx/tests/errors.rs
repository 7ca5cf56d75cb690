//! Bad inputs: every case is an `Error` whose message names the file and,
//! where one is involved, the node. Nothing panics.

mod common;

use common::*;
use onnc_onnx::onnc_proto::onnx::{OperatorSetIdProto, StringStringEntryProto, TensorProto};
use onnc_onnx::onnc_proto::prost::Message;
use onnc_onnx::{load, Error, Options};
use std::path::PathBuf;

/// Writes the bytes to `<scratch>/<name>` and loads them; returns the error text.
fn load_err(dir: &str, name: &str, bytes: &[u8]) -> (Error, String, PathBuf) {
    let d = scratch(dir);
    let path = d.join(name);
    std::fs::write(&path, bytes).unwrap();
    let e = load(&path, &Options::default()).expect_err("must fail");
    let msg = e.to_string();
    assert!(
        msg.contains(&path.display().to_string()),
        "message names the file: {msg}"
    );
    (e, msg, path)
}

fn relu_model(opset: i64) -> onnc_onnx::onnc_proto::onnx::ModelProto {
    one_node(
        opset,
        &[2],
        vec![],
        node("act", "Relu", &["x"], &["y"], vec![]),
    )
}

#[test]
fn empty_file() {
    let (e, msg, _) = load_err("err_empty", "empty.onnx", b"");
    assert!(matches!(e.kind(), Error::Empty), "{msg}");
}

#[test]
fn missing_file() {
    let e = load("/nonexistent/dir/m.onnx", &Options::default()).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/dir/m.onnx"), "{e}");
}

#[test]
fn text_file() {
    let (e, msg, _) = load_err(
        "err_text",
        "model.onnx",
        b"ir_version: 7\ngraph {\n  node { op_type: \"Relu\" }\n}\n",
    );
    assert!(
        matches!(e.kind(), Error::Decode { .. }) && msg.contains("text"),
        "{msg}"
    );
}

#[test]
fn garbage_file() {
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let (e, msg, _) = load_err("err_garbage", "garbage.onnx", &bytes);
    assert!(
        matches!(
            e.kind(),
            Error::Decode { .. } | Error::IrVersion { .. } | Error::NoGraph
        ),
        "{msg}"
    );
}

#[test]
fn truncated_file() {
    let bytes = std::fs::read(light_nets()[0].clone()).unwrap();
    for cut in [1, 10, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        let (e, msg, _) = load_err("err_trunc", "cut.onnx", &bytes[..cut]);
        assert!(!matches!(e.kind(), Error::Io { .. }), "{msg}");
    }
}

#[test]
fn dangling_input_names_node() {
    let m = one_node(
        13,
        &[2],
        vec![],
        node("act", "Relu", &["nope"], &["y"], vec![]),
    );
    let (e, msg, _) = load_err("err_dangling", "m.onnx", &m.encode_to_vec());
    assert!(matches!(e.kind(), Error::Dangling { .. }), "{msg}");
    assert!(
        msg.contains("node 'act' (Relu)") && msg.contains("'nope'"),
        "{msg}"
    );
}

#[test]
fn dangling_graph_output() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("zzz", F32, &[2])],
        vec![],
        vec![node("act", "Relu", &["x"], &["y"], vec![])],
    );
    let (_, msg, _) = load_err("err_dangling_out", "m.onnx", &m.encode_to_vec());
    assert!(msg.contains("'zzz'"), "{msg}");
}

#[test]
fn cycle_names_nodes() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node("a", "Add", &["x", "c"], &["b"], vec![]),
            node("loop", "Relu", &["b"], &["c"], vec![]),
            node("out", "Relu", &["b"], &["y"], vec![]),
        ],
    );
    let (e, msg, _) = load_err("err_cycle", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::Cycle { .. })
            && msg.contains("\"loop\"")
            && msg.contains("\"a\""),
        "{msg}"
    );
}

#[test]
fn duplicate_outputs_name_both_definers() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![
            node("first", "Relu", &["x"], &["y"], vec![]),
            node("second", "Neg", &["x"], &["y"], vec![]),
        ],
    );
    let (e, msg, _) = load_err("err_dup", "m.onnx", &m.encode_to_vec());
    assert!(matches!(e.kind(), Error::DuplicateOutput { .. }), "{msg}");
    assert!(
        msg.contains("node 'first' (Relu)") && msg.contains("node 'second' (Neg)"),
        "{msg}"
    );
}

#[test]
fn short_raw_data() {
    let mut w = zeros("w", &[4, 3]);
    w.raw_data.truncate(40);
    let m = one_node(
        13,
        &[2, 4],
        vec![w],
        node("mm", "MatMul", &["x", "w"], &["y"], vec![]),
    );
    let (e, msg, _) = load_err("err_raw", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::Tensor { .. }) && msg.contains("'w'") && msg.contains("40 bytes"),
        "{msg}"
    );
}

#[test]
fn mis_sized_typed_data() {
    let w = tf32("w", &[2, 2], &[1.0, 2.0, 3.0]);
    let m = one_node(
        13,
        &[2, 2],
        vec![w],
        node("mm", "MatMul", &["x", "w"], &["y"], vec![]),
    );
    let (_, msg, _) = load_err("err_typed", "m.onnx", &m.encode_to_vec());
    assert!(msg.contains("'w'") && msg.contains("3 elements"), "{msg}");
    let neg = TensorProto {
        name: "w".into(),
        dims: vec![-2],
        data_type: 1,
        ..Default::default()
    };
    let m = one_node(
        13,
        &[2],
        vec![neg],
        node("mm", "Add", &["x", "w"], &["y"], vec![]),
    );
    let (_, msg, _) = load_err("err_typed", "neg.onnx", &m.encode_to_vec());
    assert!(msg.contains("negative dimension"), "{msg}");
}

#[test]
fn unsupported_element_type() {
    let s = TensorProto {
        name: "s".into(),
        dims: vec![1],
        data_type: 8,
        string_data: vec![b"a".to_vec()],
        ..Default::default()
    };
    let m = one_node(
        13,
        &[1],
        vec![s],
        node("n", "Identity", &["x"], &["y"], vec![]),
    );
    let (_, msg, _) = load_err("err_string", "m.onnx", &m.encode_to_vec());
    assert!(msg.contains("STRING"), "{msg}");
}

#[test]
fn attribute_of_the_wrong_kind_names_node_and_attribute() {
    let n = node(
        "conv7",
        "Conv",
        &["x", "w"],
        &["y"],
        vec![a_float("strides", 2.0)],
    );
    let m = one_node(11, &[1, 1, 4, 4], vec![zeros("w", &[1, 1, 3, 3])], n);
    let (e, msg, _) = load_err("err_attr", "m.onnx", &m.encode_to_vec());
    assert!(matches!(e.kind(), Error::AttrType { .. }), "{msg}");
    assert!(
        msg.contains("node 'conv7' (Conv)")
            && msg.contains("'strides'")
            && msg.contains("ints")
            && msg.contains("float"),
        "{msg}"
    );

    let n = node(
        "cat",
        "Concat",
        &["x", "x"],
        &["y"],
        vec![a_str("axis", "0")],
    );
    let (_, msg, _) = load_err(
        "err_attr",
        "c.onnx",
        &one_node(13, &[2], vec![], n).encode_to_vec(),
    );
    assert!(
        msg.contains("node 'cat' (Concat)") && msg.contains("'axis'"),
        "{msg}"
    );
}

#[test]
fn bad_attribute_values_name_node() {
    let n = node(
        "c",
        "Conv",
        &["x", "w"],
        &["y"],
        vec![a_ints("strides", &[1])],
    );
    let m = one_node(11, &[1, 1, 4, 4], vec![zeros("w", &[1, 1, 3, 3])], n);
    let (_, msg, _) = load_err("err_attrval", "m.onnx", &m.encode_to_vec());
    assert!(
        msg.contains("node 'c' (Conv)") && msg.contains("'strides'"),
        "{msg}"
    );
    let n = node("r", "Concat", &["x", "x"], &["y"], vec![]);
    let (e, msg, _) = load_err(
        "err_attrval",
        "n.onnx",
        &one_node(13, &[2], vec![], n).encode_to_vec(),
    );
    assert!(
        matches!(e.kind(), Error::MissingAttr { .. }) && msg.contains("node 'r'"),
        "{msg}"
    );
}

#[test]
fn shape_mismatch_names_node() {
    let n = node("mm", "MatMul", &["x", "w"], &["y"], vec![]);
    let m = one_node(13, &[2, 3], vec![zeros("w", &[4, 5])], n);
    let (e, msg, _) = load_err("err_shape", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::Infer { .. }) && msg.contains("node 'mm' (MatMul)"),
        "{msg}"
    );
}

#[test]
fn wrong_arity_names_node() {
    let n = node("g", "Gemm", &["x"], &["y"], vec![]);
    let (e, msg, _) = load_err(
        "err_arity",
        "m.onnx",
        &one_node(13, &[2, 2], vec![], n).encode_to_vec(),
    );
    assert!(
        matches!(e.kind(), Error::Arity { .. }) && msg.contains("node 'g' (Gemm)"),
        "{msg}"
    );
}

#[test]
fn graph_without_nodes() {
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("x", F32, &[2])],
        vec![],
        vec![],
    );
    let (e, msg, _) = load_err("err_nonodes", "m.onnx", &m.encode_to_vec());
    assert!(matches!(e.kind(), Error::NoNodes { .. }), "{msg}");
}

#[test]
fn opset_too_new_says_newest() {
    let (e, msg, _) = load_err("err_opset", "m.onnx", &relu_model(99).encode_to_vec());
    assert!(
        matches!(e.kind(), Error::OpsetTooNew { newest: 25, .. }),
        "{msg}"
    );
    assert!(msg.contains("99") && msg.contains("25"), "{msg}");
    // Other domains are not checked.
    let mut m = relu_model(13);
    m.opset_import.push(OperatorSetIdProto {
        domain: "com.microsoft".into(),
        version: 1000,
    });
    assert!(decode(&m).is_ok());
}

#[test]
fn op_outside_its_opset_range() {
    let n = node("u", "Upsample", &["x", "s"], &["y"], vec![]);
    let m = one_node(
        11,
        &[1, 1, 2, 2],
        vec![tf32("s", &[4], &[1.0, 1.0, 2.0, 2.0])],
        n,
    );
    let (e, msg, _) = load_err("err_opopset", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::OpOpset { .. }) && msg.contains("node 'u' (Upsample)"),
        "{msg}"
    );
}

#[test]
fn ir_version_policy() {
    // Older than 3: error.
    let mut m = relu_model(13);
    m.ir_version = 2;
    let (e, msg, _) = load_err("err_ir", "old.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::IrVersion { version: 2, .. }),
        "{msg}"
    );
    // Newer than 10: loads with a warning.
    m.ir_version = 11;
    let model = decode(&m).unwrap();
    assert!(
        model.warnings.iter().any(|w| w.contains("IR version 11")),
        "{:?}",
        model.warnings
    );
}

#[test]
fn no_graph() {
    let mut m = relu_model(13);
    m.graph = None;
    let (e, msg, _) = load_err("err_nograph", "m.onnx", &m.encode_to_vec());
    assert!(matches!(e.kind(), Error::NoGraph), "{msg}");
}

#[test]
fn input_without_shape_and_overrides() {
    let mut m = relu_model(13);
    m.graph.as_mut().unwrap().input[0] = vi_untyped("x");
    let (e, msg, _) = load_err("err_notype", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::ValueType { .. }) && msg.contains("'x'"),
        "{msg}"
    );

    // An override supplies a shape the file lacks (but not a missing element type).
    let opts = Options {
        input_shapes: vec![("x".into(), vec![4, 2])],
    };
    let e = onnc_onnx::decode(&m.encode_to_vec(), std::path::Path::new("."), &opts).unwrap_err();
    assert!(e.to_string().contains("no tensor type"), "{e}");
    let mut m2 = relu_model(13);
    if let Some(onnc_onnx::onnc_proto::onnx::type_proto::Value::TensorType(t)) =
        m2.graph.as_mut().unwrap().input[0]
            .r#type
            .as_mut()
            .unwrap()
            .value
            .as_mut()
    {
        t.shape = None;
    }
    assert!(decode(&m2).is_err());
    let model = onnc_onnx::decode(&m2.encode_to_vec(), std::path::Path::new("."), &opts).unwrap();
    assert_eq!(
        model.graph.outputs[0].type_info().static_shape(),
        Some(vec![4, 2])
    );

    let m = relu_model(13);
    let opts = Options {
        input_shapes: vec![("nope".into(), vec![1])],
    };
    let e = onnc_onnx::decode(&m.encode_to_vec(), std::path::Path::new("."), &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("<memory>") && e.contains("'nope'") && e.contains("x"),
        "{e}"
    );
    let opts = Options {
        input_shapes: vec![("x".into(), vec![1, 2])],
    };
    let e = onnc_onnx::decode(&m.encode_to_vec(), std::path::Path::new("."), &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rank"), "{e}");
}

#[test]
fn symbolic_dims_stay_symbolic_or_are_fixed_by_override() {
    let m = one_node(
        13,
        &[-1, 3],
        vec![],
        node("act", "Relu", &["x"], &["y"], vec![]),
    );
    let model = decode(&m).unwrap();
    assert_eq!(
        model.graph.inputs[0].dims[0],
        onnc_onnx::Dim::Param("N".into())
    );
    assert_eq!(
        model.graph.outputs[0].dims[0],
        onnc_onnx::Dim::Param("N".into())
    );
    let opts = Options {
        input_shapes: vec![("x".into(), vec![8, 3])],
    };
    let model = onnc_onnx::decode(&m.encode_to_vec(), std::path::Path::new("."), &opts).unwrap();
    assert_eq!(
        model.graph.outputs[0].type_info().static_shape(),
        Some(vec![8, 3])
    );
}

fn external(name: &str, location: &str, offset: Option<&str>, length: Option<&str>) -> TensorProto {
    let mut kv = vec![StringStringEntryProto {
        key: "location".into(),
        value: location.into(),
    }];
    if let Some(o) = offset {
        kv.push(StringStringEntryProto {
            key: "offset".into(),
            value: o.into(),
        });
    }
    if let Some(l) = length {
        kv.push(StringStringEntryProto {
            key: "length".into(),
            value: l.into(),
        });
    }
    TensorProto {
        name: name.into(),
        dims: vec![2],
        data_type: 1,
        external_data: kv,
        data_location: 1,
        ..Default::default()
    }
}

#[test]
fn external_data_is_read_relative_to_the_model() {
    let d = scratch("ext_ok");
    let mut blob = vec![0xAAu8; 4];
    blob.extend(1.5f32.to_le_bytes());
    blob.extend(2.5f32.to_le_bytes());
    std::fs::create_dir_all(d.join("weights")).unwrap();
    std::fs::write(d.join("weights/w.bin"), &blob).unwrap();
    let w = external("w", "weights/w.bin", Some("4"), Some("8"));
    let m = one_node(
        13,
        &[2],
        vec![w],
        node("a", "Add", &["x", "w"], &["y"], vec![]),
    );
    std::fs::write(d.join("m.onnx"), m.encode_to_vec()).unwrap();
    let model = load(d.join("m.onnx"), &Options::default()).unwrap();
    assert_eq!(
        model.graph.initializer("w").unwrap().as_f32().unwrap(),
        &[1.5, 2.5]
    );
}

#[test]
fn external_data_errors() {
    let d = scratch("ext_bad");
    std::fs::write(d.join("short.bin"), [0u8; 6]).unwrap();
    for (loc, off, len, want) in [
        ("../escape.bin", None, None, "escapes"),
        ("/etc/passwd", None, None, "escapes"),
        ("missing.bin", None, None, "cannot read external data"),
        ("short.bin", None, None, "6 bytes"),
        ("short.bin", Some("100"), None, "past the end"),
        ("short.bin", Some("0"), Some("99"), "past the end"),
        ("short.bin", Some("x"), None, "not a number"),
    ] {
        let w = external("w", loc, off, len);
        let m = one_node(
            13,
            &[2],
            vec![w],
            node("a", "Add", &["x", "w"], &["y"], vec![]),
        );
        let path = d.join("m.onnx");
        std::fs::write(&path, m.encode_to_vec()).unwrap();
        let msg = load(&path, &Options::default()).unwrap_err().to_string();
        assert!(
            msg.contains(want) && msg.contains("'w'") && msg.contains("m.onnx"),
            "{loc}: {msg}"
        );
    }
}

#[test]
fn symlink_escaping_the_model_dir_is_rejected() {
    let d = scratch("ext_symlink");
    let outside = scratch("ext_symlink_outside");
    std::fs::write(outside.join("secret.bin"), [0u8; 8]).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.bin"), d.join("link.bin")).unwrap();
    let m = one_node(
        13,
        &[2],
        vec![external("w", "link.bin", None, None)],
        node("a", "Add", &["x", "w"], &["y"], vec![]),
    );
    std::fs::write(d.join("m.onnx"), m.encode_to_vec()).unwrap();
    let msg = load(d.join("m.onnx"), &Options::default())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("escapes"), "{msg}");
}

#[test]
fn unrepresentable_attributes_are_dropped_with_a_warning() {
    use onnc_onnx::onnc_proto::onnx::{attribute_proto::AttributeType, AttributeProto, GraphProto};
    let g = AttributeProto {
        name: "body".into(),
        r#type: AttributeType::Graph as i32,
        g: Some(GraphProto::default()),
        ..Default::default()
    };
    let m = model(
        13,
        vec![vi("x", F32, &[2])],
        vec![vi("y", F32, &[2])],
        vec![],
        vec![node("lp", "MyLoop", &["x"], &["y"], vec![g])],
    );
    let model = decode(&m).unwrap();
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.contains("'lp'") && w.contains("'body'")),
        "{:?}",
        model.warnings
    );
}

#[test]
fn conv_rank_mismatch_with_auto_pad_is_an_error() {
    let n = node(
        "c",
        "Conv",
        &["x", "w"],
        &["y"],
        vec![a_str("auto_pad", "SAME_UPPER")],
    );
    let m = one_node(11, &[1, 3, 8], vec![zeros("w", &[4, 3, 3, 3])], n);
    let (e, msg, _) = load_err("err_convrank", "m.onnx", &m.encode_to_vec());
    assert!(
        matches!(e.kind(), Error::Infer { .. }) && msg.contains("node 'c' (Conv)"),
        "{msg}"
    );
}
