//! `onnc-onnx` — reading ONNX models for onnc, without MLIR.
//!
//! In: an `.onnx` file (or its bytes), with optional `--input-shape`
//! overrides ([`Options`]). Out: a [`Model`] that is validated (no dangling
//! names, cycles or malformed tensors), topologically sorted, and
//! **normalized**: every node of a known operator is in its modern operand
//! form (e.g. `Clip` bounds, `Reshape` shape, `Squeeze`/`Unsqueeze`/`Reduce*`
//! axes, `Split` sizes, `Pad`/`Slice` parameters are inputs; `Upsample` is
//! `Resize`), with every defaulted attribute materialized. Unknown operators
//! are kept untouched. Errors are one [`Error`] enum naming the file and node.
//!
//! Also: per-operator shape/type inference through the registry
//! ([`ops::lookup`], [`OpSpec::infer`]) and over a whole graph
//! ([`infer_graph`]); `TensorProto` helpers ([`tensor_from_proto`],
//! [`tensor_to_proto`], [`read_tensor_pb`], [`write_tensor_pb`]); and
//! [`export`] back to a `ModelProto`.
//!
//! ```no_run
//! let model = onnc_onnx::load("resnet50.onnx", &onnc_onnx::Options::default())?;
//! let types = onnc_onnx::infer_graph(&model.graph)?;
//! for node in &model.graph.nodes {
//!     let out = &types[&node.outputs[0]];
//!     println!("{} {} -> {out}", node.name, node.op_type);
//! }
//! # Ok::<(), onnc_onnx::Error>(())
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod convert;
mod error;
mod export;
mod fold;
mod identity_pool;
mod infer;
mod input_file;
mod load;
mod model;
mod normalize;
pub mod ops;
mod options;
mod proto_attr;
mod tensor_proto;
pub mod upsample;
mod validate;

pub use convert::{MAX_IR_VERSION, MIN_IR_VERSION, NEWEST_OPSETS};
pub use error::{Error, Result};
pub use export::{export, ANNOTATION_PREFIX, MIN_EXPORT_IR_VERSION, NODE_METADATA_IR_VERSION};
pub use fold::MAX_FOLD_ELEMENTS;
pub use identity_pool::is_identity_pool;
pub use infer::{infer_graph, infer_graph_with};
pub use load::{decode, decode_shared, load};
pub use model::{Dim, Graph, Model, Node, TypeInfo, ValueInfo};
pub use normalize::NormCx;
pub use ops::{lookup, OpSpec};
pub use options::Options;
pub use tensor_proto::{
    read_tensor_pb, tensor_from_proto, tensor_pb_bytes, tensor_to_proto, write_tensor_pb,
};

pub use onnc_proto;
pub use onnc_tensor;

/// The opset whose operand forms normalized nodes use: look normalized nodes
/// up with this (`ops::lookup(op, "", NORMALIZED_OPSET)`); [`export`] writes at
/// least this default-domain opset. 19, not 18: pools carry a materialized
/// `dilations`, which `AveragePool` accepts from opset 19.
pub const NORMALIZED_OPSET: i64 = 19;
