//! One `mvu.conv` / `mvu.matmul` op's attributes → the [`Lowered`] layer
//! they describe (the reading half of [`super::to_ir`] and
//! [`super::layer_attrs`]).
//!
//! In: the op's attributes ([`OpAttrs`]), its node name, the input's shape
//! and the result's (`[1, C, H, W]`; a matmul's result `[rows, out]`) and the weight constant (`[O, I, kH, kW]`
//! or `[out, in]`, integers). Out: the lowered layer, or the first problem:
//! a missing or mistyped attribute, a precision outside 1..=16, a shape the
//! operands disagree on, or a register attribute that differs from what the
//! layer's shape gives (`onnc_mvu::frontend::dialect_attrs`).

use melior::ir::operation::OperationLike;
use onnc_dialects::ir;
use onnc_mvu::frontend::{dialect_attrs, DialectValue, LayerWeights, Lowered, WeightLayout};
use onnc_mvu::{ConvShape, Layer, LayerOp, MatMulShape, Pool, Precision};
use onnc_tensor::Tensor;
use std::collections::BTreeMap;

/// An attribute value as the `mvu` ops use them.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `N : i64`.
    Int(i64),
    /// `array<i64: ...>`.
    Ints(Vec<i64>),
    /// `array<f32: ...>`.
    Floats(Vec<f32>),
    /// A string.
    Str(String),
    /// Anything else (`operandSegmentSizes`, ...).
    Other,
}

/// An op's attributes by name.
#[derive(Debug, Clone, Default)]
pub struct OpAttrs(pub BTreeMap<String, Val>);

impl OpAttrs {
    /// The attributes of `o`.
    pub fn of(o: &melior::ir::OperationRef) -> OpAttrs {
        let mut m = BTreeMap::new();
        for (ident, a) in o.attributes() {
            let k = ident.as_string_ref().as_str().unwrap_or("").to_string();
            let v = if let Some((i, _)) = ir::int_attr(a) {
                Val::Int(i)
            } else if let Some(v) = ir::i64_array_attr(a) {
                Val::Ints(v)
            } else if let Some(v) = ir::f32_array_attr(a) {
                Val::Floats(v)
            } else if let Some(s) = ir::str_attr(a) {
                Val::Str(s)
            } else {
                Val::Other
            };
            m.insert(k, v);
        }
        OpAttrs(m)
    }

    fn get(&self, k: &str) -> Option<&Val> {
        self.0.get(k)
    }

    fn int(&self, k: &str) -> Result<i64, String> {
        match self.get(k) {
            Some(Val::Int(v)) => Ok(*v),
            Some(_) => Err(format!("attribute '{k}' is not an integer (N : i64)")),
            None => Err(format!("attribute '{k}' is missing")),
        }
    }

    fn flag(&self, k: &str) -> Result<bool, String> {
        match self.int(k)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(format!("attribute '{k}' is 0 or 1, not {v}")),
        }
    }

    fn uint(&self, k: &str, lo: u32, hi: u32) -> Result<u32, String> {
        let v = self.int(k)?;
        u32::try_from(v)
            .ok()
            .filter(|v| (lo..=hi).contains(v))
            .ok_or_else(|| format!("attribute '{k}' = {v} is outside {lo}..={hi}"))
    }

    fn ints<const N: usize>(&self, k: &str) -> Result<[u32; N], String> {
        match self.get(k) {
            Some(Val::Ints(v)) => v
                .iter()
                .map(|&x| u32::try_from(x).ok())
                .collect::<Option<Vec<u32>>>()
                .and_then(|v| <[u32; N]>::try_from(v).ok())
                .ok_or_else(|| format!("attribute '{k}' is {N} non-negative integers, not {v:?}")),
            Some(_) => Err(format!("attribute '{k}' is not an array<i64: ...>")),
            None => Err(format!("attribute '{k}' is missing")),
        }
    }

    fn floats(&self, k: &str) -> Result<Option<Vec<f32>>, String> {
        match self.get(k) {
            Some(Val::Floats(v)) => Ok(Some(v.clone())),
            Some(_) => Err(format!("attribute '{k}' is not an array<f32: ...>")),
            None => Ok(None),
        }
    }

    fn string(&self, k: &str) -> Result<Option<String>, String> {
        match self.get(k) {
            Some(Val::Str(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("attribute '{k}' is not a string")),
            None => Ok(None),
        }
    }

    fn required_string(&self, k: &str) -> Result<String, String> {
        self.string(k)?
            .ok_or_else(|| format!("attribute '{k}' is missing"))
    }
}

fn u32_of(what: &str, v: usize) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("{what} {v} is too large"))
}

