//! `TensorProto` ⇄ `Tensor`, the `input_<k>.pb` files, and model export.

mod common;

use common::*;
use onnc_onnx::onnc_proto::onnx::TensorProto;
use onnc_onnx::onnc_proto::prost::Message;
use onnc_onnx::onnc_tensor::{DType, Data, Tensor};
use onnc_onnx::{read_tensor_pb, tensor_from_proto, tensor_to_proto, write_tensor_pb};
use std::path::Path;

#[test]
fn every_dtype_round_trips_through_raw_data_and_files() {
    let d = scratch("tensor_pb");
    for code in 0..24 {
        let Some(dt) = DType::from_onnx(code) else {
            continue;
        };
        let t = Tensor::new(
            vec![2, 3],
            Data::from_f64s(dt, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        )
        .unwrap();
        let p = tensor_to_proto("v", &t);
        assert_eq!(tensor_from_proto(&p, Path::new(".")).unwrap(), t, "{dt}");
        let path = d.join(format!("input_{code}.pb"));
        write_tensor_pb(&path, "v", &t).unwrap();
        assert_eq!(read_tensor_pb(&path).unwrap(), ("v".to_string(), t));
    }
}

#[test]
fn typed_fields_decode() {
    let mk = |dt: i32| TensorProto {
        name: "t".into(),
        dims: vec![2],
        data_type: dt,
        ..Default::default()
    };
    let cases: Vec<(TensorProto, Data)> = vec![
        (
            TensorProto {
                float_data: vec![1.0, -2.0],
                ..mk(1)
            },
            Data::F32(vec![1.0, -2.0]),
        ),
        (
            TensorProto {
                int32_data: vec![255, 7],
                ..mk(2)
            },
            Data::U8(vec![255, 7]),
        ),
        (
            TensorProto {
                int32_data: vec![-3, 7],
                ..mk(3)
            },
            Data::I8(vec![-3, 7]),
        ),
        (
            TensorProto {
                int32_data: vec![-3, 7],
                ..mk(5)
            },
            Data::I16(vec![-3, 7]),
        ),
        (
            TensorProto {
                int32_data: vec![-3, 7],
                ..mk(6)
            },
            Data::I32(vec![-3, 7]),
        ),
        (
            TensorProto {
                int64_data: vec![-3, 1 << 40],
                ..mk(7)
            },
            Data::I64(vec![-3, 1 << 40]),
        ),
        (
            TensorProto {
                int32_data: vec![0, 5],
                ..mk(9)
            },
            Data::Bool(vec![0, 1]),
        ),
        (
            TensorProto {
                int32_data: vec![0x3C00, 0xC000],
                ..mk(10)
            },
            Data::F16(vec![half::f16::from_f32(1.0), half::f16::from_f32(-2.0)]),
        ),
        (
            TensorProto {
                double_data: vec![0.5, 1e300],
                ..mk(11)
            },
            Data::F64(vec![0.5, 1e300]),
        ),
        (
            TensorProto {
                uint64_data: vec![1, 4_000_000_000],
                ..mk(12)
            },
            Data::U32(vec![1, 4_000_000_000]),
        ),
        (
            TensorProto {
                uint64_data: vec![1, u64::MAX],
                ..mk(13)
            },
            Data::U64(vec![1, u64::MAX]),
        ),
    ];
    for (p, want) in cases {
        let t = tensor_from_proto(&p, Path::new(".")).unwrap();
        assert_eq!(t.data(), &want);
    }
}

#[test]
fn scalars_and_empty_tensors() {
    let s = TensorProto {
        name: "s".into(),
        data_type: 1,
        float_data: vec![4.0],
        ..Default::default()
    };
    assert_eq!(
        tensor_from_proto(&s, Path::new(".")).unwrap().shape(),
        &[] as &[usize]
    );
    let e = TensorProto {
        name: "e".into(),
        dims: vec![0, 3],
        data_type: 1,
        ..Default::default()
    };
    assert_eq!(tensor_from_proto(&e, Path::new(".")).unwrap().numel(), 0);
    let missing = TensorProto {
        name: "m".into(),
        data_type: 1,
        ..Default::default()
    };
    assert!(tensor_from_proto(&missing, Path::new("."))
        .unwrap_err()
        .to_string()
        .contains("'m'"));
    let huge = TensorProto {
        name: "h".into(),
        dims: vec![i64::MAX, i64::MAX],
        data_type: 1,
        ..Default::default()
    };
    assert!(tensor_from_proto(&huge, Path::new(".")).is_err());
}

#[test]
fn read_tensor_pb_errors_name_the_file() {
    let d = scratch("tensor_pb_bad");
    let p = d.join("input_0.pb");
    std::fs::write(&p, [0xFFu8, 0xFF, 0xFF]).unwrap();
    let e = read_tensor_pb(&p).unwrap_err().to_string();
    assert!(e.contains("input_0.pb"), "{e}");
}

#[test]
fn export_writes_types_attributes_and_a_modern_opset() {
    let n = node("c", "Clip", &["x"], &["y"], vec![a_float("max", 6.0)]);
    let m = decode_ok(&one_node(6, &[-1, 3], vec![], n));
    let p = onnc_onnx::export(&m);
    let op = p.opset_import.iter().find(|o| o.domain.is_empty()).unwrap();
    assert_eq!(op.version, onnc_onnx::NORMALIZED_OPSET);
    let g = p.graph.as_ref().unwrap();
    assert_eq!(g.node[0].input, vec!["x", "", "c__max"]);
    assert_eq!(g.initializer.len(), 1);
    let again = onnc_onnx::decode(&p.encode_to_vec(), Path::new("."), &Default::default()).unwrap();
    assert_eq!(again.graph, m.graph);
    assert_eq!(
        again.graph.inputs[0].dims[0],
        onnc_onnx::Dim::Param("N".into())
    );
}
