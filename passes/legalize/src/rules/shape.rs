//! Shape-only ops: `Flatten` → `Reshape`, and collapsing `Reshape` chains.
//!
//! In: `Flatten(x)`, `Reshape(Reshape(x, s1), s2)`, `Reshape(x, s)` with
//! `shape(x) = s`. Out: one `Reshape` with a constant shape, or `x`.
//!
//! ```text
//! common/flatten-to-reshape  (Flatten{axis=a} x)          => (Reshape x [∏d<a, ∏d≥a])
//! common/reshape-reshape     (Reshape (Reshape x s1) s2)  => (Reshape x s2)
//! common/reshape-noop        (Reshape x s), shape(x) = s  => x
//! ```

use super::{attrs, Cx, Rule, ALL};
use egg::Id;
use onnc_tensor::Attr;

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/flatten-to-reshape",
        deep: false,
        op: "Flatten",
        targets: ALL,
        doc: "Flatten is a Reshape to 2-D",
        apply: flatten,
    },
    Rule {
        name: "common/reshape-reshape",
        deep: true,
        op: "Reshape",
        targets: ALL,
        doc: "a Reshape of a Reshape is one Reshape",
        apply: reshape_reshape,
    },
    Rule {
        name: "common/reshape-noop",
        deep: false,
        op: "Reshape",
        targets: ALL,
        doc: "a Reshape to the same shape is nothing",
        apply: reshape_noop,
    },
];

fn flatten(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let s = cx.shape(x)?;
    let r = s.len() as i64;
    let mut axis = cx.key.int("axis").unwrap_or(1);
    if axis < 0 {
        axis += r;
    }
    if !(0..=r).contains(&axis) {
        return None;
    }
    let a: usize = s[..axis as usize].iter().product();
    let b: usize = s[axis as usize..].iter().product();
    let shape = cx.ints("shape", &[a as i64, b as i64]);
    Some(cx.op(
        "Reshape",
        attrs(&[("allowzero", Attr::Int(0))]),
        &[x, shape],
        "",
    ))
}

fn reshape_reshape(cx: &mut Cx) -> Option<Id> {
    let inner = cx.producer(cx.arg(0), "Reshape")?;
    let x = cx.child(&inner, 0)?;
    let out = cx.out_shape()?;
    let shape = cx.ints("shape", &out.iter().map(|&d| d as i64).collect::<Vec<_>>());
    Some(cx.op(
        "Reshape",
        attrs(&[("allowzero", Attr::Int(0))]),
        &[x, shape],
        "",
    ))
}

fn reshape_noop(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    (cx.shape(x)? == cx.out_shape()?).then_some(x)
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    #[test]
    fn flatten_becomes_reshape() {
        let n = Node::new("f", "Flatten", &["x"], &["y"]).with_attr("axis", Attr::Int(1));
        assert_eq!(
            ops_after(
                graph(&[1, 4, 2, 2], &[1, 16], vec![n], vec![]),
                Target::NvFull
            ),
            ["Reshape"]
        );
    }

    #[test]
    fn reshape_chains_collapse() {
        let s1 = Tensor::from_i64(vec![2], vec![1, 16]).unwrap();
        let s2 = Tensor::from_i64(vec![4], vec![1, 4, 2, 2]).unwrap();
        let g = graph(
            &[1, 4, 2, 2],
            &[1, 4, 2, 2],
            vec![
                Node::new("a", "Reshape", &["x", "s1"], &["t"]),
                Node::new("b", "Reshape", &["t", "s2"], &["u"]),
                Node::new("r", "Relu", &["u"], &["y"]),
            ],
            vec![("s1", s1), ("s2", s2)],
        );
        assert_eq!(ops_after(g, Target::NvFull), ["Relu"]);
    }
}
