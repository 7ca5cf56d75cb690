//! CPU fallback: ops the target runs only on its CPU path are marked with
//! the attribute `onnc.device = "cpu"` ([`crate::DEVICE_ATTR`]); the
//! back-end emits them as CPU tasks (NVDLA: EMU tasks in the loadable).
//!
//! In: an op listed in the target's [`crate::target::Config::cpu_ops`] whose
//! shape the CPU path handles. Out: the same op with `onnc.device = "cpu"`.
//! NVDLA's EMU implements Softmax over the channel vector of a `1×C(×1×1)`
//! cube (research/nvdla.md §3): every dimension but the softmax axis must be 1.
//!
//! ```text
//! nvdla/pow-on-emu      (Pow x c), c a constant scalar   => (Pow{onnc.device="cpu"} x c)   ; EMU power op
//! nvdla/softmax-on-emu  (Softmax{axis} x), other dims 1  => (Softmax{axis, onnc.device="cpu"} x)
//! ```

use super::{Cx, Rule, NVDLA};
use crate::lang::{AttrKey, ENode, Op};
use egg::Id;
use std::sync::Arc;

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nvdla/pow-on-emu",
        deep: false,
        op: "Pow",
        targets: NVDLA,
        doc: "Pow by a constant scalar runs on NVDLA's EMU (power op)",
        apply: pow,
    },
    Rule {
        name: "nvdla/softmax-on-emu",
        deep: false,
        op: "Softmax",
        targets: NVDLA,
        doc: "Softmax runs on NVDLA's EMU (CPU)",
        apply: softmax,
    },
];

fn mark_cpu(cx: &mut Cx) -> Id {
    let key = (*cx.key)
        .clone()
        .with_attr(crate::DEVICE_ATTR, AttrKey::String("cpu".into()));
    let children = cx.node.children.clone();
    cx.eg.add(ENode {
        op: Op::Apply(Arc::new(key)),
        children,
    })
}

fn pow(cx: &mut Cx) -> Option<Id> {
    let e = cx.arg(1);
    if cx.key.on_cpu() || !cx.is_const(e) || cx.value(e)?.numel() != 1 {
        return None;
    }
    Some(mark_cpu(cx))
}

fn softmax(cx: &mut Cx) -> Option<Id> {
    if cx.key.on_cpu() {
        return None;
    }
    let xs = cx.shape(cx.arg(0))?;
    let r = xs.len() as i64;
    let mut axis = cx.key.int("axis").unwrap_or(-1);
    if axis < 0 {
        axis += r;
    }
    if !(0..r).contains(&axis)
        || xs
            .iter()
            .enumerate()
            .any(|(i, &d)| i as i64 != axis && d != 1)
    {
        return None;
    }
    Some(mark_cpu(cx))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::Attr;

    #[test]
    fn softmax_is_marked_for_emu() {
        let n = Node::new("sm", "Softmax", &["x"], &["y"]).with_attr("axis", Attr::Int(1));
        let r = crate::legalize(
            graph(&[1, 10], &[1, 10], vec![n], vec![]),
            Target::NvFull,
            &Default::default(),
        )
        .unwrap();
        assert_eq!(
            r.graph.nodes[0].attrs.get(crate::DEVICE_ATTR),
            Some(&Attr::String("cpu".into()))
        );
    }

    #[test]
    fn pow_by_a_scalar_is_marked_for_emu_and_a_big_softmax_is_reported() {
        let two = onnc_tensor::Tensor::from_f32(vec![], vec![2.0]).unwrap();
        let g = graph(
            &[1, 4],
            &[1, 4],
            vec![Node::new("p", "Pow", &["x", "two"], &["y"])],
            vec![("two", two)],
        );
        let r = crate::legalize(g, Target::NvSmall, &Default::default()).unwrap();
        assert_eq!(
            r.graph.nodes[0].attrs.get(crate::DEVICE_ATTR),
            Some(&Attr::String("cpu".into()))
        );
        let n = Node::new("sm", "Softmax", &["x"], &["y"]).with_attr("axis", Attr::Int(1));
        let e = crate::legalize(
            graph(&[2, 10], &[2, 10], vec![n], vec![]),
            Target::NvFull,
            &Default::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("needs every dimension but the softmax axis to be 1"),
            "{e}"
        );
    }

    #[test]
    fn softmax_is_an_error_on_mvu() {
        let n = Node::new("sm", "Softmax", &["x"], &["y"]).with_attr("axis", Attr::Int(1));
        let e = crate::legalize(
            graph(&[1, 10], &[1, 10], vec![n], vec![]),
            Target::Mvu,
            &Default::default(),
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("Softmax is not supported by mvu"),
            "{e}"
        );
    }
}
