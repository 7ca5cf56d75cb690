//! `onnc-tensor` — the plain-Rust values every layer of onnc shares.
//!
//! In: element types, shapes and data (from an ONNX `TensorProto`, an MLIR
//! `dense_resource` blob, or a kernel). Out: [`Tensor`] (typed, row-major,
//! over shared storage: a clone, or a tensor over a slice of the model
//! file, is not a copy) and [`Attr`] (an ONNX attribute value, defaults
//! already filled).
//!
//! Nothing here knows about MLIR or protobuf; the importer converts protobuf
//! into these types, the `ir` layer converts them to and from MLIR attributes.
//!
//! ```
//! use onnc_tensor::{Tensor, DType};
//! let t = Tensor::from_f32(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
//! assert_eq!(t.dtype(), DType::F32);
//! assert_eq!(t.numel(), 4);
//! assert_eq!(t.to_le_bytes().len(), 16);
//! ```
#![warn(missing_docs)]

#[cfg(not(target_endian = "little"))]
compile_error!(
    "onnc-tensor assumes a little-endian host (weights are shared with MLIR blobs without copying)"
);

mod attr;
mod dtype;
mod error;
pub mod limits;
mod scaled;
mod slice;
mod tensor;
mod view;

pub use attr::{Attr, Attrs};
pub use dtype::DType;
pub use error::{Error, Result};
pub use scaled::RowScaled;
pub use tensor::{Data, Tensor};
pub use view::LeBytes;
