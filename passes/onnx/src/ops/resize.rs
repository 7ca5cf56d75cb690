//! `Resize` and `Upsample` (→ `Resize`).
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Resize.html>,
//! <https://onnx.ai/onnx/operators/onnx__Upsample.html>.
//!
//! Opset history: Upsample 7 (`scales` attribute), 9 (`scales` input),
//! deprecated in 10. Resize 10 (`X`, `scales`), 11 (`roi`, `sizes`,
//! coordinate modes), 13, 18 (`antialias`, `axes`, `keep_aspect_ratio_policy`),
//! 19.
//!
//! Normalization: `Upsample(X, scales)` and `Resize-10(X, scales)` become
//! `Resize(X, roi=absent, scales)` with `coordinate_transformation_mode =
//! asymmetric` and `nearest_mode = floor` (their meaning); mode `bilinear`
//! becomes `linear`. A `scales` attribute becomes an f32 input `<node>__scales`.
//! Attributes (materialized, Resize ≥ 11 defaults): `antialias` 0,
//! `coordinate_transformation_mode` `half_pixel`, `cubic_coeff_a` -0.75,
//! `exclude_outside` 0, `extrapolation_value` 0.0,
//! `keep_aspect_ratio_policy` `stretch`, `mode` `nearest`, `nearest_mode`
//! `round_prefer_floor`.

use super::attrs::{attr, attr_in, floats, string, AttrKind as K, Default as D};
use super::shape::{arity, axis, const_ints, constant, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "Resize",
        min_opset: 10,
        max_opset: 25,
        spec_url: crate::spec_url!("Resize"),
        notes: "opset-10 form → (X, roi, scales) with asymmetric/floor; NVDLA runs integer nearest/linear upsampling exactly (nv_full with RUBIK; nv_small and nv_large by SDP copies, nearest without a convolution; which modes: docs/targets/nvdla.md#upsampling-resize-and-convtranspose)",
        attrs: &[
            attr("mode", K::String, D::Str("nearest")),
            attr_in("antialias", K::Int, D::Int(0), 18, i64::MAX),
            attr_in("axes", K::Ints, D::None, 18, i64::MAX),
            attr_in(
                "coordinate_transformation_mode",
                K::String,
                D::Str("half_pixel"),
                11,
                i64::MAX,
            ),
            attr_in("cubic_coeff_a", K::Float, D::Float(-0.75), 11, i64::MAX),
            attr_in("exclude_outside", K::Int, D::Int(0), 11, i64::MAX),
            attr_in("extrapolation_value", K::Float, D::Float(0.0), 11, i64::MAX),
            attr_in(
                "keep_aspect_ratio_policy",
                K::String,
                D::Str("stretch"),
                18,
                i64::MAX,
            ),
            attr_in(
                "nearest_mode",
                K::String,
                D::Str("round_prefer_floor"),
                11,
                i64::MAX,
            ),
        ],
        normalize: Some(normalize_resize),
        infer_fn: infer,
    },
    OpSpec {
        name: "Upsample",
        min_opset: 7,
        max_opset: 9,
        spec_url: crate::spec_url!("Upsample"),
        notes: "becomes Resize (asymmetric, floor)",
        attrs: &[
            attr("mode", K::String, D::Str("nearest")),
            attr_in("scales", K::Floats, D::None, 7, 8),
        ],
        normalize: Some(normalize_upsample),
        infer_fn: infer,
    },
];

