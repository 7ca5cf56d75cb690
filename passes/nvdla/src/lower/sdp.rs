//! SDP programs: the element-wise steps one SDP op runs, packed onto its
//! X1, X2 and Y sub-units.
//!
//! In: a list of [`Step`]s in execution order (a conv bias, a folded or
//! unfolded batch norm, ReLU/PReLU, a residual add, ...). Out: at most three
//! [`Unit`]s, or `None` when the steps do not fit one SDP op. Each sub-unit
//! computes `act((x alu a) · m)`: an ALU step, then a multiplier step, then
//! an activation, each optional, in that order; ALU and multiplier share the
//! sub-unit's one operand slot, so they pair only as two per-kernel
//! constants (type `both`, operand `[2, K, 1, 1]`). PReLU uses the
//! multiplier for its slope. Per-point operands (a feature cube, or a
//! constant map) and per-channel activations (a squeeze-excitation vector
//! `[N, C, 1, 1]`) come from memory; every configuration's X1 (BS) and X2
//! (BN) units read them, the Y (EW) unit exists only where
//! `Config::has_sdp_eltwise` (nv_full, nv_large: [`pack_on`] with 2 units
//! packs for nv_small). A per-point operand is never put on X1, which a
//! conv's bias keeps free.
//!
//! ```
//! use onnc_nvdla::lower::sdp::{pack, Operand, Step};
//! // conv bias, BN scale, BN shift, ReLU, then a residual add: X1, X2 and Y.
//! let k = |v: f32| Operand::Kernel(vec![v; 4]);
//! let steps = vec![Step::alu("sum", k(0.1)), Step::Mul(k(2.0)), Step::alu("sum", k(0.5)), Step::Relu,
//!                  Step::alu("sum", Operand::Feature("skip".into()))];
//! let units = pack(&steps).unwrap();
//! assert_eq!(units.len(), 3);
//! // A ReLU after the add would land on Y, which has no ReLU (its activation is the LUT).
//! assert!(pack(&[steps.clone(), vec![Step::Relu]].concat()).is_none());
//! ```

use std::collections::BTreeMap;

use onnc_tensor::Tensor;

use crate::emit::lut_fn::LutFn;
use crate::program::{Precision, Value};

/// Where a step's operand comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// One constant per channel (`per_kernel`).
    Kernel(Vec<f32>),
    /// A constant map over the whole cube (`per_point` from memory), shape `[N, C, H, W]`.
    PointConst(Tensor),
    /// A feature cube produced by another op (`per_point` from memory): the ONNX value name.
    Feature(String),
    /// A per-channel activation `[N, C, 1, 1]` (a squeeze-excitation
    /// vector) broadcast over the result (`per_kernel` from memory): its
    /// feature cube of one element per channel is contiguous, the layout
    /// the per-kernel operand DMA reads.
    KernelFeature(String),
}

impl Operand {
    fn per_point(&self) -> bool {
        matches!(self, Operand::PointConst(_) | Operand::Feature(_))
    }

    /// A per-channel constant (the only operands ALU and multiplier can share).
    fn kernel_const(&self) -> bool {
        matches!(self, Operand::Kernel(_))
    }

    /// The feature value read, if any.
    pub fn feature(&self) -> Option<&str> {
        match self {
            Operand::Feature(f) | Operand::KernelFeature(f) => Some(f),
            _ => None,
        }
    }
}

/// One element-wise step.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `x alu a`, alu one of `"sum"`, `"max"`, `"min"`.
    Alu(&'static str, Operand),
    /// `x · m`.
    Mul(Operand),
    /// `max(x, 0)`.
    Relu,
    /// `x < 0 ? x · slope : x`, one slope per channel.
    PRelu(Vec<f32>),
    /// `f(x)` through the lookup table, which only the Y unit has (after
    /// its multiplier and ALU); nothing follows it in the same SDP.
    Lut(LutFn),
}

impl Step {
    /// An ALU step.
    pub fn alu(alu: &'static str, o: Operand) -> Step {
        Step::Alu(alu, o)
    }

    /// Whether the step reads a feature cube from memory.
    pub fn reads_feature(&self) -> Option<&str> {
        match self {
            Step::Alu(_, o) | Step::Mul(o) => o.feature(),
            _ => None,
        }
    }

    /// Whether the step needs the element-wise (per-point) path.
    pub fn per_point(&self) -> bool {
        match self {
            Step::Alu(_, o) | Step::Mul(o) => o.per_point(),
            _ => false,
        }
    }
}

/// One SDP sub-unit's job.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unit {
    /// ALU function and operand.
    pub alu: Option<(&'static str, Operand)>,
    /// Multiplier operand (the PReLU slope when `act == "prelu"`).
    pub mul: Option<Operand>,
    /// `"none"`, `"relu"` or `"prelu"`.
    pub act: &'static str,
}

