//! Which ONNX nodes an SDP op absorbs: the element-wise steps of one node,
//! and the chain of single-consumer nodes that follows a conv (or a
//! standalone element-wise op).
//!
//! In: the working graph, a node and the value through which the chain
//! reaches it. Out: the node's [`Step`]s (or why it has none), and for a
//! chain head the nodes fused after it. A node joins the chain only when the
//! value reaching it has that one consumer and is not a graph output, its
//! steps still pack onto the SDP sub-units the configuration has
//! ([`pack_on`]: X1, X2 and, except on nv_small, Y).
//!
//! ```text
//! r1 = Conv(x, w, b); r2 = Add(r1, skip); r3 = Relu(r2)
//!   ⇒ conv → sdp { x1: bias per_kernel; x2: sum per_point(skip), relu }
//! r1 = Conv(x, w, b); r2 = Mul(r1, se)           (se: [1, C, 1, 1] activation)
//!   ⇒ conv → sdp { x1: bias per_kernel, mul per_kernel(se) }
//! r2 = Sub(skip, r1)                              (the chain is the subtrahend)
//!   ⇒ … x1: bias, mul −1 (both); x2: sum per_point(skip)
//! r2 = Sub(r1, skip)                              (the chain is the minuend)
//!   ⇒ … x1: bias, mul −1; x2: sum per_point(skip); y: mul −1   (needs Y)
//! ```
//!
//! The SDP ALU has no subtraction and the X units cannot scale their
//! operand, so `a − b` negates the datapath instead: `−(−a + b)`, or
//! `−b + a` when the chain carries `b`. Multiplying by −1 is exact in FP16
//! and in the integer datapath.

use std::collections::BTreeSet;

use onnc_onnx::Node;
use onnc_tensor::{Attr, DType, Tensor};

use super::graph::Work;
use super::sdp::{pack_on, Operand, Step};

/// One constant per channel of an output with `c` channels (broadcast from a
/// scalar or a shape whose only non-unit axis is the channel axis 1 of a
/// rank-`rank` result).
pub fn per_channel(t: &Tensor, c: usize, rank: usize) -> Option<Vec<f32>> {
    let v = t.cast(DType::F32);
    let v = v.as_f32().ok()?;
    let s = t.shape();
    if s.len() > rank {
        return None;
    }
    let lead = rank - s.len();
    let mut ch = 1;
    for (i, &d) in s.iter().enumerate() {
        let axis = lead + i;
        if axis == 1 && rank >= 2 {
            ch = d;
        } else if d != 1 {
            return None;
        }
    }
    match ch {
        1 => Some(vec![*v.first()?; c]),
        n if n == c => Some(v.to_vec()),
        _ => None,
    }
}

/// The other operand of a binary node reached through `via`: its index.
fn other(n: &Node, via: &str) -> Option<usize> {
    match (n.input(0), n.input(1)) {
        (Some(a), Some(_)) if a == via => Some(1),
        (Some(_), Some(b)) if b == via => Some(0),
        _ => None,
    }
}

/// The operand `name` of a node whose result has shape `out`.
fn operand(w: &Work, name: &str, out: &[usize]) -> Result<Operand, String> {
    let c = out.get(1).copied().unwrap_or(1);
    match w.constant(name) {
        Some(t) => {
            if let Some(v) = per_channel(t, c, out.len()) {
                Ok(Operand::Kernel(v))
            } else if t.numel() == out.iter().product::<usize>() {
                let cube = super::build::cube(out).ok_or("result has more than 4 dimensions")?;
                Ok(Operand::PointConst(
                    t.cast(DType::F32)
                        .reshape(cube)
                        .map_err(|e| e.to_string())?,
                ))
            } else {
                Err(format!("constant operand '{name}' of shape {:?} is neither per-channel nor per-point for a result of shape {out:?}", t.shape()))
            }
        }
        None => {
            let s = w.shape(name);
            if s == out {
                Ok(Operand::Feature(name.to_string()))
            } else if per_channel_shape(s, out) {
                Ok(Operand::KernelFeature(name.to_string()))
            } else {
                Err(format!("operand '{name}' of shape {s:?} would be broadcast to {out:?}; the SDP reads activation operands of the result's shape, or one value per channel ([N, C, 1, 1])"))
            }
        }
    }
}

/// Whether an activation of shape `s` is one value per channel of a result
/// of shape `out` (`[N, C, 1, 1]` against `[N, C, H, W]`, rank 4 both).
pub fn per_channel_shape(s: &[usize], out: &[usize]) -> bool {
    s.len() == 4 && out.len() == 4 && s[..2] == out[..2] && s[2] == 1 && s[3] == 1
}

