//! HiSilicon NNIE: the Caffe layers `nnie_mapper` accepts
//! (research/targets.md §B.2, §B.4).
//!
//! In: an application e-node. Out: its [`Verdict`] or the violated limit.
//! Notable limits: pooling rounds up
//! (`ceil_mode = 1`; floor mode is rewritten, `rules::nnie`); upsampling only
//! 2× nearest; Permute only NCHW→NHWC; `Clip` has no layer (rewritten to
//! ReLUs and scalar affine maps); a constant operand of Add/Mul only as a
//! scalar (Caffe Power) or one value per channel (Caffe Scale); `Pow` by a
//! constant scalar is a Caffe Power; Mul of a map by a per-channel `N×C×1×1` map is a
//! two-bottom Scale; Slice of one axis with step 1 (Caffe Slice). Depthwise convolution is a Caffe group
//! convolution the mapper accepts, so it is legal here; MQBench advises
//! against it (slow, and its deploy step writes no clip values for
//! `group != 1`), and the NNIE back-end (`onnc-nnie`) warns about it. Work is MACs for Conv/Gemm and elements for
//! the rest (NNIE's throughput is not public; one unit per MAC/element).
//!
//! ```
//! use onnc_legalize::targets::nnie::NATIVE_SIMPLE;
//! assert!(NATIVE_SIMPLE.contains(&"Softmax"));
//! ```

use crate::analysis::Graph;
use crate::cond::{self, within};
use crate::lang::{ENode, OpKey};
use crate::legality::{binary_broadcast, conv_macs, Verdict};
use crate::target::Target;

/// Ops NNIE runs with no further conditions.
pub const NATIVE_SIMPLE: &[&str] = &[
    "Relu",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "Concat",
    "LRN",
    "GlobalAveragePool",
    "GlobalMaxPool",
    "Flatten",
    "Split",
];

/// The most inputs of one Concat (the `nnie.concat` slots); more are
/// split into a tree (`rules::nnie`).
pub const CONCAT_MAX: usize = 16;

/// MACs (or elements) per unit of cost.
const PER_CYCLE: f64 = 1024.0;

