//! `convert-onnx-to-mvu{aprec=.. wprec=.. oprec=..}` — a legalized plain-CNN
//! `onnx`-dialect function → `mvu.conv` / `mvu.matmul` configuration ops.
//!
//! Input: `onnx` dialect after `onnx-simplify` and `onnc-legalize{target=mvu}`
//! → Output: one `mvu` op per layer (registers computed by `onnc_mvu`: the
//! five-level length/jump registers, countdown, precisions, quantizer MSB),
//! integer weights as `arith.constant`, a layer's bias in accumulator units
//! (what the configuration loads into the bias RAM) as an `i32`
//! `arith.constant` on the op's `bias` operand, and on the module
//! `mvu.total_countdown = N : i64` (BARVINN's total of every layer's
//! countdown × output rows).
//!
//! Before:
//! ```mlir
//! %y = "onnx.conv"(%x, %w) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, ...} loc("conv1")
//! %r = "onnx.relu"(%y) loc("relu1")
//! ```
//! After `--pass-pipeline='builtin.module(convert-onnx-to-mvu{aprec=8 wprec=8 oprec=8})'`:
//! ```mlir
//! %w = arith.constant dense_resource<conv1_w> : tensor<64x64x3x3xi8>
//! %y = "mvu.conv"(%x, %w) {mvu = 0 : i64, aprec = 8 : i64, ..., countdown = 17280 : i64, ...} loc("conv1")
//! ```
//!
//! Options: `aprec`, `wprec`, `oprec` (1..16), `ram-check` (refuse layers
//! beyond one MVU's RAMs; default true). Preconditions: static shapes, a
//! plain chain. Failure modes: a residual join (named), an op BARVINN cannot
//! run, a precision out of range, a layer beyond the RAMs — each at its
//! node's location; the IR is unchanged.

use crate::{
    import::onnx::node_location,
    onnx::functions::{functions, graph_or_report},
};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::{OperationBuilder, OperationLike},
    r#type::{FunctionType, IntegerType},
    Attribute, Block, Identifier, Location, OperationRef, Region, RegionLike,
};
use onnc_dialects::{
    ir,
    pass_api::{OptionKind, OptionSpec, PassBody, PassFailed, PassOptions, PassRegistration},
};
use onnc_mvu::frontend::{accumulator_bias, dialect_attrs, DialectValue};
use onnc_mvu::{Compiled, LayerOp};
use onnc_tensor::{DType, Tensor};

/// Registration of `convert-onnx-to-mvu`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "convert-onnx-to-mvu",
    summary: "Lower a legalized plain CNN to BARVINN MVU configuration ops",
    anchor: "builtin.module",
    options: &[
        OptionSpec {
            name: "aprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "activation precision in bits (1..16)",
        },
        OptionSpec {
            name: "wprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "weight precision in bits (1..16)",
        },
        OptionSpec {
            name: "oprec",
            kind: OptionKind::Int { min: 0, max: 64 },
            default: "8",
            help: "output precision in bits (1..16)",
        },
        OptionSpec {
            name: "ram-check",
            kind: OptionKind::Bool,
            default: "true",
            help: "refuse layers that do not fit one MVU's RAMs",
        },
    ],
    factory: make,
};

fn make(o: &PassOptions) -> Result<Box<dyn PassBody>, String> {
    Ok(Box::new(Convert {
        opts: onnc_mvu::CompileOptions {
            aprec: o.int("aprec") as u32,
            wprec: o.int("wprec") as u32,
            oprec: o.int("oprec") as u32,
            check_capacity: o.bool("ram-check"),
            test_vectors: false,
            ..Default::default()
        },
    }))
}

struct Convert {
    opts: onnc_mvu::CompileOptions,
}

/// Integer element type wide enough for `bits`.
fn int_type(bits: u32) -> DType {
    if bits <= 8 {
        DType::I8
    } else {
        DType::I16
    }
}

