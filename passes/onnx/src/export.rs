//! [`export`]: [`Model`] → `ModelProto` (for `onnc-translate --export-onnx`).
//!
//! In: a loaded (normalized) model. Out: a `ModelProto` with IR version
//! `max(model's, 9)` and a default-domain opset of at least
//! [`crate::NORMALIZED_OPSET`] (the normalized forms need it); every attribute,
//! materialized defaults included, is written back; initializers use
//! `raw_data`; graph inputs/outputs carry their types (symbols as `dim_param`).
//! Target annotations (attributes named `onnc.*`, e.g. `onnc.device =
//! "cpu"` from legalization) are no ONNX attributes, which `onnx.checker`
//! and onnxruntime refuse: they become the node's `metadata_props` (IR
//! version 10 and later, so such a model is written at IR 10 at least), and
//! the loader reads them back as string attributes.

use crate::proto_attr::attr_to_proto;
use crate::tensor_proto::tensor_to_proto;
use crate::{Dim, Model, ValueInfo, NORMALIZED_OPSET};
use onnc_proto::onnx::{
    tensor_shape_proto::{dimension, Dimension},
    type_proto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto,
    TensorShapeProto, TypeProto, ValueInfoProto,
};

/// Prefix of the attribute names that are target annotations, written as
/// node metadata (see the module doc).
pub const ANNOTATION_PREFIX: &str = "onnc.";

/// IR version written at least when a node carries metadata (IR 10 added
/// `NodeProto.metadata_props`).
pub const NODE_METADATA_IR_VERSION: i64 = 10;

/// The metadata text of an annotation: a string as it is, numbers and
/// lists as their decimal forms joined by `,`.
fn annotation_text(v: &onnc_tensor::Attr) -> String {
    use onnc_tensor::Attr;
    let join = |v: Vec<String>| v.join(",");
    match v {
        Attr::String(s) => s.clone(),
        Attr::Int(i) => i.to_string(),
        Attr::Float(f) => f.to_string(),
        Attr::Ints(v) => join(v.iter().map(i64::to_string).collect()),
        Attr::Floats(v) => join(v.iter().map(f32::to_string).collect()),
        Attr::Strings(v) => join(v.clone()),
        Attr::Tensor(t) => format!("tensor{:?}", t.shape()),
    }
}

fn value_info(v: &ValueInfo) -> ValueInfoProto {
    let dim = v
        .dims
        .iter()
        .map(|d| Dimension {
            value: match d {
                Dim::Fixed(n) => Some(dimension::Value::DimValue(*n as i64)),
                Dim::Param(p) => Some(dimension::Value::DimParam(p.clone())),
                Dim::Unknown => None,
            },
            denotation: String::new(),
        })
        .collect();
    ValueInfoProto {
        name: v.name.clone(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: v.dtype.onnx_code(),
                shape: Some(TensorShapeProto { dim }),
            })),
            denotation: String::new(),
        }),
        ..Default::default()
    }
}

/// IR version written at least (IR 9 is the first to carry opset 19).
pub const MIN_EXPORT_IR_VERSION: i64 = 9;

/// Attributes that normalization materializes but that older opsets do not
/// know: (op_type, attribute, first opset, default). The exporter leaves one
/// out when the written opset predates it and it holds its default, so that
/// `onnx.checker` accepts the model.
const LATE_ATTRIBUTES: &[(&str, &str, i64, &str)] = &[("Cast", "round_mode", 24, "up")];

/// Whether attribute `name` of `n` is written at default-domain opset `opset`.
fn written(n: &crate::Node, name: &str, value: &onnc_tensor::Attr, opset: i64) -> bool {
    !LATE_ATTRIBUTES.iter().any(|&(op, attr, since, default)| {
        n.domain.is_empty()
            && n.op_type == op
            && name == attr
            && opset < since
            && matches!(value, onnc_tensor::Attr::String(v) if v == default)
    })
}

/// Converts a model back to protobuf form.
pub fn export(m: &Model) -> ModelProto {
    let g = &m.graph;
    let mut opsets = m.opset_imports.clone();
    let d = opsets.entry(String::new()).or_insert(NORMALIZED_OPSET);
    *d = (*d).max(NORMALIZED_OPSET);
    let opset = *d;
    let node = g
        .nodes
        .iter()
        .map(|n| NodeProto {
            input: n
                .inputs
                .iter()
                .map(|i| i.clone().unwrap_or_default())
                .collect(),
            output: n.outputs.clone(),
            name: n.name.clone(),
            op_type: n.op_type.clone(),
            domain: n.domain.clone(),
            attribute: n
                .attrs
                .iter()
                .filter(|(k, v)| !k.starts_with(ANNOTATION_PREFIX) && written(n, k, v, opset))
                .map(|(k, v)| attr_to_proto(k, v))
                .collect(),
            metadata_props: n
                .attrs
                .iter()
                .filter(|(k, _)| k.starts_with(ANNOTATION_PREFIX))
                .map(|(k, v)| StringStringEntryProto {
                    key: k.clone(),
                    value: annotation_text(v),
                })
                .collect(),
            ..Default::default()
        })
        .collect::<Vec<NodeProto>>();
    let has_metadata = node.iter().any(|n| !n.metadata_props.is_empty());
    let graph = GraphProto {
        node,
        name: g.name.clone(),
        initializer: g
            .initializers
            .iter()
            .map(|(n, t)| tensor_to_proto(n, t))
            .collect(),
        input: g.inputs.iter().map(value_info).collect(),
        output: g.outputs.iter().map(value_info).collect(),
        ..Default::default()
    };
    let (producer_name, producer_version) =
        ("onnc".to_string(), env!("CARGO_PKG_VERSION").to_string());
    ModelProto {
        ir_version: m.ir_version.max(if has_metadata {
            NODE_METADATA_IR_VERSION
        } else {
            MIN_EXPORT_IR_VERSION
        }),
        opset_import: opsets
            .into_iter()
            .map(|(domain, version)| OperatorSetIdProto { domain, version })
            .collect(),
        producer_name,
        producer_version,
        graph: Some(graph),
        ..Default::default()
    }
}
