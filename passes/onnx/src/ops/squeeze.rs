//! `Squeeze` and `Unsqueeze`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Squeeze.html>,
//! <https://onnx.ai/onnx/operators/onnx__Unsqueeze.html>. Opset history: 1,
//! 11 (negative axes), 13 (`axes` becomes an input), 21. Normalization moves
//! the `axes` attribute to an input `<node>__axes` (int64).

use super::attrs::{attr_in, ints, AttrKind as K, Default as D};
use super::shape::{arity, axis, const_ints, input};
use super::{NormCx, OpSpec};
use crate::error::{infer_err, unknowable};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "Squeeze",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Squeeze"),
        notes: "axes attribute (< 13) → input",
        attrs: &[attr_in("axes", K::Ints, D::None, 1, 12)],
        normalize: Some(normalize),
        infer_fn: infer_squeeze,
    },
    OpSpec {
        name: "Unsqueeze",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("Unsqueeze"),
        notes: "axes attribute (< 13) → input",
        attrs: &[attr_in("axes", K::Ints, D::None, 1, 12)],
        normalize: Some(normalize),
        infer_fn: infer_unsqueeze,
    },
];

/// Moves an `axes` attribute to an int64 input `<node>__axes` at position 1.
pub(crate) fn axes_to_input(node: &mut Node, cx: &mut NormCx) -> Result<()> {
    if let Some(axes) = ints(node, "axes")? {
        node.attrs.remove("axes");
        let n = axes.len();
        let name = cx.add_const(
            &format!("{}__axes", node.name),
            Tensor::from_i64(vec![n], axes).expect("n values"),
        );
        node.inputs.truncate(1);
        node.inputs.push(Some(name));
    }
    Ok(())
}

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 2)?;
    if cx.opset < 13 {
        if node.op_type == "Unsqueeze" && !node.attrs.contains_key("axes") {
            return Err(super::attrs::missing(&node, "axes"));
        }
        axes_to_input(&mut node, cx)?;
    }
    Ok(vec![node])
}

fn infer_squeeze(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let axes = match (node.input(1), const_ints(consts, 1)) {
        (Some(_), None) => return Err(unknowable(node, "axes are not constant")),
        (_, Some(a)) => a
            .iter()
            .map(|&a| axis(node, a, x.rank(), 0))
            .collect::<Result<Vec<_>>>()?,
        (None, None) => {
            if x.dims.iter().any(|d| d.fixed().is_none()) {
                return Err(infer_err(
                    node,
                    "without axes the input shape must be static",
                ));
            }
            (0..x.rank())
                .filter(|&i| x.dims[i] == Dim::Fixed(1))
                .collect()
        }
    };
    for &a in &axes {
        if let Dim::Fixed(d) = x.dims[a] {
            if d != 1 {
                return Err(infer_err(
                    node,
                    format!("cannot squeeze axis {a} of size {d}"),
                ));
            }
        }
    }
    let dims = (0..x.rank())
        .filter(|i| !axes.contains(i))
        .map(|i| x.dims[i].clone())
        .collect();
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}

fn infer_unsqueeze(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let axes = const_ints(consts, 1).ok_or_else(|| unknowable(node, "axes are not constant"))?;
    let r = x.rank() + axes.len();
    let mut put = vec![false; r];
    for &a in &axes {
        let a = axis(node, a, r, 0)?;
        if std::mem::replace(&mut put[a], true) {
            return Err(infer_err(node, format!("axis {a} given twice")));
        }
    }
    let mut src = x.dims.iter();
    let dims = put
        .iter()
        .map(|&p| {
            if p {
                Dim::Fixed(1)
            } else {
                src.next().cloned().unwrap_or(Dim::Unknown)
            }
        })
        .collect();
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
