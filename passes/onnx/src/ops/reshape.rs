//! `Reshape`.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Reshape.html>. Opset history:
//! 1 (`shape` attribute, `consumed_inputs`), 5 (`shape` becomes an input),
//! 13, 14 (`allowzero`), 19, 21. Normalization moves the attribute to an
//! input `<node>__shape` (int64). Attribute (materialized): `allowzero` 0.
//!
//! Inference with a constant shape: `0` copies the input dim (unless
//! `allowzero`), `-1` takes what is left.

use super::attrs::{attr_in, int, ints, AttrKind as K, Default as D};
use super::shape::{arity, const_ints, input, product};
use super::{NormCx, OpSpec};
use crate::error::{infer_err, unknowable};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::Tensor;

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Reshape",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Reshape"),
    notes: "shape attribute (< 5) → input; 0 and -1",
    attrs: &[
        attr_in("shape", K::Ints, D::None, 1, 4),
        attr_in("allowzero", K::Int, D::Int(0), 14, i64::MAX),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    node.attrs.remove("consumed_inputs");
    if cx.opset >= 5 {
        arity(&node, 2, 2)?;
        return Ok(vec![node]);
    }
    arity(&node, 1, 1)?;
    let shape = ints(&node, "shape")?.ok_or_else(|| super::attrs::missing(&node, "shape"))?;
    node.attrs.remove("shape");
    let n = shape.len();
    let name = cx.add_const(
        &format!("{}__shape", node.name),
        Tensor::from_i64(vec![n], shape).expect("n values"),
    );
    node.inputs.push(Some(name));
    Ok(vec![node])
}

/// The output dims of reshaping `x` to `shape` (ONNX rules for 0 and -1).
pub(crate) fn reshape_dims(
    node: &Node,
    x: &[Dim],
    shape: &[i64],
    allowzero: bool,
) -> Result<Vec<Dim>> {
    let mut dims = Vec::with_capacity(shape.len());
    let mut infer_at = None;
    for (i, &s) in shape.iter().enumerate() {
        dims.push(match s {
            -1 if infer_at.is_none() => {
                infer_at = Some(i);
                Dim::Unknown
            }
            0 if !allowzero => x.get(i).cloned().ok_or_else(|| {
                infer_err(
                    node,
                    format!("shape {shape:?}: 0 at {i} has no input dim to copy"),
                )
            })?,
            s if s >= 0 => Dim::Fixed(s as usize),
            _ => return Err(infer_err(node, format!("bad shape {shape:?}"))),
        });
    }
    let total = product(x);
    if let Some(i) = infer_at {
        let known = product(
            &dims
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, d)| d.clone())
                .collect::<Vec<_>>(),
        );
        dims[i] = match (total, known) {
            (Dim::Fixed(t), Dim::Fixed(k)) if k > 0 && t % k == 0 => Dim::Fixed(t / k),
            (Dim::Fixed(t), Dim::Fixed(k)) => {
                return Err(infer_err(
                    node,
                    format!("cannot reshape {t} elements to {shape:?} ({k} × ?)"),
                ))
            }
            _ => Dim::Unknown,
        };
    } else if let (Dim::Fixed(t), Dim::Fixed(k)) = (total, product(&dims)) {
        if t != k {
            return Err(infer_err(
                node,
                format!("cannot reshape {t} elements to {shape:?} ({k} elements)"),
            ));
        }
    }
    Ok(dims)
}

fn infer(
    node: &Node,
    inputs: &[Option<TypeInfo>],
    consts: &[Option<&Tensor>],
) -> Result<Vec<TypeInfo>> {
    let x = input(node, inputs, 0)?;
    let dims = match const_ints(consts, 1) {
        Some(shape) => reshape_dims(node, &x.dims, &shape, int(node, "allowzero", 0)? != 0)?,
        None => {
            let s = input(node, inputs, 1)?;
            match s.dims.as_slice() {
                [Dim::Fixed(n)] => super::shape::unknown_dims(node, *n)?,
                _ => {
                    return Err(unknowable(
                        node,
                        format!("shape input {s} is not constant and its length is unknown"),
                    ))
                }
            }
        }
    };
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