/// The layer's shape from the op (conv or matmul), its input and weight shapes.
fn layer_op(
    a: &OpAttrs,
    conv: bool,
    input: &[usize],
    output: &[usize],
    w: &[usize],
) -> Result<LayerOp, String> {
    if conv {
        let (&[1, c, h, wd], &[o, i, kh, kw]) = (input, w) else {
            return Err(format!(
                "a conv reads a [1, C, H, W] input and [O, C, kH, kW] weights, not {input:?} and {w:?}"
            ));
        };
        if i != c {
            return Err(format!(
                "the weights have {i} input channels, the input has {c}"
            ));
        }
        Ok(LayerOp::Conv(ConvShape {
            in_channels: u32_of("channels", c)?,
            in_height: u32_of("height", h)?,
            in_width: u32_of("width", wd)?,
            out_channels: u32_of("channels", o)?,
            kernel: [u32_of("kernel", kh)?, u32_of("kernel", kw)?],
            strides: a.ints("strides")?,
            pads: a.ints("pads")?,
        }))
    } else {
        // The input is the previous layer's output in any layout
        // (a Flatten or Reshape between them is no op): rows from the result.
        let (&[rows, o], &[out, k]) = (output, w) else {
            return Err(format!(
                "a matmul gives a [rows, out] result from [out, in] weights, not {output:?} and {w:?}"
            ));
        };
        let n: usize = input.iter().product();
        if o != out || n != rows * k {
            return Err(format!(
                "a [{rows}, {o}] result from [{out}, {k}] weights needs {} input elements, the input {input:?} has {n}",
                rows * k
            ));
        }
        Ok(LayerOp::MatMul(MatMulShape {
            rows: u32_of("rows", rows)?,
            in_features: u32_of("features", k)?,
            out_features: u32_of("features", out)?,
        }))
    }
}

fn pool(a: &OpAttrs) -> Result<Option<Pool>, String> {
    if !matches!(a.get("maxpool"), Some(Val::Int(1))) {
        return Ok(None);
    }
    Ok(Some(Pool {
        kernel: a.ints("pool_kernel")?,
        strides: a.ints("pool_strides")?,
        pads: a.ints("pool_pads")?,
        ceil_mode: a.flag("pool_ceil_mode")?,
    }))
}

/// Every register attribute equals what `layer`'s shape gives.
fn check_registers(a: &OpAttrs, layer: &Layer) -> Result<(), String> {
    let want = dialect_attrs(layer).map_err(|e| e.to_string())?;
    for (k, v) in want {
        let got = a.get(k);
        let same = match (&v, got) {
            (DialectValue::Int(x), Some(Val::Int(y))) => x == y,
            (DialectValue::Ints(x), Some(Val::Ints(y))) => x == y,
            (DialectValue::Str(x), Some(Val::Str(y))) => x == y,
            _ => false,
        };
        if k == "mvu" || k == "omvu_mask" {
            // Placement, not shape: any MVU (verified by the dialect).
            continue;
        }
        if !same {
            let want = match v {
                DialectValue::Int(x) => x.to_string(),
                DialectValue::Ints(x) => format!("{x:?}"),
                DialectValue::Str(x) => x,
            };
            return Err(match got {
                None => format!("attribute '{k}' is missing"),
                Some(g) => format!(
                    "attribute '{k}' is {g:?}, but the layer's shape and precisions give {want}"
                ),
            });
        }
    }
    Ok(())
}

/// The lowered layer `node` an op describes (see the module docs).
pub fn layer_of(
    a: &OpAttrs,
    node: &str,
    input: &[usize],
    output: &[usize],
    weight: &Tensor,
) -> Result<Lowered, String> {
    let conv = a.get("strides").is_some() || a.get("pads").is_some();
    let op = layer_op(a, conv, input, output, weight.shape())?;
    let precision = Precision::new(
        a.uint("aprec", 1, 16)?,
        a.uint("wprec", 1, 16)?,
        a.uint("oprec", 1, 16)?,
    )
    .with_signed_acts(a.flag("asigned")?)
    .with_signed_weights(a.flag("wsigned")?);
    let msb = a.uint("quant_msb", 0, onnc_mvu::limits::MAX_QUANT_MSB)?;
    let relu = a.flag("relu")?;
    let layer = Layer {
        name: node.to_string(),
        weight_name: a.string("weight_name")?,
        op,
        precision,
        quant_msb: (msb + 1 != precision.out).then_some(msb),
        relu,
        pool: if conv { pool(a)? } else { None },
        bias_base: None,
    };
    check_registers(a, &layer)?;
    let scales = a
        .floats("weight_scales")?
        .ok_or("attribute 'weight_scales' is missing")?;
    let values: Vec<i32> = weight
        .data()
        .to_i64_vec()
        .into_iter()
        .map(|v| i32::try_from(v).map_err(|_| format!("weight {v} does not fit 32 bits")))
        .collect::<Result<_, _>>()?;
    if scales.is_empty() || values.len() % scales.len() != 0 {
        return Err(format!(
            "attribute 'weight_scales' has {} scales for {} weights: one, or one per output channel",
            scales.len(),
            values.len()
        ));
    }
    let layout = match a.required_string("weight_layout")?.as_str() {
        "as_layer" => WeightLayout::AsLayer,
        "transposed" => WeightLayout::Transposed,
        other => {
            return Err(format!(
                "attribute 'weight_layout' is \"as_layer\" or \"transposed\", not \"{other}\""
            ))
        }
    };
    let sum_of = match a.get("sum_of") {
        None => None,
        Some(_) => Some(a.uint("sum_of", 1, u32::MAX)?),
    };
    Ok(Lowered {
        node: node.to_string(),
        op: a.required_string("onnx_op")?,
        layer,
        weights: LayerWeights {
            values,
            scales,
            signed: precision.weight_signed,
        },
        bias: a.floats("bias_values")?,
        relu,
        layout,
        end: a.required_string("output_end")?,
        sum_of,
    })
}
