//! A channels-last `LayerNormalization` on NNIE (ConvNeXt): the layer norm
//! over the last axis of an `NCHW → NHWC` Transpose is the layer norm over
//! the channels of the NCHW map, which NNIE computes with Caffe layers it
//! has — 1×1 Convolutions with weights of ones, Eltwise SUM and PROD, and
//! Power layers (`y = (shift + scale·x)^power`).
//!
//! In: `LayerNormalization(Transpose{0,2,3,1}(a), γ, β)` over the last axis
//! (axis −1 or 3; the normalized result only), `a` = `[N, C, H, W]`,
//! constant `γ` and `β` of `C` values. Out: the Transpose of
//!
//! ```text
//! s  = Conv(a, 1[1, C, 1, 1])            Σ_c x              one channel
//! m  = Conv(Mul(s, −1/C), 1[C, 1, 1, 1])  −μ on every channel
//! d  = Add(a, m)                          x − μ              Eltwise SUM
//! v  = Add(Mul(Conv(Mul(d, d), 1[1, C, 1, 1]), 1/C), ε)       Σ_c d², Power, Power
//! r  = Conv(Pow(v, −0.5), 1[C, 1, 1, 1])  1/√(σ² + ε) on every channel
//! y  = Add(Mul(Mul(d, r), γ), β)          Eltwise PROD, per-channel Scale
//! ```
//!
//! ```text
//! nnie/layer-norm-channels  (LayerNormalization (Transpose{0,2,3,1} a) γ β)
//!                           => (Transpose{0,2,3,1} y)
//! ```
//!
//! Exact up to f32 rounding: the convolutions' weights are ones (exact in
//! NNIE's logarithmic weight code, where `1/C` would not be) and the `1/C`
//! is a float Power. The Transpose then sinks through the MatMuls and
//! element-wise ops after it (`common/transpose-through-*`) and cancels
//! with the one that undoes it (`common/transpose-transpose`).

use super::gemm::conv_1x1 as conv;
use super::transpose_eltwise::{transpose, transposed};
use super::{as_dtype, Cx, Rule};
use crate::target::Target;
use egg::Id;
use onnc_tensor::Tensor;

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nnie/layer-norm-channels",
    deep: true,
    op: "LayerNormalization",
    targets: &[Target::Nnie],
    doc: "a LayerNorm over the last axis of an NCHW → NHWC Transpose as ones-Convs, Eltwise and Power layers on the NCHW map",
    apply: layer_norm_channels,
}];

/// The NCHW → NHWC permutation.
const TO_NHWC: [usize; 4] = [0, 2, 3, 1];

