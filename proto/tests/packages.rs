//! Every `proto/*.proto` comes out as a module named after its package, and
//! ONNX messages round-trip through the wire format.

use onnc_proto::onnx::{tensor_proto::DataType, type_proto, ModelProto, TensorProto, TypeProto};
use onnc_proto::prost::Message;

#[test]
fn onnx_field_numbers_match_the_wire_format() {
    // TensorProto { dims: [2] (field 1), data_type: FLOAT (field 2), name: "w" (field 8) }
    let t = TensorProto {
        dims: vec![2],
        data_type: DataType::Float as i32,
        name: "w".into(),
        ..Default::default()
    };
    assert_eq!(
        t.encode_to_vec(),
        vec![0x0A, 0x01, 0x02, 0x10, 0x01, 0x42, 0x01, b'w']
    );
    // ModelProto.ir_version is field 1, varint.
    let m = ModelProto {
        ir_version: 8,
        ..Default::default()
    };
    assert_eq!(m.encode_to_vec(), vec![0x08, 0x08]);
}

#[test]
fn recursive_types_round_trip() {
    let inner = TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: 1,
            shape: None,
        })),
        denotation: String::new(),
    };
    let seq = TypeProto {
        value: Some(type_proto::Value::SequenceType(Box::new(
            type_proto::Sequence {
                elem_type: Some(Box::new(inner)),
            },
        ))),
        denotation: String::new(),
    };
    assert_eq!(TypeProto::decode(&seq.encode_to_vec()[..]).unwrap(), seq);
}

#[test]
fn caffe_package_is_a_module() {
    let net = onnc_proto::caffe::NetParameter {
        name: Some("n".into()),
        ..Default::default()
    };
    assert_eq!(
        onnc_proto::caffe::NetParameter::decode(&net.encode_to_vec()[..]).unwrap(),
        net
    );
}