impl PassBody for Convert {
    fn run(&self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let Some(body) = module.region(0).ok().and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let mut total = 0u64;
        for func in functions(&module) {
            let floc = func.location();
            let name = func
                .attribute("sym_name")
                .ok()
                .and_then(ir::str_attr)
                .unwrap_or_default();
            let Some((graph, locs)) = graph_or_report(&func, "convert-onnx-to-mvu") else {
                return Err(PassFailed);
            };
            let compiled = match onnc_mvu::compile(&graph, &self.opts) {
                Ok(c) => c,
                Err(e) => {
                    for p in e.problems() {
                        let at = p
                            .node
                            .as_ref()
                            .and_then(|n| locs.get(n))
                            .copied()
                            .unwrap_or(floc);
                        ir::emit_error(at, &p.to_string());
                    }
                    if e.problems().is_empty() {
                        ir::emit_error(floc, &e.to_string());
                    }
                    return Err(PassFailed);
                }
            };
            total += compiled.table().total_countdown;
            let input = graph
                .inputs
                .first()
                .map(|v| v.name.clone())
                .unwrap_or_default();
            let built = ir::with_context(&module, |context| {
                build(context, &compiled, &name, &input).map(|f| {
                    body.insert_operation_before(func, f);
                })
            });
            match built {
                Ok(()) => {
                    ir::erase_if_unused(func);
                }
                Err(e) => {
                    ir::emit_error(floc, &format!("convert-onnx-to-mvu: {e}"));
                    return Err(PassFailed);
                }
            }
        }
        ir::with_context(&module, |context| {
            let a: Attribute =
                IntegerAttribute::new(IntegerType::new(context, 64).into(), total as i64).into();
            ir::set_attribute(&module, "mvu.total_countdown", a);
        });
        Ok(())
    }
}

fn attr<'c>(context: &'c melior::Context, v: &DialectValue) -> Attribute<'c> {
    match v {
        DialectValue::Int(i) => {
            IntegerAttribute::new(IntegerType::new(context, 64).into(), *i).into()
        }
        DialectValue::Str(s) => StringAttribute::new(context, s).into(),
        DialectValue::Ints(v) => {
            let items: Vec<String> = v.iter().map(i64::to_string).collect();
            let text = format!("array<i64: {}>", items.join(", "));
            Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
        }
    }
}

/// Shapes of a layer: input, weight, output.
fn shapes(layer: &onnc_mvu::Layer) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    match &layer.op {
        LayerOp::Conv(s) => {
            // The output after the layer's pooling, if any.
            let [_, oh, ow] = layer.output_chw().unwrap_or([0, 0, 0]);
            (
                vec![
                    1,
                    s.in_channels as usize,
                    s.in_height as usize,
                    s.in_width as usize,
                ],
                vec![
                    s.out_channels as usize,
                    s.in_channels as usize,
                    s.kernel[0] as usize,
                    s.kernel[1] as usize,
                ],
                vec![1, s.out_channels as usize, oh as usize, ow as usize],
            )
        }
        LayerOp::MatMul(s) => (
            vec![s.rows as usize, s.in_features as usize],
            vec![s.out_features as usize, s.in_features as usize],
            vec![s.rows as usize, s.out_features as usize],
        ),
    }
}

