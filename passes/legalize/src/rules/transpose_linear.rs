//! Channels-last linear work on an NCHW map is channel work: a layout
//! Transpose `NCHW → NHWC` sinks through a `MatMul` by a constant and a
//! `LayerNormalization` over the last axis (ConvNeXt's `nn.Linear` and
//! `LayerNorm` on NHWC), so it can meet the Transpose that undoes it.
//!
//! In: `MatMul(Transpose{0,2,3,1}(a), W[C, M])`, `a` = `[N, C, H, W]`;
//! `LayerNormalization(Transpose{0,2,3,1}(a), γ, β)` over the last axis
//! (axis −1 or 3, the normalized result only). Out: the Transpose of
//! * a 1×1 `Conv(a, Wᵀ[M, C, 1, 1])` (no bias; an `Add` after it sinks by
//!   `common/transpose-through-add`);
//! * the layer norm over the channels, written as NVDLA's token layer norm
//!   on the same bytes: `Reshape` to `[N, C, H·W]`, `Transpose{0,2,1}` (a
//!   view), `LayerNormalization` over the last axis (onnc-nvdla
//!   `lower::tokens`: 1×1 convolutions and the SDP's 1/√ table, so nv_full
//!   and nv_large; nv_small refuses it by name), `Transpose{0,2,1}` and
//!   `Reshape` back to `[N, C, H, W]`.
//!
//! ```text
//! common/transpose-through-matmul     (MatMul (Transpose{0,2,3,1} a) W)
//!                                     => (Transpose{0,2,3,1} (Conv a Wᵀ))
//! nvdla/transpose-through-layer-norm  (LayerNormalization (Transpose{0,2,3,1} a) γ β)
//!                                     => (Transpose{0,2,3,1} (Reshape (Transpose{0,2,1}
//!                                          (LayerNormalization (Transpose{0,2,1} (Reshape a [N,C,HW])) γ β)) [N,C,H,W]))
//! ```

use super::gemm::conv_1x1;
use super::transpose_eltwise::{transpose, transposed};
use super::{as_dtype, attrs, Cx, Rule, NVDLA, NVDLA_NNIE};
use egg::Id;
use onnc_tensor::{Attr, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/transpose-through-matmul",
        deep: true,
        op: "MatMul",
        targets: NVDLA_NNIE,
        doc: "a MatMul by a constant [C, M] of an NCHW → NHWC Transpose is the Transpose of a 1×1 Conv",
        apply: through_matmul,
    },
    Rule {
        name: "nvdla/transpose-through-layer-norm",
        deep: true,
        op: "LayerNormalization",
        targets: NVDLA,
        doc: "a LayerNorm over the last axis of an NCHW → NHWC Transpose is the Transpose of a channel LayerNorm",
        apply: through_layer_norm,
    },
];

/// The NCHW → NHWC permutation.
const TO_NHWC: [usize; 4] = [0, 2, 3, 1];

/// `a` when class `id` holds `Transpose{0,2,3,1}(a)`.
fn from_nchw(cx: &Cx, id: Id) -> Option<Id> {
    transposed(cx, id).and_then(|(a, p)| (p == TO_NHWC).then_some(a))
}

fn through_matmul(cx: &mut Cx) -> Option<Id> {
    let a = from_nchw(cx, cx.arg(0))?;
    let (w_id, c) = (cx.arg(1), cx.shape(a)?[1]);
    let w = cx.value(w_id)?;
    if w.rank() != 2 || w.shape()[0] != c || !w.dtype().is_float() {
        return None;
    }
    let m = w.shape()[1];
    let v = w.data().to_f64_vec();
    let wt: Vec<f32> = (0..m * c).map(|i| v[(i % c) * m + i / c] as f32).collect();
    let wt = as_dtype(Tensor::from_f32(vec![m, c, 1, 1], wt).ok()?, w.dtype());
    let wt = cx.tensor("conv_w", wt);
    let conv = conv_1x1(cx, a, wt, "/conv");
    Some(transpose(cx, conv, &TO_NHWC, "/to_nhwc"))
}

