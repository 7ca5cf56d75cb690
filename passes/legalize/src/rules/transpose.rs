//! Transpose chains: two permutations in a row are one, and the identity
//! permutation is nothing.
//!
//! In: `Transpose{p2}(Transpose{p1}(x))`, `Transpose{p}(x)` with `p` the
//! identity. Out: `Transpose{p}(x)` with `p[i] = p1[p2[i]]`, or `x`.
//! A missing `perm` reverses the axes (the ONNX default).
//!
//! ```text
//! common/transpose-transpose  (Transpose{p2} (Transpose{p1} x))  => (Transpose{p1∘p2} x)
//! common/transpose-noop       (Transpose{0,1,…,r−1} x)           => x
//! ```
//!
//! A layout round trip (NCHW → NHWC → NCHW, as exporters write around ops
//! that want channels last) then costs nothing, where each Transpose alone
//! moves data across spatial axes that no NVDLA engine can.

use super::{attrs, Cx, Rule, ALL};
use crate::lang::ENode;
use egg::Id;
use onnc_tensor::Attr;

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/transpose-transpose",
        deep: true,
        op: "Transpose",
        targets: ALL,
        doc: "a Transpose of a Transpose is one Transpose",
        apply: transpose_transpose,
    },
    Rule {
        name: "common/transpose-noop",
        deep: false,
        op: "Transpose",
        targets: ALL,
        doc: "a Transpose by the identity permutation is nothing",
        apply: transpose_noop,
    },
];

/// The permutation of a Transpose whose input has `rank` axes, checked to
/// be one: `perm`, or the axes reversed when it is absent.
pub(crate) fn perm_of(perm: Option<&[i64]>, rank: usize) -> Option<Vec<usize>> {
    let p: Vec<usize> = match perm {
        Some(p) => p
            .iter()
            .map(|&a| usize::try_from(a).ok())
            .collect::<Option<_>>()?,
        None => (0..rank).rev().collect(),
    };
    let mut seen = vec![false; rank];
    for &a in &p {
        if a >= rank || std::mem::replace(&mut seen[a], true) {
            return None;
        }
    }
    (p.len() == rank).then_some(p)
}

fn node_perm(node: &ENode, rank: usize) -> Option<Vec<usize>> {
    perm_of(node.key()?.ints("perm"), rank)
}

fn transpose_transpose(cx: &mut Cx) -> Option<Id> {
    let inner = cx.producer(cx.arg(0), "Transpose")?;
    let x = cx.child(&inner, 0)?;
    let rank = cx.shape(x)?.len();
    let p1 = node_perm(&inner, rank)?;
    let p2 = perm_of(cx.key.ints("perm"), rank)?;
    let p: Vec<i64> = p2.iter().map(|&i| p1[i] as i64).collect();
    if p.iter().enumerate().all(|(i, &a)| a == i as i64) {
        return Some(x);
    }
    Some(cx.op("Transpose", attrs(&[("perm", Attr::Ints(p))]), &[x], ""))
}

fn transpose_noop(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let rank = cx.shape(x)?.len();
    let p = perm_of(cx.key.ints("perm"), rank)?;
    p.iter().enumerate().all(|(i, &a)| a == i).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::perm_of;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;

    #[test]
    fn a_layout_round_trip_disappears() {
        let g = graph(
            &[1, 4, 3, 5],
            &[1, 4, 3, 5],
            vec![
                tr("to_nhwc", &[0, 2, 3, 1], "x", "t"),
                tr("to_nchw", &[0, 3, 1, 2], "t", "u"),
                Node::new("r", "Relu", &["u"], &["y"]),
            ],
            vec![],
        );
        assert_eq!(ops_after(g, Target::NvFull), ["Relu"]);
    }

    #[test]
    fn two_transposes_compose_into_one_with_the_same_numbers() {
        // [0,1,3,2] then [0,3,2,1] is [0,2,3,1]: NNIE's Permute runs only
        // that one, so the two alone are illegal there and one is legal.
        let g = graph(
            &[1, 2, 3, 4],
            &[1, 3, 4, 2],
            vec![
                tr("a", &[0, 1, 3, 2], "x", "t"),
                tr("b", &[0, 3, 2, 1], "t", "y"),
            ],
            vec![],
        );
        assert_eq!(ops_after(g.clone(), Target::Nnie), ["Transpose"]);
        same_numbers(g, Target::Nnie, &[1, 2, 3, 4], 0.0);
    }

    #[test]
    fn the_default_perm_reverses_and_bad_perms_are_not_rewritten() {
        assert_eq!(perm_of(None, 3), Some(vec![2, 1, 0]));
        assert_eq!(perm_of(Some(&[0, 0, 1]), 3), None);
        assert_eq!(perm_of(Some(&[0, 1]), 3), None);
        assert_eq!(perm_of(Some(&[0, 3, 1]), 3), None);
        assert_eq!(perm_of(Some(&[-1, 0, 1]), 3), None);
    }
}
