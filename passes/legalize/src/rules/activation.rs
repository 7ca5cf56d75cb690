//! Activations: `Clip` → `Max`/`Min` (or kept as ReLU6 where it runs),
//! `Max(x, 0)` → `Relu`, `Min(Relu(x), 6)` → ReLU6, `LeakyRelu` → `PRelu`.
//!
//! In: `Clip(x, lo?, hi?)` with constant bounds, `Max(x, 0)`,
//! `Min(Relu(x), 6)`, `LeakyRelu{alpha}(x)`. Out: forms the target runs.
//!
//! ```text
//! common/clip-to-max-min       (Clip x lo hi)        => (Min (Max x lo) hi)
//! common/max-zero-to-relu      (Max x 0)             => (Relu x)
//! nnie/relu6-from-min-relu     (Min (Relu x) 6)      => (Clip x 0 6)          ; then nnie/clip-as-relus
//! common/leaky-relu-to-prelu   (LeakyRelu{α} x)      => (PRelu x [α])
//! ```

use super::{Cx, Rule, ALL};
use crate::target::Target;
use egg::Id;
use onnc_tensor::{Attrs, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/clip-to-max-min",
        deep: false,
        op: "Clip",
        targets: ALL,
        doc: "Clip(x, lo, hi) = Min(Max(x, lo), hi)",
        apply: clip,
    },
    Rule {
        name: "common/max-zero-to-relu",
        deep: false,
        op: "Max",
        targets: ALL,
        doc: "Max(x, 0) = Relu(x)",
        apply: max_zero,
    },
    Rule {
        name: "nnie/relu6-from-min-relu",
        deep: true,
        op: "Min",
        targets: &[Target::Nnie],
        doc: "Min(Relu(x), 6) = Clip(x, 0, 6), which NNIE runs as ReLUs and Power layers",
        apply: relu6,
    },
    Rule {
        name: "common/leaky-relu-to-prelu",
        deep: false,
        op: "LeakyRelu",
        targets: ALL,
        doc: "LeakyRelu(x) = PRelu(x, alpha)",
        apply: leaky,
    },
];

fn clip(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let mut cur = x;
    let has_lo = cx.has(1);
    let has_hi = cx.has(2);
    if has_lo {
        let lo = cx.arg(1);
        if !cx.is_const(lo) {
            return None;
        }
        let suffix = if has_hi { "/max" } else { "" };
        cur = cx.op("Max", Attrs::new(), &[cur, lo], suffix);
    }
    if has_hi {
        let hi = cx.arg(2);
        if !cx.is_const(hi) {
            return None;
        }
        cur = cx.op("Min", Attrs::new(), &[cur, hi], "");
    }
    Some(cur)
}

fn max_zero(cx: &mut Cx) -> Option<Id> {
    let (a, b) = (cx.arg(0), cx.arg(1));
    let (x, c) = if cx.is_const(b) { (a, b) } else { (b, a) };
    if cx.is_const(x) || cx.shape(x)? != cx.out_shape()? {
        return None;
    }
    let v = cx.floats(c)?;
    if !v.iter().all(|&z| z == 0.0) {
        return None;
    }
    Some(cx.op("Relu", Attrs::new(), &[x], ""))
}

fn relu6(cx: &mut Cx) -> Option<Id> {
    let (a, b) = (cx.arg(0), cx.arg(1));
    let relu = cx.producer(a, "Relu")?;
    if cx.floats(b)? != [6.0] {
        return None;
    }
    let x = cx.child(&relu, 0)?;
    let dtype = cx.ty(x)?.dtype;
    let lo = cx.tensor("lo", Tensor::full(dtype, vec![], 0.0));
    let hi = cx.tensor("hi", Tensor::full(dtype, vec![], 6.0));
    Some(cx.op("Clip", Attrs::new(), &[x, lo, hi], ""))
}

fn leaky(cx: &mut Cx) -> Option<Id> {
    let alpha = cx.key.float("alpha").unwrap_or(0.01);
    let x = cx.arg(0);
    let dtype = cx.ty(x)?.dtype;
    let slope = cx.tensor("slope", Tensor::full(dtype, vec![1], alpha as f64));
    Some(cx.op("PRelu", Attrs::new(), &[x, slope], ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn clip06() -> onnc_onnx::Graph {
        let lo = Tensor::from_f32(vec![], vec![0.0]).unwrap();
        let hi = Tensor::from_f32(vec![], vec![6.0]).unwrap();
        graph(
            &[1, 2, 2, 2],
            &[1, 2, 2, 2],
            vec![Node::new("c", "Clip", &["x", "lo", "hi"], &["y"])],
            vec![("lo", lo), ("hi", hi)],
        )
    }

    #[test]
    fn clip_becomes_relu_and_min_on_nvdla() {
        assert_eq!(ops_after(clip06(), Target::NvFull), ["Relu", "Min"]);
    }

    #[test]
    fn clip_is_relus_and_affine_maps_on_nnie() {
        assert_eq!(
            ops_after(clip06(), Target::Nnie),
            ["Relu", "Mul", "Add", "Relu", "Mul", "Add"]
        );
        same_numbers(clip06(), Target::Nnie, &[1, 2, 2, 2], 1e-6);
    }

    #[test]
    fn min_relu_becomes_clip_then_relus_on_nnie() {
        let six = Tensor::from_f32(vec![], vec![6.0]).unwrap();
        let g = graph(
            &[1, 2, 2, 2],
            &[1, 2, 2, 2],
            vec![
                Node::new("r", "Relu", &["x"], &["t"]),
                Node::new("m", "Min", &["t", "six"], &["y"]),
            ],
            vec![("six", six)],
        );
        assert_eq!(
            ops_after(g, Target::Nnie),
            ["Relu", "Mul", "Add", "Relu", "Mul", "Add"]
        );
    }

    #[test]
    fn leaky_relu_becomes_prelu() {
        let n = Node::new("l", "LeakyRelu", &["x"], &["y"]).with_attr("alpha", Attr::Float(0.1));
        assert_eq!(
            ops_after(
                graph(&[1, 2, 2, 2], &[1, 2, 2, 2], vec![n.clone()], vec![]),
                Target::NvFull
            ),
            ["PRelu"]
        );
        same_numbers(
            graph(&[1, 2, 2, 2], &[1, 2, 2, 2], vec![n], vec![]),
            Target::NvFull,
            &[1, 2, 2, 2],
            1e-6,
        );
    }

    #[test]
    fn clip_numbers() {
        same_numbers(clip06(), Target::NvFull, &[1, 2, 2, 2], 1e-6);
    }
}
