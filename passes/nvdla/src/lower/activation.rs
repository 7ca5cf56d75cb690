//! Activations the SDP computes: through its lookup table (Sigmoid, Tanh,
//! SiLU/Swish, HardSwish, Softplus, Mish) or its X units (HardSigmoid).
//!
//! In: the working graph. Out:
//! * [`compose`] rewrites `x · gate(x)` into one node, so that the product
//!   of an activation with a function of itself becomes one scalar function
//!   the LUT evaluates in the same SDP pass (fused after a conv, no second
//!   read of `x`): `Mul(x, Sigmoid(x))` → `Swish` (SiLU),
//!   `Mul(x, HardSigmoid(x))` → `HardSwish` with that gate's α and β,
//!   `Mul(x, Tanh(Softplus(x)))` → `Mish`. The gate must feed only the
//!   `Mul` and not be a graph output. Run only where the LUT runs (FP16 with
//!   a Y unit): on nv_small `Mul(x, HardSigmoid(x))` (the legalized
//!   HardSwish) stays X-unit steps and an element-wise Mul.
//! * [`steps`] gives a node's SDP steps: a [`Step::Lut`] on the Y unit for
//!   the LUT functions, and for `HardSigmoid` = clamp(αx + β, 0, 1):
//!   `(x + β/α) · α` then ReLU on one X unit, `min(·, 1)` on the next (no
//!   Y unit needed, so it runs on nv_small too).
//! * [`refusals`] names the LUT nodes a configuration cannot run: nv_small
//!   has no LUT; the INT8 table (nv_large) is not built (it needs the
//!   calibrated scales of the SDP's input and output).
//!
//! Table construction and its measured error: [`crate::emit::lut_fp16`].
//!
//! ```text
//! c = Conv(x, w, b); s = Sigmoid(c); y = Mul(c, s)
//!   ⇒ conv → sdp { x1: bias per_kernel; y: act lut (lut_fn = "swish", lut_alpha = 1) }
//! ```

use std::collections::BTreeSet;

use onnc_onnx::Node;
use onnc_tensor::Attr;

use super::error::Problem;
use super::graph::{Work, DEVICE_ATTR};
use super::sdp::{Operand, Step};
use crate::config::Config;
use crate::emit::lut_fn::LutFn;
use crate::program::{Precision, Value};

fn float_attr(n: &Node, k: &str, default: f64) -> f64 {
    n.attrs
        .get(k)
        .and_then(Attr::as_float)
        .map_or(default, f64::from)
}

/// The LUT function node `n` computes, if it is one.
pub fn lut_fn(n: &Node) -> Option<LutFn> {
    if !n.domain.is_empty() || n.attrs.contains_key(DEVICE_ATTR) {
        return None;
    }
    Some(match n.op_type.as_str() {
        "Sigmoid" => LutFn::Sigmoid,
        "Tanh" => LutFn::Tanh,
        "Softplus" => LutFn::Softplus,
        "Mish" => LutFn::Mish,
        "Erf" => LutFn::Erf,
        // 1/√x: only from a LayerNormalization (`super::tokens`).
        "Rsqrt" => LutFn::Rsqrt,
        "Swish" => LutFn::Swish {
            alpha: float_attr(n, "alpha", 1.0),
        },
        "HardSwish" => LutFn::HardSwish {
            // f32 like every ONNX float attribute (the IR keeps f32).
            alpha: float_attr(n, "alpha", f64::from(1.0f32 / 6.0)),
            beta: float_attr(n, "beta", 0.5),
        },
        _ => return None,
    })
}

