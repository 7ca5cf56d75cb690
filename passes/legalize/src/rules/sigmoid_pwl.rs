//! Sigmoid, Tanh and Erf without a lookup table: a sum of weighted ramps.
//!
//! In: `Sigmoid(x)`, `Tanh(x)` or `Erf(x)` on an NVDLA configuration without
//! the SDP lookup table (nv_small). Out: a piecewise-linear approximation made of
//! ops the X units run,
//!
//! ```text
//! σ(x) ≈ f(x) = Σ_i w_i · HardSigmoid(x; α_i, β_i)        (w_i > 0, Σ w_i = 1)
//! tanh(x) = 2σ(2x) − 1 ≈ Σ_i 2w_i · HardSigmoid(x; 2α_i, β_i) − 1
//! ```
//!
//! Each ramp `HardSigmoid(x; α_i, β_i) = clamp(α_i·x + β_i, 0, 1)` rises
//! over one segment `[t_i, t_{i+1}]` of the fitted function, and its weight
//! is that segment's rise, so the sum interpolates the fit [`FIT`]:
//! odd-symmetric about `(0, ½)`, 0 left of `−b_K` and 1 right of `b_K`, the
//! minimax fit of `tools/sigmoid_pwl_fit.py`. [`MAX_ERROR`] bounds
//! `|f − σ|` over the real line (`2·MAX_ERROR` for tanh).
//!
//! | segments | max \|f − σ\| | SDP passes | INT8 on nv_small vs exact σ(6x) |
//! |---|---|---|---|
//! | 3 | 0.0176 | 5 | 0.0266 |
//! | **5** (used) | 0.0102 | 9 | 0.0219 |
//! | 7 | 0.0093 | 13 | 0.0209 |
//!
//! (INT8 column: onnc-nvdla `tests/simulate/sigmoid.rs`,
//! `int8_sigmoid_error_by_segment_count`; one output step is 1/127 =
//! 0.0079, and the input's own rounding through σ's slope is most of the
//! rest, so 7 segments buy 0.001 for 4 more passes.)
//!
//! Ops per Sigmoid, with `n` = [`SEGMENTS`]: `n` HardSigmoid, `n` Mul by a
//! constant (each pair one SDP pass: `(x + β/α)·α`, ReLU on X1,
//! `min(·, 1)`·w on X2), `n − 1` element-wise Adds (one SDP pass each):
//! `2n − 1` = 9 passes; Tanh adds one `Add(·, −1)`. Every ramp term lies in
//! `[0, w_i]` and every partial sum in `[0, 1]`, so the INT8 scales of the
//! new tensors follow from the ops (onnc-nvdla `ctable::bounds`), with no
//! calibration of their own.
//!
//! `Erf` (GELU's) is the same shape: `erf(z) = 2Φ(√2·z) − 1` with `Φ` the
//! standard normal CDF, odd-symmetric about `(0, ½)` like σ, so a fit of
//! `Φ` ([`PHI_FIT`], `tools/sigmoid_pwl_fit.py --phi`, 5 segments) gives
//! erf as Tanh's form does: `|f − erf| ≤ 2·PHI_FIT.max_error` = 0.0264 (rounded values);
//! GELU `x·Φ(x)` through it is within `0.0132·|x|`.
//!
//! Where the LUT exists (nv_full, nv_large) the rules do not fire: one SDP
//! pass evaluates the exact function there.
//!
//! ```text
//! nvdla/sigmoid-to-ramps  (Sigmoid x) => (Add … (Mul (HardSigmoid{α_i, β_i} x) w_i) …)
//! nvdla/tanh-to-ramps     (Tanh x)    => (Add (Add … (Mul (HardSigmoid{2α_i, β_i} x) 2w_i) …) −1)
//! nvdla/erf-to-ramps      (Erf x)     => (Add (Add … (Mul (HardSigmoid{√2·α'_i, β'_i} x) 2w'_i) …) −1)   (α', β', w' of PHI_FIT)
//! ```

