//! Legality: can the target run this e-node, and how much work is it?
//!
//! In: an e-node, its e-class data and a [`Target`]. Out: a [`Verdict`] —
//! free (constants, aliases), native with an amount of work, on the CPU path,
//! or illegal with the violated limit in words. The cost model
//! ([`crate::cost`]) turns verdicts into numbers; diagnostics
//! ([`crate::diagnose`]) print the reasons.
//!
//! ```
//! use onnc_legalize::legality::Verdict;
//! assert!(Verdict::Illegal("x".into()).is_illegal());
//! assert!(!Verdict::Free.is_illegal());
//! ```

use crate::analysis::{Data, Graph};
use crate::cond::{self, Check};
use crate::lang::{ENode, Op, OpKey};
use crate::target::Target;

/// What the target does with an e-node.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Costs nothing at run time: leaves, projections, constant subgraphs, memory aliases.
    Free,
    /// Runs on the accelerator; the payload is the work in engine cycles (see [`crate::cost`]).
    Native(f64),
    /// Runs on the target's CPU path (marked `onnc.device = "cpu"`); payload = elements processed.
    Cpu(f64),
    /// Cannot run; the reason names the violated limit.
    Illegal(String),
}

impl Verdict {
    /// Whether the node cannot run.
    pub fn is_illegal(&self) -> bool {
        matches!(self, Verdict::Illegal(_))
    }
}

/// Judges `node` (whose e-class data is `out`) for `target`.
pub fn judge(target: Target, eg: &Graph, node: &ENode, out: &Data) -> Verdict {
    let key = match &node.op {
        Op::Apply(k) => k,
        _ => return Verdict::Free,
    };
    if out.konst {
        return Verdict::Free;
    }
    let op = key.op_type.as_str();
    let elems = out
        .types
        .first()
        .and_then(|t| t.static_shape())
        .map(|s| s.iter().product::<usize>() as f64);
    if key.on_cpu() {
        return if target.config().cpu_ops.contains(&op) {
            Verdict::Cpu(elems.unwrap_or(1.0))
        } else {
            Verdict::Illegal(format!("{op} cannot run on {target}'s CPU path"))
        };
    }
    if out.types.is_empty() {
        return Verdict::Illegal(format!("the result type of {op} is unknown"));
    }
    let Some(elems) = elems else {
        return Verdict::Illegal(format!(
            "{op} has a dynamic shape; {target} needs static shapes"
        ));
    };
    let r = if target.is_nvdla() {
        crate::targets::nvdla::check(target, eg, node, key, elems)
    } else if target == Target::Nnie {
        crate::targets::nnie::check(target, eg, node, key, elems)
    } else {
        crate::targets::mvu::check(target, eg, node, key, elems)
    };
    match r {
        Ok(v) => v,
        Err(reason) => Verdict::Illegal(reason),
    }
}

/// Operation count of a convolution (MACs) from its output elements.
pub fn conv_macs(eg: &Graph, node: &ENode, key: &OpKey, out_elems: f64) -> f64 {
    let w = cond::operand_shape(eg, node, 1).unwrap_or_default();
    let per_out: usize = w.iter().skip(1).product();
    let _ = key;
    out_elems * per_out.max(1) as f64
}

/// The standard "element-wise with one optional constant operand" check of SDP/Eltwise units:
/// a constant operand broadcasts per layer (one element), per channel (`1×C×1×1`, `C×1×1`) or is
/// full size; two non-constant operands must have equal shapes.
pub fn binary_broadcast(eg: &Graph, node: &ENode, op: &str, target: Target) -> Check {
    let (a, b) = (
        cond::operand_shape(eg, node, 0),
        cond::operand_shape(eg, node, 1),
    );
    let (Some(a), Some(b)) = (a, b) else {
        return Err(format!("{op} operand shapes are unknown"));
    };
    let (ca, cb) = (
        cond::operand_const(eg, node, 0),
        cond::operand_const(eg, node, 1),
    );
    if !ca && !cb {
        return if a == b {
            Ok(())
        } else {
            Err(format!(
                "{op} of {a:?} and {b:?} needs a broadcast {target} cannot do"
            ))
        };
    }
    let (x, c) = if cb { (a, b) } else { (b, a) };
    let n: usize = c.iter().product();
    let channels = if x.len() >= 3 {
        x[x.len() - 3]
    } else {
        usize::MAX
    };
    let per_channel = n == channels && c.iter().rev().take(2).all(|&d| d == 1) && c.len() >= 3;
    if n == 1 || per_channel || c == x {
        Ok(())
    } else {
        Err(format!("{op} constant of shape {c:?} is neither per-layer, per-channel nor full-size for {x:?} on {target}"))
    }
}
