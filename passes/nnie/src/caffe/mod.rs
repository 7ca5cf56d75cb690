//! Caffe model files for `nnie_mapper`: types, prototxt text, caffemodel binary.
//!
//! In: a [`proto::NetParameter`] built by the NNIE lowering. Out: the
//! `deploy.prototxt` text ([`to_prototxt`]) and the `.caffemodel` bytes
//! ([`to_caffemodel`]); and back ([`from_prototxt`], [`from_caffemodel`]).
//!
//! The types come from the project's `proto/caffe.proto` (a BVLC-compatible
//! subset plus NNIE's Upsample and Permute; see the header of that file),
//! compiled by this crate's `build.rs` with `protox` + `prost-build`.
//!
//! ```
//! use onnc_nnie::caffe::{from_prototxt, proto, to_prototxt};
//! let net = proto::NetParameter {
//!     name: Some("tiny".into()),
//!     layer: vec![proto::LayerParameter {
//!         name: Some("relu1".into()),
//!         r#type: Some("ReLU".into()),
//!         bottom: vec!["data".into()],
//!         top: vec!["relu1".into()],
//!         ..Default::default()
//!     }],
//!     ..Default::default()
//! };
//! let text = to_prototxt(&net).unwrap();
//! assert_eq!(text, "name: \"tiny\"\nlayer {\n  name: \"relu1\"\n  type: \"ReLU\"\n  bottom: \"data\"\n  top: \"relu1\"\n}\n");
//! assert_eq!(from_prototxt(&text).unwrap(), net);
//! ```

mod caffemodel;
mod prototxt;

pub use caffemodel::{deploy_net, from_caffemodel, to_caffemodel};
pub use prototxt::{from_prototxt, to_prototxt};

/// Generated prost types of package `caffe` (`proto/caffe.proto`).
#[allow(missing_docs, clippy::all)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/caffe.rs"));
}

/// The serialized `FileDescriptorSet` of `caffe.proto` (for reflection).
pub(crate) const CAFFE_FDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/caffe_fds.bin"));
