//! The `nnie` level as MLIR: an [`NnieModule`] → a `func.func` of `nnie.*`
//! ops (the text form `convert-onnx-to-nnie` prints).
//!
//! In: a context with our dialects, the module, the function name. Out:
//! the function (built, not yet inserted), or why it cannot be built. One
//! op per layer, in network order, located at the layer's name; its
//! attributes are `onnc_nnie::frontend::dialect_attrs` (the quantization
//! registers `input_clip`/`input_z`, `weight_clip`/`weight_z` included);
//! weights and biases are `arith.constant`s (`<layer>_weight`,
//! `<layer>_bias`). Values are typed with their Caffe blob shapes: shape
//! inference on the legalized graph, except that a Reshape's output is its
//! 4-D `[0, c, h, w]` (NNIE's blobs are 4-D where the ONNX value may be a
//! flat `N x C`) and layers that keep the shape pass it on. `nnie.concat`
//! gets `operandSegmentSizes`, `nnie.split` `resultSegmentSizes` (16 slots;
//! more inputs or pieces are an error naming the layer). The function's
//! arguments and results are the graph's inputs and outputs (`onnx.name` on
//! each argument).

use crate::blobs::Blobs;
use crate::level_text::constant;
use crate::{import::onnx::node_location, pipeline::NnieModule};
use melior::ir::{
    attribute::{ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationBuilder,
    r#type::{FunctionType, IntegerType},
    Attribute, Block, Identifier, Location, Region, RegionLike, Type, Value, ValueLike,
};
use onnc_dialects::ir;
use onnc_nnie::frontend::{dialect_attrs, DialectValue, Layer, LayerKind};
use std::collections::HashMap;

/// Concat's operand slots and split's result slots (`dialects/nnie.irdl.mlir`).
const SLOTS: usize = 16;

fn attr<'c>(context: &'c melior::Context, v: &DialectValue) -> Result<Attribute<'c>, String> {
    let list = |kind: &str, items: Vec<String>| {
        let text = format!("array<{kind}: {}>", items.join(", "));
        Attribute::parse(context, &text).ok_or(format!("'{text}' does not parse"))
    };
    Ok(match v {
        DialectValue::Str(s) => StringAttribute::new(context, s).into(),
        DialectValue::I64(i) => {
            IntegerAttribute::new(IntegerType::new(context, 64).into(), *i).into()
        }
        DialectValue::F32(f) => {
            FloatAttribute::new(context, Type::float32(context), f64::from(*f)).into()
        }
        DialectValue::I64Array(v) => list("i64", v.iter().map(i64::to_string).collect())?,
        DialectValue::F32Array(v) => list("f32", v.iter().map(|&x| float_text(x)).collect())?,
    })
}

/// `x` as an MLIR float literal that reads back bit for bit: Rust's
/// shortest exact `{:e}` form, with the `.0` MLIR wants in the mantissa
/// (`1e0` → `1.0e0`).
pub(crate) fn float_text(x: f32) -> String {
    let t = format!("{x:e}");
    match t.split_once('e') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
        _ => t,
    }
}

/// `operandSegmentSizes`/`resultSegmentSizes` for `n` used slots of
/// [`SLOTS`]; Err when `n` is beyond them.
fn segment_sizes(context: &melior::Context, n: usize) -> Result<Attribute<'_>, String> {
    if n > SLOTS {
        return Err(format!(
            "the nnie dialect has {SLOTS} slots, the layer has {n}"
        ));
    }
    let sizes: Vec<&str> = (0..SLOTS).map(|i| if i < n { "1" } else { "0" }).collect();
    let text = format!("array<i32: {}>", sizes.join(", "));
    Attribute::parse(context, &text).ok_or(format!("'{text}' does not parse"))
}

/// The Caffe blob shape of `top`, a result of `l`: a Reshape's is its
/// 4-D `[0, c, h, w]` resolved against its input (0 copies, -1 infers),
/// where the ONNX value may have fewer dimensions (a flatten before the
/// output); a shape-preserving layer's is its input's; any other's the
/// inferred ONNX shape.
fn blob_shape(
    l: &Layer,
    top: &str,
    blobs: &HashMap<String, Vec<usize>>,
    types: &HashMap<String, onnc_onnx::TypeInfo>,
) -> Result<Vec<usize>, String> {
    let input = l.bottoms.first().and_then(|b| blobs.get(b));
    match (&l.kind, input) {
        (LayerKind::Reshape { shape }, Some(x)) => {
            let numel: usize = x.iter().product();
            let mut dims: Vec<i64> = shape
                .iter()
                .enumerate()
                .map(|(i, &d)| {
                    if d == 0 {
                        x.get(i).map_or(0, |&v| v as i64)
                    } else {
                        d
                    }
                })
                .collect();
            let known: i64 = dims.iter().filter(|&&d| d > 0).product();
            for d in dims.iter_mut().filter(|d| **d < 0) {
                *d = numel as i64 / known.max(1);
            }
            Ok(dims.iter().map(|&d| d.max(0) as usize).collect())
        }
        (
            LayerKind::Relu { .. }
            | LayerKind::Sigmoid
            | LayerKind::Tanh
            | LayerKind::Power { .. }
            | LayerKind::Softmax { .. },
            Some(x),
        ) => Ok(x.clone()),
        _ => types
            .get(top)
            .and_then(onnc_onnx::TypeInfo::static_shape)
            .ok_or(format!(
                "layer '{}': value `{top}` has no static shape",
                l.name
            )),
    }
}

/// The tensor type of blob `name` with `shape` (its inferred element type, else f32).
fn value_type<'c>(
    context: &'c melior::Context,
    types: &HashMap<String, onnc_onnx::TypeInfo>,
    shape: &[usize],
    name: &str,
) -> Type<'c> {
    let dtype = types.get(name).map_or(onnc_tensor::DType::F32, |t| t.dtype);
    ir::tensor_type(context, shape, dtype)
}

