//! Folding a zero `Pad` into the `pads` of the Conv or pool that reads it
//! (ONNC's LegalizePadPass), within the target's padding limits.
//!
//! In: `Conv(Pad(x, p, 0), …)`, `AveragePool(Pad(x, p, 0))`,
//! `MaxPool(Pad(x, p, 0))` where `p` pads only the spatial axes with
//! non-negative amounts in `constant` mode. Out: the consumer reading `x`
//! with `pads + p`. Conditions: the sum stays within the limit; an
//! AveragePool must count the padding (`count_include_pad = 1`, or no pads
//! of its own and then it is set to 1); a MaxPool only when `x` is a `Relu`
//! (non-negative, so a zero pad never wins the maximum).
//!
//! ```text
//! common/pad-into-conv     (Conv (Pad x p 0) W b)     => (Conv{pads+p} x W b)
//! common/pad-into-avgpool  (AveragePool (Pad x p 0))  => (AveragePool{pads+p, cip=1} x)
//! common/pad-into-maxpool  (MaxPool (Pad (Relu y) p 0)) => (MaxPool{pads+p} (Relu y))
//! ```

use super::{Cx, Rule, ALL};
use crate::cond;
use crate::lang::{AttrKey, ENode, Op};
use egg::Id;
use std::sync::Arc;

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/pad-into-conv",
        deep: true,
        op: "Conv",
        targets: ALL,
        doc: "zero Pad before Conv joins the Conv's pads",
        apply: fold,
    },
    Rule {
        name: "common/pad-into-avgpool",
        deep: true,
        op: "AveragePool",
        targets: ALL,
        doc: "zero Pad before AveragePool joins its pads (counted)",
        apply: fold,
    },
    Rule {
        name: "common/pad-into-maxpool",
        deep: true,
        op: "MaxPool",
        targets: ALL,
        doc: "zero Pad of a Relu before MaxPool joins its pads",
        apply: fold,
    },
];

/// Spatial pads `[b…, e…]` of a foldable zero Pad node, or `None`.
fn spatial_pads(cx: &Cx, pad: &ENode, rank: usize) -> Option<Vec<usize>> {
    let key = pad.key()?;
    if key.string("mode").unwrap_or("constant") != "constant" {
        return None;
    }
    if pad.children.len() > 3 && crate::cond::operand_present(cx.eg, pad, 3) {
        return None; // explicit axes: not handled
    }
    let p = cx
        .value(cx.eg.find(*pad.children.get(1)?))?
        .data()
        .to_i64_vec();
    if p.len() != 2 * rank
        || p.iter().any(|&v| v < 0)
        || p[0] != 0
        || p[1] != 0
        || p[rank] != 0
        || p[rank + 1] != 0
    {
        return None;
    }
    if crate::cond::operand_present(cx.eg, pad, 2) {
        let v = cx.value(cx.child(pad, 2)?)?.data().to_f64_vec();
        if v.iter().any(|&z| z != 0.0) {
            return None;
        }
    }
    let n = rank - 2;
    Some(
        (0..n)
            .map(|i| p[2 + i] as usize)
            .chain((0..n).map(|i| p[rank + 2 + i] as usize))
            .collect(),
    )
}

