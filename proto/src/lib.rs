//! `onnc-proto` — Rust types for the protobuf formats onnc reads and writes.
//!
//! In: every `proto/*.proto` file of this crate (ONNX, Caffe, …), compiled at
//! build time by `protox` + `prost-build` (no system `protoc`). Out: one module
//! per protobuf package, e.g. [`onnx`] (`onnx::ModelProto`, `onnx::TensorProto`,
//! …) and, when `caffe.proto` is present, `caffe`.
//!
//! Decode with [`prost::Message`]:
//!
//! ```
//! use onnc_proto::onnx::{ModelProto, OperatorSetIdProto};
//! use onnc_proto::prost::Message;
//! let m = ModelProto {
//!     ir_version: 8,
//!     opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 13 }],
//!     ..Default::default()
//! };
//! let bytes = m.encode_to_vec();
//! assert_eq!(ModelProto::decode(&bytes[..]).unwrap(), m);
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub use prost;

include!(concat!(env!("OUT_DIR"), "/_packages.rs"));

/// The encoded `google.protobuf.FileDescriptorSet` of every `.proto` file of
/// this crate (imports included): what a reflection library such as
/// `prost-reflect` needs to read and write the protobuf text format, e.g.
/// Ascend AMCT's `record.txt` ([`amct::InnerScaleOffsetRecord`]).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/file_descriptor_set.bin"));
