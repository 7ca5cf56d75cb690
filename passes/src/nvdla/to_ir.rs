//! [`onnc_nvdla::Program`] → `nvdla` dialect function.
//!
//! In: a program (lowered, maybe planned and calibrated) and a function name.
//! Out: a `func.func` (not yet inserted) holding one `arith.constant` per
//! weight, one `nvdla.*` op per program op (attribute names and values as in
//! `Op::attrs`), and `func.return` of the network outputs. Lossless:
//! [`super::from_ir::program_from_func`] gives the same program back.
//!
//! ```mlir
//! func.func @main_graph(%arg0: tensor<1x3x8x8xf16> {onnx.name = "x", nvdla.mem = {pool = "bind", ...}}) -> (tensor<1x4x8x8xf16> {onnx.name = "y"}) {
//!   %0 = arith.constant {nvdla.result = "w", nvdla.precision = "fp16"} dense_resource<w> : tensor<4x3x3x3xf32> loc("w")
//!   %1 = "nvdla.conv"(%arg0, %0) {hw_layer = "conv1", ..., nvdla.result = "conv1_acc"} : (...) -> tensor<1x4x8x8xf32> loc("conv1")
//!   %2 = "nvdla.sdp"(%1) {hw_layer = "conv1", ..., operandSegmentSizes = array<i32: 1, 0, 0, 0>, nvdla.result = "y"} : ... loc("conv1")
//!   return %2 : tensor<1x4x8x8xf16>
//! }
//! ```
//!
//! An op's attributes are its `Op::attrs`, registers and the optional
//! quantization record alike (`quant.input_scale = 7.8e-03 : f32`,
//! `quant.weight_scale_mode = "per_channel"`, `quant.calibrated = 1 : i64`;
//! `onnc_nvdla::qrecord`): record floats are already `f32` values, so they
//! read back bit-identical.
//!
//! Discardable attributes: `nvdla.result` (the tensor's name), `nvdla.precision`
//! (weights: the precision the emitter converts them to), `nvdla.mem` (the
//! planner's placement: `{pool, offset, size, line_stride, surf_stride}`),
//! `nvdla.cbuf` (on a conv cut into row bands: its CBUF plan from
//! `nvdla-split-conv`, `{data_bank, weight_bank, out_rows, in_top, in_rows,
//! pad_top, pad_bottom, reuse_weights, keep_weights}`, one array element per
//! band).
//! Each op's location names the ONNX nodes it came from.

use crate::blobs::Blobs;
use crate::import::onnx::node_location;
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationBuilder,
        r#type::{FunctionType, IntegerType},
        Attribute, Block, Identifier, Location, Region, RegionLike, Type, Value,
    },
    Context,
};
use onnc_dialects::ir;
use onnc_nvdla::cbuf::{CbufPlan, RowBand};
use onnc_nvdla::{
    Engine, Op, Placement, Precision, Program, TensorId, TensorKind, Value as AttrValue,
};
use onnc_tensor::DType;

/// Element type of a tensor in memory at precision `p`.
pub fn dtype_of(p: Precision) -> DType {
    match p {
        Precision::Int8 => DType::I8,
        Precision::Int16 => DType::I16,
        Precision::Fp16 => DType::F16,
    }
}

/// Element type of a CONV accumulator stream (fp16 → f32, integers → i32).
pub fn accumulator_dtype(p: Precision) -> DType {
    match p {
        Precision::Fp16 => DType::F32,
        _ => DType::I32,
    }
}

fn type_of<'c>(context: &'c Context, p: &Program, t: TensorId) -> Type<'c> {
    let tensor = &p.tensors[t];
    let dtype = match tensor.kind {
        TensorKind::Weight(_) => DType::F32,
        TensorKind::Fused => accumulator_dtype(tensor.precision),
        _ => dtype_of(tensor.precision),
    };
    ir::tensor_type(context, &tensor.shape, dtype)
}

fn mem_attr<'c>(context: &'c Context, m: &Placement) -> Attribute<'c> {
    let pool = m.pool.map_or("none", |p| p.as_str());
    let text = format!(
        "{{pool = \"{pool}\", offset = {} : i64, size = {} : i64, line_stride = {} : i64, surf_stride = {} : i64}}",
        m.offset, m.size, m.line_stride, m.surf_stride
    );
    Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
}

