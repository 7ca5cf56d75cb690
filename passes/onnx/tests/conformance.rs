//! The ONNX backend test models shipped with the `onnx` Python package
//! (`backend/test/data/{node,pytorch-converted,pytorch-operator,simple}`):
//! every model whose operators are all in the registry loads, and the
//! inferred type of each graph output equals the reference `output_<k>.pb`.
//! Rejections that are documented behaviour (opset newer than 22, string /
//! sequence / optional types) are counted, not failed. Every other model must
//! load too (unknown operators are kept), or fail with such a documented error.

mod common;

use onnc_onnx::{infer_graph, read_tensor_pb, Options};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = common::light_dir().parent().unwrap().to_path_buf();
    let mut v = Vec::new();
    for suite in ["node", "pytorch-converted", "pytorch-operator", "simple"] {
        let Ok(rd) = std::fs::read_dir(root.join(suite)) else {
            continue;
        };
        for e in rd.flatten() {
            if e.path().join("model.onnx").is_file() {
                v.push(e.path());
            }
        }
    }
    v.sort();
    v
}

fn all_ops_known(dir: &Path) -> bool {
    use onnc_onnx::onnc_proto::{onnx::ModelProto, prost::Message};
    let Ok(bytes) = std::fs::read(dir.join("model.onnx")) else {
        return false;
    };
    let Ok(m) = ModelProto::decode(&bytes[..]) else {
        return false;
    };
    let opset = m
        .opset_import
        .iter()
        .find(|o| o.domain.is_empty() || o.domain == "ai.onnx")
        .map_or(1, |o| o.version);
    m.graph.is_some_and(|g| {
        !g.node.is_empty()
            && g.node.iter().all(|n| {
                onnc_onnx::lookup(&n.op_type, &n.domain, opset).is_some() || n.op_type == "Constant"
            })
    })
}

/// Errors that are the documented behaviour for features we do not support.
fn expected_rejection(e: &onnc_onnx::Error) -> bool {
    use onnc_onnx::Error as E;
    match e.kind() {
        E::OpsetTooNew { .. } => true,
        E::ValueType { reason, .. } | E::Tensor { reason, .. } => {
            reason.contains("not supported") || reason.contains("only tensor types")
        }
        _ => false,
    }
}

/// Loads the test model with its shape-like inputs (int64, or rank ≤ 1) frozen
/// into initializers from `test_data_set_0/input_<k>.pb`, as a compiler sees
/// them after constant propagation; the data inputs stay graph inputs.
fn frozen(dir: &Path) -> onnc_onnx::Result<onnc_onnx::Model> {
    use onnc_onnx::onnc_proto::{onnx::ModelProto, prost::Message};
    let bytes = std::fs::read(dir.join("model.onnx")).unwrap();
    let mut m = ModelProto::decode(&bytes[..]).unwrap();
    let g = m.graph.as_mut().unwrap();
    let init: std::collections::HashSet<String> =
        g.initializer.iter().map(|t| t.name.clone()).collect();
    let real: Vec<String> = g
        .input
        .iter()
        .filter(|i| !init.contains(&i.name))
        .map(|i| i.name.clone())
        .collect();
    for (k, name) in real.iter().enumerate() {
        let pb = dir.join("test_data_set_0").join(format!("input_{k}.pb"));
        let Ok(raw) = std::fs::read(&pb) else {
            continue;
        };
        let Ok(mut t) = onnc_onnx::onnc_proto::onnx::TensorProto::decode(&raw[..]) else {
            continue;
        };
        if t.data_type == 7 || t.dims.len() <= 1 {
            t.name = name.clone();
            g.input.retain(|i| &i.name != name);
            g.initializer.push(t);
        }
    }
    onnc_onnx::decode(&m.encode_to_vec(), dir, &Options::default())
}

#[test]
fn backend_test_models_infer_reference_output_shapes() {
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut rejected = 0;
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if !all_ops_known(&dir) {
            continue;
        }
        let model = match frozen(&dir) {
            Ok(m) => m,
            Err(e) if expected_rejection(&e) => {
                rejected += 1;
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let types = match infer_graph(&model.graph) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut ok = true;
        for (k, out) in model.graph.outputs.iter().enumerate() {
            let pb = dir.join("test_data_set_0").join(format!("output_{k}.pb"));
            let Ok((_, want)) = read_tensor_pb(&pb) else {
                continue;
            };
            match types.get(&out.name) {
                Some(t)
                    if t.dtype == want.dtype()
                        && t.static_shape().as_deref() == Some(want.shape()) => {}
                other => {
                    failures.push(format!(
                        "{name}: output {k} inferred {:?}, reference {:?} {}",
                        other.map(|t| t.to_string()),
                        want.shape(),
                        want.dtype()
                    ));
                    ok = false;
                }
            }
        }
        passed += usize::from(ok);
    }
    eprintln!(
        "{passed} backend models pass; {rejected} rejected as unsupported; {} fail",
        failures.len()
    );
    assert!(passed > 500, "only {passed} models passed");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn backend_test_models_with_unknown_operators_load() {
    let (mut loaded, mut rejected, mut failures) = (0, 0, Vec::new());
    for dir in cases() {
        if all_ops_known(&dir) {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        match frozen(&dir) {
            Ok(m) => {
                loaded += 1;
                if let Err(e) = infer_graph(&m.graph) {
                    failures.push(format!("{name}: {e}"));
                }
            }
            Err(e) if expected_rejection(&e) => rejected += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{loaded} models with unknown operators load; {rejected} rejected as unsupported; {} fail",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The normalized form is valid ONNX: every backend model whose operators are
/// all known, once loaded and exported, passes `onnx.checker.check_model`
/// (full check, which includes the reference shape inference).
#[test]
fn exported_backend_models_pass_the_onnx_checker() {
    use onnc_onnx::onnc_proto::prost::Message;
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
    let out_dir = common::scratch("export_backend");
    let mut n = 0;
    for dir in cases() {
        if !all_ops_known(&dir) {
            continue;
        }
        let Ok(model) = frozen(&dir) else { continue };
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        std::fs::write(
            out_dir.join(format!("{name}.onnx")),
            onnc_onnx::export(&model).encode_to_vec(),
        )
        .unwrap();
        n += 1;
    }
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&out_dir)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = String::from_utf8_lossy(&out.stdout).trim().to_string();
    eprintln!("{n} exported backend models checked");
    assert!(bad.is_empty(), "checker failures:\n{bad}");
}
