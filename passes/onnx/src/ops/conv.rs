//! `Conv` — N-d convolution.
//!
//! Spec: <https://onnx.ai/onnx/operators/onnx__Conv.html>. Opsets 1, 11, 22
//! (11: `auto_pad` clarified; 22: types only) — all supported.
//!
//! Attributes (materialized): `kernel_shape` from `W`'s shape, `strides` and
//! `dilations` all 1, `pads` all 0, `group` 1, `auto_pad` `NOTSET`. When
//! `auto_pad` is `SAME_UPPER`/`SAME_LOWER`/`VALID` and the input's spatial
//! dims are known, it is replaced by the explicit `pads` it means.

use super::attrs::{attr, ints, string, AttrKind as K, Default as D};
use super::shape::{arity, input};
use super::{NormCx, OpSpec};
use crate::error::{attr_err, infer_err};
use crate::{Dim, Node, Result, TypeInfo};
use onnc_tensor::{Attr, Tensor};

pub(super) const SPECS: &[OpSpec] = &[OpSpec {
    name: "Conv",
    min_opset: 1,
    max_opset: 25,
    spec_url: crate::spec_url!("Conv"),
    notes: "auto_pad resolved to pads when shapes are known; NVDLA: a stride above 8 runs at a divisor within 8 and a strided Slice (`nvdla/conv-stride-split`)",
    attrs: &[
        attr("auto_pad", K::String, D::Str("NOTSET")),
        attr("dilations", K::Ints, D::None),
        attr("group", K::Int, D::Int(1)),
        attr("kernel_shape", K::Ints, D::None),
        attr("pads", K::Ints, D::None),
        attr("strides", K::Ints, D::None),
    ],
    normalize: Some(normalize),
    infer_fn: infer,
}];

/// The window geometry of a conv or pool node, defaults applied.
#[derive(Debug, Clone)]
pub(crate) struct Window {
    pub kernel: Vec<usize>,
    pub strides: Vec<usize>,
    pub dilations: Vec<usize>,
    /// `None` when `auto_pad` decides.
    pub pads: Option<Vec<usize>>,
    pub auto_pad: String,
}

fn positive(
    node: &Node,
    name: &str,
    v: Vec<i64>,
    n: usize,
    allow_zero: bool,
) -> Result<Vec<usize>> {
    if v.len() != n {
        return Err(attr_err(
            node,
            name,
            format!("has {} values, expected {n}", v.len()),
        ));
    }
    v.iter()
        .map(|&x| {
            let ok = if allow_zero { x >= 0 } else { x > 0 };
            if ok {
                Ok(x as usize)
            } else {
                Err(attr_err(node, name, format!("value {x} is out of range")))
            }
        })
        .collect()
}

/// Reads the window attributes for `spatial` dims; `kernel` is used when the
/// node has no `kernel_shape`.
pub(crate) fn window(node: &Node, spatial: usize, kernel: Option<Vec<usize>>) -> Result<Window> {
    let kernel = match ints(node, "kernel_shape")? {
        Some(k) => positive(node, "kernel_shape", k, spatial, false)?,
        None => kernel.ok_or_else(|| super::attrs::missing(node, "kernel_shape"))?,
    };
    let ones = || vec![1i64; spatial];
    let strides = positive(
        node,
        "strides",
        ints(node, "strides")?.unwrap_or_else(ones),
        spatial,
        false,
    )?;
    let dilations = positive(
        node,
        "dilations",
        ints(node, "dilations")?.unwrap_or_else(ones),
        spatial,
        false,
    )?;
    let auto_pad = string(node, "auto_pad", "NOTSET")?.to_string();
    let pads = match ints(node, "pads")? {
        Some(p) => Some(positive(node, "pads", p, 2 * spatial, true)?),
        None if auto_pad == "NOTSET" => Some(vec![0; 2 * spatial]),
        None => None,
    };
    if !matches!(
        auto_pad.as_str(),
        "NOTSET" | "SAME_UPPER" | "SAME_LOWER" | "VALID"
    ) {
        return Err(attr_err(
            node,
            "auto_pad",
            format!("unknown value '{auto_pad}'"),
        ));
    }
    Ok(Window {
        kernel,
        strides,
        dilations,
        pads,
        auto_pad,
    })
}

impl Window {
    /// Explicit pads for input spatial sizes `input` (resolving `auto_pad`).
    pub fn resolve_pads(&self, input: &[usize]) -> Vec<usize> {
        let n = self.kernel.len().min(input.len());
        match self.auto_pad.as_str() {
            "SAME_UPPER" | "SAME_LOWER" => {
                let mut pads = vec![0; 2 * n];
                for i in 0..n {
                    let out = input[i].div_ceil(self.strides[i]);
                    let dk = (self.kernel[i] - 1)
                        .saturating_mul(self.dilations[i])
                        .saturating_add(1);
                    let total = out
                        .saturating_sub(1)
                        .saturating_mul(self.strides[i])
                        .saturating_add(dk)
                        .saturating_sub(input[i]);
                    let small = total / 2;
                    let (b, e) = if self.auto_pad == "SAME_UPPER" {
                        (small, total - small)
                    } else {
                        (total - small, small)
                    };
                    pads[i] = b;
                    pads[i + n] = e;
                }
                pads
            }
            "VALID" => vec![0; 2 * n],
            _ => self.pads.clone().unwrap_or_else(|| vec![0; 2 * n]),
        }
    }