impl Unit {
    fn empty() -> Unit {
        Unit {
            alu: None,
            mul: None,
            act: "none",
        }
    }

    fn is_empty(&self) -> bool {
        self.alu.is_none() && self.mul.is_none() && self.act == "none"
    }

    /// The dialect `type`: none, add, mul or both.
    pub fn kind(&self) -> &'static str {
        match (&self.alu, &self.mul) {
            (None, None) => "none",
            (Some(_), None) => "add",
            (None, Some(_)) => "mul",
            (Some(_), Some(_)) => "both",
        }
    }

    /// The dialect `mode`.
    pub fn mode(&self) -> &'static str {
        let pp = self.alu.as_ref().is_some_and(|a| a.1.per_point())
            || self.mul.as_ref().is_some_and(Operand::per_point);
        if pp {
            "per_point"
        } else if self.alu.is_some() || self.mul.is_some() {
            "per_kernel"
        } else {
            "per_layer"
        }
    }
}

/// Packs `steps` onto X1, X2, Y; `None` if they need more than three sub-units.
/// Units are returned in order X1, X2, Y (trailing unused units omitted; an
/// unused X1 before a per-point X2 is an empty unit).
pub fn pack(steps: &[Step]) -> Option<Vec<Unit>> {
    pack_on(steps, 3)
}

/// [`pack`] onto the first `available` sub-units: 3 (X1, X2, Y) on nv_full
/// and nv_large, 2 (X1, X2) on nv_small, which has no Y unit.
pub fn pack_on(steps: &[Step], available: usize) -> Option<Vec<Unit>> {
    let mut units: Vec<Unit> = vec![Unit::empty()];
    for s in steps {
        // The Y (EW) unit has no ReLU/PReLU (its activation is the LUT) and
        // multiplies before it adds: it takes one ALU or one MUL step only.
        let y = units.len() == 3;
        let cur = units.last_mut().expect("at least one unit");
        let fits = match s {
            Step::Lut(_) => y && cur.act == "none",
            _ if y && !cur.is_empty() => false,
            Step::Relu | Step::PRelu(_) if y => false,
            Step::Alu(..) => cur.is_empty() && !(s.per_point() && units.len() == 1),
            Step::Mul(o) => {
                cur.mul.is_none()
                    && cur.act == "none"
                    && match &cur.alu {
                        None => !(o.per_point() && units.len() == 1),
                        Some((_, a)) => a.kernel_const() && o.kernel_const(),
                    }
            }
            Step::Relu => cur.act == "none",
            Step::PRelu(_) => {
                cur.mul.is_none()
                    && cur.act == "none"
                    && cur.alu.as_ref().is_none_or(|a| a.1.kernel_const())
            }
        };
        // (A per-point step never fits X1, so X1 stays empty before it.)
        if !fits {
            units.push(Unit::empty());
        }
        while matches!(s, Step::Lut(_)) && units.len() < 3 {
            units.push(Unit::empty()); // the LUT is on Y: X2 stays unused
        }
        if units.len() > available.min(3) {
            return None;
        }
        let cur = units.last_mut().expect("at least one unit");
        match s {
            Step::Alu(alu, o) => cur.alu = Some((alu, o.clone())),
            Step::Mul(o) => cur.mul = Some(o.clone()),
            Step::Relu => cur.act = "relu",
            Step::Lut(_) => cur.act = "lut",
            Step::PRelu(slope) => {
                cur.mul = Some(Operand::Kernel(slope.clone()));
                cur.act = "prelu";
            }
        }
    }
    while units.len() > 1 && units.last().is_some_and(Unit::is_empty) {
        units.pop();
    }
    Some(units)
}

/// The operand tensor a unit reads: `[1, K, 1, 1]`, `[2, K, 1, 1]` (ALU row,
/// multiplier row), a per-point constant, or a feature value name.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitOperand {
    /// Constant weight: shape and values.
    Weight(Vec<usize>, Vec<f32>),
    /// A feature cube (ONNX value name).
    Feature(String),
}

