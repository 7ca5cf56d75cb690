//! `mvu` dialect function → [`MvuModule`] (inverse of [`super::to_ir::build_func`]).
//!
//! In: a `func.func` of `arith.constant` weights and biases, `mvu.conv` /
//! `mvu.matmul` ops and `func.return`, as `convert-onnx-to-mvu` prints it.
//! Out: the module, its configuration files made again by
//! [`onnc_mvu::frontend::assemble`] from what the text holds (shapes from
//! the operand types, precisions, quantizer MSBs, integer weights and
//! scales, biases, output pipelines; test vectors from
//! [`super::to_ir::TEST_VECTORS`]); or one error per offending op at its
//! location: a missing or mistyped attribute, a precision outside 1..=16,
//! registers that disagree with the layer's shape, an op left over from
//! another level.
//!
//! ```text
//! %3 = "mvu.conv"(%arg0, %0, %1) {aprec = 8 : i64, ..., onnx_op = "Conv", relu = 1 : i64, weight_scales = array<f32: 0.01>, ...} loc("conv1")
//!   → Lowered { node: "conv1", op: "Conv", layer: Layer::conv("conv1", ConvShape { .. }, ..), weights, bias, relu: true, .. }
//! ```

use super::read_attrs::{layer_of, OpAttrs};
use super::to_ir::{RAM_CHECK, TEST_VECTORS};
use crate::pipeline::MvuModule;
use melior::ir::{
    attribute::DictionaryAttribute, block::BlockLike, operation::OperationLike, BlockRef, Location,
    OperationRef, RegionLike, ValueLike,
};
use onnc_dialects::ir::{self, Loc};
use onnc_mvu::frontend::{assemble, input_vectors, CompileOptions, Lowered, TestVectors};
use onnc_tensor::{DType, Tensor};
use std::collections::HashMap;

/// One problem, at the op it concerns.
pub type FromIrError<'c> = (Location<'c>, String);

fn key<'c>(v: &impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

fn static_dims(ty: melior::ir::Type) -> Option<Vec<usize>> {
    ir::tensor_shape(ty)?.static_dims()
}

/// What the function says about its input.
struct Arg {
    name: String,
    shape: Vec<usize>,
    key: usize,
}