    /// Output spatial dims for input spatial dims.
    pub fn output(&self, node: &Node, input: &[Dim], ceil: bool) -> Result<Vec<Dim>> {
        let n = self.kernel.len();
        if input.len() != n {
            return Err(infer_err(
                node,
                format!("{} spatial dims for a {n}-d window", input.len()),
            ));
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let Dim::Fixed(x) = input[i] else {
                out.push(Dim::Unknown);
                continue;
            };
            let s = self.strides[i];
            let dk = (self.kernel[i] - 1)
                .saturating_mul(self.dilations[i])
                .saturating_add(1);
            let o = match self.auto_pad.as_str() {
                "SAME_UPPER" | "SAME_LOWER" => x.div_ceil(s),
                _ => {
                    let pads = self.pads.as_deref().unwrap_or(&[]);
                    let (pb, pe) = if self.auto_pad == "VALID" {
                        (0, 0)
                    } else {
                        (pads[i], pads[i + n])
                    };
                    let padded = x.saturating_add(pb).saturating_add(pe);
                    if padded < dk {
                        return Err(infer_err(
                            node,
                            format!("window {dk} (kernel × dilation) is larger than padded input {padded} on spatial axis {i}"),
                        ));
                    }
                    let span = padded - dk;
                    let mut o = if ceil {
                        span.div_ceil(s) + 1
                    } else {
                        span / s + 1
                    };
                    // The last window must start inside the input or its left padding.
                    if ceil && o > 1 && (o - 1).saturating_mul(s) >= x.saturating_add(pb) {
                        o -= 1;
                    }
                    o
                }
            };
            out.push(Dim::Fixed(o));
        }
        Ok(out)
    }

    /// Writes the materialized attributes back into `node` (pads explicit when known).
    pub fn store(&self, node: &mut Node, input: Option<&[Dim]>) {
        let v = |x: &[usize]| Attr::Ints(x.iter().map(|&d| d as i64).collect());
        node.attrs.insert("kernel_shape".into(), v(&self.kernel));
        node.attrs.insert("strides".into(), v(&self.strides));
        node.attrs.insert("dilations".into(), v(&self.dilations));
        let fixed: Option<Vec<usize>> = input
            .filter(|d| d.len() == self.kernel.len())
            .and_then(|d| d.iter().map(Dim::fixed).collect());
        match (&self.pads, self.auto_pad.as_str(), fixed) {
            (Some(p), "NOTSET", _) => {
                node.attrs.insert("pads".into(), v(p));
            }
            (_, _, Some(dims)) => {
                node.attrs
                    .insert("pads".into(), v(&self.resolve_pads(&dims)));
                node.attrs
                    .insert("auto_pad".into(), Attr::String("NOTSET".into()));
            }
            _ => {}
        }
    }
}

/// Spatial rank from `W` (or `X`) types.
fn spatial_rank(node: &Node, x: Option<&TypeInfo>, w: Option<&TypeInfo>) -> Option<usize> {
    let _ = node;
    w.or(x).map(|t| t.rank().saturating_sub(2))
}

fn kernel_from_w(w: Option<&TypeInfo>) -> Option<Vec<usize>> {
    w.and_then(|t| {
        t.dims
            .get(2..)
            .and_then(|d| d.iter().map(Dim::fixed).collect())
    })
}

/// A `kernel_shape` that disagrees with `W`'s spatial dims (when both are
/// known) is an error: the spec says it is inferred from `W`.
pub(crate) fn check_kernel_shape(node: &Node, from_w: Option<&[usize]>) -> Result<()> {
    let (Some(k), Some(w)) = (ints(node, "kernel_shape")?, from_w) else {
        return Ok(());
    };
    if k.len() != w.len() || k.iter().zip(w).any(|(&a, &b)| a != b as i64) {
        return Err(attr_err(
            node,
            "kernel_shape",
            format!("{k:?} does not match W's spatial dims {w:?}"),
        ));
    }
    Ok(())
}

fn normalize(mut node: Node, cx: &mut NormCx) -> Result<Vec<Node>> {
    arity(&node, 2, 3)?;
    let (x, w) = (
        cx.input_ty(&node, 0).cloned(),
        cx.input_ty(&node, 1).cloned(),
    );
    if let Some(s) = spatial_rank(&node, x.as_ref(), w.as_ref()) {
        let win = window(&node, s, kernel_from_w(w.as_ref()))?;
        win.store(&mut node, x.as_ref().and_then(|t| t.dims.get(2..)));
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
    let group = super::attrs::int(node, "group", 1)?;
    if group < 1 {
        return Err(attr_err(node, "group", format!("must be ≥ 1, got {group}")));
    }
    if let (Dim::Fixed(c), Dim::Fixed(cw)) = (&x.dims[1], &w.dims[1]) {
        if (*cw as i64).saturating_mul(group) != *c as i64 {
            return Err(infer_err(
                node,
                format!("X has {c} channels but W expects {cw} × group {group}"),
            ));
        }
    }
    if let Dim::Fixed(m) = &w.dims[0] {
        if *m as i64 % group != 0 {
            return Err(infer_err(
                node,
                format!("{m} output channels are not divisible by group {group}"),
            ));
        }
    }
    let mut dims = vec![x.dims[0].clone(), w.dims[0].clone()];
    let kernel = kernel_from_w(Some(w));
    check_kernel_shape(node, kernel.as_deref())?;
    if kernel.is_none() && !node.attrs.contains_key("kernel_shape") {
        // W's spatial dims are symbolic: the output's are unknown.
        dims.extend(std::iter::repeat_n(Dim::Unknown, x.rank() - 2));
        return Ok(vec![TypeInfo {
            dtype: x.dtype,
            dims,
        }]);
    }
    let win = window(node, x.rank() - 2, kernel)?;
    dims.extend(win.output(node, &x.dims[2..], false)?);
    Ok(vec![TypeInfo {
        dtype: x.dtype,
        dims,
    }])
}