fn build<'c>(
    context: &'c melior::Context,
    c: &Compiled,
    name: &str,
    input_name: &str,
) -> Result<melior::ir::Operation<'c>, String> {
    let unknown = Location::unknown(context);
    let lowered = c.lowered();
    let first = lowered.first().ok_or("the network has no layer")?;
    let (in_shape, _, _) = shapes(&first.layer);
    let in_type = ir::tensor_type(context, &in_shape, int_type(first.layer.precision.act));
    let block = Block::new(&[(in_type, unknown)]);
    let mut x: melior::ir::Value = block.argument(0).map_err(|e| e.to_string())?.into();
    let mut out_type = in_type;
    for l in lowered {
        let (_, w_shape, o_shape) = shapes(&l.layer);
        let p = &l.layer.precision;
        let w = Tensor::from_i64(
            w_shape.clone(),
            l.weights.values.iter().map(|&v| i64::from(v)).collect(),
        )
        .map_err(|e| e.to_string())?
        .cast(int_type(p.weight));
        let w_type = ir::tensor_type(context, &w_shape, int_type(p.weight));
        let wv = constant(context, &block, w, w_type, &l.node, "weight")?;
        let mut attrs: Vec<(Identifier, Attribute)> = dialect_attrs(&l.layer)
            .map_err(|e| format!("layer '{}': {e}", l.node))?
            .iter()
            .map(|(k, v)| (Identifier::new(context, k), attr(context, v)))
            .collect();
        // The bias the configuration programs into the bias RAM, in
        // accumulator units (`c` of the scaler's `acc · b + c`), as the
        // op's `bias` operand.
        let mut operands = vec![x, wv];
        if let Some(c) = accumulator_bias(l) {
            let n = c.len();
            let t = Tensor::from_i64(vec![n], c)
                .map_err(|e| e.to_string())?
                .cast(DType::I32);
            let b_type = ir::tensor_type(context, &[n], DType::I32);
            operands.push(constant(context, &block, t, b_type, &l.node, "bias")?);
        }
        let segments = if operands.len() == 3 {
            "array<i32: 1, 1, 0, 1>"
        } else {
            "array<i32: 1, 1, 0, 0>"
        };
        attrs.push((
            Identifier::new(context, "operandSegmentSizes"),
            Attribute::parse(context, segments).ok_or("segments")?,
        ));
        out_type = ir::tensor_type(context, &o_shape, int_type(p.out));
        let op_name = match l.layer.op {
            LayerOp::Conv(_) => "mvu.conv",
            LayerOp::MatMul(_) => "mvu.matmul",
        };
        let op = OperationBuilder::new(op_name, node_location(context, &l.node))
            .add_operands(&operands)
            .add_results(&[out_type])
            .add_attributes(&attrs)
            .build()
            .map_err(|e| format!("cannot build {op_name} '{}': {e}", l.node))?;
        x = block
            .append_operation(op)
            .result(0)
            .map_err(|e| e.to_string())?
            .into();
    }
    block.append_operation(
        OperationBuilder::new("func.return", unknown)
            .add_operands(&[x])
            .build()
            .map_err(|e| e.to_string())?,
    );
    let region = Region::new();
    region.append_block(block);
    let arg_attrs = Attribute::parse(
        context,
        &format!("[{{onnx.name = \"{}\"}}]", input_name.replace('"', "")),
    )
    .ok_or("arg attrs")?;
    OperationBuilder::new("func.func", Location::name(context, name, unknown))
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, name).into(),
            ),
            (Identifier::new(context, "arg_attrs"), arg_attrs),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, &[in_type], &[out_type]).into())
                    .into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

/// Appends `arith.constant` of `value` (type `ty`, a `dense_resource` named
/// `<node>_<what>`, located at `<node>_<what>`) to `block`; returns its result.
fn constant<'c, 'b>(
    context: &'c melior::Context,
    block: &'b Block<'c>,
    value: Tensor,
    ty: melior::ir::Type<'c>,
    node: &str,
    what: &str,
) -> Result<melior::ir::Value<'c, 'b>, String> {
    let op = OperationBuilder::new(
        "arith.constant",
        Location::name(
            context,
            &format!("{node}_{what}"),
            Location::unknown(context),
        ),
    )
    .add_attributes(&[(
        Identifier::new(context, "value"),
        ir::tensor_attr(context, value, &format!("{}_{what}", sanitize(node))),
    )])
    .add_results(&[ty])
    .build()
    .map_err(|e| e.to_string())?;
    Ok(block
        .append_operation(op)
        .result(0)
        .map_err(|e| e.to_string())?
        .into())
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
