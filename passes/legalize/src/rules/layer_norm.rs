//! The layer normalization exporters write out op by op (PyTorch before
//! opset 17, TensorFlow converters), recognised as one
//! `LayerNormalization`, which NVDLA maps over the features of 3-D tokens
//! (onnc-nvdla `lower::tokens`).
//!
//! In: `Div(d, Sqrt(Add(ReduceMean(d²), ε)))` with `d = Sub(x, ReduceMean(x))`,
//! both means over the last axis with kept dims, `d²` as `Pow(d, 2)` or
//! `Mul(d, d)`, `ε` a constant scalar. Out: `LayerNormalization(x, 1)` over
//! the last axis with that epsilon (the `· γ + β` after it stay per-feature
//! `Mul`/`Add`).
//!
//! ```text
//! common/layer-norm-fuse  (Div (Sub x (ReduceMean x)) (Sqrt (Add (ReduceMean (Pow (Sub …) 2)) eps)))
//!                         => (LayerNormalization{axis=-1, epsilon=eps} x ones)
//! ```

use super::{attrs, Cx, Rule, NVDLA};
use crate::lang::ENode;
use egg::Id;
use onnc_tensor::{Attr, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[Rule {
    name: "common/layer-norm-fuse",
    deep: true,
    op: "Div",
    targets: NVDLA,
    doc: "mean, centre, variance, 1/√(var + ε) written out op by op is a LayerNormalization",
    apply: fuse,
}];

/// The operand of a `ReduceMean` in class `id` over the last axis of a
/// rank-`rank` value with kept dims (axes as attribute or constant input).
fn last_axis_mean(cx: &Cx, id: Id) -> Option<Id> {
    let nodes: Vec<ENode> = cx.eg[id]
        .nodes
        .iter()
        .filter(|n| n.is_op("ReduceMean"))
        .cloned()
        .collect();
    nodes.into_iter().find_map(|n| {
        let key = n.key()?;
        let x = cx.child(&n, 0)?;
        let rank = cx.shape(x)?.len() as i64;
        let axes: Vec<i64> = match key.ints("axes") {
            Some(a) => a.to_vec(),
            None => {
                let a = cx.child(&n, 1)?;
                cx.value(a)?
                    .data()
                    .to_f64_vec()
                    .iter()
                    .map(|&v| v as i64)
                    .collect()
            }
        };
        let keep = key.int("keepdims").unwrap_or(1) != 0;
        (keep && rank > 0 && axes.len() == 1 && (axes[0] == -1 || axes[0] == rank - 1)).then_some(x)
    })
}

/// The operands `(a, b)` of some `op` node in class `id`.
fn pairs(cx: &Cx, id: Id, op: &str) -> Vec<(Id, Id)> {
    cx.eg[id]
        .nodes
        .iter()
        .filter(|n| n.is_op(op) && n.children.len() == 2)
        .filter_map(|n| Some((cx.child(n, 0)?, cx.child(n, 1)?)))
        .collect()
}

/// A constant scalar in class `id`.
fn scalar(cx: &Cx, id: Id) -> Option<f32> {
    let v = cx.value(id)?;
    (v.numel() == 1).then(|| v.data().to_f64_vec()[0] as f32)
}

fn fuse(cx: &mut Cx) -> Option<Id> {
    let (d, s) = (cx.arg(0), cx.arg(1));
    let find = |cx: &Cx, i: Id| cx.eg.find(i);
    // d = x − mean(x)
    let x = pairs(cx, d, "Sub").into_iter().find_map(|(x, m)| {
        (last_axis_mean(cx, m).map(|y| find(cx, y)) == Some(find(cx, x))).then_some(x)
    })?;
    // s = √(mean(d²) + ε)
    let sqrt = cx.eg[s].nodes.iter().find(|n| n.is_op("Sqrt")).cloned()?;
    let e = cx.child(&sqrt, 0)?;
    let (v, eps) = pairs(cx, e, "Add").into_iter().find_map(|(a, b)| {
        scalar(cx, b)
            .map(|k| (a, k))
            .or_else(|| scalar(cx, a).map(|k| (b, k)))
    })?;
    let sq = last_axis_mean(cx, v)?;
    let d0 = find(cx, d);
    let squares = pairs(cx, sq, "Mul")
        .into_iter()
        .any(|(a, b)| find(cx, a) == d0 && find(cx, b) == d0)
        || pairs(cx, sq, "Pow")
            .into_iter()
            .any(|(a, p)| find(cx, a) == d0 && scalar(cx, p) == Some(2.0));
    if !squares || eps.is_nan() || eps < 0.0 {
        return None;
    }
    let k = *cx.shape(x)?.last()?;
    let ones = cx.tensor("ln_scale", Tensor::from_f32(vec![k], vec![1.0; k]).ok()?);
    Some(cx.op(
        "LayerNormalization",
        attrs(&[
            ("axis", Attr::Int(-1)),
            ("epsilon", Attr::Float(eps)),
            ("stash_type", Attr::Int(1)),
        ]),
        &[x, ones],
        "/layer_norm",
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    /// The op-by-op layer norm over `[1, T, K]`, squares as `Pow` or `Mul`.
    fn decomposed(pow: bool) -> onnc_onnx::Graph {
        let (t, k) = (5, 12);
        let axes = || Attr::Ints(vec![-1]);
        let square = if pow {
            Node::new("sq", "Pow", &["d", "two"], &["p"])
        } else {
            Node::new("sq", "Mul", &["d", "d"], &["p"])
        };
        graph(
            &[1, t, k],
            &[1, t, k],
            vec![
                Node::new("m", "ReduceMean", &["x"], &["mu"]).with_attr("axes", axes()),
                Node::new("c", "Sub", &["x", "mu"], &["d"]),
                square,
                Node::new("v", "ReduceMean", &["p"], &["var"]).with_attr("axes", axes()),
                Node::new("e", "Add", &["var", "eps"], &["ve"]),
                Node::new("s", "Sqrt", &["ve"], &["sd"]),
                Node::new("n", "Div", &["d", "sd"], &["nrm"]),
                Node::new("g", "Mul", &["nrm", "gamma"], &["sc"]),
                Node::new("b", "Add", &["sc", "beta"], &["y"]),
            ],
            vec![
                ("two", Tensor::from_f32(vec![], vec![2.0]).unwrap()),
                ("eps", Tensor::from_f32(vec![], vec![1e-5]).unwrap()),
                ("gamma", Tensor::from_f32(vec![k], rand(k, 1)).unwrap()),
                ("beta", Tensor::from_f32(vec![k], rand(k, 2)).unwrap()),
            ],
        )
    }

    #[test]
    fn the_written_out_form_becomes_one_layer_norm() {
        for pow in [true, false] {
            assert_eq!(
                ops_after(decomposed(pow), Target::NvFull),
                ["LayerNormalization", "Mul", "Add"],
                "pow = {pow}"
            );
            same_numbers(decomposed(pow), Target::NvFull, &[1, 5, 12], 1e-4);
        }
    }

    #[test]
    fn a_mean_over_another_axis_is_not_a_layer_norm() {
        let mut g = decomposed(true);
        g.nodes[0] =
            Node::new("m", "ReduceMean", &["x"], &["mu"]).with_attr("axes", Attr::Ints(vec![1]));
        let e = crate::legalize(g, Target::NvFull, &Default::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("node 'm'"), "{e}");
    }
}
