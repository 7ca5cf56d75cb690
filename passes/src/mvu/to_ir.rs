//! The `mvu` level as MLIR: an [`MvuModule`] → a `func.func` of `mvu.conv`
//! / `mvu.matmul` ops (the text form `convert-onnx-to-mvu` prints), and the
//! module attribute `mvu.total_countdown`.
//!
//! In: a context with our dialects, the module, the function name. Out:
//! the function (built, not yet inserted), or why it cannot be built. A
//! level the dialect cannot hold (a branched network, a register beyond its
//! attribute's range) is refused by [`refusals`], at its node, before any
//! building; what `build_func` reports besides is an internal error.

use crate::blobs::Blobs;
use crate::level_text::constant;
use crate::{import::onnx::node_location, pipeline::MvuModule};
use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationBuilder,
    r#type::{FunctionType, IntegerType},
    Attribute, Block, Identifier, Location, OperationRef, Region, RegionLike,
};
use onnc_dialects::ir;
use onnc_mvu::frontend::{accumulator_bias, dialect_attrs, DialectValue};
use onnc_mvu::LayerOp;
use onnc_tensor::{DType, Tensor};

/// The module attribute holding the network's total countdown.
pub const TOTAL_COUNTDOWN: &str = "mvu.total_countdown";

/// The function attribute `mvu.ram_check = 0 : i64`: the layers were
/// compiled without the RAM check (absent: with it).
pub const RAM_CHECK: &str = "mvu.ram_check";

/// The function attribute holding the test vectors, when made:
/// `{seed = N : i64, aprec = N : i64, output = "<onnx name>", expected = dense<…> : tensor<…xf32>}`
/// (the input is drawn again from the seed; the expected output is carried).
pub const TEST_VECTORS: &str = "mvu.test_vectors";

/// Sets `mvu.total_countdown = total : i64` on `module`.
pub fn set_total_countdown(module: &OperationRef, total: u64) {
    ir::with_context(module, |context| {
        let a: Attribute =
            IntegerAttribute::new(IntegerType::new(context, 64).into(), total as i64).into();
        ir::set_attribute(module, TOTAL_COUNTDOWN, a);
    });
}

/// Integer element type wide enough for `bits`.
fn int_type(bits: u32) -> DType {
    if bits <= 8 {
        DType::I8
    } else {
        DType::I16
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

/// Why the `mvu` dialect cannot hold `m`: `(node, message)` per refusal,
/// each saying what cannot be printed, why, and what to run instead; empty
/// when it can. In: the level. Out: the refusals, the branched network's
/// first (at its first layer's node), then each layer's in layer order.
pub fn refusals(m: &MvuModule) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    if m.compiled.flow().is_branched() {
        // The dialect's ops form one chain (each reads the previous one's
        // output); branches and Concat buffers have no form there yet.
        let first = m.compiled.lowered().first().map(|l| l.node.clone());
        out.push((
            first,
            "the network has branches or Concats, which the mvu dialect (one chain of layers) cannot \
             print; compile it with `onnc compile --target mvu`, which writes the files from the \
             in-memory mvu level"
                .to_string(),
        ));
    }
    for l in m.compiled.lowered() {
        if let Err(e) = dialect_attrs(&l.layer) {
            out.push((
                Some(l.node.clone()),
                format!("layer '{}' has no mvu dialect form: {e}", l.node),
            ));
        }
    }
    out
}

/// Builds `m` as `func.func @<name>`: one `mvu.conv` / `mvu.matmul` per
/// layer (registers and precisions as attributes, and what the
/// configuration writer reads beyond them, [`super::layer_attrs`]; located
/// at the layer's ONNX node), its integer weights and accumulator-unit bias as
/// `arith.constant`s, the argument named by `m.input` (`onnx.name`).
pub fn build_func<'c>(
    context: &'c melior::Context,
    m: &MvuModule,
    name: &str,
    weights: &Blobs<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let c = &m.compiled;
    if let Some((_, why)) = refusals(m).into_iter().next() {
        return Err(why);
    }
    let input_name = m.input.as_str();
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
        let wv = constant(context, &block, w, w_type, &l.node, "weight", weights)?;
        let mut attrs: Vec<(Identifier, Attribute)> = dialect_attrs(&l.layer)
            .map_err(|e| format!("layer '{}': {e}", l.node))?
            .iter()
            .map(|(k, v)| (Identifier::new(context, k), attr(context, v)))
            .collect();
        attrs.extend(super::layer_attrs::layer_attrs(context, l));
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
            operands.push(constant(
                context, &block, t, b_type, &l.node, "bias", weights,
            )?);
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
    let func_attrs = level_attrs(context, m);
    OperationBuilder::new("func.func", Location::name(context, name, unknown))
        .add_attributes(&func_attrs)
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

/// The function's level attributes: [`RAM_CHECK`] when off, [`TEST_VECTORS`] when made.
fn level_attrs<'c>(
    context: &'c melior::Context,
    m: &MvuModule,
) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    let c = &m.compiled;
    let i = |v: i64| -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(context, 64).into(), v).into()
    };
    let mut out = Vec::new();
    if !c.options().check_capacity {
        out.push((Identifier::new(context, RAM_CHECK), i(0)));
    }
    if let Some(v) = c.vectors() {
        let dict: Vec<(Identifier<'c>, Attribute<'c>)> = vec![
            (Identifier::new(context, "seed"), i(c.options().seed as i64)),
            (
                Identifier::new(context, "aprec"),
                i(c.options().aprec.into()),
            ),
            (
                Identifier::new(context, "output"),
                StringAttribute::new(context, &v.output_name).into(),
            ),
            (
                Identifier::new(context, "expected"),
                ir::tensor_attr(context, v.output.cast(DType::F32), "expected_output"),
            ),
        ];
        out.push((
            Identifier::new(context, TEST_VECTORS),
            DictionaryAttribute::new(context, &dict).into(),
        ));
    }
    out
}
