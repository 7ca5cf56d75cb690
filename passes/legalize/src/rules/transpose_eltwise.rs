//! Element-wise ops commute with a layout Transpose, so a Transpose sinks
//! through them toward the one that undoes it (ConvNeXt's channels-last
//! blocks: `NCHW → NHWC`, per-channel work, `NHWC → NCHW`).
//!
//! In: a unary element-wise op of `Transpose{p}(a)`; a binary one of two
//! Transposes by the same `p`, or of `Transpose{p}(a)` and a constant `c`
//! (either side, broadcast to the result's rank). Out: `Transpose{p}` of
//! the op on `a` (and `b`), with `c` padded to rank r with leading 1s and
//! permuted by `p⁻¹`, so it broadcasts against `a` as it did against the
//! transposed value. Only 4-D values: 3-D `[0, 2, 1]` Transposes are
//! NVDLA's token views and stay as they are.
//!
//! ```text
//! common/transpose-through-{erf,relu,sigmoid,tanh}
//!                                 (f (Transpose{p} a))                     => (Transpose{p} (f a))
//! common/transpose-through-{add,mul,div,sub}
//!                                 (op (Transpose{p} a) (Transpose{p} b))   => (Transpose{p} (op a b))
//!                                 (op (Transpose{p} a) c)                  => (Transpose{p} (op a c·p⁻¹))
//! ```
//!
//! Together with `common/transpose-transpose` a Transpose pair around
//! element-wise work cancels; nets without 4-D Transposes never match.

use super::transpose::perm_of;
use super::{as_dtype, attrs, Cx, Rule, NVDLA_NNIE};
use egg::Id;
use onnc_tensor::{Attr, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    unary("common/transpose-through-erf", "Erf"),
    unary("common/transpose-through-relu", "Relu"),
    unary("common/transpose-through-sigmoid", "Sigmoid"),
    unary("common/transpose-through-tanh", "Tanh"),
    binary("common/transpose-through-add", "Add"),
    binary("common/transpose-through-mul", "Mul"),
    binary("common/transpose-through-div", "Div"),
    binary("common/transpose-through-sub", "Sub"),
];

const fn unary(name: &'static str, op: &'static str) -> Rule {
    Rule {
        name,
        deep: true,
        op,
        targets: NVDLA_NNIE,
        doc: "a unary element-wise op of a 4-D Transpose is the Transpose of the op",
        apply: through_unary,
    }
}

const fn binary(name: &'static str, op: &'static str) -> Rule {
    Rule {
        name,
        deep: true,
        op,
        targets: NVDLA_NNIE,
        doc: "a binary element-wise op of 4-D Transposes (or one and a constant) is the Transpose of the op",
        apply: through_binary,
    }
}

/// `(a, p)` when class `id` holds a `Transpose{p}(a)` of a 4-D `a`.
pub(crate) fn transposed(cx: &Cx, id: Id) -> Option<(Id, Vec<usize>)> {
    cx.eg[id]
        .nodes
        .iter()
        .filter(|n| n.is_op("Transpose"))
        .find_map(|n| {
            let a = cx.child(n, 0)?;
            let rank = cx.shape(a)?.len();
            let p = perm_of(n.key()?.ints("perm"), rank)?;
            (rank == 4).then_some((a, p))
        })
}

/// `Transpose{p}(x)` added to the graph.
pub(crate) fn transpose(cx: &mut Cx, x: Id, p: &[usize], suffix: &str) -> Id {
    let perm = Attr::Ints(p.iter().map(|&v| v as i64).collect());
    cx.op("Transpose", attrs(&[("perm", perm)]), &[x], suffix)
}

fn through_unary(cx: &mut Cx) -> Option<Id> {
    if cx.arity() != 1 {
        return None;
    }
    let (a, p) = transposed(cx, cx.arg(0))?;
    let op = cx.key.op_type.to_string();
    let y = cx.op(&op, cx.key.to_attrs(), &[a], "/nchw");
    Some(transpose(cx, y, &p, "/to_nhwc"))
}

