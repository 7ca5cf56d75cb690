//! Range bounds of an SDP's output from its input's and operands' ranges,
//! by interval arithmetic through the sub-units.
//!
//! In: the program, a standalone SDP op (its input read from memory, not a
//! conv's accumulator) and a function giving a tensor's scale (symmetric,
//! `real = scale · q`, so a tensor lies in `[−127·s, 127·s]`). Out: a bound
//! `B` with every output value in `[−B, B]`, or `None` when a sub-unit's
//! step has no interval rule here (PReLU, the LUT, a per-layer immediate)
//! or an operand's range is unknown.
//!
//! Each enabled sub-unit computes `act((x alu a) · m)`: `sum`, `max`, `min`
//! with `a`, the product with `m`, then ReLU. Constant operands contribute
//! their smallest and largest values (per-channel and per-point constants
//! alike; a `both` operand's row 0 is the ALU's, row 1 the multiplier's);
//! a feature operand its symmetric range. The bound is exact for the
//! clamps the sub-units make (a ReLU, a `min` by a constant), so
//! `w · clamp(α·x + β, 0, 1)` — a ramp of the no-LUT Sigmoid — gets `w`,
//! and a sum of such terms the sum of their weights.
//!
//! ```text
//! x ∈ [−8, 8]; x1: (x + 2)·0.25, relu; x2: min 1, ·0.3   ⇒  [0, 0.3]
//! ```

use crate::program::{Op, Program, TensorId, TensorKind};

/// INT8's largest magnitude.
const QMAX: f64 = 127.0;

/// A closed interval `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Interval {
    pub(super) lo: f64,
    pub(super) hi: f64,
}

impl Interval {
    fn symmetric(b: f64) -> Interval {
        Interval { lo: -b, hi: b }
    }

    fn alu(self, alu: &str, a: Interval) -> Option<Interval> {
        Some(match alu {
            "sum" => Interval {
                lo: self.lo + a.lo,
                hi: self.hi + a.hi,
            },
            "max" => Interval {
                lo: self.lo.max(a.lo),
                hi: self.hi.max(a.hi),
            },
            "min" => Interval {
                lo: self.lo.min(a.lo),
                hi: self.hi.min(a.hi),
            },
            _ => return None,
        })
    }

    fn mul(self, m: Interval) -> Interval {
        let p = [
            self.lo * m.lo,
            self.lo * m.hi,
            self.hi * m.lo,
            self.hi * m.hi,
        ];
        Interval {
            lo: p.iter().copied().fold(f64::INFINITY, f64::min),
            hi: p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    fn relu(self) -> Interval {
        Interval {
            lo: self.lo.max(0.0),
            hi: self.hi.max(0.0),
        }
    }

    /// The largest magnitude.
    pub(super) fn bound(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
}

/// The range of values `vals` (`None` when empty or not finite).
fn span(vals: &[f32]) -> Option<Interval> {
    let lo = vals.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = vals.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    (lo.is_finite() && hi.is_finite()).then(|| Interval {
        lo: f64::from(lo),
        hi: f64::from(hi),
    })
}

/// The output range of SDP `op` (see the module doc).
pub(super) fn sdp_output(
    p: &Program,
    op: &Op,
    scale: &dyn Fn(TensorId) -> Option<f64>,
) -> Option<Interval> {
    let input = op.inputs.first().copied().flatten()?;
    if p.tensors[input].kind == TensorKind::Fused {
        return None;
    }
    let mut v = Interval::symmetric(QMAX * scale(input)?);
    for (unit, slot) in [("x1_op", 1), ("x2_op", 2), ("y_op", 3)] {
        let attr = |k: &str| op.str(&format!("{unit}.{k}")).unwrap_or("");
        if op.int(&format!("{unit}.enable")).unwrap_or(0) == 0 {
            continue;
        }
        let kind = attr("type");
        let (alu, mul) = match kind {
            "none" | "" => (None, None),
            _ if attr("mode") == "per_layer" => return None,
            _ => operands(p, op, slot, kind, scale)?,
        };
        if let Some(a) = alu {
            v = v.alu(attr("alu_type"), a)?;
        }
        if let Some(m) = mul {
            v = v.mul(m);
        }
        match attr("act") {
            "none" | "" => {}
            "relu" => v = v.relu(),
            _ => return None,
        }
    }
    (v.lo.is_finite() && v.hi.is_finite()).then_some(v)
}

/// The ALU and multiplier operand ranges of a sub-unit of type `kind`
/// reading slot `slot` of `op`.
fn operands(
    p: &Program,
    op: &Op,
    slot: usize,
    kind: &str,
    scale: &dyn Fn(TensorId) -> Option<f64>,
) -> Option<(Option<Interval>, Option<Interval>)> {
    let t = op.inputs.get(slot).copied().flatten()?;
    let whole = match &p.tensors[t].kind {
        TensorKind::Weight(w) => {
            let v = w.values();
            if kind == "both" {
                let half = v.len() / 2;
                if half == 0 || v.len() % 2 != 0 {
                    return None;
                }
                return Some((Some(span(&v[..half])?), Some(span(&v[half..])?)));
            }
            span(v)?
        }
        _ => Interval::symmetric(QMAX * scale(t)?),
    };
    match kind {
        "add" => Some((Some(whole), None)),
        "mul" => Some((None, Some(whole))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weighted_ramp_is_bounded_by_its_weight() {
        let x = Interval::symmetric(8.0);
        let k = |v: f64| Interval { lo: v, hi: v };
        let y = x
            .alu("sum", k(2.0))
            .unwrap()
            .mul(k(0.25))
            .relu()
            .alu("min", k(1.0))
            .unwrap()
            .mul(k(0.3));
        assert_eq!(y, Interval { lo: 0.0, hi: 0.3 });
        // A narrow input clamps less: (0.5 + 2)·0.25 = 0.625.
        let y = Interval::symmetric(0.5)
            .alu("sum", k(2.0))
            .unwrap()
            .mul(k(0.25))
            .relu()
            .alu("min", k(1.0))
            .unwrap();
        assert_eq!(y.bound(), 0.625);
    }

    #[test]
    fn sums_add_and_products_take_the_extremes() {
        let a = Interval { lo: -1.0, hi: 3.0 };
        assert_eq!(
            a.alu("sum", Interval { lo: 0.5, hi: 1.0 }),
            Some(Interval { lo: -0.5, hi: 4.0 })
        );
        assert_eq!(
            a.mul(Interval { lo: -2.0, hi: 1.0 }),
            Interval { lo: -6.0, hi: 3.0 }
        );
        assert_eq!(a.alu("max", Interval { lo: 0.0, hi: 0.0 }).unwrap().lo, 0.0);
        assert_eq!(a.alu("xor", a), None);
    }
}