use super::{attrs, Cx, Rule, NVDLA};
use egg::Id;
use onnc_tensor::{Attr, Attrs, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nvdla/sigmoid-to-ramps",
        deep: false,
        op: "Sigmoid",
        targets: NVDLA,
        doc: "Sigmoid(x) ≈ Σ w_i·HardSigmoid_i(x), a minimax piecewise-linear fit, where there is no LUT",
        apply: sigmoid,
    },
    Rule {
        name: "nvdla/tanh-to-ramps",
        deep: false,
        op: "Tanh",
        targets: NVDLA,
        doc: "Tanh(x) = 2σ(2x) − 1 ≈ Σ 2w_i·HardSigmoid_i(2x) − 1, where there is no LUT",
        apply: tanh,
    },
    Rule {
        name: "nvdla/erf-to-ramps",
        deep: false,
        op: "Erf",
        targets: NVDLA,
        doc: "Erf(x) = 2Φ(√2·x) − 1 ≈ Σ 2w_i·HardSigmoid_i(√2·x) − 1 (a fit of the normal CDF Φ), where there is no LUT",
        apply: erf,
    },
];

/// One odd-symmetric piecewise-linear fit of σ: `f(±b_k) = ½ ± (v_k − ½)`,
/// linear between, 0 left of `−b_K`, 1 right of `b_K`; `2K − 1` segments.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// Breakpoints `b_1 < … < b_K` of the positive half.
    pub breaks: &'static [f64],
    /// `f(b_k)`; the last is 1.
    pub values: &'static [f64],
    /// Max `|f − σ|` over the real line (measured on a 10⁻³ grid by
    /// `max_errors_are_the_documented_bounds`).
    pub max_error: f64,
}

/// The minimax fits of `tools/sigmoid_pwl_fit.py`, K = 2, 3, 4 (3, 5 and
/// 7 segments).
pub const FITS: &[Fit] = &[
    Fit {
        breaks: &[1.6539, 4.034],
        values: &[0.85704, 1.0],
        max_error: 0.017616,
    },
    Fit {
        breaks: &[1.3342, 2.329, 4.5917],
        values: &[0.80178, 0.92021, 1.0],
        max_error: 0.010234,
    },
    Fit {
        breaks: &[1.2925, 2.4521, 3.7876, 4.9269],
        values: &[0.79394, 0.92856, 0.97387, 1.0],
        max_error: 0.009344,
    },
];

/// The minimax fit of the standard normal CDF `Φ(x) = (1 + erf(x/√2))/2`
/// by `tools/sigmoid_pwl_fit.py --phi 3` (5 segments), for `Erf`.
pub const PHI_FIT: Fit = Fit {
    breaks: &[0.8156, 1.7943, 4.7469],
    values: &[0.80588, 0.97678, 1.0],
    max_error: 0.0132,
};

/// The fit the rules use (chosen by the INT8 error measured on the
/// simulator: onnc-nvdla `tests/simulate/sigmoid.rs`).
pub const FIT: Fit = FITS[1];
/// The fit's bound on `|f − σ|`.
pub const MAX_ERROR: f64 = FIT.max_error;
/// Segments of the fit, `2K − 1`: the ramps (HardSigmoid, Mul) per Sigmoid.
pub const SEGMENTS: usize = 2 * FIT.breaks.len() - 1;

impl Fit {
    /// The ramps: `(α, β, w)` with `HardSigmoid(x; α, β)` rising over one
    /// segment and `w` its rise; in segment order (left to right).
    pub fn ramps(&self) -> Vec<(f64, f64, f64)> {
        let mut xs: Vec<f64> = self.breaks.iter().rev().map(|b| -b).collect();
        let mut ys: Vec<f64> = self.values.iter().rev().map(|v| 1.0 - v).collect();
        xs.extend(self.breaks);
        ys.extend(self.values);
        (1..xs.len())
            .map(|i| {
                let alpha = 1.0 / (xs[i] - xs[i - 1]);
                (alpha, -xs[i - 1] * alpha, ys[i] - ys[i - 1])
            })
            .collect()
    }

    /// The fit at `x`: `Σ w · clamp(αx + β, 0, 1)`.
    pub fn at(&self, x: f64) -> f64 {
        self.ramps()
            .iter()
            .map(|&(a, b, w)| w * (a * x + b).clamp(0.0, 1.0))
            .sum()
    }
}