fn layer_norm_channels(cx: &mut Cx) -> Option<Id> {
    let axis = cx.key.int("axis").unwrap_or(-1);
    if !(axis == -1 || axis == 3) || cx.key.n_out != 1 {
        return None;
    }
    let (a, p) = transposed(cx, cx.arg(0))?;
    if p != TO_NHWC {
        return None;
    }
    let dtype = cx.ty(a)?.dtype;
    if !dtype.is_float() {
        return None;
    }
    let c = cx.shape(a)?[1];
    let gamma = cx.floats(cx.arg(1)).filter(|v| v.len() == c)?;
    let beta = if cx.has(2) {
        cx.floats(cx.arg(2)).filter(|v| v.len() == c)?
    } else {
        vec![0.0; c]
    };
    let eps = cx.key.float("epsilon").unwrap_or(1e-5);
    let k = |cx: &mut Cx, suffix: &str, shape: Vec<usize>, v: Vec<f32>| -> Option<Id> {
        let t = Tensor::from_f32(shape, v).ok()?;
        Some(cx.tensor(suffix, as_dtype(t, dtype)))
    };
    let sum_w = k(cx, "sum_w", vec![1, c, 1, 1], vec![1.0; c])?;
    let spread_w = k(cx, "spread_w", vec![c, 1, 1, 1], vec![1.0; c])?;
    let scalar = |cx: &mut Cx, suffix: &str, v: f32| k(cx, suffix, vec![], vec![v]);

    let s = conv(cx, a, sum_w, "/sum");
    let neg_inv_c = scalar(cx, "neg_inv_c", -1.0 / c as f32)?;
    let neg_mean = cx.op("Mul", Default::default(), &[s, neg_inv_c], "/neg_mean");
    let m = conv(cx, neg_mean, spread_w, "/neg_mean_spread");
    let d = cx.op("Add", Default::default(), &[a, m], "/centred");
    let sq = cx.op("Mul", Default::default(), &[d, d], "/square");
    let sq_sum = conv(cx, sq, sum_w, "/square_sum");
    let inv_c = scalar(cx, "inv_c", 1.0 / c as f32)?;
    let var = cx.op("Mul", Default::default(), &[sq_sum, inv_c], "/variance");
    let eps = scalar(cx, "epsilon", eps)?;
    let var_eps = cx.op("Add", Default::default(), &[var, eps], "/variance_eps");
    let half = scalar(cx, "minus_half", -0.5)?;
    let rsqrt = cx.op("Pow", Default::default(), &[var_eps, half], "/rsqrt");
    let r = conv(cx, rsqrt, spread_w, "/rsqrt_spread");
    let normed = cx.op("Mul", Default::default(), &[d, r], "/normalized");
    let g = k(cx, "gamma", vec![1, c, 1, 1], gamma)?;
    let scaled = cx.op("Mul", Default::default(), &[normed, g], "/gamma");
    let b = k(cx, "beta", vec![1, c, 1, 1], beta)?;
    let y = cx.op("Add", Default::default(), &[scaled, b], "/beta");
    Some(transpose(cx, y, &TO_NHWC, "/to_nhwc"))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::{legalize, Options, Target};
    use onnc_onnx::Node;
    use onnc_tensor::Attr;

    /// ConvNeXt's LayerNorm2d on `[1, C, 3, 4]`: to NHWC, LayerNorm, back.
    fn layer_norm_2d(c: usize, eps: f32) -> onnc_onnx::Graph {
        graph(
            &[1, c, 3, 4],
            &[1, c, 3, 4],
            vec![
                tr("in", &[0, 2, 3, 1], "x", "t"),
                Node::new("ln", "LayerNormalization", &["t", "g", "b"], &["l"])
                    .with_attr("axis", Attr::Int(-1))
                    .with_attr("epsilon", Attr::Float(eps)),
                tr("out", &[0, 3, 1, 2], "l", "y"),
            ],
            vec![("g", w(&[c], 1)), ("b", w(&[c], 2))],
        )
    }

    #[test]
    fn a_channels_last_layer_norm_becomes_nnie_layers_with_the_same_numbers() {
        let ops = ops_after(layer_norm_2d(8, 1e-6), Target::Nnie);
        assert!(!ops.iter().any(|o| o == "LayerNormalization"), "{ops:?}");
        assert!(!ops.iter().any(|o| o == "Transpose"), "{ops:?}");
        assert_eq!(ops.iter().filter(|o| *o == "Conv").count(), 4, "{ops:?}");
        assert_eq!(ops.iter().filter(|o| *o == "Pow").count(), 1, "{ops:?}");
        same_numbers(layer_norm_2d(8, 1e-6), Target::Nnie, &[1, 8, 3, 4], 1e-5);
        same_numbers(layer_norm_2d(96, 1e-5), Target::Nnie, &[1, 96, 3, 4], 1e-5);
    }

    #[test]
    fn the_rule_is_nnie_only_and_needs_the_channels_last_transpose() {
        // nv_full keeps its own token layer norm.
        let ops = ops_after(layer_norm_2d(8, 1e-6), Target::NvFull);
        assert!(ops.iter().any(|o| o == "LayerNormalization"), "{ops:?}");
        // A layer norm over the last axis of a plain 4-D map (no Transpose)
        // normalizes rows of W, not channels: NNIE refuses it, naming the form it runs.
        let g = graph(
            &[1, 2, 3, 4],
            &[1, 2, 3, 4],
            vec![
                Node::new("ln", "LayerNormalization", &["x", "g", "b"], &["y"])
                    .with_attr("axis", Attr::Int(-1)),
            ],
            vec![("g", w(&[4], 1)), ("b", w(&[4], 2))],
        );
        let e = legalize(g, Target::Nnie, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "node 'ln' (LayerNormalization): LayerNormalization runs on nnie only over the channels of an N×C×H×W map written channels-last"
            ),
            "{e}"
        );
    }
}
