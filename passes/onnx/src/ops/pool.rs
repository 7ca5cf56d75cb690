//! `MaxPool`, `AveragePool`, `GlobalAveragePool`, `GlobalMaxPool`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__MaxPool.html>,
//! <https://onnx.ai/onnx/operators/onnx__AveragePool.html>,
//! <https://onnx.ai/onnx/operators/onnx__GlobalAveragePool.html>,
//! <https://onnx.ai/onnx/operators/onnx__GlobalMaxPool.html>.
//!
//! Opset history: MaxPool 1, 8 (`storage_order`, `Indices` output), 10
//! (`ceil_mode`, `dilations`), 11, 12 (int8), 22; AveragePool 1, 7
//! (`count_include_pad`), 10 (`ceil_mode`), 11, 19 (`dilations`), 22.
//! Attributes (materialized): `kernel_shape` (required), `strides` and
//! `dilations` 1, `pads` 0 (or resolved from `auto_pad` when shapes are
//! known), `ceil_mode` 0, `storage_order` 0 / `count_include_pad` 0.

use super::attrs::{attr, int, AttrKind as K, Default as D};
use super::conv::window;
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::infer_err;
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{DType, Tensor};

pub(super) const SPECS: &[OpSpec] = &[
    OpSpec {
        name: "AveragePool",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("AveragePool"),
        notes: "ceil_mode, count_include_pad, auto_pad; a 1×1 stride-1 unpadded window (AdaptiveAvgPool2d on a map of its size) is removed by onnx-simplify",
        attrs: &[
            attr("auto_pad", K::String, D::Str("NOTSET")),
            attr("ceil_mode", K::Int, D::Int(0)),
            attr("count_include_pad", K::Int, D::Int(0)),
            attr("dilations", K::Ints, D::None),
            attr("kernel_shape", K::Ints, D::None),
            attr("pads", K::Ints, D::None),
            attr("strides", K::Ints, D::None),
        ],
        normalize: Some(normalize),
        infer_fn: infer,
    },
    OpSpec {
        name: "MaxPool",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("MaxPool"),
        notes: "ceil_mode, dilations, auto_pad, optional Indices output; a 1×1 stride-1 unpadded window is removed by onnx-simplify",
        attrs: &[
            attr("auto_pad", K::String, D::Str("NOTSET")),
            attr("ceil_mode", K::Int, D::Int(0)),
            attr("dilations", K::Ints, D::None),
            attr("kernel_shape", K::Ints, D::None),
            attr("pads", K::Ints, D::None),
            attr("storage_order", K::Int, D::Int(0)),
            attr("strides", K::Ints, D::None),
        ],
        normalize: Some(normalize),
        infer_fn: infer,
    },
    OpSpec {
        name: "GlobalAveragePool",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("GlobalAveragePool"),
        notes: "over a 1×1 map it is removed by onnx-simplify",
        attrs: &[],
        normalize: None,
        infer_fn: infer_global,
    },
    OpSpec {
        name: "GlobalMaxPool",
        min_opset: 1,
        max_opset: 25,
        spec_url: crate::spec_url!("GlobalMaxPool"),
        notes: "over a 1×1 map it is removed by onnx-simplify",
        attrs: &[],
        normalize: None,
        infer_fn: infer_global,
    },
];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 1, 1)?;
    if let Some(x) = cx.input_ty(&node, 0).cloned() {
        let win = window(&node, x.rank().saturating_sub(2), None)?;
        win.store(&mut node, x.dims.get(2..));
    }
    Ok(vec![node])
}

fn infer(node: &Node, inputs: &[Option<TypeInfo>], _: &[Option<&Tensor>]) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    if x.rank() < 3 {
        return Err(infer_err(node, format!("input {x} must have rank ≥ 3")));
    }
    let win = window(node, x.rank() - 2, None)?;
    let ceil = int(node, "ceil_mode", 0)? != 0;
    let mut dims = x.dims[..2].to_vec();
    dims.extend(win.output(node, &x.dims[2..], ceil)?);
    let y = TypeInfo {
        dtype: x.dtype,
        dims: dims.clone(),
    };
    let mut out = vec![y];
    if node.outputs.len() > 1 {
        out.push(TypeInfo {
            dtype: DType::I64,
            dims,
        });
    }
    Ok(out)
}

fn infer_global(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    _: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    if x.rank() < 3 {
        return Err(infer_err(node, format!("input {x} must have rank ≥ 3")));
    }
    let mut dims = x.dims[..2].to_vec();
    dims.extend(std::iter::repeat_n(Dim::Fixed(1), x.rank() - 2));
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
