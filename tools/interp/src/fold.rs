//! Constant folding: the one evaluator of nodes whose inputs are all
//! constants, shared by `onnx-simplify` (which writes the results back as
//! initializers), the NVDLA lowering and the MVU front end (which fold
//! what legalization left on constants, such as a `Transpose` of a weight).
//!
//! In: a node and a lookup of the constant values by name. Out: `None` when
//! the node is not foldable ([`foldable`]: another domain, an op the
//! interpreter does not run, a random op) or an input is not a constant;
//! otherwise the kernel's result: the node's outputs, or why the kernel
//! failed on these inputs. The callers decide what else stops a fold (a
//! size limit, a node placed on the CPU).
//!
//! ```
//! use onnc_interp::fold::fold_node;
//! use onnc_onnx::Node;
//! use onnc_tensor::Tensor;
//! let two = Tensor::from_f32(vec![1], vec![2.0]).unwrap();
//! let n = Node::new("sq", "Mul", &["c", "c"], &["y"]);
//! let y = fold_node(&n, |name| (name == "c").then_some(&two)).unwrap().unwrap();
//! assert_eq!(y[0].as_f32().unwrap(), &[4.0]);
//! assert!(fold_node(&n, |_| None).is_none()); // "c" is not a constant
//! ```

use onnc_onnx::Node;
use onnc_tensor::Tensor;

/// Ops whose result is not a function of their inputs: never folded.
pub const NEVER_FOLD: [&str; 5] = [
    "RandomNormal",
    "RandomUniform",
    "RandomNormalLike",
    "RandomUniformLike",
    "Multinomial",
];

/// Whether `node` can be evaluated at compile time: a default-domain op the
/// interpreter runs and whose result depends only on its inputs.
pub fn foldable(node: &Node) -> bool {
    node.domain.is_empty()
        && !NEVER_FOLD.contains(&node.op_type.as_str())
        && crate::is_supported(&node.op_type)
}

/// The outputs of `node` evaluated on its constant inputs (`value` gives a
/// constant by name; an absent optional input stays absent), or `None`
/// when the node is not [`foldable`] or an input is not constant. The
/// kernel's error is returned as text naming nothing (the caller names the
/// node); a result with fewer tensors than the node has outputs is an
/// error too.
pub fn fold_node<'a>(
    node: &Node,
    value: impl Fn(&str) -> Option<&'a Tensor>,
) -> Option<Result<Vec<Tensor>, String>> {
    if !foldable(node) {
        return None;
    }
    let inputs: Option<Vec<Option<&Tensor>>> = node
        .inputs
        .iter()
        .map(|i| match i.as_deref() {
            None => Some(None),
            Some(name) => value(name).map(Some),
        })
        .collect();
    let outs = match crate::run_op(&node.op_type, &node.attrs, &inputs?) {
        Ok(outs) => outs,
        Err(e) => return Some(Err(e.to_string())),
    };
    if outs.len() < node.outputs.len() {
        return Some(Err(format!(
            "the kernel gave {} results for {} outputs",
            outs.len(),
            node.outputs.len()
        )));
    }
    Some(Ok(outs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ops_and_other_domains_are_never_folded() {
        let shape = Tensor::from_i64(vec![1], vec![2]).unwrap();
        let mut n = Node::new("r", "RandomNormalLike", &["s"], &["y"]);
        assert!(fold_node(&n, |_| Some(&shape)).is_none());
        n.op_type = "Identity".into();
        assert!(fold_node(&n, |_| Some(&shape)).unwrap().is_ok());
        n.domain = "com.example".into();
        assert!(fold_node(&n, |_| Some(&shape)).is_none());
    }

    #[test]
    fn a_failing_kernel_is_an_error_not_a_skip() {
        let a = Tensor::from_f32(vec![2], vec![1.0, 2.0]).unwrap();
        let b = Tensor::from_f32(vec![3], vec![1.0, 2.0, 3.0]).unwrap();
        let n = Node::new("add", "Add", &["a", "b"], &["y"]);
        let r = fold_node(&n, |name| Some(if name == "a" { &a } else { &b }));
        assert!(r.unwrap().is_err());
    }
}