fn sigmoid(cx: &mut Cx) -> Option<Id> {
    if cx.cfg.has_lut || !cx.has(0) {
        return None;
    }
    let x = cx.arg(0);
    ramp_sum(cx, x, &FIT, 1.0, 1.0)
}

fn tanh(cx: &mut Cx) -> Option<Id> {
    if cx.cfg.has_lut || !cx.has(0) {
        return None;
    }
    let x = cx.arg(0);
    let s = ramp_sum(cx, x, &FIT, 2.0, 2.0)?;
    let dtype = cx.ty(x)?.dtype;
    let minus_one = cx.tensor("minus_one", Tensor::full(dtype, vec![], -1.0));
    Some(cx.op("Add", Attrs::new(), &[s, minus_one], ""))
}

fn erf(cx: &mut Cx) -> Option<Id> {
    if cx.cfg.has_lut || !cx.has(0) {
        return None;
    }
    let x = cx.arg(0);
    let s = ramp_sum(cx, x, &PHI_FIT, std::f64::consts::SQRT_2, 2.0)?;
    let dtype = cx.ty(x)?.dtype;
    let minus_one = cx.tensor("minus_one", Tensor::full(dtype, vec![], -1.0));
    Some(cx.op("Add", Attrs::new(), &[s, minus_one], ""))
}