/// The layer's result names: a split's tops, else its one top.
fn tops(l: &Layer) -> Vec<String> {
    match &l.kind {
        LayerKind::Split { tops, .. } => tops.clone(),
        _ => vec![l.top.clone()],
    }
}

/// Builds `m` as `func.func @<name>` (see the module doc).
pub fn build_func<'c>(
    context: &'c melior::Context,
    m: &NnieModule,
    name: &str,
    weights: &Blobs<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let g = m.compiled.graph();
    let types: &HashMap<String, onnc_onnx::TypeInfo> = &m.types;
    let unknown = Location::unknown(context);
    let mut in_types = Vec::new();
    for v in &g.inputs {
        let shape = v
            .type_info()
            .static_shape()
            .ok_or(format!("graph input `{}` has no static shape", v.name))?;
        in_types.push((ir::tensor_type(context, &shape, v.dtype), unknown));
    }
    let block = Block::new(&in_types);
    let mut values: HashMap<String, Value> = HashMap::new();
    let mut blobs: HashMap<String, Vec<usize>> = HashMap::new();
    for (k, v) in g.inputs.iter().enumerate() {
        blobs.insert(
            v.name.clone(),
            v.type_info().static_shape().unwrap_or_default(),
        );
        values.insert(
            v.name.clone(),
            block.argument(k).map_err(|e| e.to_string())?.into(),
        );
    }
    for l in m.compiled.layers() {
        let mut operands = Vec::new();
        for b in &l.bottoms {
            operands.push(*values.get(b).ok_or(format!(
                "layer '{}': input `{b}` is not defined before it",
                l.name
            ))?);
        }
        for (t, what) in [(&l.weight, "weight"), (&l.bias, "bias")] {
            if let Some(t) = t {
                let ty = ir::tensor_type(context, t.shape(), t.dtype());
                operands.push(constant(
                    context,
                    &block,
                    t.clone(),
                    ty,
                    &l.name,
                    what,
                    weights,
                )?);
            }
        }
        let mut attrs = Vec::new();
        for (k, v) in dialect_attrs(l) {
            attrs.push((Identifier::new(context, k), attr(context, &v)?));
        }
        let names = tops(l);
        attrs.push((
            Identifier::new(context, "tops"),
            ArrayAttribute::new(
                context,
                &names
                    .iter()
                    .map(|t| StringAttribute::new(context, t).into())
                    .collect::<Vec<_>>(),
            )
            .into(),
        ));
        let segments = match l.kind {
            LayerKind::Concat { .. } => Some(("operandSegmentSizes", l.bottoms.len(), "inputs")),
            LayerKind::Split { .. } => Some(("resultSegmentSizes", names.len(), "results")),
            _ => None,
        };
        if let Some((key, n, what)) = segments {
            attrs.push((
                Identifier::new(context, key),
                segment_sizes(context, n).map_err(|e| format!("layer '{}': {e} {what}", l.name))?,
            ));
        }
        for t in &names {
            let shape = blob_shape(l, t, &blobs, types)?;
            blobs.insert(t.clone(), shape);
        }
        let result_types: Vec<Type> = names
            .iter()
            .map(|t| value_type(context, types, &blobs[t], t))
            .collect();
        let op_name = l.dialect_op();
        let op = OperationBuilder::new(op_name, node_location(context, &l.name))
            .add_operands(&operands)
            .add_results(&result_types)
            .add_attributes(&attrs)
            .build()
            .map_err(|e| format!("cannot build {op_name} '{}': {e}", l.name))?;
        let op = block.append_operation(op);
        for (k, t) in names.into_iter().enumerate() {
            values.insert(t, op.result(k).map_err(|e| e.to_string())?.into());
        }
    }
    let mut results = Vec::new();
    for o in &g.outputs {
        results.push(
            *values
                .get(&o.name)
                .ok_or(format!("graph output `{}` is no layer's result", o.name))?,
        );
    }
    let out_types: Vec<Type> = results.iter().map(|v| v.r#type()).collect();
    block.append_operation(
        OperationBuilder::new("func.return", unknown)
            .add_operands(&results)
            .build()
            .map_err(|e| e.to_string())?,
    );
    let region = Region::new();
    region.append_block(block);
    let names: Vec<String> = g
        .inputs
        .iter()
        .map(|v| format!("{{onnx.name = \"{}\"}}", v.name.replace('"', "")))
        .collect();
    let arg_attrs =
        Attribute::parse(context, &format!("[{}]", names.join(", "))).ok_or("arg attrs")?;
    let in_types: Vec<Type> = in_types.iter().map(|(t, _)| *t).collect();
    let c = &m.compiled;
    let level = super::package_attrs::write(
        context,
        c.package_inputs(),
        c.report(),
        c.warnings(),
        weights,
    )?;
    OperationBuilder::new("func.func", Location::name(context, name, unknown))
        .add_attributes(&level)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, name).into(),
            ),
            (Identifier::new(context, "arg_attrs"), arg_attrs),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, &in_types, &out_types).into()).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::float_text;

    #[test]
    fn float_literals_have_a_point_and_read_back_exactly() {
        assert_eq!(float_text(1.0), "1.0e0");
        assert_eq!(float_text(4.0), "4.0e0");
        assert_eq!(float_text(-0.5), "-5.0e-1");
        for k in -120..=120 {
            let c = 2f32.powf(k as f32 / 16.0);
            let t = float_text(c);
            assert!(t.contains('.'), "{t}");
            assert_eq!(t.parse::<f32>().unwrap().to_bits(), c.to_bits(), "{t}");
        }
    }
}
