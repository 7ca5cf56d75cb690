//! Arithmetic the engines run in another form: `Sum` → a tree of `Add`,
//! `Sub`/`Div` by a constant → `Add`/`Mul` by the negated/reciprocal constant.
//!
//! In: `Sum(a, b, …)`, `Sub(x, c)`, `Div(x, c)` with `c` constant and float.
//! Out: `Add`/`Mul` forms the SDP (or Eltwise) runs.
//!
//! ```text
//! common/sum-to-add-tree   (Sum a b c d)  => (Add (Add a b) (Add c d))   ; (Sum a) => a
//! common/sub-const-to-add  (Sub x c)      => (Add x −c)
//! common/div-const-to-mul  (Div x c)      => (Mul x 1/c)                 ; c has no zero
//! ```

use super::{Cx, Rule, ALL};
use egg::Id;
use onnc_tensor::{Attrs, Tensor};

/// The rules of this file.
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/sum-to-add-tree",
        deep: false,
        op: "Sum",
        targets: ALL,
        doc: "Sum of n operands is a balanced tree of Add",
        apply: sum_tree,
    },
    Rule {
        name: "common/sub-const-to-add",
        deep: false,
        op: "Sub",
        targets: ALL,
        doc: "x - c = x + (-c)",
        apply: sub_const,
    },
    Rule {
        name: "common/div-const-to-mul",
        deep: false,
        op: "Div",
        targets: ALL,
        doc: "x / c = x * (1/c)",
        apply: div_const,
    },
];

fn sum_tree(cx: &mut Cx) -> Option<Id> {
    let mut level: Vec<Id> = (0..cx.arity()).map(|i| cx.arg(i)).collect();
    if level.is_empty() {
        return None;
    }
    let mut k = 0;
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        for pair in level.chunks(2) {
            if pair.len() == 2 {
                let last = level.len() == 2;
                let suffix = if last {
                    String::new()
                } else {
                    format!("/add{k}")
                };
                k += 1;
                next.push(cx.op("Add", Attrs::new(), &[pair[0], pair[1]], &suffix));
            } else {
                next.push(pair[0]);
            }
        }
        level = next;
    }
    Some(level[0])
}

/// A float constant operand 1 mapped elementwise by `f`; `None` if not float or `f` rejects a value.
fn map_const(cx: &mut Cx, suffix: &str, f: fn(f32) -> Option<f32>) -> Option<Id> {
    let c = cx.arg(1);
    if !cx.is_const(c) || cx.is_const(cx.arg(0)) {
        return None;
    }
    let t = cx.value(c)?;
    if !t.dtype().is_float() {
        return None;
    }
    let v: Option<Vec<f32>> = t
        .data()
        .to_f64_vec()
        .into_iter()
        .map(|x| f(x as f32))
        .collect();
    let nt = Tensor::from_f32(t.shape().to_vec(), v?)
        .ok()?
        .cast(t.dtype());
    Some(cx.tensor(suffix, nt))
}

fn sub_const(cx: &mut Cx) -> Option<Id> {
    let neg = map_const(cx, "neg", |x| Some(-x))?;
    let x = cx.arg(0);
    Some(cx.op("Add", Attrs::new(), &[x, neg], ""))
}

fn div_const(cx: &mut Cx) -> Option<Id> {
    let rec = map_const(cx, "recip", |x| (x != 0.0).then(|| 1.0 / x))?;
    let x = cx.arg(0);
    Some(cx.op("Mul", Attrs::new(), &[x, rec], ""))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::Target;
    use onnc_onnx::Node;
    use onnc_tensor::Tensor;

    fn sum5() -> onnc_onnx::Graph {
        let nodes = vec![
            Node::new("r", "Relu", &["x"], &["a"]),
            Node::new("s", "Sigmoid", &["x"], &["b"]),
            Node::new("t", "Tanh", &["x"], &["c"]),
            Node::new("m", "Relu", &["c"], &["d"]),
            Node::new("sum", "Sum", &["x", "a", "b", "c", "d"], &["y"]),
        ];
        graph(&[1, 2, 3, 3], &[1, 2, 3, 3], nodes, vec![])
    }

    #[test]
    fn sum_becomes_add_tree() {
        let ops = ops_after(sum5(), Target::NvFull);
        assert_eq!(ops.iter().filter(|o| *o == "Add").count(), 4);
        assert!(!ops.contains(&"Sum".to_string()));
    }

    #[test]
    fn sum_tree_numbers() {
        same_numbers(sum5(), Target::NvFull, &[1, 2, 3, 3], 1e-5);
    }

    fn by_const(op: &str) -> onnc_onnx::Graph {
        let c = Tensor::from_f32(vec![1, 2, 1, 1], vec![0.5, -4.0]).unwrap();
        graph(
            &[1, 2, 2, 2],
            &[1, 2, 2, 2],
            vec![Node::new("n", op, &["x", "c"], &["y"])],
            vec![("c", c)],
        )
    }

    #[test]
    fn sub_and_div_by_const_become_add_and_mul() {
        assert_eq!(ops_after(by_const("Sub"), Target::NvFull), ["Add"]);
        assert_eq!(ops_after(by_const("Div"), Target::NvFull), ["Mul"]);
    }

    #[test]
    fn sub_and_div_numbers() {
        same_numbers(by_const("Sub"), Target::NvFull, &[1, 2, 2, 2], 1e-6);
        same_numbers(by_const("Div"), Target::NvFull, &[1, 2, 2, 2], 1e-6);
    }
}