fn argument(func: &OperationRef, block: &BlockRef) -> Result<Arg, String> {
    if block.argument_count() != 1 {
        return Err(format!(
            "an mvu function takes one input, not {}",
            block.argument_count()
        ));
    }
    let arg = block.argument(0).map_err(|e| e.to_string())?;
    let name = ir::func_arg_strings(func, false, "onnx.name")
        .first()
        .cloned()
        .flatten()
        .unwrap_or_default();
    let shape = static_dims(arg.r#type())
        .ok_or_else(|| format!("argument 0 ('{name}') is not a statically shaped tensor"))?;
    Ok(Arg {
        name,
        shape,
        key: key(&arg),
    })
}

/// The options of the back half: `mvu.ram_check` and the test vectors' seed and `aprec`.
fn options(func: &OperationRef, lowered: &[Lowered]) -> Result<CompileOptions, String> {
    let check_capacity = match func.attribute(RAM_CHECK).ok() {
        None => true,
        Some(a) => match ir::int_attr(a) {
            Some((0, _)) => false,
            Some((1, _)) => true,
            _ => return Err(format!("{RAM_CHECK} is 0 or 1 : i64")),
        },
    };
    let p = lowered.first().map(|l| l.layer.precision);
    let mut opts = CompileOptions {
        aprec: p.map_or(8, |p| p.act),
        wprec: p.map_or(8, |p| p.weight),
        oprec: p.map_or(8, |p| p.out),
        check_capacity,
        test_vectors: false,
        ..CompileOptions::default()
    };
    if let Some(v) = vectors_attr(func)? {
        opts.test_vectors = true;
        opts.seed = v.seed;
        opts.aprec = v.aprec;
    }
    Ok(opts)
}

/// `mvu.test_vectors = {seed, aprec, input, output, expected}` of a function.
struct VectorsAttr {
    seed: u64,
    aprec: u32,
    output: String,
    expected: Tensor,
}

fn vectors_attr(func: &OperationRef) -> Result<Option<VectorsAttr>, String> {
    let Ok(a) = func.attribute(TEST_VECTORS) else {
        return Ok(None);
    };
    let what = |k: &str| format!("{TEST_VECTORS}: '{k}' is missing or mistyped");
    let d = DictionaryAttribute::try_from(a)
        .map_err(|_| format!("{TEST_VECTORS} is a dictionary {{seed, aprec, output, expected}}"))?;
    let int = |k: &str| d.element_by_name(k).and_then(ir::int_attr).map(|v| v.0);
    let seed = int("seed")
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(|| what("seed"))?;
    let aprec = int("aprec")
        .and_then(|v| u32::try_from(v).ok())
        .filter(|v| (1..=16).contains(v))
        .ok_or_else(|| what("aprec"))?;
    let output = d
        .element_by_name("output")
        .and_then(ir::str_attr)
        .ok_or_else(|| what("output"))?;
    let expected = d
        .element_by_name("expected")
        .ok_or_else(|| what("expected"))
        .and_then(|e| {
            ir::elements_to_tensor_or_why(e).map_err(|w| format!("{TEST_VECTORS}: 'expected': {w}"))
        })?;
    Ok(Some(VectorsAttr {
        seed,
        aprec,
        output,
        expected: expected.cast(DType::F32),
    }))
}

/// Converts one function (its registers re-checked, its files made again).
pub fn module_from_func<'c>(
    func: &OperationRef<'c, '_>,
) -> Result<MvuModule, Vec<FromIrError<'c>>> {
    let floc = func.location();
    let one = |e: String| vec![(floc, e)];
    let region = func.region(0).map_err(|e| one(e.to_string()))?;
    let block: BlockRef = region
        .first_block()
        .ok_or_else(|| one("the function has no body".into()))?;
    let arg = argument(func, &block).map_err(one)?;
    let mut values: HashMap<usize, Vec<usize>> = HashMap::from([(arg.key, arg.shape.clone())]);
    let mut constants: HashMap<usize, Tensor> = HashMap::new();
    let mut lowered = Vec::new();
    let mut places: HashMap<String, Location<'c>> = HashMap::new();
    let mut errors = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        let here = o.location();
        let result = match name.as_str() {
            "func.return" => Ok(()),
            "arith.constant" => o
                .attribute("value")
                .map_err(|_| "it has no value attribute".to_string())
                .and_then(ir::elements_to_tensor_or_why)
                .map(|t| {
                    if let Ok(r) = o.result(0) {
                        constants.insert(key(&r), t);
                    }
                }),
            "mvu.conv" | "mvu.matmul" => {
                let node = Loc::from_location(here).name.unwrap_or_default();
                read_layer(&o, &node, &values, &constants).map(|l| {
                    if let Ok(r) = o.result(0) {
                        if let Some(d) = static_dims(r.r#type()) {
                            values.insert(key(&r), d);
                        }
                    }
                    places.insert(node, here);
                    lowered.push(l);
                })
            }
            _ if name.starts_with("onnx.") => Err(format!(
                "'{name}' op is left over: the mvu level holds only mvu ops (run convert-onnx-to-mvu)"
            )),
            _ => Err(format!("'{name}' op has no MVU meaning")),
        };
        if let Err(e) = result {
            errors.push((here, e));
        }
    }
    if lowered.is_empty() && errors.is_empty() {
        errors.push((floc, "the function has no mvu.conv or mvu.matmul op".into()));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let opts = options(func, &lowered).map_err(one)?;
    let at = |node: Option<&str>| node.and_then(|n| places.get(n).copied()).unwrap_or(floc);
    let mut compiled = assemble(lowered, &opts).map_err(|e| match e {
        onnc_mvu::Error::Problems(ps) => ps
            .iter()
            .map(|p| (at(p.node.as_deref()), p.to_string()))
            .collect(),
        other => one(other.to_string()),
    })?;
    if let Some(v) = vectors_attr(func).map_err(one)? {
        let (input, input_lines) =
            input_vectors(&arg.name, &arg.shape, DType::F32, v.aprec, v.seed)
                .map_err(|p| one(p.to_string()))?;
        compiled.add_test_vectors(TestVectors {
            input_name: arg.name.clone(),
            input,
            output_name: v.output,
            output: v.expected,
            input_lines,
        });
    }
    Ok(MvuModule {
        compiled,
        input: arg.name,
    })
}

/// One `mvu.conv` / `mvu.matmul` as the layer it was lowered from.
fn read_layer(
    o: &OperationRef,
    node: &str,
    values: &HashMap<usize, Vec<usize>>,
    constants: &HashMap<usize, Tensor>,
) -> Result<Lowered, String> {
    if node.is_empty() {
        return Err(
            "the op has no name location loc(\"<onnx node>\"), which names the layer and its files (print the mvu level with --mlir-print-debuginfo)".into(),
        );
    }
    let operands: Vec<_> = o.operands().collect();
    let input = operands
        .first()
        .and_then(|v| values.get(&key(v)))
        .ok_or("operand 0 is not the function's input or an mvu op's result")?;
    let weight = operands
        .get(1)
        .and_then(|v| constants.get(&key(v)))
        .ok_or("operand 1 (the weights) is not an arith.constant")?;
    let output = o
        .result(0)
        .ok()
        .and_then(|r| static_dims(r.r#type()))
        .ok_or("the result is not a statically shaped tensor")?;
    let attrs = OpAttrs::of(o);
    layer_of(&attrs, node, input, &output, weight)
}
