//! `Erf` on NNIE (GELU's `x·½·(1 + erf(x/√2))` in ConvNeXt and ViT): NNIE
//! has no Erf layer, but it has TanH, Eltwise PROD and SUM and Power, so
//! `erf` is written as the tanh form GELU's own approximation uses.
//!
//! In: `Erf(z)` of a float value. Out:
//! `Tanh(a·z + b·z³)` with `a = 2/√π` and `b = 0.044715·2·a`, the
//! substitution `x = √2·z` in GELU's tanh approximation
//! `tanh(√(2/π)·(x + 0.044715·x³))`.
//!
//! ```text
//! nnie/erf-as-tanh  (Erf z)  =>  (Tanh (Add (Mul z a) (Mul (Mul (Mul z z) z) b)))
//! ```
//!
//! Error (measured on a 1e-5 grid over [−6, 6], and over [−10, 10] for
//! GELU; beyond, both sides are ±1 in f32): `|erf − approx| ≤ 3.6e-4`
//! (worst near `z = ±1.83`), so GELU computed through it is within
//! `4.7e-4` of the exact GELU. The layers are 2 PROD, 2 Power, 1 SUM and
//! 1 TanH per Erf.

use super::{as_dtype, Cx, Rule};
use crate::target::Target;
use egg::Id;
use onnc_tensor::Tensor;

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "nnie/erf-as-tanh",
    deep: false,
    op: "Erf",
    targets: &[Target::Nnie],
    doc: "Erf(z) ≈ Tanh(a·z + b·z³), GELU's tanh form (|error| ≤ 3.6e-4)",
    apply: erf_as_tanh,
}];

/// `a = 2/√π`.
pub const A: f64 = std::f64::consts::FRAC_2_SQRT_PI;
/// `b = 0.044715·2·a`.
pub const B: f64 = 0.044715 * 2.0 * std::f64::consts::FRAC_2_SQRT_PI;

fn erf_as_tanh(cx: &mut Cx) -> Option<Id> {
    let z = cx.arg(0);
    let dtype = cx.ty(z)?.dtype;
    if !dtype.is_float() {
        return None;
    }
    let scalar = |cx: &mut Cx, suffix: &str, v: f64| {
        Some(cx.tensor(
            suffix,
            as_dtype(Tensor::from_f32(vec![], vec![v as f32]).ok()?, dtype),
        ))
    };
    let z2 = cx.op("Mul", Default::default(), &[z, z], "/z2");
    let z3 = cx.op("Mul", Default::default(), &[z2, z], "/z3");
    let a = scalar(cx, "a", A)?;
    let b = scalar(cx, "b", B)?;
    let az = cx.op("Mul", Default::default(), &[z, a], "/az");
    let bz3 = cx.op("Mul", Default::default(), &[z3, b], "/bz3");
    let u = cx.op("Add", Default::default(), &[az, bz3], "/poly");
    Some(cx.op("Tanh", Default::default(), &[u], "/tanh"))
}

#[cfg(test)]
mod tests {
    use super::{A, B};
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;

    #[test]
    fn the_approximation_is_within_its_documented_error() {
        let mut worst: f64 = 0.0;
        for i in -60_000..=60_000 {
            let z = f64::from(i) / 10_000.0;
            let approx = (A * z + B * z * z * z).tanh();
            worst = worst.max((approx - erf_reference(z)).abs());
        }
        assert!(worst < 3.6e-4 && worst > 3.5e-4, "worst {worst}");
    }

    #[test]
    fn erf_becomes_tanh_of_a_cubic_on_nnie_only() {
        let g = || {
            graph(
                &[1, 2, 3, 4],
                &[1, 2, 3, 4],
                vec![Node::new("e", "Erf", &["x"], &["y"])],
                vec![],
            )
        };
        let ops = ops_after(g(), Target::Nnie);
        assert_eq!(ops.iter().filter(|o| *o == "Tanh").count(), 1, "{ops:?}");
        assert!(!ops.iter().any(|o| o == "Erf"), "{ops:?}");
        // rand() is in [-1, 1): the approximation's error there is below 3.6e-4.
        same_numbers(g(), Target::Nnie, &[1, 2, 3, 4], 3.6e-4);
        assert_eq!(ops_after(g(), Target::NvFull), ["Erf"]);
    }
}
