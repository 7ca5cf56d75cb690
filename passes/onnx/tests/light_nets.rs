//! Every light model-zoo net shipped with the `onnx` Python package loads,
//! validates, normalizes and infers a static type for every value; the
//! inferred output shape matches the reference output tensor
//! (`light_<net>_output_0.pb`), which also exercises `read_tensor_pb`.

mod common;

use onnc_onnx::{infer_graph, load, Options};

#[test]
fn every_light_net_loads_and_infers_static_shapes() {
    for path in common::light_nets() {
        let model = load(&path, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            model.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            model.warnings
        );
        let types = infer_graph(&model.graph).unwrap_or_else(|e| panic!("{e}"));
        for node in &model.graph.nodes {
            for o in node.outputs.iter().filter(|o| !o.is_empty()) {
                let t = types.get(o).unwrap_or_else(|| {
                    panic!("{}: {o} of {} has no type", path.display(), node.name)
                });
                assert!(t.static_shape().is_some(), "{}: {o} is {t}", path.display());
            }
        }
        // The reference output tensor has the inferred shape.
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let (_, reference) =
            onnc_onnx::read_tensor_pb(path.with_file_name(format!("{stem}_output_0.pb"))).unwrap();
        let out = &model.graph.outputs[0];
        assert_eq!(
            types[&out.name].static_shape().unwrap(),
            reference.shape(),
            "{stem}"
        );
        assert_eq!(
            out.type_info().static_shape().unwrap(),
            reference.shape(),
            "{stem}"
        );
    }
}

#[test]
fn light_nets_are_normalized() {
    for path in common::light_nets() {
        let model = load(&path, &Options::default()).unwrap();
        for n in &model.graph.nodes {
            let spec = onnc_onnx::lookup(&n.op_type, &n.domain, onnc_onnx::NORMALIZED_OPSET)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: {} is not a known normalized op",
                        path.display(),
                        n.op_type
                    )
                });
            for a in spec.attrs.iter().filter(|a| {
                a.opsets.0 <= onnc_onnx::NORMALIZED_OPSET
                    && onnc_onnx::NORMALIZED_OPSET <= a.opsets.1
            }) {
                if a.default != onnc_onnx::ops::attrs::Default::None {
                    assert!(
                        n.attrs.contains_key(a.name),
                        "{}: {} lacks {}",
                        path.display(),
                        n.name,
                        a.name
                    );
                }
            }
            match n.op_type.as_str() {
                "Conv" | "MaxPool" | "AveragePool" => {
                    for k in ["kernel_shape", "strides", "pads", "dilations"] {
                        assert!(n.attrs.contains_key(k), "{} lacks {k}", n.name);
                    }
                }
                "Unsqueeze" => assert!(n.input(1).is_some() && !n.attrs.contains_key("axes")),
                "Dropout" => assert!(n.input(1).is_some() && !n.attrs.contains_key("ratio")),
                "BatchNormalization" => assert!(!n.attrs.contains_key("spatial")),
                _ => {}
            }
        }
        // Old-style graphs list weights among the inputs; only data remains.
        assert_eq!(model.graph.inputs.len(), 1, "{}", path.display());
    }
}

#[test]
fn input_shape_override_changes_the_batch() {
    let path = common::light_nets()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("squeezenet"))
        .unwrap();
    let opts = Options {
        input_shapes: vec![("data_0".into(), vec![4, 3, 224, 224])],
    };
    let model = load(&path, &opts).unwrap();
    assert_eq!(
        model.graph.outputs[0].type_info().static_shape().unwrap(),
        vec![4, 1000, 1, 1]
    );
}

#[test]
fn export_round_trips_every_light_net() {
    use onnc_onnx::onnc_proto::prost::Message;
    for path in common::light_nets() {
        let model = load(&path, &Options::default()).unwrap();
        let bytes = onnc_onnx::export(&model).encode_to_vec();
        let again =
            onnc_onnx::decode(&bytes, std::path::Path::new("."), &Options::default()).unwrap();
        assert_eq!(again.graph, model.graph, "{}", path.display());
    }
}

/// Every intermediate value's shape agrees with the reference implementation's
/// shape inference (`onnx.shape_inference.infer_shapes`).
#[test]
fn shapes_match_onnx_reference_shape_inference() {
    const SCRIPT: &str = r#"
import sys, onnx
from onnx import shape_inference
m = shape_inference.infer_shapes(onnx.load(sys.argv[1]))
for v in list(m.graph.value_info) + list(m.graph.output):
    t = v.type.tensor_type
    if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
        print(v.name + "\t" + ",".join(str(d.dim_value) for d in t.shape.dim))
"#;
    for path in common::light_nets() {
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(SCRIPT)
            .arg(&path)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let model = load(&path, &Options::default()).unwrap();
        let types = infer_graph(&model.graph).unwrap();
        let mut compared = 0;
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let (name, dims) = line.split_once('\t').unwrap();
            let want: Vec<usize> = if dims.is_empty() {
                vec![]
            } else {
                dims.split(',').map(|d| d.parse().unwrap()).collect()
            };
            let have = types
                .get(name)
                .unwrap_or_else(|| panic!("{}: no type for {name}", path.display()));
            assert_eq!(
                have.static_shape().unwrap(),
                want,
                "{}: {name}",
                path.display()
            );
            compared += 1;
        }
        assert!(
            compared >= model.graph.nodes.len() / 2,
            "{}: only {compared} values compared",
            path.display()
        );
    }
}

/// `export` writes models the reference checker accepts (`onnx.checker.check_model`
/// with `full_check`, which also runs ONNX shape inference).
#[test]
fn exported_models_pass_the_onnx_checker() {
    use onnc_onnx::onnc_proto::prost::Message;
    const SCRIPT: &str = r#"
import sys, onnx
for path in sys.argv[1:]:
    onnx.checker.check_model(onnx.load(path), full_check=True)
print("ok")
"#;
    let dir = common::scratch("export_checker");
    let mut paths = Vec::new();
    for path in common::light_nets() {
        let model = load(&path, &Options::default()).unwrap();
        let out = dir.join(path.file_name().unwrap());
        std::fs::write(&out, onnc_onnx::export(&model).encode_to_vec()).unwrap();
        paths.push(out);
    }
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .args(&paths)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
