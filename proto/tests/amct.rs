//! The AMCT records (`proto/amct/`): field numbers on the wire as AMCT's
//! documentation gives them, and a convert_model record read as the inner one.

use onnc_proto::amct::{
    InnerScaleOffsetRecord, MapFiledEntry, ScaleOffsetRecord, SingleLayerRecord,
};
use onnc_proto::prost::Message;

#[test]
fn field_numbers_match_the_documentation() {
    let r = ScaleOffsetRecord {
        record: vec![MapFiledEntry {
            key: Some("c".into()),
            value: Some(SingleLayerRecord {
                scale_d: Some(1.0),
                offset_d: Some(-1),
                scale_w: vec![0.5],
                skip_fusion: Some(true),
                ..Default::default()
            }),
        }],
    };
    let bytes = r.encode_to_vec();
    // record (1, length-delimited) { key (1) "c", value (2) { scale_d (1, fixed32)
    // 1.0, offset_d (2, varint) -1, scale_w (3, fixed32: proto2 repeated
    // scalars are not packed) 0.5, skip_fusion (9) 1 } }
    let mut value = vec![0x0d, 0, 0, 0x80, 0x3f, 0x10];
    value.extend([0xff; 9]);
    value.push(0x01);
    value.extend([0x1d, 0, 0, 0, 0x3f, 0x48, 1]);
    let mut entry = vec![0x0a, 1, b'c', 0x12, value.len() as u8];
    entry.extend(&value);
    let mut want = vec![0x0a, entry.len() as u8];
    want.extend(&entry);
    assert_eq!(bytes, want);
}

#[test]
fn a_convert_model_record_decodes_as_the_inner_record() {
    let r = ScaleOffsetRecord {
        record: vec![MapFiledEntry {
            key: Some("conv1".into()),
            value: Some(SingleLayerRecord {
                scale_d: Some(0.25),
                offset_d: Some(3),
                scale_w: vec![0.5, 0.125],
                offset_w: vec![0, 0],
                ..Default::default()
            }),
        }],
    };
    let inner = InnerScaleOffsetRecord::decode(&r.encode_to_vec()[..]).unwrap();
    let v = inner.record[0].value.as_ref().unwrap();
    assert_eq!(inner.record[0].key.as_deref(), Some("conv1"));
    assert_eq!((v.scale_d, v.offset_d), (Some(0.25), Some(3)));
    assert_eq!(v.scale_w, [0.5, 0.125]);
    assert_eq!(v.dst_type(), "INT8");
    assert!(!onnc_proto::FILE_DESCRIPTOR_SET.is_empty());
}