/// `Σ height·w_i · HardSigmoid(x; gain·α_i, β_i)` over the ramps of `fit`,
/// summed left to right; the last op keeps the matched node's name when
/// `height` is 1.
fn ramp_sum(cx: &mut Cx, x: Id, fit: &Fit, gain: f64, height: f64) -> Option<Id> {
    let dtype = cx.ty(x)?.dtype;
    let rs = fit.ramps();
    let last = rs.len() - 1;
    let mut sum: Option<Id> = None;
    for (i, &(alpha, beta, w)) in rs.iter().enumerate() {
        let gate = attrs(&[
            ("alpha", Attr::Float((gain * alpha) as f32)),
            ("beta", Attr::Float(beta as f32)),
        ]);
        let ramp = cx.op("HardSigmoid", gate, &[x], &format!("/ramp{i}"));
        let k = cx.tensor(&format!("w{i}"), Tensor::full(dtype, vec![], height * w));
        let term = cx.op("Mul", Attrs::new(), &[ramp, k], &format!("/term{i}"));
        sum = Some(match sum {
            None => term,
            Some(s) => {
                let suffix = if i == last && height == 1.0 {
                    String::new()
                } else {
                    format!("/sum{i}")
                };
                cx.op("Add", Attrs::new(), &[s, term], &suffix)
            }
        });
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;

    fn one(op: &str) -> onnc_onnx::Graph {
        graph(
            &[1, 3, 4, 4],
            &[1, 3, 4, 4],
            vec![Node::new("act", op, &["x"], &["y"])],
            vec![],
        )
    }

    fn sigma(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn fits_are_odd_symmetric_with_positive_weights_summing_to_one() {
        for fit in FITS {
            let rs = fit.ramps();
            assert_eq!(rs.len(), 2 * fit.breaks.len() - 1);
            assert!(rs.iter().all(|r| r.0 > 0.0 && r.2 > 0.0), "{rs:?}");
            assert!((rs.iter().map(|r| r.2).sum::<f64>() - 1.0).abs() < 1e-12);
            for x in [0.0, 0.3, 1.7, 4.2, 9.0] {
                assert!((fit.at(x) + fit.at(-x) - 1.0).abs() < 1e-9, "{x}");
            }
            assert_eq!((fit.at(-50.0), fit.at(50.0)), (0.0, 1.0));
        }
    }

    #[test]
    fn max_errors_are_the_documented_bounds() {
        for fit in FITS {
            let worst = (-16_000..=16_000)
                .map(|i| {
                    let x = f64::from(i) * 1e-3;
                    (fit.at(x) - sigma(x)).abs()
                })
                .fold(0f64, f64::max);
            let bound = fit.max_error;
            assert!(worst <= bound, "{worst} > {bound}");
            assert!(worst > 0.99 * bound, "{worst}: the bound {bound} is loose");
        }
    }

    #[test]
    fn sigmoid_is_a_sum_of_ramps_on_nv_small() {
        let ops = ops_after(one("Sigmoid"), Target::NvSmall);
        let count = |o: &str| ops.iter().filter(|p| *p == o).count();
        assert_eq!(
            (count("HardSigmoid"), count("Mul"), count("Add"), ops.len()),
            (SEGMENTS, SEGMENTS, SEGMENTS - 1, 3 * SEGMENTS - 1),
            "{ops:?}"
        );
    }

    #[test]
    fn tanh_is_a_sum_of_ramps_minus_one_on_nv_small() {
        let ops = ops_after(one("Tanh"), Target::NvSmall);
        assert_eq!(ops.len(), 3 * SEGMENTS, "{ops:?}");
        assert!(ops
            .iter()
            .all(|o| ["HardSigmoid", "Mul", "Add"].contains(&o.as_str())));
    }

    #[test]
    fn numbers_within_the_bound() {
        // Inputs in [-1, 1) scaled by the graph: a Mul by 6 spreads them
        // over [-6, 6), through every segment.
        for (op, bound) in [("Sigmoid", MAX_ERROR), ("Tanh", 2.0 * MAX_ERROR)] {
            let six = Tensor::from_f32(vec![], vec![6.0]).unwrap();
            let g = graph(
                &[1, 3, 8, 8],
                &[1, 3, 8, 8],
                vec![
                    Node::new("spread", "Mul", &["x", "six"], &["s"]),
                    Node::new("act", op, &["s"], &["y"]),
                ],
                vec![("six", six)],
            );
            // `same_numbers` allows tol·(1 + |ref|); |ref| ≤ 1.
            same_numbers(g, Target::NvSmall, &[1, 3, 8, 8], (bound as f32) * 1.001);
        }
    }

    #[test]
    fn the_phi_fit_is_within_its_documented_error() {
        let phi = |x: f64| 0.5 * (1.0 + erf_reference(x / std::f64::consts::SQRT_2));
        let worst = (-16_000..=16_000)
            .map(|i| {
                let x = f64::from(i) * 1e-3;
                (PHI_FIT.at(x) - phi(x)).abs()
            })
            .fold(0f64, f64::max);
        let bound = PHI_FIT.max_error;
        assert!(worst <= bound && worst > 0.99 * bound, "{worst} vs {bound}");
        let rs = PHI_FIT.ramps();
        assert!(rs.iter().all(|r| r.0 > 0.0 && r.2 > 0.0), "{rs:?}");
        assert!((rs.iter().map(|r| r.2).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn erf_is_a_sum_of_ramps_minus_one_on_nv_small() {
        let ops = ops_after(one("Erf"), Target::NvSmall);
        assert_eq!(ops.len(), 3 * SEGMENTS, "{ops:?}");
        assert!(ops
            .iter()
            .all(|o| ["HardSigmoid", "Mul", "Add"].contains(&o.as_str())));
        // Inputs spread over [-3, 3), where erf rises (|x| ≥ 3: erf = ±1
        // within 2.3e-5, and so is the fit).
        let three = Tensor::from_f32(vec![], vec![3.0]).unwrap();
        let g = graph(
            &[1, 3, 8, 8],
            &[1, 3, 8, 8],
            vec![
                Node::new("spread", "Mul", &["x", "three"], &["s"]),
                Node::new("act", "Erf", &["s"], &["y"]),
            ],
            vec![("three", three)],
        );
        same_numbers(
            g,
            Target::NvSmall,
            &[1, 3, 8, 8],
            (2.0 * PHI_FIT.max_error) as f32 * 1.001,
        );
    }

    #[test]
    fn exact_lut_ops_where_there_is_a_lut() {
        for op in ["Sigmoid", "Tanh", "Erf"] {
            assert_eq!(ops_after(one(op), Target::NvFull), [op]);
            assert_eq!(ops_after(one(op), Target::NvLarge), [op]);
        }
    }
}
