//! Target annotations (`onnc.*` attributes, e.g. `onnc.device = "cpu"` from
//! legalization) are exported as node `metadata_props`, never as ONNX
//! attributes: the model passes `onnx.checker` (full check) and runs in
//! onnxruntime, and loading it gives the annotation back.

mod common;

use common::*;
use onnc_onnx::onnc_proto::prost::Message;
use onnc_tensor::Attr;

fn annotated() -> onnc_onnx::Model {
    let m = one_node(
        13,
        &[2, 3],
        vec![],
        node("sm", "Softmax", &["x"], &["y"], vec![a_int("axis", 1)]),
    );
    let mut loaded = decode_ok(&m);
    loaded.graph.nodes[0]
        .attrs
        .insert("onnc.device".into(), Attr::String("cpu".into()));
    loaded
}

#[test]
fn annotations_are_node_metadata_and_load_back() {
    let loaded = annotated();
    let p = onnc_onnx::export(&loaded);
    let n = &p.graph.as_ref().unwrap().node[0];
    assert!(n.attribute.iter().all(|a| a.name == "axis"), "{n:?}");
    assert_eq!(n.metadata_props.len(), 1);
    assert_eq!(
        (
            n.metadata_props[0].key.as_str(),
            n.metadata_props[0].value.as_str()
        ),
        ("onnc.device", "cpu")
    );
    assert_eq!(p.ir_version, onnc_onnx::NODE_METADATA_IR_VERSION);
    // without annotations the IR version stays what it was
    let plain = decode_ok(&one_node(
        13,
        &[2, 3],
        vec![],
        node("sm", "Softmax", &["x"], &["y"], vec![]),
    ));
    assert_eq!(
        onnc_onnx::export(&plain).ir_version,
        onnc_onnx::MIN_EXPORT_IR_VERSION
    );
    // loading the exported model gives the annotation back as the attribute
    let again = decode_ok(&p);
    assert_eq!(
        again.graph.nodes[0].attrs.get("onnc.device"),
        Some(&Attr::String("cpu".into()))
    );
    assert_eq!(onnc_onnx::export(&again), p);
}

#[test]
fn an_annotated_model_passes_the_checker_and_runs_in_onnxruntime() {
    let dir = scratch("annotations");
    let path = dir.join("annotated.onnx");
    std::fs::write(&path, onnc_onnx::export(&annotated()).encode_to_vec()).unwrap();
    const SCRIPT: &str = r#"
import sys, numpy as np, onnx, onnxruntime as ort
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m, full_check=True)
print("metadata", [(p.key, p.value) for p in m.graph.node[0].metadata_props])
y = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"]).run(None, {"x": np.zeros((2, 3), np.float32)})[0]
print("ort", y.shape, float(y.sum()))
"#;
    let _ = light_dir(); // fails with the bootstrap hint when python/onnx is missing
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&path)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("metadata [('onnc.device', 'cpu')]"),
        "{stdout}"
    );
    // softmax of zeros over 3 classes: every row sums to 1
    assert!(stdout.contains("ort (2, 3) 2.0"), "{stdout}");
}
