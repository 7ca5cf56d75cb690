//! Every legacy operator form, once normalized and exported, is valid ONNX at
//! the normalized opset: `onnx.checker.check_model(full_check=True)` accepts it.

mod common;

use common::*;

/// Every legacy form, once normalized and exported, is valid ONNX at the
/// normalized opset (`onnx.checker.check_model`, full check).
#[test]
fn normalized_legacy_forms_pass_the_onnx_checker() {
    use onnc_onnx::onnc_proto::prost::Message;
    let bn_inits = || {
        ["s", "b", "m", "v"]
            .iter()
            .map(|k| zeros(k, &[3]))
            .collect::<Vec<_>>()
    };
    let cases = vec![
        (
            "clip6",
            one_node(
                6,
                &[2, 3],
                vec![],
                node(
                    "c",
                    "Clip",
                    &["x"],
                    &["y"],
                    vec![a_float("min", -1.0), a_float("max", 6.0)],
                ),
            ),
        ),
        (
            "reshape4",
            one_node(
                4,
                &[2, 3, 4],
                vec![],
                node(
                    "r",
                    "Reshape",
                    &["x"],
                    &["y"],
                    vec![a_ints("shape", &[0, -1])],
                ),
            ),
        ),
        (
            "unsqueeze11",
            one_node(
                11,
                &[2, 3],
                vec![],
                node("u", "Unsqueeze", &["x"], &["y"], vec![a_ints("axes", &[0])]),
            ),
        ),
        (
            "squeeze11",
            one_node(
                11,
                &[2, 1],
                vec![],
                node("s", "Squeeze", &["x"], &["y"], vec![a_ints("axes", &[1])]),
            ),
        ),
        (
            "reducemean13",
            one_node(
                13,
                &[1, 8, 4, 4],
                vec![],
                node(
                    "r",
                    "ReduceMean",
                    &["x"],
                    &["y"],
                    vec![a_ints("axes", &[2, 3])],
                ),
            ),
        ),
        (
            "reducesum11",
            one_node(
                11,
                &[2, 3],
                vec![],
                node("r", "ReduceSum", &["x"], &["y"], vec![a_ints("axes", &[1])]),
            ),
        ),
        (
            "pad2",
            one_node(
                2,
                &[2, 3],
                vec![],
                node(
                    "p",
                    "Pad",
                    &["x"],
                    &["y"],
                    vec![a_ints("pads", &[0, 1, 0, 2])],
                ),
            ),
        ),
        (
            "slice9",
            one_node(
                9,
                &[4, 5],
                vec![],
                node(
                    "s",
                    "Slice",
                    &["x"],
                    &["y"],
                    vec![
                        a_ints("starts", &[1]),
                        a_ints("ends", &[3]),
                        a_ints("axes", &[1]),
                    ],
                ),
            ),
        ),
        (
            "upsample7",
            one_node(
                7,
                &[1, 3, 4, 4],
                vec![],
                node(
                    "u",
                    "Upsample",
                    &["x"],
                    &["y"],
                    vec![a_floats("scales", &[1.0, 1.0, 2.0, 2.0])],
                ),
            ),
        ),
        (
            "resize10",
            one_node(
                10,
                &[1, 1, 2, 2],
                vec![tf32("sc", &[4], &[1.0, 1.0, 2.0, 2.0])],
                node("r", "Resize", &["x", "sc"], &["y"], vec![]),
            ),
        ),
        (
            "bn6",
            one_node(
                6,
                &[1, 3, 2, 2],
                bn_inits(),
                node(
                    "bn",
                    "BatchNormalization",
                    &["x", "s", "b", "m", "v"],
                    &["y"],
                    vec![a_int("spatial", 1), a_int("is_test", 1)],
                ),
            ),
        ),
        (
            "dropout7",
            one_node(
                7,
                &[2, 2],
                vec![],
                node("d", "Dropout", &["x"], &["y"], vec![a_float("ratio", 0.25)]),
            ),
        ),
        (
            "gemm6",
            one_node(
                6,
                &[2, 4],
                vec![zeros("w", &[5, 4]), zeros("c", &[5])],
                node(
                    "g",
                    "Gemm",
                    &["x", "w", "c"],
                    &["y"],
                    vec![a_int("broadcast", 1), a_int("transB", 1)],
                ),
            ),
        ),
        (
            "add6",
            one_node(
                6,
                &[2, 3, 4, 5],
                vec![zeros("b", &[3])],
                node(
                    "a",
                    "Add",
                    &["x", "b"],
                    &["y"],
                    vec![a_int("broadcast", 1), a_int("axis", 1)],
                ),
            ),
        ),
        (
            "prelu6",
            one_node(
                6,
                &[1, 3, 4, 4],
                vec![zeros("s", &[3])],
                node("p", "PRelu", &["x", "s"], &["y"], vec![]),
            ),
        ),
        (
            "softmax11_rewrite",
            one_node(
                11,
                &[2, 3, 4],
                vec![],
                node("s", "Softmax", &["x"], &["y"], vec![]),
            ),
        ),
        (
            "softmax11_axis",
            one_node(
                11,
                &[1, 1000, 1, 1],
                vec![],
                node("s", "Softmax", &["x"], &["y"], vec![]),
            ),
        ),
        (
            "cast5",
            one_node(
                5,
                &[2],
                vec![],
                node("c", "Cast", &["x"], &["y"], vec![a_str("to", "INT64")]),
            ),
        ),
        (
            "maxpool8",
            one_node(
                8,
                &[1, 3, 5, 5],
                vec![],
                node(
                    "p",
                    "MaxPool",
                    &["x"],
                    &["y"],
                    vec![a_ints("kernel_shape", &[2, 2])],
                ),
            ),
        ),
        (
            "avgpool7",
            one_node(
                7,
                &[1, 3, 5, 5],
                vec![],
                node(
                    "p",
                    "AveragePool",
                    &["x"],
                    &["y"],
                    vec![
                        a_ints("kernel_shape", &[2, 2]),
                        a_str("auto_pad", "SAME_UPPER"),
                    ],
                ),
            ),
        ),
        (
            "conv1",
            one_node(
                1,
                &[1, 3, 8, 8],
                vec![zeros("w", &[4, 3, 3, 3])],
                node("c", "Conv", &["x", "w"], &["y"], vec![]),
            ),
        ),
        (
            "split11",
            model(
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
            ),
        ),
        (
            "split11_equal",
            model(
                11,
                vec![vi("x", F32, &[6, 2])],
                vec![vi_untyped("a"), vi_untyped("b")],
                vec![],
                vec![node("s", "Split", &["x"], &["a", "b"], vec![])],
            ),
        ),
        (
            "lrn1",
            one_node(
                1,
                &[1, 3, 4, 4],
                vec![],
                node("l", "LRN", &["x"], &["y"], vec![a_int("size", 3)]),
            ),
        ),
        (
            "transpose1",
            one_node(
                1,
                &[2, 3],
                vec![],
                node("t", "Transpose", &["x"], &["y"], vec![]),
            ),
        ),
    ];
    let dir = scratch("export_legacy");
    for (name, m) in &cases {
        let loaded = decode_ok(m);
        std::fs::write(
            dir.join(format!("{name}.onnx")),
            onnc_onnx::export(&loaded).encode_to_vec(),
        )
        .unwrap();
    }
    const SCRIPT: &str = r#"
import sys, os, onnx
bad = []
for name in sorted(os.listdir(sys.argv[1])):
    try:
        onnx.checker.check_model(onnx.load(os.path.join(sys.argv[1], name)), full_check=True)
    except Exception as e:
        bad.append(name + ": " + str(e).splitlines()[0])
print("\n".join(bad))
"#;
    let _ = light_dir(); // fails with the bootstrap hint when python/onnx is missing
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&dir)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(bad.is_empty(), "checker failures:\n{bad}");
}