/// `{data_bank = .. : i64, weight_bank = .. : i64, out_rows = array<i64: ..>, ...}`:
/// a recorded CBUF plan, one array element per band (see `onnc_nvdla::cbuf`).
fn cbuf_attr<'c>(context: &'c Context, plan: &CbufPlan) -> Attribute<'c> {
    let list = |f: &dyn Fn(&RowBand) -> usize| {
        let v: Vec<String> = plan.bands.iter().map(|b| f(b).to_string()).collect();
        format!("array<i64: {}>", v.join(", "))
    };
    let text = format!(
        "{{data_bank = {} : i64, weight_bank = {} : i64, out_rows = {}, in_top = {}, in_rows = {}, pad_top = {}, pad_bottom = {}, reuse_weights = {}, keep_weights = {}}}",
        plan.data_bank,
        plan.weight_bank,
        list(&|b| b.out_rows),
        list(&|b| b.in_top),
        list(&|b| b.in_rows),
        list(&|b| b.pad_top),
        list(&|b| b.pad_bottom),
        list(&|b| usize::from(b.reuse_weights)),
        list(&|b| usize::from(b.keep_weights)),
    );
    Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
}

fn value_attr<'c>(context: &'c Context, v: &AttrValue) -> Attribute<'c> {
    match v {
        AttrValue::Int(i) => IntegerAttribute::new(IntegerType::new(context, 64).into(), *i).into(),
        AttrValue::Float(f) => FloatAttribute::new(context, Type::float32(context), *f).into(),
        AttrValue::Str(s) => StringAttribute::new(context, s).into(),
    }
}

fn segments<'c>(context: &'c Context, seg: &[i32]) -> Attribute<'c> {
    let items: Vec<String> = seg.iter().map(i32::to_string).collect();
    let text = format!("array<i32: {}>", items.join(", "));
    Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
}

/// Number of numbered operand slots of `nvdla.concat`.
pub const CONCAT_SLOTS: usize = 32;

