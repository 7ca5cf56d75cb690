//! Weight scales: symmetric INT8, `max|w| / 127`, per output channel and
//! per tensor.
//!
//! In: a weight tensor (f32) and the axis of its output channels — or a
//! node, whose operator tells the axis ([`channel_axis`]). Out:
//! [`WeightScales`]. This is NVIDIA's NVDLA compiler's rule (`max|w|/127`
//! over the whole tensor in its default "per-kernel" mode, over one output
//! channel in "per-filter" mode; `research/nvdla-int8.md` §1.1) and
//! TensorRT's documented weight scale.
//!
//! An all-zero channel takes the per-tensor scale (any scale represents
//! zeros exactly; this keeps every scale positive so that rescale ratios
//! stay finite); an all-zero tensor takes `1/127`.
//!
//! ```
//! use onnc_calib::weight_scales;
//! use onnc_tensor::Tensor;
//! // Conv weight [K=2, C=1, 1, 2]
//! let w = Tensor::from_f32(vec![2, 1, 1, 2], vec![0.5, -1.27, 0.0, 0.254]).unwrap();
//! let s = weight_scales("w", &w, 0).unwrap();
//! assert_eq!(s.per_tensor, 1.27 / 127.0);
//! assert_eq!(s.per_channel, vec![1.27 / 127.0, 0.254 / 127.0]);
//! ```

use onnc_onnx::Node;
use onnc_tensor::{DType, Tensor};

use crate::error::{CalibError, Result};

/// Scales of one weight tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightScales {
    /// `max|w| / 127` over the tensor.
    pub per_tensor: f32,
    /// `max|w| / 127` over each output channel, in channel order.
    pub per_channel: Vec<f32>,
}

/// The output-channel axis of a weight for the node that reads it as input
/// `index`: `Conv` (input 1, `[K, C/g, …]`) → 0; `ConvTranspose` (input 1,
/// `[C, K/g, …]`) → 1; `Gemm` input 1 → 0 with `transB = 1`, else 1;
/// `MatMul` input 1 → its last axis. `None` for anything else.
pub fn channel_axis(node: &Node, index: usize, rank: usize) -> Option<usize> {
    match (node.op_type.as_str(), index) {
        ("Conv", 1) => Some(0),
        ("ConvTranspose", 1) if rank >= 2 => Some(1),
        ("Gemm", 1) => {
            let trans_b = node
                .attrs
                .get("transB")
                .and_then(|a| a.as_int())
                .unwrap_or(0);
            Some(if trans_b != 0 { 0 } else { 1 })
        }
        ("MatMul", 1) if rank >= 1 => Some(rank - 1),
        _ => None,
    }
}

/// Per-tensor and per-channel scales of `w` along `axis` (see the module
/// doc). Errors name the weight: a non-float tensor, an axis out of range,
/// NaN or infinite values.
pub fn weight_scales(name: &str, w: &Tensor, axis: usize) -> Result<WeightScales> {
    let bad = |what: String| CalibError::Weight {
        name: name.to_string(),
        what,
    };
    if !w.dtype().is_float() {
        return Err(bad(format!("is {:?}, not a float tensor", w.dtype())));
    }
    let shape = w.shape().to_vec();
    if axis >= shape.len() {
        return Err(bad(format!(
            "has shape {shape:?}; output-channel axis {axis} does not exist"
        )));
    }
    let cast;
    let v = if w.dtype() == DType::F32 {
        w.as_f32()
    } else {
        cast = w.cast(DType::F32);
        cast.as_f32()
    }
    .map_err(|e| bad(e.to_string()))?;
    if let Some(i) = v.iter().position(|x| !x.is_finite()) {
        return Err(bad(format!("element {i} is {}", v[i])));
    }
    let channels = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let mut peak = vec![0.0f32; channels];
    for (i, x) in v.iter().enumerate() {
        let k = (i / inner.max(1)) % channels.max(1);
        peak[k] = peak[k].max(x.abs());
    }
    let top = peak.iter().fold(0.0f32, |m, &p| m.max(p));
    let per_tensor = if top > 0.0 { top / 127.0 } else { 1.0 / 127.0 };
    let per_channel = peak
        .iter()
        .map(|&p| if p > 0.0 { p / 127.0 } else { per_tensor })
        .collect();
    Ok(WeightScales {
        per_tensor,
        per_channel,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_tensor::Attr;

    #[test]
    fn axes_follow_the_operator() {
        let conv = Node::new("c", "Conv", &["x", "w"], &["y"]);
        assert_eq!(channel_axis(&conv, 1, 4), Some(0));
        assert_eq!(channel_axis(&conv, 0, 4), None);
        let ct = Node::new("t", "ConvTranspose", &["x", "w"], &["y"]);
        assert_eq!(channel_axis(&ct, 1, 4), Some(1));
        let gemm = Node::new("g", "Gemm", &["x", "w"], &["y"]);
        assert_eq!(channel_axis(&gemm, 1, 2), Some(1));
        let gemm_t = gemm.clone().with_attr("transB", Attr::Int(1));
        assert_eq!(channel_axis(&gemm_t, 1, 2), Some(0));
        let mm = Node::new("m", "MatMul", &["x", "w"], &["y"]);
        assert_eq!(channel_axis(&mm, 1, 2), Some(1));
        assert_eq!(
            channel_axis(&Node::new("r", "Relu", &["x"], &["y"]), 1, 2),
            None
        );
    }

    #[test]
    fn channels_along_axis_one_and_zero_channels() {
        // Gemm weight [K=2, N=3] (transB = 0): channels are columns.
        let w = Tensor::from_f32(vec![2, 3], vec![1.0, 0.0, -3.0, -2.0, 0.0, 0.5]).unwrap();
        let s = weight_scales("fc", &w, 1).unwrap();
        assert_eq!(s.per_tensor, 3.0 / 127.0);
        assert_eq!(s.per_channel, vec![2.0 / 127.0, 3.0 / 127.0, 3.0 / 127.0]);
        let z = Tensor::from_f32(vec![2], vec![0.0, 0.0]).unwrap();
        assert_eq!(weight_scales("z", &z, 0).unwrap().per_tensor, 1.0 / 127.0);
    }

    #[test]
    fn bad_weights_are_named() {
        let w = Tensor::from_f32(vec![2], vec![1.0, f32::NAN]).unwrap();
        let e = weight_scales("conv1.weight", &w, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("conv1.weight") && e.contains("element 1"), "{e}");
        let e = weight_scales("w", &w, 3).unwrap_err().to_string();
        assert!(e.contains("axis 3"), "{e}");
        let i = Tensor::from_i64(vec![1], vec![3]).unwrap();
        assert!(weight_scales("i", &i, 0).is_err());
    }
}
