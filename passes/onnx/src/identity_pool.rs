//! Pooling nodes that compute the identity, which `onnx-simplify` removes for
//! every target.
//!
//! A pooling window that covers exactly one input element returns that
//! element: the maximum of one value is the value, and the average of one
//! value (no padding, so the divisor is 1) is the value. PyTorch exports such
//! windows from `AdaptiveAvgPool2d(s)` on an input that already has size `s`
//! (torchvision's AlexNet and VGG pool a 7×7 map to 7×7: `AveragePool`
//! kernel 1×1, stride 1, no pads) and from `AdaptiveAvgPool2d(1)` on a 1×1
//! map (`GlobalAveragePool` over one pixel).
//!
//! In: a node and the static shape of its first input, if known. Out: whether
//! its first output equals its first input, element for element.
//!
//! ```
//! use onnc_onnx::{is_identity_pool, Node};
//! use onnc_tensor::Attr;
//! let avg = Node::new("pool", "AveragePool", &["x"], &["y"])
//!     .with_attr("kernel_shape", Attr::Ints(vec![1, 1]))
//!     .with_attr("strides", Attr::Ints(vec![1, 1]))
//!     .with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]));
//! assert!(is_identity_pool(&avg, None));
//! let gap = Node::new("gap", "GlobalAveragePool", &["x"], &["y"]);
//! assert!(is_identity_pool(&gap, Some(&[1, 512, 1, 1])));
//! assert!(!is_identity_pool(&gap, Some(&[1, 512, 7, 7])));
//! ```

use crate::Node;
use onnc_tensor::Attr;

/// Whether `node` is a pooling whose output is its input: an `AveragePool`
/// or `MaxPool` with a kernel of 1 in every spatial axis, stride 1 and no
/// padding (any `auto_pad`, `ceil_mode`, `dilations`: none changes a 1-wide
/// window at stride 1), or a `GlobalAveragePool`/`GlobalMaxPool` whose input
/// (`input_dims`, NC + spatial) is 1 in every spatial axis. A `MaxPool` whose
/// `Indices` output is requested is not an identity (it has a second result).
pub fn is_identity_pool(node: &Node, input_dims: Option<&[usize]>) -> bool {
    if !node.domain.is_empty()
        || node.outputs.first().is_none_or(|o| o.is_empty())
        || node.outputs.iter().skip(1).any(|o| !o.is_empty())
        || node.input(0).is_none()
    {
        return false;
    }
    let ints = |k: &str| node.attrs.get(k).and_then(Attr::as_ints);
    match node.op_type.as_str() {
        "AveragePool" | "MaxPool" => {
            let Some(kernel) = ints("kernel_shape") else {
                return false;
            };
            !kernel.is_empty()
                && kernel.iter().all(|&k| k == 1)
                && ints("strides").is_none_or(|s| s.iter().all(|&v| v == 1))
                && ints("pads").is_none_or(|p| p.iter().all(|&v| v == 0))
        }
        "GlobalAveragePool" | "GlobalMaxPool" => {
            input_dims.is_some_and(|d| d.len() >= 3 && d[2..].iter().all(|&v| v == 1))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(op: &str, attrs: &[(&str, Vec<i64>)]) -> Node {
        attrs
            .iter()
            .fold(Node::new("p", op, &["x"], &["y"]), |n, (k, v)| {
                n.with_attr(k, Attr::Ints(v.clone()))
            })
    }

    #[test]
    fn one_element_windows_are_identities() {
        let k1 = ("kernel_shape", vec![1, 1]);
        assert!(is_identity_pool(
            &pool("AveragePool", std::slice::from_ref(&k1)),
            None
        ));
        assert!(is_identity_pool(
            &pool("MaxPool", &[k1.clone(), ("dilations", vec![2, 2])]),
            None
        ));
        assert!(is_identity_pool(
            &pool("GlobalMaxPool", &[]),
            Some(&[1, 8, 1, 1])
        ));
    }

    #[test]
    fn windows_that_mix_or_skip_elements_are_not() {
        let k1 = ("kernel_shape", vec![1, 1]);
        // Stride 2 drops pixels; padding adds zeros (average) or border pixels.
        assert!(!is_identity_pool(
            &pool("AveragePool", &[k1.clone(), ("strides", vec![2, 2])]),
            None
        ));
        assert!(!is_identity_pool(
            &pool("AveragePool", &[k1.clone(), ("pads", vec![0, 0, 1, 1])]),
            None
        ));
        // A 3×3 stride-1 pad-1 window keeps the shape but mixes pixels.
        assert!(!is_identity_pool(
            &pool(
                "AveragePool",
                &[("kernel_shape", vec![3, 3]), ("pads", vec![1, 1, 1, 1])]
            ),
            None
        ));
        assert!(!is_identity_pool(&pool("GlobalAveragePool", &[]), None));
        assert!(!is_identity_pool(
            &pool("GlobalAveragePool", &[]),
            Some(&[1, 8, 2, 1])
        ));
        let mut with_indices = pool("MaxPool", &[k1]);
        with_indices.outputs.push("idx".into());
        assert!(!is_identity_pool(&with_indices, None));
        assert!(!is_identity_pool(
            &pool("LpPool", &[("kernel_shape", vec![1])]),
            None
        ));
    }
}
