//! Why the transformer ops that reach NVDLA's legality check unmapped are
//! refused, in terms of the hardware (issue 19 item 10).
//!
//! In: the e-node of a `LayerNormalization`, `MatMul`, `Transpose` or
//! `Gather` that no rewrite turned into something NVDLA runs, its first
//! operand's shape `x` and result shape `out`. Out: the refusal message,
//! naming the shapes and what is missing. (A 2-D `MatMul` by a constant
//! became a 1×1 convolution before this check, a channel `Transpose` a
//! permutation convolution, and `Erf` runs on the SDP lookup table: see
//! [`super::nvdla`].)

use crate::analysis::Graph;
use crate::cond;
use crate::lang::{ENode, OpKey};

/// Whether `node` (a `MatMul` whose first operand has shape `x`) multiplies
/// a 3-D token activation `[N, T, K]` by a constant `[K, M]`: a 1×1
/// convolution over the cube `[N, K, T, 1]` (tokens as positions).
pub fn token_matmul(eg: &Graph, node: &ENode, x: &[usize]) -> bool {
    let b = cond::operand_shape(eg, node, 1).unwrap_or_default();
    x.len() == 3
        && !cond::operand_const(eg, node, 0)
        && cond::operand_const(eg, node, 1)
        && b.len() == 2
        && b[0] == x[2]
}

/// Whether a `LayerNormalization` (attributes `key`) of a value of shape
/// `x` normalizes the features of 3-D tokens `[N, T, K]` (axis −1 or 2),
/// keeping only the normalized result.
pub fn token_layer_norm(key: &OpKey, x: &[usize]) -> bool {
    let axis = key.int("axis").unwrap_or(-1);
    x.len() == 3 && (axis == -1 || axis == 2) && key.n_out == 1
}

/// Whether binary `node` combines a 3-D token activation `[N, T, K]` with
/// a constant holding one value per feature (`[K]`, `[1, K]`, `[1, 1, K]`):
/// the per-channel operand of the cube `[N, K, T, 1]` (a bias).
pub fn token_operand(eg: &Graph, node: &ENode) -> bool {
    let shape = |i| cond::operand_shape(eg, node, i).unwrap_or_default();
    let (a, b) = (shape(0), shape(1));
    let per_feature = |x: &[usize], c: &[usize]| {
        x.len() == 3
            && !c.is_empty()
            && c.len() <= 3
            && c.last() == x.last()
            && c.iter().rev().skip(1).all(|&d| d == 1)
    };
    node.children.len() == 2
        && ((cond::operand_const(eg, node, 1)
            && !cond::operand_const(eg, node, 0)
            && per_feature(&a, &b))
            || (cond::operand_const(eg, node, 0)
                && !cond::operand_const(eg, node, 1)
                && per_feature(&b, &a)))
}

fn dims(v: &[usize]) -> String {
    format!("{v:?}")
}