/// Constant `c` as it broadcasts against `a` when `Transpose{p}(a)` met it:
/// padded to rank `p.len()` with leading 1s, axes permuted by `p⁻¹`.
fn permute_const(c: &Tensor, p: &[usize]) -> Option<Tensor> {
    let r = p.len();
    if c.rank() > r || !c.dtype().is_float() {
        return None;
    }
    let mut shape = vec![1usize; r - c.rank()];
    shape.extend_from_slice(c.shape());
    // out axis j of the permuted constant is axis inv[j] of `shape`.
    let mut inv = vec![0; r];
    for (i, &a) in p.iter().enumerate() {
        inv[a] = i;
    }
    let out_shape: Vec<usize> = inv.iter().map(|&i| shape[i]).collect();
    let src = c.data().to_f64_vec();
    let strides: Vec<usize> = (0..r).map(|i| shape[i + 1..].iter().product()).collect();
    let n: usize = out_shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; r];
    for _ in 0..n {
        out.push(src[(0..r).map(|j| idx[j] * strides[inv[j]]).sum::<usize>()] as f32);
        for j in (0..r).rev() {
            idx[j] += 1;
            if idx[j] < out_shape[j] {
                break;
            }
            idx[j] = 0;
        }
    }
    Some(as_dtype(Tensor::from_f32(out_shape, out).ok()?, c.dtype()))
}

fn through_binary(cx: &mut Cx) -> Option<Id> {
    if cx.arity() != 2 {
        return None;
    }
    let (l, r) = (cx.arg(0), cx.arg(1));
    let op = cx.key.op_type.to_string();
    let at = cx.key.to_attrs();
    let (a, b, p) = match (transposed(cx, l), transposed(cx, r)) {
        (Some((a, p)), Some((b, q))) if p == q => (a, b, p),
        (Some((a, p)), _) if cx.is_const(r) => {
            let c = permute_const(&*cx.value(r)?, &p)?;
            (a, cx.tensor("nchw_const", c), p)
        }
        (_, Some((b, p))) if cx.is_const(l) => {
            let c = permute_const(&*cx.value(l)?, &p)?;
            (cx.tensor("nchw_const", c), b, p)
        }
        _ => return None,
    };
    let y = cx.op(&op, at, &[a, b], "/nchw");
    Some(transpose(cx, y, &p, "/to_nhwc"))
}

#[cfg(test)]
mod tests {
    use super::permute_const;
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::Tensor;

    /// NCHW → NHWC, `· γ[C] + β[1, 1, C]`, Erf, `· (same)`, NHWC → NCHW.
    fn sandwich() -> onnc_onnx::Graph {
        let c = 6;
        graph(
            &[1, c, 3, 5],
            &[1, c, 3, 5],
            vec![
                tr("in", &[0, 2, 3, 1], "x", "t"),
                Node::new("g", "Mul", &["gamma", "t"], &["m"]),
                Node::new("b", "Add", &["m", "beta"], &["a"]),
                Node::new("e", "Erf", &["a"], &["e"]),
                Node::new("h", "Div", &["e", "two"], &["d"]),
                Node::new("p", "Mul", &["a", "d"], &["q"]),
                tr("out", &[0, 3, 1, 2], "q", "y"),
            ],
            vec![
                ("gamma", Tensor::from_f32(vec![c], rand(c, 1)).unwrap()),
                ("beta", Tensor::from_f32(vec![1, 1, c], rand(c, 2)).unwrap()),
                ("two", Tensor::from_f32(vec![], vec![2.0]).unwrap()),
            ],
        )
    }

    #[test]
    fn element_wise_work_between_layout_transposes_loses_them() {
        let ops = ops_after(sandwich(), Target::NvFull);
        assert!(!ops.iter().any(|o| o == "Transpose"), "{ops:?}");
        assert_eq!(ops.iter().filter(|o| *o == "Erf").count(), 1, "{ops:?}");
        same_numbers(sandwich(), Target::NvFull, &[1, 6, 3, 5], 1e-6);
    }

    #[test]
    fn a_transpose_that_is_not_undone_stays_refused() {
        let mut g = sandwich();
        g.nodes.pop();
        g.outputs[0] = vi("q", &[1, 3, 5, 6]);
        let e = crate::legalize(g, Target::NvFull, &Default::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("Transpose"), "{e}");
    }

    #[test]
    fn a_constant_is_permuted_with_the_inverse_permutation() {
        // [2, 3] broadcast against NHWC [·, ·, 2, 3]: against NCHW it is [1, 3, 1, 2]ᵀ.
        let c = Tensor::from_f32(vec![2, 3], vec![0., 1., 2., 3., 4., 5.]).unwrap();
        let t = permute_const(&c, &[0, 2, 3, 1]).unwrap();
        assert_eq!(t.shape(), &[1, 3, 1, 2]);
        assert_eq!(t.as_f32().unwrap(), &[0., 3., 1., 4., 2., 5.]);
    }
}