/// The steps of node `n` reached through `via`, if it is an activation of
/// this module (`None` for any other node).
pub fn steps(w: &Work, n: &Node, via: &str) -> Option<Result<Vec<Step>, String>> {
    if n.input(0) != Some(via) {
        return None;
    }
    if let Some(f) = lut_fn(n) {
        return Some(Ok(vec![Step::Lut(f)]));
    }
    if n.op_type != "HardSigmoid" || !n.domain.is_empty() {
        return None;
    }
    let alpha = float_attr(n, "alpha", 0.2) as f32;
    let beta = float_attr(n, "beta", 0.5) as f32;
    if !alpha.is_finite() || !beta.is_finite() {
        return Some(Err(format!(
            "has alpha = {alpha} and beta = {beta}; both must be finite"
        )));
    }
    let c = w
        .shape(n.outputs.first().map(String::as_str).unwrap_or_default())
        .get(1)
        .copied()
        .unwrap_or(1);
    let k = |v: f32| Operand::Kernel(vec![v; c]);
    let affine = if alpha == 0.0 {
        vec![Step::Mul(k(0.0)), Step::alu("sum", k(beta))]
    } else {
        vec![Step::alu("sum", k(beta / alpha)), Step::Mul(k(alpha))]
    };
    Some(Ok(
        [affine, vec![Step::Relu, Step::alu("min", k(1.0))]].concat()
    ))
}

/// The LUT attributes of an SDP running `steps`: `lut_index` (the next
/// index of the program's LUT counter `next_lut`), `lut_fn`, `lut_alpha`,
/// `lut_beta`; empty when no step uses the LUT.
pub fn lut_attrs(steps: &[Step], next_lut: &mut i64) -> Vec<(&'static str, Value)> {
    let Some(f) = steps.iter().find_map(|s| match s {
        Step::Lut(f) => Some(*f),
        _ => None,
    }) else {
        return Vec::new();
    };
    let index = *next_lut;
    *next_lut += 1;
    vec![
        ("lut_index", Value::Int(index)),
        ("lut_fn", Value::Str(f.name().into())),
        ("lut_alpha", Value::Float(f.alpha())),
        ("lut_beta", Value::Float(f.beta())),
    ]
}

/// The gate of `Mul(x, g)`: the function `x · gate(x)` is, and the nodes
/// computing the gate (to remove), when `g` is one of the patterns.
fn gate(w: &Work, m: usize, x: &str, g: &str) -> Option<(LutFn, Vec<usize>)> {
    let private = |v: &str, user: usize| w.users(v) == [user] && !w.outputs.contains(v);
    let p = w.producer(g)?;
    let pn = &w.nodes[p];
    if !private(g, m) || pn.attrs.contains_key(DEVICE_ATTR) || !pn.domain.is_empty() {
        return None;
    }
    match pn.op_type.as_str() {
        "Sigmoid" if pn.input(0) == Some(x) => Some((LutFn::Swish { alpha: 1.0 }, vec![p])),
        "HardSigmoid" if pn.input(0) == Some(x) => Some((
            LutFn::HardSwish {
                alpha: float_attr(pn, "alpha", 0.2),
                beta: float_attr(pn, "beta", 0.5),
            },
            vec![p],
        )),
        "Tanh" => {
            let t = pn.input(0)?;
            let q = w.producer(t)?;
            let qn = &w.nodes[q];
            let softplus = qn.op_type == "Softplus"
                && qn.domain.is_empty()
                && !qn.attrs.contains_key(DEVICE_ATTR)
                && qn.input(0) == Some(x)
                && private(t, p);
            softplus.then(|| (LutFn::Mish, vec![q, p]))
        }
        _ => None,
    }
}

/// The ONNX node standing for `x · gate(x)`.
fn composed(mul: &Node, x: &str, f: LutFn) -> Node {
    let op = match f {
        LutFn::Swish { .. } => "Swish",
        LutFn::HardSwish { .. } => "HardSwish",
        _ => "Mish",
    };
    let mut n = Node::new(&mul.name, op, &[x], &[mul.outputs[0].as_str()]);
    if let LutFn::Swish { alpha } | LutFn::HardSwish { alpha, .. } = f {
        n.attrs.insert("alpha".into(), Attr::Float(alpha as f32));
    }
    if let LutFn::HardSwish { beta, .. } = f {
        n.attrs.insert("beta".into(), Attr::Float(beta as f32));
    }
    n
}