/// The refusal of `node` (an op named in the module doc) on target `t`.
pub fn refusal(
    eg: &Graph,
    node: &ENode,
    key: &OpKey,
    x: &[usize],
    out: &[usize],
    t: &str,
) -> String {
    match key.op_type.as_str() {
        "LayerNormalization" => format!(
            "LayerNormalization of {} over axis {} (with {} results): {t} maps it only over the last axis of 3-D tokens [N, T, K], where the features are channels and their mean and variance are 1×1 convolutions, and only its normalized result",
            dims(x),
            key.int("axis").unwrap_or(-1),
            key.n_out
        ),
        "MatMul" => {
            let b = cond::operand_shape(eg, node, 1).unwrap_or_default();
            if cond::operand_const(eg, node, 1) {
                format!(
                    "MatMul of a {}-D activation {} by a constant {}: {t} runs a MatMul by a constant [K, M] as a 1×1 convolution only for a 2-D [N, K] or a 3-D token [N, T, K] activation",
                    x.len(),
                    dims(x),
                    dims(&b)
                )
            } else {
                format!(
                    "MatMul of two activations {} × {}: {t}'s convolution reads its weights only from constant weight memory, and no engine multiplies two activations along an axis, so it is not mapped",
                    dims(x),
                    dims(&b)
                )
            }
        }
        "Transpose" => format!(
            "Transpose of {} by perm {:?} (to {}) moves data across spatial or batch axes; {t} maps only channel permutations (a 1×1 convolution) and the 3-D [0, 2, 1] between channels and tokens (a view)",
            dims(x),
            key.ints("perm").unwrap_or_default(),
            dims(out)
        ),
        _ => format!(
            "Gather along axis {} of {} is not supported by {t} (no engine gathers; a constant index on channels is a Slice, which maps)",
            key.int("axis").unwrap_or(0),
            dims(x)
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::{legalize, Options, Target};
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn w(shape: &[usize], seed: u64) -> Tensor {
        Tensor::from_f32(shape.to_vec(), rand(shape.iter().product(), seed)).unwrap()
    }

    /// `[1, K, T]` → Transpose → LayerNorm → MatMul + bias → Transpose back.
    fn block(k: usize, t: usize) -> onnc_onnx::Graph {
        let perm = || Attr::Ints(vec![0, 2, 1]);
        graph(
            &[1, k, t],
            &[1, 2 * k, t],
            vec![
                Node::new("in", "Transpose", &["x"], &["tok"]).with_attr("perm", perm()),
                Node::new("ln", "LayerNormalization", &["tok", "g", "b"], &["l"])
                    .with_attr("axis", Attr::Int(-1)),
                Node::new("fc", "MatMul", &["l", "w"], &["h"]),
                Node::new("bias", "Add", &["h", "c"], &["o"]),
                Node::new("out", "Transpose", &["o"], &["y"]).with_attr("perm", perm()),
            ],
            vec![
                ("g", w(&[k], 1)),
                ("b", w(&[k], 2)),
                ("w", w(&[k, 2 * k], 3)),
                ("c", w(&[2 * k], 4)),
            ],
        )
    }

    #[test]
    fn token_ops_are_legal_on_nv_full_as_they_are() {
        assert_eq!(
            ops_after(block(16, 6), Target::NvFull),
            [
                "Transpose",
                "LayerNormalization",
                "MatMul",
                "Add",
                "Transpose"
            ]
        );
    }

    #[test]
    fn without_a_lookup_table_the_token_ops_are_legal_too() {
        // nv_small has no 1/√ table: the lowering takes it from the EMU's
        // power op (onnc-nvdla `lower::tokens`).
        assert_eq!(
            ops_after(block(16, 6), Target::NvSmall),
            ops_after(block(16, 6), Target::NvFull)
        );
    }

    #[test]
    fn a_matmul_of_two_activations_and_a_4d_transpose_stay_refused_in_order() {
        let g = graph(
            &[1, 2, 4, 4],
            &[1, 2, 4, 4],
            vec![
                Node::new("t", "Transpose", &["x"], &["xt"])
                    .with_attr("perm", Attr::Ints(vec![0, 1, 3, 2])),
                Node::new("mm", "MatMul", &["x", "xt"], &["y"]),
            ],
            vec![],
        );
        let e = legalize(g, Target::NvFull, &Options::default())
            .unwrap_err()
            .to_string();
        let (t, mm) = (e.find("node 't'").unwrap(), e.find("node 'mm'").unwrap());
        assert!(t < mm, "{e}");
        assert!(
            e.contains("MatMul of two activations [1, 2, 4, 4] × [1, 2, 4, 4]"),
            "{e}"
        );
        assert!(e.contains("moves data across spatial or batch axes"), "{e}");
    }

    #[test]
    fn a_per_token_constant_is_not_a_bias() {
        // [T, 1] varies along the tokens: neither per feature nor per element.
        let g = graph(
            &[1, 6, 16],
            &[1, 6, 16],
            vec![Node::new("add", "Add", &["x", "c"], &["y"])],
            vec![("c", w(&[6, 1], 5))],
        );
        let e = legalize(g, Target::NvFull, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("node 'add'"), "{e}");
    }
}
