//! BARVINN MVU: bit-serial 64×64 matrix-vector units running convolutions
//! and matrix products, with ReLU and max-pooling in the output pipeline
//! (research/targets.md §A). No CPU path: everything else is an error.
//! Global average pooling, `Clip`, grouped Convs, channel Concats and joins of two activations pass here;
//! the code generator (`onnc-mvu`) maps or refuses them naming the node.
//!
//! In: an application e-node. Out: its [`Verdict`] or the violated limit.
//! Work is MACs / (64 × 64).
//!
//! ```
//! use onnc_legalize::targets::mvu::MVP;
//! assert_eq!(MVP, 64);
//! ```

use crate::analysis::Graph;
use crate::cond::{self, within};
use crate::lang::{ENode, OpKey};
use crate::legality::{conv_macs, Verdict};
use crate::target::Target;

/// The matrix-vector product size.
pub const MVP: usize = 64;

/// The verdict for `node` on the MVU.
pub fn check(
    target: Target,
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    elems: f64,
) -> Result<Verdict, String> {
    let cfg = target.config();
    let t = target.name();
    let op = key.op_type.as_str();
    let x = cond::operand_shape(eg, node, 0).unwrap_or_default();
    match op {
        "Conv" => {
            if x.len() != 4 || !cond::operand_const(eg, node, 1) {
                return Err(format!(
                    "Conv needs a 4-D input and constant weights on {t}"
                ));
            }
            // A grouped (or depthwise) Conv is lowered by onnc-mvu as one
            // convolution with block-diagonal weights (exact: the other
            // groups' weights are zeros), so it stays whole here.
            within("Conv", "kernel", &cond::kernel(key), cfg.conv_kernel_max, t)?;
            within(
                "Conv",
                "stride",
                &cond::strides(key),
                cfg.conv_stride_max,
                t,
            )?;
            within("Conv", "pad", &cond::pads(key), cfg.conv_pad_max, t)?;
            within("Conv", "dilation", &cond::dilations(key), 1, t)?;
            Ok(Verdict::Native(
                conv_macs(eg, node, key, elems) / (MVP * MVP) as f64,
            ))
        }
        "Gemm" | "MatMul" => {
            if !cond::operand_const(eg, node, 1) || key.int("transA").unwrap_or(0) != 0 {
                return Err(format!("{op} needs constant weights and transA=0 on {t}"));
            }
            let k = cond::operand_shape(eg, node, 1)
                .map(|s| s.iter().product::<usize>())
                .unwrap_or(1);
            Ok(Verdict::Native(k as f64 / (MVP * MVP) as f64))
        }
        "Relu" => Ok(Verdict::Native(elems / (MVP * 64) as f64)),
        "MaxPool" => {
            within(
                "MaxPool",
                "kernel",
                &cond::kernel(key),
                cfg.pool_kernel_max,
                t,
            )?;
            within(
                "MaxPool",
                "stride",
                &cond::strides(key),
                cfg.pool_stride_max,
                t,
            )?;
            within("MaxPool", "pad", &cond::pads(key), cfg.pool_pad_max, t)?;
            Ok(Verdict::Native(elems / (MVP * 64) as f64))
        }
        // Global average pooling: a summing identity convolution (onnc-mvu).
        "GlobalAveragePool" => Ok(Verdict::Native(elems / (MVP * 64) as f64)),
        // Clip(0, M) is the layer's ReLU when the clamp cannot bind; onnc-mvu
        // decides with the layer's weights and precision, naming the node.
        "Clip" => Ok(Verdict::Native(elems / (MVP * 64) as f64)),
        "Reshape" | "Flatten" | "Squeeze" | "Unsqueeze" => Ok(Verdict::Free),
        // A channel Concat of activations (one part or several) is a layout:
        // its producers write adjacent words of one data-RAM buffer
        // (onnc-mvu's flow), no job; onnc-mvu refuses another axis, naming it.
        "Concat" if (0..node.children.len()).all(|i| !cond::operand_const(eg, node, i)) => {
            Ok(Verdict::Free)
        }
        // A join of two activations (a residual connection) cannot run on
        // the MVU; it is left for onnc-mvu's join check, whose one
        // diagnostic names both producers (legalization does not know them).
        "Add" | "Sum"
            if node.children.len() > 1
                && (0..node.children.len()).all(|i| !cond::operand_const(eg, node, i)) =>
        {
            Ok(Verdict::Native(elems / (MVP * 64) as f64))
        }
        // A channel Slice became a 1×1 copy Conv (`mvu/slice-to-conv`); what
        // is left cuts another axis or steps backwards.
        "Slice" => Err(format!(
            "a Slice runs on {t} only when it cuts the channel axis alone (axis 1 of a 4-D \
             activation, constant starts/ends, positive step: a 1x1 copy Conv); this one slices \
             another axis or is not constant; slice channels, or run it on the host"
        )),
        _ => Err(format!("{op} is not supported by {t}")),
    }
}
