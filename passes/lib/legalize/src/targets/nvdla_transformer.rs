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
            "LayerNormalization of {} over axis {} needs the mean and variance of every position across that axis; {t}'s engines reduce only spatial windows (PDP) and up to 9 neighbouring channels (CDP), so it is not mapped",
            dims(x),
            key.int("axis").unwrap_or(-1)
        ),
        "MatMul" => {
            let b = cond::operand_shape(eg, node, 1).unwrap_or_default();
            if cond::operand_const(eg, node, 1) {
                format!(
                    "MatMul of a {}-D activation {} by a constant {}: {t} runs a MatMul by a constant as a 1×1 convolution only for a 2-D [N, K] activation (reshape the tokens into the batch, or use Gemm)",
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
            "Transpose of {} by perm {:?} (to {}) moves data across spatial or batch axes; {t} maps only channel permutations (a 1×1 convolution)",
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