/// The steps of node `n` applied to value `via`.
pub fn steps_of(w: &Work, n: &Node, via: &str) -> Result<Vec<Step>, String> {
    let out = w
        .shape(n.outputs.first().map(String::as_str).unwrap_or_default())
        .to_vec();
    let c = out.get(1).copied().unwrap_or(1);
    let binary = |w: &Work| -> Result<Operand, String> {
        let i = other(n, via).ok_or("expects two operands")?;
        if w.shape(via) != out.as_slice() {
            // A per-channel value and a cube: the SDP must read the cube.
            return Err(format!(
                "broadcasts '{via}' of shape {:?} to {out:?}",
                w.shape(via)
            ));
        }
        operand(w, n.input(i).unwrap_or_default(), &out)
    };
    if !n.domain.is_empty() {
        return Err("not an element-wise op".into());
    }

    match n.op_type.as_str() {
        "Add" => Ok(vec![Step::alu("sum", binary(w)?)]),
        // Max(x, 0) is ReLU: on the X unit's activation it shares the unit
        // with a bias, so a following Min (ReLU6) still fits without Y.
        "Max" => match binary(w)? {
            Operand::Kernel(v) if v.iter().all(|&z| z == 0.0) => Ok(vec![Step::Relu]),
            o => Ok(vec![Step::alu("max", o)]),
        },
        "Min" => Ok(vec![Step::alu("min", binary(w)?)]),
        "Mul" => Ok(vec![Step::Mul(binary(w)?)]),
        "Sub" if n.input(0) == Some(via) => match binary(w)? {
            Operand::Kernel(v) => Ok(vec![Step::alu(
                "sum",
                Operand::Kernel(v.iter().map(|x| -x).collect()),
            )]),
            // a − b = −(−a + b): the ALU adds, the multipliers negate.
            o => Ok(vec![
                Step::Mul(Operand::Kernel(vec![-1.0; c])),
                Step::alu("sum", o),
                Step::Mul(Operand::Kernel(vec![-1.0; c])),
            ]),
        },
        // a − via = −via + a.
        "Sub" if n.input(1) == Some(via) => Ok(vec![
            Step::Mul(Operand::Kernel(vec![-1.0; c])),
            Step::alu("sum", binary(w)?),
        ]),
        "Relu" => Ok(vec![Step::Relu]),
        "PRelu" if n.input(0) == Some(via) => {
            let s = n
                .input(1)
                .and_then(|s| w.constant(s))
                .ok_or("has a non-constant slope")?;
            let v = per_channel(s, c, out.len()).ok_or("has a slope that is not per-channel")?;
            Ok(vec![Step::PRelu(v)])
        }
        "Clip" if n.input(0) == Some(via) => {
            let lo = n.input(1).and_then(|s| w.constant(s)).map(|t| {
                t.cast(DType::F32)
                    .as_f32()
                    .ok()
                    .and_then(|v| v.first().copied())
            });
            let hi = n.input(2).and_then(|s| w.constant(s)).map(|t| {
                t.cast(DType::F32)
                    .as_f32()
                    .ok()
                    .and_then(|v| v.first().copied())
            });
            let mut steps = Vec::new();
            match lo {
                None => {}
                Some(Some(0.0)) => steps.push(Step::Relu),
                Some(Some(l)) => steps.push(Step::alu("max", Operand::Kernel(vec![l; c]))),
                Some(None) => return Err("has a non-constant lower bound".into()),
            }
            match hi {
                None => {}
                Some(Some(h)) if h == f32::INFINITY => {}
                Some(Some(h)) => steps.push(Step::alu("min", Operand::Kernel(vec![h; c]))),
                Some(None) => return Err("has a non-constant upper bound".into()),
            }
            Ok(steps)
        }
        "BatchNormalization" if n.input(0) == Some(via) => {
            let get = |i: usize| {
                n.input(i)
                    .and_then(|s| w.constant(s))
                    .and_then(|t| per_channel(t, c, 1).or_else(|| per_channel(t, c, 2)))
            };
            let (Some(g), Some(b), Some(m), Some(var)) = (get(1), get(2), get(3), get(4)) else {
                return Err("has non-constant statistics".into());
            };
            let eps = n
                .attrs
                .get("epsilon")
                .and_then(Attr::as_float)
                .unwrap_or(1e-5);
            let s: Vec<f32> = (0..c).map(|k| g[k] / (var[k] + eps).sqrt()).collect();
            let t: Vec<f32> = (0..c).map(|k| b[k] - m[k] * s[k]).collect();
            Ok(vec![
                Step::Mul(Operand::Kernel(s)),
                Step::alu("sum", Operand::Kernel(t)),
            ])
        }
        _ => super::activation::steps(w, n, via)
            .unwrap_or_else(|| Err("not an element-wise op".into())),
    }
}

/// A fused chain: the nodes after the head and the steps of all.
#[derive(Debug, Clone, Default)]
pub struct Chain {
    /// Indices of the fused nodes after the head, in order.
    pub members: Vec<usize>,
    /// The steps (head's first).
    pub steps: Vec<Step>,
    /// The value the chain produces.
    pub out: String,
}

/// Extends a chain that starts with `steps` producing `out`, claiming nodes
/// in `claimed`; the steps must pack onto `units` SDP sub-units (3, or 2
/// without the Y unit).
pub fn extend(
    w: &Work,
    mut chain: Chain,
    units: usize,
    fuse: bool,
    claimed: &mut BTreeSet<usize>,
) -> Chain {
    while fuse && w.single_use(&chain.out) {
        let u = w.users(&chain.out)[0];
        if claimed.contains(&u) {
            break;
        }
        let n = &w.nodes[u];
        let Ok(steps) = steps_of(w, n, &chain.out) else {
            break;
        };
        let mut all = chain.steps.clone();
        all.extend(steps);
        if pack_on(&all, units).is_none() {
            break;
        }
        claimed.insert(u);
        chain.members.push(u);
        chain.steps = all;
        chain.out = n.outputs[0].clone();
    }
    chain
}
