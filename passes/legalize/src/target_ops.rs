//! onnc's own target operators (domain `onnc`), which legalization creates
//! for patterns a target runs as one unit.
//!
//! In: an [`OpKey`] in domain [`crate::ONNC_DOMAIN`] and its operand types.
//! Out: its result types.
//!
//! | op | operands | attributes | meaning |
//! |---|---|---|---|
//! | `ChannelShuffle` | `X: N×C×H×W` | `group` | `Reshape(N,g,C/g,H,W) → Transpose(0,2,1,3,4) → Reshape(N,C,H,W)` (ShuffleNet), NVDLA RUBIK |
//!
//! ```
//! use onnc_legalize::{lang::OpKey, target_ops};
//! use onnc_onnx::TypeInfo;
//! let k = OpKey::new("ChannelShuffle", "onnc", Default::default(), 1, "s", &["s"]);
//! let t = TypeInfo::fixed(onnc_tensor::DType::F32, &[1, 8, 2, 2]);
//! assert_eq!(target_ops::infer(&k, &[Some(t.clone())]), Some(vec![t]));
//! ```

use crate::lang::OpKey;
use onnc_onnx::TypeInfo;

/// Name of the channel-shuffle op.
pub const CHANNEL_SHUFFLE: &str = "ChannelShuffle";

/// Result types of an onnc target op; `None` for an unknown op or operand type.
pub fn infer(key: &OpKey, inputs: &[Option<TypeInfo>]) -> Option<Vec<TypeInfo>> {
    match key.op_type.as_str() {
        CHANNEL_SHUFFLE => Some(vec![inputs.first()?.clone()?]),
        _ => None,
    }
}
