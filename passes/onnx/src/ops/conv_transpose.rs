//! `ConvTranspose` — N-d transposed convolution.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__ConvTranspose.html>. Opsets 1,
//! 11, 22 — all supported.
//!
//! Attributes (materialized): `kernel_shape` from `W`, `strides`/`dilations`
//! 1, `output_padding` 0, `group` 1, `pads` 0 when neither `auto_pad` nor
//! `output_shape` decides them; `output_shape` is kept when given.

use super::attrs::{attr, int, ints, AttrKind as K, Default as D};
use super::conv::window;
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "ConvTranspose",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("ConvTranspose"),
    notes: "output_shape kept; pads otherwise explicit; NVDLA nv_full: a phase convolution + RUBIK contract; nv_small, nv_large: the phase convolution + SDP copies through strided views (docs/targets/nvdla.md#upsampling-resize-and-convtranspose)",
    attrs: &[
        attr("auto_pad", K::String, D::Str("NOTSET")),
        attr("dilations", K::Ints, D::None),
        attr("group", K::Int, D::Int(1)),
        attr("kernel_shape", K::Ints, D::None),
        attr("output_padding", K::Ints, D::None),
        attr("output_shape", K::Ints, D::None),
        attr("pads", K::Ints, D::None),
        attr("strides", K::Ints, D::None),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn kernel_from_w(w: Option<&TypeInfo>) -> Option<Vec<usize>> {
    w.and_then(|t| {
        t.dims
            .get(2..)
            .and_then(|d| d.iter().map(Dim::fixed).collect())
    })
}

fn output_padding(node: &Node, n: usize) -> Result<Vec<usize>> {
    let op = ints(node, "output_padding")?.unwrap_or_else(|| vec![0; n]);
    if op.len() != n || op.iter().any(|&v| v < 0) {
        return Err(attr_err(
            node,
            "output_padding",
            format!("must be {n} non-negative values, got {op:?}"),
        ));
    }
    Ok(op.into_iter().map(|v| v as usize).collect())
}

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 3)?;
    let w = cx.input_ty(&node, 1).cloned();
    let Some(s) = w.as_ref().map(|t| t.rank().saturating_sub(2)) else {
        return Ok(vec![node]);
    };
    let win = window(&node, s, kernel_from_w(w.as_ref()))?;
    let v = |x: &[usize]| Attr::Ints(x.iter().map(|&d| d as i64).collect());
    node.attrs.insert("kernel_shape".into(), v(&win.kernel));
    node.attrs.insert("strides".into(), v(&win.strides));
    node.attrs.insert("dilations".into(), v(&win.dilations));
    node.attrs
        .insert("output_padding".into(), v(&output_padding(&node, s)?));
    if let (Some(p), false) = (&win.pads, node.attrs.contains_key("output_shape")) {
        node.attrs.insert("pads".into(), v(p));
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let (x, w) = (input(node, inputs, 0)?, input(node, inputs, 1)?);
    if x.rank() < 3 || w.rank() != x.rank() {
        return Err(infer_err(
            node,
            format!("X {x} and W {w} must have the same rank ≥ 3"),
        ));
    }
    let n = x.rank() - 2;
    let group = int(node, "group", 1)?;
    if group < 1 {
        return Err(attr_err(node, "group", format!("must be ≥ 1, got {group}")));
    }
    let kernel = kernel_from_w(Some(w));
    if kernel.is_none() && !node.attrs.contains_key("kernel_shape") {
        return Err(crate::error::unknowable(
            node,
            "W's spatial dims are not known",
        ));
    }
    let win = window(node, n, kernel)?;
    let out_pad = output_padding(node, n)?;
    let channels = match &w.dims[1] {
        Dim::Fixed(m) => Dim::Fixed(m.saturating_mul(group as usize)),
        _ => Dim::Unknown,
    };
    let mut dims = vec![x.dims[0].clone(), channels];
    if let Some(shape) = ints(node, "output_shape")? {
        let shape = if shape.len() == n + 2 {
            shape[2..].to_vec()
        } else {
            shape
        };
        if shape.len() != n || shape.iter().any(|&v| v < 0) {
            return Err(attr_err(
                node,
                "output_shape",
                format!("must have {n} non-negative values"),
            ));
        }
        dims.extend(shape.iter().map(|&v| Dim::Fixed(v as usize)));
        return Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims,
        }]);
    }
    for i in 0..n {
        let Dim::Fixed(xi) = x.dims[i + 2] else {
            dims.push(Dim::Unknown);
            continue;
        };
        let s = win.strides[i];
        let o = match win.auto_pad.as_str() {
            "SAME_UPPER" | "SAME_LOWER" => xi.saturating_mul(s),
            _ => {
                let pads = win.pads.clone().unwrap_or_else(|| vec![0; 2 * n]);
                let (pb, pe) = if win.auto_pad == "VALID" {
                    (0, 0)
                } else {
                    (pads[i], pads[i + n])
                };
                let dk = (win.kernel[i] - 1)
                    .saturating_mul(win.dilations[i])
                    .saturating_add(1);
                let full = s
                    .saturating_mul(xi.saturating_sub(1))
                    .saturating_add(out_pad[i])
                    .saturating_add(dk);
                full.checked_sub(pb.saturating_add(pe)).ok_or_else(|| {
                    infer_err(
                        node,
                        format!("pads {pb}+{pe} exceed the output size {full} on spatial axis {i}"),
                    )
                })?
            }
        };
        dims.push(Dim::Fixed(o));
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