/// Rewrites every `x · gate(x)` of `w` into one node (see the module doc);
/// the new node stands for the gate's ONNX nodes and the `Mul`'s.
pub fn compose(w: &mut Work) {
    let mut removed: BTreeSet<usize> = BTreeSet::new();
    let mut rewrites = Vec::new();
    for m in 0..w.nodes.len() {
        let n = &w.nodes[m];
        if n.op_type != "Mul" || !n.domain.is_empty() || n.attrs.contains_key(DEVICE_ATTR) {
            continue;
        }
        let (Some(a), Some(b)) = (n.input(0), n.input(1)) else {
            continue;
        };
        for (x, g) in [(a, b), (b, a)] {
            if w.constant(x).is_some() {
                continue;
            }
            if let Some((f, inner)) = gate(w, m, x, g) {
                if inner.iter().all(|i| !removed.contains(i)) {
                    removed.extend(inner.iter().copied());
                    rewrites.push((m, composed(n, x, f), inner));
                    break;
                }
            }
        }
    }
    if rewrites.is_empty() {
        return;
    }
    for (m, node, inner) in rewrites {
        let mut src: Vec<String> = inner.iter().flat_map(|&i| w.sources[i].clone()).collect();
        src.extend(w.sources[m].iter().cloned());
        w.nodes[m] = node;
        w.sources[m] = src;
    }
    let keep: Vec<bool> = (0..w.nodes.len()).map(|i| !removed.contains(&i)).collect();
    let mut it = keep.iter();
    w.nodes.retain(|_| *it.next().unwrap_or(&true));
    let mut it = keep.iter();
    w.sources.retain(|_| *it.next().unwrap_or(&true));
    w.reindex();
}