fn through_layer_norm(cx: &mut Cx) -> Option<Id> {
    let axis = cx.key.int("axis").unwrap_or(-1);
    if !(axis == -1 || axis == 3) || cx.key.n_out != 1 {
        return None;
    }
    let a = from_nchw(cx, cx.arg(0))?;
    let s = cx.shape(a)?;
    let (n, c, h, w) = (s[0] as i64, s[1] as i64, s[2] as i64, s[3] as i64);
    let reshape = || attrs(&[("allowzero", Attr::Int(0))]);
    let flat = cx.ints("tokens_shape", &[n, c, h * w]);
    let r = cx.op("Reshape", reshape(), &[a, flat], "/flat");
    let t = transpose(cx, r, &[0, 2, 1], "/tokens");
    let mut args = vec![t];
    args.extend((1..cx.arity()).map(|i| cx.arg(i)));
    // The matched name: calibration keys its inner tensors by it.
    let ln = cx.op("LayerNormalization", cx.key.to_attrs(), &args, "");
    let back = transpose(cx, ln, &[0, 2, 1], "/channel_major");
    let map = cx.ints("map_shape", &[n, c, h, w]);
    let y = cx.op("Reshape", reshape(), &[back, map], "/map");
    Some(transpose(cx, y, &TO_NHWC, "/to_nhwc"))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::{legalize, Options, Target};
    use onnc_onnx::Node;
    use onnc_tensor::Attr;

    /// ConvNeXt's block body on `[1, C, H, W]`: to NHWC, LayerNorm,
    /// Linear C → 2C (MatMul + bias first), Linear 2C → C, back to NCHW.
    fn block(c: usize) -> onnc_onnx::Graph {
        graph(
            &[1, c, 3, 4],
            &[1, c, 3, 4],
            vec![
                tr("in", &[0, 2, 3, 1], "x", "t"),
                Node::new("ln", "LayerNormalization", &["t", "g", "b"], &["l"])
                    .with_attr("axis", Attr::Int(-1))
                    .with_attr("epsilon", Attr::Float(1e-6)),
                Node::new("fc1", "MatMul", &["l", "w1"], &["h"]),
                Node::new("b1", "Add", &["c1", "h"], &["hb"]),
                Node::new("fc2", "MatMul", &["hb", "w2"], &["o"]),
                tr("out", &[0, 3, 1, 2], "o", "y"),
            ],
            vec![
                ("g", w(&[c], 1)),
                ("b", w(&[c], 2)),
                ("w1", w(&[c, 2 * c], 3)),
                ("c1", w(&[2 * c], 4)),
                ("w2", w(&[2 * c, c], 5)),
            ],
        )
    }

    #[test]
    fn a_channels_last_block_becomes_convs_and_a_token_layer_norm() {
        let ops = ops_after(block(8), Target::NvFull);
        assert_eq!(ops.iter().filter(|o| *o == "Conv").count(), 2, "{ops:?}");
        assert!(!ops.iter().any(|o| o == "MatMul"), "{ops:?}");
        // Only the two 3-D [0, 2, 1] views around the layer norm remain.
        let r = legalize(block(8), Target::NvFull, &Options::default()).unwrap();
        for n in r.graph.nodes.iter().filter(|n| n.op_type == "Transpose") {
            assert_eq!(
                n.attrs.get("perm"),
                Some(&Attr::Ints(vec![0, 2, 1])),
                "{}",
                n.name
            );
        }
        same_numbers(block(8), Target::NvFull, &[1, 8, 3, 4], 1e-4);
    }

    #[test]
    fn on_nv_small_the_channel_layer_norm_moves_too_and_keeps_its_name() {
        // nv_small takes the token layer norm's 1/√ from the EMU (onnc-nvdla
        // `lower::tokens`): the same legal form as nv_full, the same numbers.
        let r = legalize(block(8), Target::NvSmall, &Options::default()).unwrap();
        let ln: Vec<_> = r
            .graph
            .nodes
            .iter()
            .filter(|n| n.op_type == "LayerNormalization")
            .collect();
        // The calibrator keys the inner tensors by the ONNX node's name.
        assert_eq!(ln.len(), 1);
        assert_eq!(ln[0].name, "ln");
        same_numbers(block(8), Target::NvSmall, &[1, 8, 3, 4], 1e-4);
    }

    #[test]
    fn a_layer_norm_over_another_axis_does_not_move() {
        let mut g = block(8);
        g.nodes[1] = Node::new("ln", "LayerNormalization", &["t", "g", "b"], &["l"])
            .with_attr("axis", Attr::Int(2));
        g.initializers[0].1 = w(&[4, 8], 1);
        g.initializers[1].1 = w(&[4, 8], 2);
        let e = legalize(g, Target::NvFull, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("node 'ln'") || e.contains("node 'in'"), "{e}");
    }
}
