//! `Softmax`, `LogSoftmax`, `Hardmax`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Softmax.html> (and
//! `onnx__LogSoftmax`, `onnx__Hardmax`). Opset history: 1, 11 (negative
//! `axis`), 13 (semantics change: the op now runs along the single axis
//! `axis`, default -1; before 13 the input was coerced to 2-D at `axis`,
//! default 1, and the op ran over the flattened trailing dims).
//!
//! Normalization (opset < 13): when every dim after `axis` is 1 (or `axis` is
//! the last), the old and new meanings agree and only `axis` is made
//! explicit. Otherwise the node becomes `Shape` → `Flatten(axis)` →
//! `Softmax(axis=-1)` → `Reshape` back, which is the old meaning in the new form.
//! Attribute (materialized): `axis`.

use super::attrs::{attr_in, int, AttrKind as K, AttrSpec, Default as D};
use super::shape::{arity, axis, input};
use super::{NormCx, OpSpec};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

const SOFTMAX_ATTRS: &[AttrSpec] = &[
    attr_in("axis", K::Int, D::Int(1), 1, 12),
    attr_in("axis", K::Int, D::Int(-1), 13, i64::MAX),
];

const fn softmax(name: &'static str, url: &'static str) -> OpSpec {
    OpSpec {
        name,
        min_opset: 1,
        max_opset: 25,
        spec_url: url,
        notes: "pre-13 2-D coercion rewritten (explicit axis, or Flatten/Reshape around it)",
        attrs: SOFTMAX_ATTRS,
        normalize: Some(normalize),
        infer_fn: infer,
    }
}

pub(super) const SPECS: &[OpSpec] = &[
    softmax("Hardmax", crate::spec_url!("Hardmax")),
    softmax("LogSoftmax", crate::spec_url!("LogSoftmax")),
    softmax("Softmax", crate::spec_url!("Softmax")),
];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    if cx.opset >= 13 {
        return Ok(vec![node]);
    }
    let a = int(&node, "axis", 1)?;
    if let Some(x) = cx.input_ty(&node, 0) {
        let ax = axis(&node, a, x.rank(), 0)?;
        if x.dims[ax + 1..].iter().all(|d| *d == Dim::Fixed(1)) {
            node.attrs.insert("axis".into(), Attr::Int(ax as i64));
            return Ok(vec![node]);
        }
    }
    // Old meaning: flatten to 2-D at `axis`, run over the second dim, restore the shape.
    let x = node.input(0).unwrap_or_default().to_string();
    let y = node.outputs.first().cloned().unwrap_or_default();
    let base = node.name.clone();
    let shape = cx.fresh(&format!("{base}__shape"));
    let flat = cx.fresh(&format!("{base}__flat"));
    let soft = cx.fresh(&format!("{base}__2d"));
    let n_shape = Node::new(
        &cx.fresh(&format!("{base}__Shape")),
        "Shape",
        &[&x],
        &[&shape],
    );
    let n_flat = Node::new(
        &cx.fresh(&format!("{base}__Flatten")),
        "Flatten",
        &[&x],
        &[&flat],
    )
    .with_attr("axis", Attr::Int(a));
    let mut n_soft = node.clone();
    n_soft.inputs = vec![Some(flat)];
    n_soft.outputs = vec![soft.clone()];
    n_soft.attrs.insert("axis".into(), Attr::Int(-1));
    let n_back = Node::new(
        &cx.fresh(&format!("{base}__Reshape")),
        "Reshape",
        &[&soft, &shape],
        &[&y],
    );
    Ok(vec![n_shape, n_flat, n_soft, n_back])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    axis(node, int(node, "axis", -1)?, x.rank(), 0)?;
    Ok(vec![x.clone()])
}