fn fold(cx: &mut Cx) -> Option<Id> {
    let op = cx.key.op_type.as_str().to_string();
    let pad = cx.producer(cx.arg(0), "Pad")?;
    let x = cx.child(&pad, 0)?;
    let rank = cx.shape(x)?.len();
    if rank < 3 || !cond::explicit_pads(&cx.key) {
        return None;
    }
    let extra = spatial_pads(cx, &pad, rank)?;
    let old = cond::pads(&cx.key);
    if old.len() != extra.len() {
        return None;
    }
    let new: Vec<usize> = old.iter().zip(&extra).map(|(a, b)| a + b).collect();
    let limit = if op == "Conv" {
        cx.cfg.conv_pad_max
    } else {
        cx.cfg.pool_pad_max
    };
    if new.iter().any(|&v| v > limit) {
        return None;
    }
    let mut key = (*cx.key).clone().with_attr(
        "pads",
        AttrKey::Ints(new.iter().map(|&v| v as i64).collect()),
    );
    match op.as_str() {
        "AveragePool" => {
            if cx.key.int("count_include_pad") == Some(0) && old.iter().any(|&v| v > 0) {
                return None;
            }
            key = key.with_attr("count_include_pad", AttrKey::Int(1));
        }
        "MaxPool" => {
            cx.producer(x, "Relu")?;
        }
        _ => {}
    }
    key.name = format!("{}+{}", pad.key()?.name, cx.key.name)
        .as_str()
        .into();
    let mut srcs = key.sources.clone();
    srcs.extend(pad.key()?.sources.iter().copied());
    srcs.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    srcs.dedup();
    key.sources = srcs;
    let mut children = cx.node.children.clone();
    *children.first_mut()? = x;
    Some(cx.eg.add(ENode {
        op: Op::Apply(Arc::new(key)),
        children,
    }))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn pad_conv(p: i64) -> onnc_onnx::Graph {
        let pads = Tensor::from_i64(vec![8], vec![0, 0, p, p, 0, 0, p, p]).unwrap();
        let w = Tensor::from_f32(vec![2, 2, 3, 3], rand(36, 3)).unwrap();
        let conv = Node::new("conv", "Conv", &["t", "w"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("group", Attr::Int(1))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        let pad = Node::new("pad", "Pad", &["x", "pads"], &["t"])
            .with_attr("mode", Attr::String("constant".into()));
        let out = 4 + 2 * p as usize;
        graph(
            &[1, 2, 4, 4],
            &[1, 2, out, out],
            vec![pad, conv],
            vec![("pads", pads), ("w", w)],
        )
    }

    #[test]
    fn pad_folds_into_conv() {
        assert_eq!(ops_after(pad_conv(2), Target::NvFull), ["Conv"]);
        same_numbers(pad_conv(2), Target::NvFull, &[1, 2, 4, 4], 1e-5);
    }

    fn pad_pool(op: &str, relu: bool) -> onnc_onnx::Graph {
        let pads = Tensor::from_i64(vec![8], vec![0, 0, 1, 1, 0, 0, 1, 1]).unwrap();
        let mut nodes = vec![];
        let src = if relu {
            nodes.push(Node::new("r", "Relu", &["x"], &["rx"]));
            "rx"
        } else {
            "x"
        };
        nodes.push(
            Node::new("pad", "Pad", &[src, "pads"], &["t"])
                .with_attr("mode", Attr::String("constant".into())),
        );
        let mut pool = Node::new("pool", op, &["t"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![0, 0, 0, 0]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("ceil_mode", Attr::Int(0))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        if op == "AveragePool" {
            pool = pool.with_attr("count_include_pad", Attr::Int(0));
        }
        nodes.push(pool);
        graph(&[1, 2, 4, 4], &[1, 2, 4, 4], nodes, vec![("pads", pads)])
    }

    #[test]
    fn pad_folds_into_avgpool_counting_the_padding() {
        assert_eq!(
            ops_after(pad_pool("AveragePool", false), Target::NvFull),
            ["AveragePool"]
        );
        same_numbers(
            pad_pool("AveragePool", false),
            Target::NvFull,
            &[1, 2, 4, 4],
            1e-5,
        );
    }

    #[test]
    fn pad_folds_into_maxpool_only_after_relu() {
        assert_eq!(
            ops_after(pad_pool("MaxPool", true), Target::NvFull),
            ["Relu", "MaxPool"]
        );
        same_numbers(
            pad_pool("MaxPool", true),
            Target::NvFull,
            &[1, 2, 4, 4],
            1e-6,
        );
        // Without the Relu the zero pad does not fold (max would see the
        // zeros); it stays a Pad, which NVDLA runs as a padded 1×1
        // selection conv.
        assert_eq!(
            ops_after(pad_pool("MaxPool", false), Target::NvFull),
            ["Pad", "MaxPool"]
        );
    }

    #[test]
    fn pad_beyond_the_limit_is_reported() {
        let e = crate::legalize(pad_conv(40), Target::NvFull, &Default::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("Pad is supported by nv_full only as spatial pads of at most 31"),
            "{e}"
        );
    }
}