/// The verdict for `node` on NNIE.
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
    let ew = Verdict::Native(elems / PER_CYCLE);
    match op {
        _ if NATIVE_SIMPLE.contains(&op)
            && !(op == "Concat" && node.children.len() > CONCAT_MAX) =>
        {
            Ok(ew)
        }
        "Conv" => {
            if x.len() != 4 || !cond::operand_const(eg, node, 1) {
                return Err(format!(
                    "Conv needs a 4-D input and constant weights on {t}"
                ));
            }
            within("Conv", "kernel", &cond::kernel(key), cfg.conv_kernel_max, t)?;
            within(
                "Conv",
                "stride",
                &cond::strides(key),
                cfg.conv_stride_max,
                t,
            )?;
            within("Conv", "pad", &cond::pads(key), cfg.conv_pad_max, t)?;
            Ok(Verdict::Native(conv_macs(eg, node, key, elems) / PER_CYCLE))
        }
        "Gemm" => {
            if key.int("transA").unwrap_or(0) != 0 || !cond::operand_const(eg, node, 1) {
                return Err(format!(
                    "Gemm needs transA=0 and constant B on {t} (InnerProduct)"
                ));
            }
            let k = cond::operand_shape(eg, node, 1)
                .map(|s| s.iter().product::<usize>())
                .unwrap_or(1);
            Ok(Verdict::Native(k as f64 / PER_CYCLE))
        }
        "MaxPool" | "AveragePool" => {
            if key.int("ceil_mode").unwrap_or(0) != 1 {
                return Err(format!(
                    "{op} with ceil_mode=0 is not supported by {t} (Caffe pooling rounds up)"
                ));
            }
            within(op, "kernel", &cond::kernel(key), cfg.pool_kernel_max, t)?;
            within(op, "stride", &cond::strides(key), cfg.pool_stride_max, t)?;
            Ok(ew)
        }
        "PRelu" | "BatchNormalization" => {
            if (1..node.children.len()).all(|i| cond::operand_const(eg, node, i)) {
                Ok(ew)
            } else {
                Err(format!("{op} parameters must be constant on {t}"))
            }
        }
        "Mul" if channel_gate(eg, node) => Ok(ew),
        "Concat" if node.children.len() > CONCAT_MAX => Err(format!(
            "Concat of {} inputs; {t}'s Concat takes at most {CONCAT_MAX}",
            node.children.len()
        )),
        "Add" | "Mul" | "Max" => {
            binary_broadcast(eg, node, op, target)?;
            eltwise_operands(eg, node, op, t)?;
            Ok(ew)
        }
        "Pow" => {
            let exponent = cond::operand_shape(eg, node, 1).map(|s| s.iter().product::<usize>());
            if !cond::operand_const(eg, node, 0)
                && cond::operand_const(eg, node, 1)
                && exponent == Some(1)
            {
                Ok(ew)
            } else {
                Err(format!(
                    "Pow runs on {t} only as a feature map to a constant scalar power (Caffe Power)"
                ))
            }
        }
        "Clip" => {
            let lo = node
                .children
                .get(1)
                .and_then(|c| crate::analysis::const_value(eg, *c));
            let hi = node
                .children
                .get(2)
                .and_then(|c| crate::analysis::const_value(eg, *c));
            let v = |t: Option<std::sync::Arc<onnc_tensor::Tensor>>| {
                t.and_then(|t| t.data().to_f64_vec().first().copied())
            };
            if cfg.relu6 && v(lo) == Some(0.0) && v(hi) == Some(6.0) {
                Ok(ew)
            } else {
                Err(format!(
                    "Clip runs on {t} only with constant scalar bounds lo <= hi (as ReLUs and Power layers)"
                ))
            }
        }
        "Reshape" => {
            if x.len() == 4 || cond::operand_const(eg, node, 1) {
                Ok(Verdict::Free)
            } else {
                Err(format!("Reshape must be 4-D with a constant shape on {t}"))
            }
        }
        "Slice" => {
            let out = eg
                .lookup(node.clone())
                .and_then(|id| eg[id].data.shape())
                .unwrap_or_default();
            super::nnie_slice::check(eg, node, &x, &out)
                .map(|()| Verdict::Free)
                .map_err(|e| format!("Slice runs on {t} only as {e}"))
        }
        "Transpose" => {
            if key.ints("perm") == Some(&[0, 2, 3, 1][..]) {
                Ok(ew)
            } else {
                Err(format!(
                    "Transpose other than Permute (0,2,3,1) is not supported by {t}"
                ))
            }
        }
        "ConvTranspose" => conv_transpose(eg, node, key, &x, cfg.conv_kernel_max, t).map(|()| ew),
        "Resize" => {
            let out = eg
                .lookup(node.clone())
                .and_then(|id| eg[id].data.shape())
                .unwrap_or_default();
            match resize_plan(key, &x, &out, cfg.conv_kernel_max)? {
                super::nnie_resize::ResizePlan::Upsample2 => Ok(ew),
                p => Err(format!(
                    "Resize {p:?} is one Upsample layer only when 2× nearest (it is rewritten, rules::nnie_resize)"
                )),
            }
        }
        "LayerNormalization" => Err(format!(
            "LayerNormalization runs on {t} only over the channels of an N×C×H×W map written channels-last \
             (Transpose(0, 2, 3, 1), then the layer norm over the last axis, as ConvNeXt does; \
             rule nnie/layer-norm-channels)"
        )),
        _ if cfg.cpu_ops.contains(&op) => Err(format!("{op} runs only on {t}'s CPU path")),
        _ => Err(format!("{op} is not supported by {t}")),
    }
}

/// A `ConvTranspose` that is a Caffe Deconvolution: 4-D, constant weights,
/// kernel and stride within `max`, symmetric pads, no dilation, no
/// `output_padding` / `output_shape`.
fn conv_transpose(
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    x: &[usize],
    max: usize,
    t: &str,
) -> Result<(), String> {
    if x.len() != 4 || !cond::operand_const(eg, node, 1) {
        return Err(format!(
            "ConvTranspose needs a 4-D input and constant weights on {t} (Deconvolution)"
        ));
    }
    within("ConvTranspose", "kernel", &cond::kernel(key), max, t)?;
    within("ConvTranspose", "stride", &cond::strides(key), max, t)?;
    let p = cond::pads(key);
    let extra = key
        .ints("output_padding")
        .is_some_and(|v| v.iter().any(|&o| o != 0))
        || key.ints("output_shape").is_some()
        || key.string("auto_pad").is_some_and(|a| a != "NOTSET")
        || cond::dilations(key).iter().any(|&d| d != 1);
    if extra || (p.len() == 4 && (p[0] != p[2] || p[1] != p[3])) {
        return Err(format!(
            "ConvTranspose runs on {t} only with symmetric pads, no dilation and no output_padding/output_shape (Caffe Deconvolution)"
        ));
    }
    Ok(())
}

/// [`super::nnie_resize::plan`] for a `Resize` key (ONNX attribute defaults).
pub fn resize_plan(
    key: &OpKey,
    x: &[usize],
    out: &[usize],
    kernel_max: usize,
) -> Result<super::nnie_resize::ResizePlan, String> {
    super::nnie_resize::plan(
        key.string("mode").unwrap_or("nearest"),
        key.string("coordinate_transformation_mode")
            .unwrap_or("half_pixel"),
        key.string("nearest_mode").unwrap_or("round_prefer_floor"),
        x,
        out,
        kernel_max,
    )
}