/// A problem for every LUT activation of `w` that `cfg` cannot run.
pub fn refusals(w: &Work, cfg: &Config) -> Vec<Problem> {
    w.nodes
        .iter()
        .zip(&w.sources)
        .filter_map(|(n, src)| {
            let f = lut_fn(n)?;
            let name = src.last().unwrap_or(&n.name);
            let (op, what) = if n.op_type == "Rsqrt" {
                let what = "LayerNormalization's 1/√(variance + ε) (the rsqrt table)".to_string();
                ("LayerNormalization".to_string(), what)
            } else {
                (n.op_type.clone(), String::new())
            };
            let what = if !what.is_empty() {
                what
            } else if src.len() > 1 {
                format!("{} (the {} of {})", n.op_type, f.name(), src.join(", "))
            } else {
                n.op_type.clone()
            };
            if !cfg.has_sdp_lut {
                Some(Problem::new(
                    name,
                    &op,
                    format!("{what} needs the SDP lookup table, which {} does not have", cfg.name),
                    "compile for nv_full (FP16)",
                ))
            } else if cfg.default_precision != Precision::Fp16 {
                Some(Problem::new(
                    name,
                    &op,
                    format!(
                        "{what} on {} runs in INT8, and the INT8 SDP lookup table (indexed by the calibrated input scale) is not built; only the FP16 table is",
                        cfg.name
                    ),
                    if cfg.supports(Precision::Fp16) {
                        "compile in FP16 (--precision fp16, nv_full's default)"
                    } else {
                        "compile for nv_full (FP16)"
                    },
                ))
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::{Dim, Graph, ValueInfo};
    use onnc_tensor::{DType, Tensor};

    fn vi(n: &str) -> ValueInfo {
        ValueInfo {
            name: n.into(),
            dtype: DType::F32,
            dims: [1, 4, 2, 2].iter().map(|&d| Dim::Fixed(d)).collect(),
        }
    }

    fn work(nodes: Vec<Node>, outputs: &[&str]) -> Work {
        let g = Graph {
            inputs: vec![vi("x")],
            outputs: outputs.iter().map(|o| vi(o)).collect(),
            initializers: vec![(
                "w".into(),
                Tensor::from_f32(vec![4, 4, 1, 1], vec![0.1; 16]).unwrap(),
            )],
            nodes,
            ..Default::default()
        };
        Work::new(&g).unwrap()
    }

    #[test]
    fn silu_hardswish_and_mish_become_one_node() {
        let mut hs = Node::new("hs", "HardSigmoid", &["c"], &["h"]);
        hs.attrs.insert("alpha".into(), Attr::Float(0.25));
        hs.attrs.insert("beta".into(), Attr::Float(0.5));
        let mut w = work(
            vec![
                Node::new("conv", "Conv", &["x", "w"], &["c"]),
                Node::new("sig", "Sigmoid", &["c"], &["s"]),
                Node::new("silu", "Mul", &["c", "s"], &["y1"]),
                hs,
                Node::new("hswish", "Mul", &["h", "c"], &["y2"]),
                Node::new("sp", "Softplus", &["c"], &["p"]),
                Node::new("th", "Tanh", &["p"], &["t"]),
                Node::new("mish", "Mul", &["c", "t"], &["y3"]),
            ],
            &["y1", "y2", "y3"],
        );
        compose(&mut w);
        let ops: Vec<&str> = w.nodes.iter().map(|n| n.op_type.as_str()).collect();
        assert_eq!(ops, ["Conv", "Swish", "HardSwish", "Mish"]);
        assert_eq!(w.sources[3], ["sp", "th", "mish"]);
        assert_eq!(
            lut_fn(&w.nodes[2]),
            Some(LutFn::HardSwish {
                alpha: 0.25,
                beta: 0.5
            })
        );
        assert_eq!(w.users("c"), [1, 2, 3]);
    }

    #[test]
    fn a_gate_used_elsewhere_or_of_another_value_stays() {
        let nodes = vec![
            Node::new("conv", "Conv", &["x", "w"], &["c"]),
            Node::new("sig", "Sigmoid", &["c"], &["s"]),
            Node::new("m", "Mul", &["c", "s"], &["y"]),
            Node::new("m2", "Mul", &["x", "s"], &["z"]),
        ];
        let mut w = work(nodes.clone(), &["y", "z"]);
        compose(&mut w);
        assert_eq!(w.nodes.len(), 4);
        // Mul(x, Sigmoid(c)): a gate of another value (squeeze-excitation).
        let mut w = work(
            vec![nodes[0].clone(), nodes[1].clone(), nodes[3].clone()],
            &["z"],
        );
        compose(&mut w);
        assert_eq!(w.nodes.len(), 3);
    }

    #[test]
    fn hard_sigmoid_is_an_affine_relu_and_min() {
        let mut n = Node::new("hs", "HardSigmoid", &["x"], &["y"]);
        n.attrs.insert("alpha".into(), Attr::Float(0.5));
        n.attrs.insert("beta".into(), Attr::Float(0.25));
        let w = work(vec![n.clone()], &["y"]);
        let s = steps(&w, &n, "x").unwrap().unwrap();
        let k = |v: f32| Operand::Kernel(vec![v; 4]);
        assert_eq!(
            s,
            vec![
                Step::alu("sum", k(0.5)),
                Step::Mul(k(0.5)),
                Step::Relu,
                Step::alu("min", k(1.0))
            ]
        );
        assert!(steps(&w, &n, "other").is_none());
    }

    #[test]
    fn int8_and_lutless_configurations_refuse_lut_nodes() {
        use crate::config::ConfigName;
        let w = work(
            vec![
                Node::new("conv", "Conv", &["x", "w"], &["c"]),
                Node::new("sig", "Sigmoid", &["c"], &["y"]),
            ],
            &["y"],
        );
        assert!(refusals(&w, &Config::get(ConfigName::NvFull)).is_empty());
        let large = refusals(&w, &Config::get(ConfigName::NvLarge));
        assert_eq!(large.len(), 1);
        assert!(large[0].to_string().contains("INT8"), "{}", large[0]);
        let small = refusals(&w, &Config::get(ConfigName::NvSmall));
        assert!(small[0].to_string().contains("nv_small does not have"));
    }
}
