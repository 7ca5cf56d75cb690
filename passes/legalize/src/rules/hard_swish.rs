//! HardSwish without a lookup table: `HardSwish(x)` → `Mul(x,
//! HardSigmoid(x; α = 1/6, β = 0.5))`.
//!
//! In: `HardSwish(x)` on an NVDLA configuration without the SDP lookup
//! table (nv_small). Out: the product of `x` and its hard sigmoid, which
//! the X units compute (`HardSigmoid` = clamp(αx + β, 0, 1): an affine step,
//! ReLU, `min(·, 1)`) and an element-wise `Mul`. Where the LUT exists
//! (nv_full, nv_large) the rule does not fire: `HardSwish` is one SDP pass
//! there and the lowering composes `Mul(x, HardSigmoid(x))` back into it.
//!
//! ```text
//! nvdla/hard-swish-to-mul-hard-sigmoid  (HardSwish x) => (Mul x (HardSigmoid{α=1/6, β=0.5} x))
//! ```

use super::{attrs, Cx, Rule, NVDLA};
use egg::Id;
use onnc_tensor::Attr;

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nvdla/hard-swish-to-mul-hard-sigmoid",
    deep: false,
    op: "HardSwish",
    targets: NVDLA,
    doc: "HardSwish(x) = x · HardSigmoid(x; 1/6, 0.5), on the X units where there is no LUT",
    apply: hard_swish,
}];

fn hard_swish(cx: &mut Cx) -> Option<Id> {
    if cx.cfg.has_lut || !cx.has(0) {
        return None;
    }
    let x = cx.arg(0);
    let gate = attrs(&[
        ("alpha", Attr::Float(1.0 / 6.0)),
        ("beta", Attr::Float(0.5)),
    ]);
    let hs = cx.op("HardSigmoid", gate, &[x], "/hardsigmoid");
    Some(cx.op("Mul", Default::default(), &[x, hs], ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;

    fn hard_swish() -> onnc_onnx::Graph {
        graph(
            &[1, 3, 4, 4],
            &[1, 3, 4, 4],
            vec![Node::new("hs", "HardSwish", &["x"], &["y"])],
            vec![],
        )
    }

    #[test]
    fn hard_swish_is_mul_of_hard_sigmoid_on_nv_small() {
        assert_eq!(
            ops_after(hard_swish(), Target::NvSmall),
            ["HardSigmoid", "Mul"]
        );
        same_numbers(hard_swish(), Target::NvSmall, &[1, 3, 4, 4], 1e-6);
    }

    #[test]
    fn hard_swish_stays_one_lut_op_where_there_is_a_lut() {
        assert_eq!(ops_after(hard_swish(), Target::NvFull), ["HardSwish"]);
        assert_eq!(ops_after(hard_swish(), Target::NvLarge), ["HardSwish"]);
    }
}
