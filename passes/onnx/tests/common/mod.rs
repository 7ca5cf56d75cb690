//! Builders for hand-made `ModelProto`s used by the integration tests.
#![allow(dead_code)]

use onnc_onnx::onnc_proto::onnx::{
    attribute_proto::AttributeType, tensor_shape_proto::dimension, tensor_shape_proto::Dimension,
    type_proto, AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto,
    TensorShapeProto, TypeProto, ValueInfoProto,
};
use onnc_onnx::onnc_proto::prost::Message;
use onnc_onnx::{Error, Model, Options};
use std::path::{Path, PathBuf};

pub const F32: i32 = 1;
pub const I64: i32 = 7;

/// A tensor-typed value; negative dims become `dim_param` `"N"`.
pub fn vi(name: &str, elem: i32, dims: &[i64]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|&d| Dimension {
            value: Some(if d < 0 {
                dimension::Value::DimParam("N".into())
            } else {
                dimension::Value::DimValue(d)
            }),
            denotation: String::new(),
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: elem,
                shape: Some(TensorShapeProto { dim }),
            })),
            denotation: String::new(),
        }),
        ..Default::default()
    }
}

/// An untyped value (for graph outputs the loader must type).
pub fn vi_untyped(name: &str) -> ValueInfoProto {
    ValueInfoProto {
        name: name.into(),
        ..Default::default()
    }
}

pub fn tf32(name: &str, dims: &[i64], vals: &[f32]) -> TensorProto {
    TensorProto {
        name: name.into(),
        dims: dims.to_vec(),
        data_type: F32,
        float_data: vals.to_vec(),
        ..Default::default()
    }
}

pub fn ti64(name: &str, dims: &[i64], vals: &[i64]) -> TensorProto {
    TensorProto {
        name: name.into(),
        dims: dims.to_vec(),
        data_type: I64,
        int64_data: vals.to_vec(),
        ..Default::default()
    }
}

/// An f32 tensor of zeros with `raw_data`.
pub fn zeros(name: &str, dims: &[i64]) -> TensorProto {
    let n: i64 = dims.iter().product();
    TensorProto {
        name: name.into(),
        dims: dims.to_vec(),
        data_type: F32,
        raw_data: vec![0; 4 * n as usize].into(),
        ..Default::default()
    }
}

pub fn a_int(name: &str, v: i64) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Int as i32,
        i: v,
        ..Default::default()
    }
}
pub fn a_float(name: &str, v: f32) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Float as i32,
        f: v,
        ..Default::default()
    }
}
pub fn a_ints(name: &str, v: &[i64]) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Ints as i32,
        ints: v.to_vec(),
        ..Default::default()
    }
}
pub fn a_floats(name: &str, v: &[f32]) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Floats as i32,
        floats: v.to_vec(),
        ..Default::default()
    }
}
pub fn a_str(name: &str, v: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::String as i32,
        s: v.as_bytes().to_vec(),
        ..Default::default()
    }
}
pub fn a_tensor(name: &str, t: TensorProto) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::Tensor as i32,
        t: Some(t),
        ..Default::default()
    }
}

pub fn node(
    name: &str,
    op: &str,
    inputs: &[&str],
    outputs: &[&str],
    attrs: Vec<AttributeProto>,
) -> NodeProto {
    NodeProto {
        name: name.into(),
        op_type: op.into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        attribute: attrs,
        ..Default::default()
    }
}

/// A model at `opset` (default domain), IR version 7.
pub fn model(
    opset: i64,
    inputs: Vec<ValueInfoProto>,
    outputs: Vec<ValueInfoProto>,
    inits: Vec<TensorProto>,
    nodes: Vec<NodeProto>,
) -> ModelProto {
    ModelProto {
        ir_version: 7,
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: opset,
        }],
        producer_name: "onnc-test".into(),
        graph: Some(GraphProto {
            name: "g".into(),
            node: nodes,
            initializer: inits,
            input: inputs,
            output: outputs,
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// One-node model: input `x` (f32, `xdims`), output `y` (untyped), extra initializers.
pub fn one_node(opset: i64, xdims: &[i64], inits: Vec<TensorProto>, n: NodeProto) -> ModelProto {
    model(
        opset,
        vec![vi("x", F32, xdims)],
        vec![vi_untyped("y")],
        inits,
        vec![n],
    )
}

pub fn decode(m: &ModelProto) -> Result<Model, Error> {
    onnc_onnx::decode(&m.encode_to_vec(), Path::new("."), &Options::default())
}

pub fn decode_ok(m: &ModelProto) -> Model {
    decode(m).unwrap_or_else(|e| panic!("model should load: {e}"))
}

/// The static shape of output `y` after loading.
pub fn y_shape(m: &Model) -> Vec<usize> {
    let y = m
        .graph
        .outputs
        .iter()
        .find(|o| o.name == "y")
        .expect("output y");
    y.type_info()
        .static_shape()
        .unwrap_or_else(|| panic!("y is not static: {}", y.type_info()))
}

/// A fresh empty directory under the target dir, for file-based tests.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The folder of the light model-zoo nets shipped with the `onnx` Python package.
pub fn light_dir() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import onnx, os; print(os.path.dirname(onnx.__file__))",
        ])
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let dir = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("backend/test/data/light");
            assert!(dir.is_dir(), "{} is missing: run the bootstrap (pip install onnx)", dir.display());
            dir
        }
        _ => panic!("python3 with the `onnx` package is required for this test: run the bootstrap (pip install onnx)"),
    }
}

/// All light nets, sorted.
pub fn light_nets() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(light_dir())
        .expect("light dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 9, "expected the nine light nets");
    v
}
