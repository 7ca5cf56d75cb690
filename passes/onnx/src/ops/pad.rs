//! `Pad`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Pad.html>. Opset history: 1
//! (`paddings`, `mode`, `value` attributes), 2 (`pads`), 11 (`pads` and
//! `constant_value` become inputs), 13, 18 (`axes` input), 19 (`wrap` mode),
//! 21. Normalization (< 11) moves `pads`/`paddings` to an int64 input
//! `<node>__pads` and `value` to a scalar input `<node>__value` of the data's
//! element type (f32 when unknown). Attribute (materialized): `mode` `constant`.

use super::attrs::{attr, attr_in, float, ints, string, AttrKind as K, Default as D};
use super::shape::{arity, axis, const_ints, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Pad",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Pad"),
    notes: "attribute form (< 11) → inputs",
    attrs: &[
        attr("mode", K::String, D::Str("constant")),
        attr_in("pads", K::Ints, D::None, 2, 10),
        attr_in("paddings", K::Ints, D::None, 1, 1),
        attr_in("value", K::Float, D::None, 1, 10),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    let mode = string(&node, "mode", "constant")?;
    if !matches!(mode, "constant" | "reflect" | "edge" | "wrap") {
        return Err(attr_err(&node, "mode", format!("unknown mode '{mode}'")));
    }
    if cx.opset >= 11 {
        arity(&node, 2, 4)?;
        return Ok(vec![node]);
    }
    arity(&node, 1, 1)?;
    let key = if node.attrs.contains_key("paddings") {
        "paddings"
    } else {
        "pads"
    };
    let pads = ints(&node, key)?.ok_or_else(|| super::attrs::missing(&node, "pads"))?;
    let value = float(&node, "value", 0.0)?;
    for k in ["pads", "paddings", "value"] {
        node.attrs.remove(k);
    }
    let n = pads.len();
    let p = cx.add_const(
        &format!("{}__pads", node.name),
        Tensor::from_i64(vec![n], pads).expect("n values"),
    );
    let dtype = cx.input_ty(&node, 0).map_or(DType::F32, |t| t.dtype);
    let v = cx.add_const(
        &format!("{}__value", node.name),
        Tensor::full(dtype, vec![], value as f64),
    );
    node.inputs.push(Some(p));
    node.inputs.push(Some(v));
    Ok(vec![node])
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let r = x.rank();
    let Some(pads) = const_ints(consts, 1) else {
        return Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims: vec![Dim::Unknown; r],
        }]);
    };
    let axes: Vec<usize> = match (node.input(3), const_ints(consts, 3)) {
        (None, _) => (0..r).collect(),
        (Some(_), Some(a)) => a
            .iter()
            .map(|&a| axis(node, a, r, 0))
            .collect::<Result<_>>()?,
        (Some(_), None) => {
            return Ok(vec![TypeInfo {
                dtype: x.dtype,
                dims: vec![Dim::Unknown; r],
            }])
        }
    };
    let k = axes.len();
    if pads.len() != 2 * k {
        return Err(infer_err(
            node,
            format!("pads has {} values, expected {}", pads.len(), 2 * k),
        ));
    }
    let mut dims = x.dims.clone();
    for (i, &a) in axes.iter().enumerate() {
        if let Dim::Fixed(d) = dims[a] {
            let n = (d as i64)
                .saturating_add(pads[i])
                .saturating_add(pads[i + k]);
            if n < 0 {
                return Err(infer_err(
                    node,
                    format!("pads {pads:?} make axis {a} negative"),
                ));
            }
            dims[a] = Dim::Fixed(n as usize);
        }
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