/// Builds `func.func @<name>` for `p`.
pub fn build_func<'c>(
    context: &'c Context,
    p: &Program,
    name: &str,
    weights: &Blobs<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let unknown = Location::unknown(context);
    let input_types: Vec<Type> = p.inputs.iter().map(|&t| type_of(context, p, t)).collect();
    let output_types: Vec<Type> = p.outputs.iter().map(|&t| type_of(context, p, t)).collect();
    let block = Block::new(
        &input_types
            .iter()
            .map(|t| (*t, unknown))
            .collect::<Vec<_>>(),
    );
    let mut values: Vec<Option<Value>> = vec![None; p.tensors.len()];
    for (i, &t) in p.inputs.iter().enumerate() {
        values[t] = Some(block.argument(i).map_err(|e| e.to_string())?.into());
    }
    let id = |s: &str| Identifier::new(context, s);

    // Weights, in tensor order (deterministic), only those an op reads.
    let read: std::collections::BTreeSet<TensorId> =
        p.ops.iter().flat_map(|o| o.operands()).collect();
    for (t, tensor) in p.tensors.iter().enumerate() {
        let TensorKind::Weight(data) = &tensor.kind else {
            continue;
        };
        if !read.contains(&t) {
            continue;
        }
        let value = data
            .to_tensor(tensor.shape.clone())
            .map_err(|e| format!("weight '{}': {e}", tensor.name))?;
        let mut attrs = vec![
            (
                id("value"),
                weights.weight_attr(context, value, &resource_name(&tensor.name)),
            ),
            (
                id("nvdla.result"),
                StringAttribute::new(context, &tensor.name).into(),
            ),
            (
                id("nvdla.precision"),
                StringAttribute::new(context, tensor.precision.as_str()).into(),
            ),
        ];
        if let Some(m) = &tensor.place {
            attrs.push((id("nvdla.mem"), mem_attr(context, m)));
        }
        let op = OperationBuilder::new(
            "arith.constant",
            Location::name(context, &tensor.name, unknown),
        )
        .add_attributes(&attrs)
        .add_results(&[type_of(context, p, t)])
        .build()
        .map_err(|e| format!("cannot build the constant '{}': {e}", tensor.name))?;
        let op = block.append_operation(op);
        values[t] = Some(op.result(0).map_err(|e| e.to_string())?.into());
    }

    for op in &p.ops {
        let built = build_op(context, p, op, &values)?;
        let built = block.append_operation(built);
        values[op.output] = Some(built.result(0).map_err(|e| e.to_string())?.into());
    }

    let mut returned = Vec::new();
    for &t in &p.outputs {
        returned.push(values[t].ok_or_else(|| {
            format!(
                "network output '{}' is produced by no op",
                p.tensors[t].name
            )
        })?);
    }
    block.append_operation(
        OperationBuilder::new("func.return", unknown)
            .add_operands(&returned)
            .build()
            .map_err(|e| e.to_string())?,
    );
    let region = Region::new();
    region.append_block(block);

    let arg_attrs: Vec<String> = p.inputs.iter().map(|&t| bind_attr_text(p, t)).collect();
    let res_attrs: Vec<String> = p.outputs.iter().map(|&t| bind_attr_text(p, t)).collect();
    let list = |items: &[String]| {
        let text = format!("[{}]", items.join(", "));
        Attribute::parse(context, &text)
            .ok_or_else(|| format!("internal error: cannot parse {text}"))
    };
    OperationBuilder::new("func.func", Location::name(context, name, unknown))
        .add_attributes(&[
            (id("sym_name"), StringAttribute::new(context, name).into()),
            (id("arg_attrs"), list(&arg_attrs)?),
            (id("res_attrs"), list(&res_attrs)?),
            (
                id("function_type"),
                TypeAttribute::new(FunctionType::new(context, &input_types, &output_types).into())
                    .into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

/// `{onnx.name = "x", nvdla.mem = {...}}` for a bound input or output.
fn bind_attr_text(p: &Program, t: TensorId) -> String {
    let tensor = &p.tensors[t];
    let mut s = format!("{{onnx.name = {}", quote(&tensor.name));
    if let Some(m) = &tensor.place {
        s.push_str(&format!(
            ", nvdla.mem = {{pool = \"{}\", offset = {} : i64, size = {} : i64, line_stride = {} : i64, surf_stride = {} : i64}}",
            m.pool.map_or("none", |p| p.as_str()),
            m.offset,
            m.size,
            m.line_stride,
            m.surf_stride
        ));
    }
    s.push('}');
    s
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A dense_resource blob name for a weight (MLIR keys are identifiers).
fn resource_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.as_bytes()[0].is_ascii_digit() {
        s.insert(0, 'w');
    }
    s
}

fn build_op<'c>(
    context: &'c Context,
    p: &Program,
    op: &Op,
    values: &[Option<Value<'c, '_>>],
) -> Result<melior::ir::Operation<'c>, String> {
    let id = |s: &str| Identifier::new(context, s);
    let out = &p.tensors[op.output];
    let loc = if op.onnx_nodes.is_empty() {
        Location::name(context, &op.hw_layer, Location::unknown(context))
    } else {
        node_location(context, &op.onnx_nodes.join("+"))
    };
    let lookup = |t: TensorId| {
        values[t].ok_or_else(|| {
            format!(
                "hw layer '{}' reads '{}' before it is produced",
                op.hw_layer, p.tensors[t].name
            )
        })
    };
    let mut operands = Vec::new();
    let mut segment = Vec::new();
    for slot in &op.inputs {
        match slot {
            Some(t) => {
                operands.push(lookup(*t)?);
                segment.push(1);
            }
            None => segment.push(0),
        }
    }
    let mut attrs: Vec<(Identifier, Attribute)> = vec![(
        id("hw_layer"),
        StringAttribute::new(context, &op.hw_layer).into(),
    )];
    for (k, v) in &op.attrs {
        attrs.push((id(k), value_attr(context, v)));
    }
    match op.engine {
        Engine::Sdp => {
            segment.resize(4, 0);
            attrs.push((id("operandSegmentSizes"), segments(context, &segment)));
        }
        Engine::Concat => {
            if operands.len() > CONCAT_SLOTS {
                return Err(format!(
                    "concat '{}' has {} members; nvdla.concat holds at most {CONCAT_SLOTS}",
                    op.hw_layer,
                    operands.len()
                ));
            }
            let seg: Vec<i32> = (0..CONCAT_SLOTS)
                .map(|i| i32::from(i < operands.len()))
                .collect();
            attrs.push((id("operandSegmentSizes"), segments(context, &seg)));
        }
        _ => {}
    }
    attrs.push((
        id("nvdla.result"),
        StringAttribute::new(context, &out.name).into(),
    ));
    if let Some(m) = &out.place {
        attrs.push((id("nvdla.mem"), mem_attr(context, m)));
    }
    if op.engine == Engine::Conv {
        if let Some(plan) = p.cbuf.get(&op.hw_layer) {
            attrs.push((id("nvdla.cbuf"), cbuf_attr(context, plan)));
        }
    }
    OperationBuilder::new(&format!("nvdla.{}", op.engine.op_name()), loc)
        .add_operands(&operands)
        .add_results(&[type_of(context, p, op.output)])
        .add_attributes(&attrs)
        .build()
        .map_err(|e| {
            format!(
                "cannot build nvdla.{} '{}': {e}",
                op.engine.op_name(),
                op.hw_layer
            )
        })
}
