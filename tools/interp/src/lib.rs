//! `onnc-interp` — the reference interpreter: onnc's numeric oracle.
//!
//! Every pass that rewrites a model is checked by running the IR before and
//! after it through these kernels and comparing with [`compare`].
//!
//! In: an ONNX operator type (default domain), its attributes
//! ([`onnc_tensor::Attrs`], ONNX defaults optional) and input tensors.
//! Out: the output tensors. Compute is f32 (int64/int32/bool where ONNX uses
//! them for shapes and indices), NCHW, deterministic: every output element
//! is computed by one thread with a fixed summation order, whatever the
//! thread count (rayon's pool). `Conv`, `Gemm` and `MatMul` run on `faer`'s gemm.
//!
//! ```
//! use onnc_interp::{run_op, Error};
//! use onnc_tensor::{Attr, Attrs, Tensor};
//! let a = Tensor::from_f32(vec![2, 1], vec![1.0, 2.0]).unwrap();
//! let b = Tensor::from_f32(vec![2], vec![10.0, 20.0]).unwrap();
//! let y = run_op("Add", &Attrs::new(), &[Some(&a), Some(&b)]).unwrap();
//! assert_eq!(y[0].shape(), &[2, 2]);
//! assert_eq!(y[0].as_f32().unwrap(), &[11.0, 21.0, 12.0, 22.0]);
//!
//! let mut attrs = Attrs::new();
//! attrs.insert("axis".into(), Attr::Int(5));
//! assert!(matches!(run_op("Softmax", &attrs, &[Some(&a)]), Err(Error::BadAttr { .. })));
//! ```
//!
//! Opset-dependent semantics (Softmax's "coerce to 2D" below opset 13,
//! opset-10 `Resize`) are selected by [`OpOptions::opset`] through
//! [`run_op_with`]; [`run_op`] uses [`LATEST_OPSET`].
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod call;
mod compare;
mod elem;
mod error;
mod exec;
pub mod fold;
mod layout;
mod ops;

pub use compare::{compare, Diff, Mismatch, Tolerance};
pub use error::{Error, Result};
pub use exec::{
    run_graph, run_graph_fp16_storage, run_graph_int8_storage, run_graph_observed,
    run_graph_stored_observed, Storage,
};
pub use ops::{is_supported, run_op, run_op_with, supported_ops, OpOptions, LATEST_OPSET};