/// The operand of `u` for `k` channels, if it reads one.
pub fn unit_operand(u: &Unit, k: usize) -> Option<UnitOperand> {
    let one = |o: &Operand| match o {
        Operand::Kernel(v) => UnitOperand::Weight(vec![1, k, 1, 1], v.clone()),
        Operand::PointConst(t) => {
            let t = t.cast(onnc_tensor::DType::F32);
            UnitOperand::Weight(
                t.shape().to_vec(),
                t.as_f32().map(<[f32]>::to_vec).unwrap_or_default(),
            )
        }
        Operand::Feature(f) | Operand::KernelFeature(f) => UnitOperand::Feature(f.clone()),
    };
    match (&u.alu, &u.mul) {
        (None, None) => None,
        (Some((_, a)), None) => Some(one(a)),
        (None, Some(m)) => Some(one(m)),
        (Some((_, Operand::Kernel(a))), Some(Operand::Kernel(m))) => Some(UnitOperand::Weight(
            vec![2, k, 1, 1],
            a.iter().chain(m).copied().collect(),
        )),
        (Some(_), Some(_)) => {
            unreachable!("pack pairs ALU and multiplier only as per-kernel constants")
        }
    }
}

/// The sub-unit attributes of `units` over the defaults in `attrs`.
/// `operand_precision[i]` is the precision of unit i's operand.
pub fn set_unit_attrs(
    attrs: &mut BTreeMap<String, Value>,
    units: &[Unit],
    operand_precision: &[Precision],
) {
    for (i, (u, name)) in units.iter().zip(["x1_op", "x2_op", "y_op"]).enumerate() {
        if u.is_empty() {
            continue;
        }
        let mut set = |k: &str, v: Value| {
            attrs.insert(crate::registers::attr_key(&[name, k]), v);
        };
        set("enable", Value::Int(1));
        set(
            "alu_type",
            Value::Str(u.alu.as_ref().map_or("sum", |a| a.0).into()),
        );
        set("type", Value::Str(u.kind().into()));
        set("mode", Value::Str(u.mode().into()));
        set("act", Value::Str(u.act.into()));
        set(
            "precision",
            Value::Str(operand_precision[i].as_str().into()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(v: f32) -> Operand {
        Operand::Kernel(vec![v; 2])
    }

    #[test]
    fn bias_and_relu_share_x1() {
        let u = pack(&[Step::alu("sum", k(1.0)), Step::Relu]).unwrap();
        assert_eq!(u.len(), 1);
        assert_eq!(
            (u[0].kind(), u[0].mode(), u[0].act),
            ("add", "per_kernel", "relu")
        );
    }

    #[test]
    fn alu_then_mul_per_kernel_is_both_with_a_two_row_operand() {
        let u = pack(&[Step::alu("sum", k(1.0)), Step::Mul(k(3.0))]).unwrap();
        assert_eq!(u[0].kind(), "both");
        assert_eq!(
            unit_operand(&u[0], 2),
            Some(UnitOperand::Weight(
                vec![2, 2, 1, 1],
                vec![1.0, 1.0, 3.0, 3.0]
            ))
        );
    }

    #[test]
    fn mul_then_alu_needs_two_units() {
        // x·m + a is not (x + a')·m exactly, so the ALU goes to the next unit.
        let u = pack(&[Step::Mul(k(2.0)), Step::alu("sum", k(1.0))]).unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!((u[0].kind(), u[1].kind()), ("mul", "add"));
    }

    #[test]
    fn a_feature_operand_never_lands_on_x1() {
        let u = pack(&[Step::alu("sum", Operand::Feature("r".into())), Step::Relu]).unwrap();
        assert_eq!(u.len(), 2);
        assert!(u[0].is_empty());
        assert_eq!((u[1].mode(), u[1].act), ("per_point", "relu"));
    }

    #[test]
    fn prelu_takes_the_multiplier_and_four_units_do_not_fit() {
        let u = pack(&[Step::alu("sum", k(1.0)), Step::PRelu(vec![0.25; 2])]).unwrap();
        assert_eq!((u.len(), u[0].kind(), u[0].act), (1, "both", "prelu"));
        assert!(pack(&[
            Step::Relu,
            Step::Mul(k(2.0)),
            Step::Relu,
            Step::Mul(k(2.0)),
            Step::Relu,
            Step::Relu
        ])
        .is_none());
        // Y has no ReLU and multiplies before it adds (found by the
        // simulator: a BN → Mul → Add → Relu chain kept negative outputs).
        let bn_mul_add_relu = [
            Step::Mul(k(2.0)),
            Step::alu("sum", k(1.0)),
            Step::Mul(k(3.0)),
            Step::alu("sum", k(1.0)),
            Step::Relu,
        ];
        assert!(pack(&bn_mul_add_relu).is_none());
        assert_eq!(pack(&bn_mul_add_relu[..4]).unwrap()[2].kind(), "add");
        let u = pack(&[
            Step::Relu,
            Step::Relu,
            Step::alu("sum", k(1.0)),
            Step::Mul(k(2.0)),
        ]);
        assert!(u.is_none(), "ALU then MUL cannot share Y: {u:?}");
    }
}
