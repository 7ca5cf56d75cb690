//! `.caffemodel`: a binary `NetParameter` with the weights in `blobs`.
//!
//! In: a `NetParameter` with blobs. Out: its protobuf encoding (and back).
//! The deploy prototxt is the same net without blobs ([`deploy_net`]).
//!
//! ```
//! use onnc_nnie::caffe::{deploy_net, from_caffemodel, proto, to_caffemodel};
//! let blob = proto::BlobProto {
//!     shape: Some(proto::BlobShape { dim: vec![1, 2] }),
//!     data: vec![0.5, -1.0],
//!     ..Default::default()
//! };
//! let net = proto::NetParameter {
//!     layer: vec![proto::LayerParameter { blobs: vec![blob], ..Default::default() }],
//!     ..Default::default()
//! };
//! let bytes = to_caffemodel(&net);
//! assert_eq!(from_caffemodel(&bytes).unwrap(), net);
//! assert!(deploy_net(&net).layer[0].blobs.is_empty());
//! ```

use prost::Message;

use super::proto::NetParameter;
use crate::error::{NnieError, Result};

/// Encode a net (with blobs) as `.caffemodel` bytes.
pub fn to_caffemodel(net: &NetParameter) -> Vec<u8> {
    net.encode_to_vec()
}

/// Decode `.caffemodel` bytes.
pub fn from_caffemodel(bytes: &[u8]) -> Result<NetParameter> {
    NetParameter::decode(bytes).map_err(|e| NnieError::Caffe(format!("caffemodel: {e}")))
}

/// The net without any layer blobs: what `deploy.prototxt` describes.
pub fn deploy_net(net: &NetParameter) -> NetParameter {
    let mut out = net.clone();
    for layer in &mut out.layer {
        layer.blobs.clear();
    }
    out
}