/// `Resize(X, roi=absent, scales)` with the Upsample / Resize-10 meaning.
fn legacy_to_resize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    let mode = string(&node, "mode", "nearest")?.to_string();
    let mode = match mode.as_str() {
        "nearest" => "nearest",
        "linear" | "bilinear" => "linear",
        other => return Err(attr_err(&node, "mode", format!("unknown mode '{other}'"))),
    };
    let scales = match floats(&node, "scales")? {
        Some(s) => {
            let n = s.len();
            cx.add_const(
                &format!("{}__scales", node.name),
                Tensor::from_f32(vec![n], s).expect("n values"),
            )
        }
        None => node
            .input(1)
            .map(str::to_string)
            .ok_or_else(|| super::attrs::missing(&node, "scales"))?,
    };
    node.attrs.clear();
    node.op_type = "Resize".into();
    node.inputs = vec![node.inputs[0].clone(), None, Some(scales)];
    let s = |v: &str| Attr::String(v.into());
    node.attrs.insert("mode".into(), s(mode));
    node.attrs
        .insert("coordinate_transformation_mode".into(), s("asymmetric"));
    node.attrs.insert("nearest_mode".into(), s("floor"));
    Ok(vec![node])
}

fn normalize_upsample(node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 2)?;
    legacy_to_resize(node, cx)
}

fn normalize_resize(node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    if cx.opset < 11 {
        arity(&node, 2, 2)?;
        return legacy_to_resize(node, cx);
    }
    arity(&node, 1, 4)?;
    Ok(vec![node])
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let r = x.rank();
    let axes: Vec<usize> = match super::attrs::ints(node, "axes")? {
        Some(a) => a
            .iter()
            .map(|&a| axis(node, a, r, 0))
            .collect::<Result<_>>()?,
        None => (0..r).collect(),
    };
    let unknown = || {
        Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims: vec![Dim::Unknown; r],
        }])
    };
    let mut dims = x.dims.clone();
    let sizes = const_ints(consts, 3).filter(|s| !s.is_empty());
    let scales = constant(consts, 2)
        .map(|t| t.data().to_f64_vec())
        .filter(|s| !s.is_empty());
    if let Some(sizes) = sizes {
        if sizes.len() != axes.len() || sizes.iter().any(|&s| s < 0) {
            return Err(infer_err(
                node,
                format!("sizes {sizes:?} do not fit {} axes", axes.len()),
            ));
        }
        match string(node, "keep_aspect_ratio_policy", "stretch")? {
            "stretch" => {
                for (&a, &s) in axes.iter().zip(&sizes) {
                    dims[a] = Dim::Fixed(s as usize);
                }
            }
            policy @ ("not_larger" | "not_smaller") => {
                // One scale for all axes: the smallest (not_larger) or largest ratio.
                let mut ratios = Vec::with_capacity(axes.len());
                for (&a, &s) in axes.iter().zip(&sizes) {
                    match dims[a] {
                        Dim::Fixed(d) if d > 0 => ratios.push(s as f64 / d as f64),
                        _ => return unknown(),
                    }
                }
                let pick = if policy == "not_larger" {
                    f64::min
                } else {
                    f64::max
                };
                let scale = ratios.iter().copied().reduce(pick).unwrap_or(1.0);
                for &a in &axes {
                    if let Dim::Fixed(d) = dims[a] {
                        let v = (scale * d as f64).round();
                        dims[a] = if v < u32::MAX as f64 {
                            Dim::Fixed(v as usize)
                        } else {
                            Dim::Unknown
                        };
                    }
                }
            }
            other => {
                return Err(attr_err(
                    node,
                    "keep_aspect_ratio_policy",
                    format!("unknown value '{other}'"),
                ))
            }
        }
    } else if let Some(scales) = scales {
        if scales.len() != axes.len()
            || scales
                .iter()
                .any(|&s| s.is_nan() || s <= 0.0 || !s.is_finite())
        {
            return Err(infer_err(
                node,
                format!("scales {scales:?} do not fit {} axes", axes.len()),
            ));
        }
        for (&a, &s) in axes.iter().zip(&scales) {
            if let Dim::Fixed(d) = dims[a] {
                let v = (d as f64 * s).floor();
                dims[a] = if v < u32::MAX as f64 {
                    Dim::Fixed(v as usize)
                } else {
                    Dim::Unknown
                };
            }
        }
    } else if node.input(2).is_some() || node.input(3).is_some() {
        return unknown();
    } else {
        return Err(infer_err(node, "needs scales or sizes"));
    }
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