/// Whether a `Mul` is a feature map `N×C×H×W` times a computed per-channel
/// gate `N×C×1×1` (squeeze-excitation): a Caffe Scale with two bottoms.
fn channel_gate(eg: &Graph, node: &ENode) -> bool {
    let (Some(a), Some(b)) = (
        cond::operand_shape(eg, node, 0),
        cond::operand_shape(eg, node, 1),
    ) else {
        return false;
    };
    let konst = cond::operand_const(eg, node, 0) || cond::operand_const(eg, node, 1);
    let gate = |g: &[usize], x: &[usize]| {
        g.len() == 4 && x.len() == 4 && g[..2] == x[..2] && g[2..] == [1, 1]
    };
    !konst && (gate(&a, &b) || gate(&b, &a))
}

/// NNIE's forms of a binary op: two feature maps (Eltwise), or for `Add`
/// and `Mul` one feature map and a scalar constant (a Caffe Power layer) or
/// a per-channel constant `[C, 1, 1]` / `[1, C, 1, 1]` of an `N×C×H×W` map
/// (a Caffe Scale layer with a bias).
fn eltwise_operands(eg: &Graph, node: &ENode, op: &str, t: &str) -> Result<(), String> {
    let konst: Vec<bool> = (0..2).map(|i| cond::operand_const(eg, node, i)).collect();
    if !konst[0] && !konst[1] {
        return Ok(());
    }
    let c = if konst[1] { 1 } else { 0 };
    let shape = cond::operand_shape(eg, node, c).unwrap_or_default();
    let n: usize = shape.iter().product();
    let x = cond::operand_shape(eg, node, 1 - c).unwrap_or_default();
    if op != "Max" && !(konst[0] && konst[1]) && (n == 1 || per_channel(&shape, &x)) {
        Ok(())
    } else {
        Err(format!(
            "{op} with a constant operand runs on {t} only as Add/Mul by one scalar (Power) or by one value per channel of an N×C×H×W map (Scale); fold other constants into the Conv"
        ))
    }
}

/// Whether a constant of `shape` holds one value per channel of the 4-D
/// map `x` (`[C, 1, 1]` or `[1, C, 1, 1]`).
pub fn per_channel(shape: &[usize], x: &[usize]) -> bool {
    let trimmed = match shape {
        [1, rest @ ..] if rest.len() == 3 => rest,
        s => s,
    };
    x.len() == 4 && matches!(trimmed, [c, 1, 1] if *c == x[1])
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::{graph, ops_after};
    use crate::{legalize, Error, Target};
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    /// `Resize(x, scales = [1, 1, s, s], mode)` on a 1×2×4×4 input.
    fn resize(s: f32, mode: &str) -> onnc_onnx::Graph {
        let out = (4.0 * s) as usize;
        let n = Node::new("up", "Resize", &["x", "", "scales"], &["y"])
            .with_attr("mode", Attr::String(mode.into()));
        let scales = Tensor::from_f32(vec![4], vec![1.0, 1.0, s, s]).unwrap();
        graph(
            &[1, 2, 4, 4],
            &[1, 2, out, out],
            vec![n],
            vec![("scales", scales)],
        )
    }

    fn refusal(g: onnc_onnx::Graph) -> String {
        match legalize(g, Target::Nnie, &Default::default()) {
            Err(Error::Illegal { violations, .. }) => {
                assert_eq!(violations.len(), 1, "{violations:?}");
                format!("{}", violations[0])
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn two_times_nearest_upsampling_is_native() {
        assert_eq!(ops_after(resize(2.0, "nearest"), Target::Nnie), ["Resize"]);
    }

    #[test]
    fn other_upsampling_is_refused_at_the_node_naming_the_factor() {
        let msg = refusal(resize(2.5, "nearest"));
        assert!(
            msg.starts_with(
                "node 'up' (Resize): Resize factor 10/4 = 2.5 on rows is not an integer"
            ),
            "{msg}"
        );
        let msg = refusal(resize(20.0, "linear"));
        assert!(
            msg.starts_with(
                "node 'up' (Resize): bilinear Resize by 20×20 needs a Deconvolution kernel"
            ),
            "{msg}"
        );
    }

    #[test]
    fn unsupported_ops_are_refused_with_their_name() {
        let n = Node::new("e", "Sin", &["x"], &["y"]);
        let msg = refusal(graph(&[1, 2, 4, 4], &[1, 2, 4, 4], vec![n], vec![]));
        assert_eq!(msg, "node 'e' (Sin): Sin is not supported by nnie");
    }
}
