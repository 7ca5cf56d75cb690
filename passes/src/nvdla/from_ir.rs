//! `nvdla` dialect function → [`onnc_nvdla::Program`] (inverse of
//! [`super::to_ir::build_func`]).
//!
//! In: a `func.func` holding `arith.constant` weights, `nvdla.*` ops and
//! `func.return`, inside a module with `nvdla.config`. Out: the program, or
//! one error per offending op at its location (an `onnx.*` op left over, an
//! unknown op, an unreadable weight, a tensor of the wrong element type).
//!
//! ```text
//! %2 = "nvdla.sdp"(%1, %b) {hw_layer = "conv1", ..., operandSegmentSizes = array<i32: 1, 1, 0, 0>} loc(fused["conv1", "bn1"])
//!   → Op { engine: Sdp, hw_layer: "conv1", inputs: [Some(acc), Some(b), None, None], onnx_nodes: ["conv1", "bn1"], .. }
//! ```

use super::to_ir::accumulator_dtype;
use melior::ir::{
    attribute::DictionaryAttribute, block::BlockLike, operation::OperationLike, Attribute,
    BlockRef, Location, OperationRef, RegionLike, ValueLike,
};
use onnc_dialects::ir::{self, Loc};
use onnc_nvdla::cbuf::{CbufPlan, RowBand};
use onnc_nvdla::{
    ConfigName, Engine, Op, Placement, Pool, Precision, Program, Tensor, TensorId, TensorKind,
    Value as AttrValue,
};
use std::collections::{BTreeMap, HashMap};

/// One problem, at the op it concerns.
pub type FromIrError<'c> = (Location<'c>, String);

/// Attributes that are structure, not registers.
const STRUCTURAL: [&str; 2] = ["hw_layer", "operandSegmentSizes"];

fn key<'c>(v: &impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

/// The `nvdla.config` of the module enclosing `op` (or of `op` itself).
pub fn config_of(op: &OperationRef) -> Option<Result<ConfigName, String>> {
    let mut at = Some(*op);
    while let Some(o) = at {
        if let Some(name) = o.attribute("nvdla.config").ok().and_then(ir::str_attr) {
            return Some(name.parse::<ConfigName>());
        }
        at = o.parent_operation();
    }
    None
}

fn precision_of_element(element: &str) -> Option<Precision> {
    match element {
        "f16" => Some(Precision::Fp16),
        "i8" => Some(Precision::Int8),
        "i16" => Some(Precision::Int16),
        _ => None,
    }
}

/// Reads an `nvdla.mem` dictionary.
pub fn placement(attr: Attribute) -> Option<Placement> {
    let dict = DictionaryAttribute::try_from(attr).ok()?;
    let int = |k: &str| {
        dict.element_by_name(k)
            .and_then(ir::int_attr)
            .map(|(v, _)| v)
    };
    let pool = dict.element_by_name("pool").and_then(ir::str_attr)?;
    Some(Placement {
        pool: Pool::parse(&pool),
        offset: int("offset")? as u64,
        size: int("size")? as u64,
        line_stride: int("line_stride")? as u32,
        surf_stride: int("surf_stride")? as u32,
    })
}

/// Reads an `nvdla.cbuf` dictionary (see `onnc_nvdla::cbuf`): banks and
/// per-band arrays of equal length; the bands' first output rows are the
/// running sums of their rows. What the plan means for its conv is checked
/// by emission.
pub fn cbuf_plan(attr: Attribute) -> Result<CbufPlan, String> {
    let dict = DictionaryAttribute::try_from(attr)
        .map_err(|_| "expected a dictionary {data_bank, weight_bank, out_rows, ...}".to_string())?;
    let size = |k: &str, v: i64| usize::try_from(v).map_err(|_| format!("{k} = {v} is negative"));
    let int = |k: &str| {
        let v = dict
            .element_by_name(k)
            .and_then(ir::int_attr)
            .ok_or_else(|| format!("'{k}' is missing or not an integer"))?;
        size(k, v.0)
    };
    let list = |k: &str| -> Result<Vec<usize>, String> {
        dict.element_by_name(k)
            .and_then(ir::i64_array_attr)
            .ok_or_else(|| format!("'{k}' is missing or not an array<i64: ...>"))?
            .into_iter()
            .map(|v| size(k, v))
            .collect()
    };
    let keys = [
        "out_rows",
        "in_top",
        "in_rows",
        "pad_top",
        "pad_bottom",
        "reuse_weights",
        "keep_weights",
    ];
    let lists = keys
        .iter()
        .map(|k| list(k))
        .collect::<Result<Vec<_>, _>>()?;
    let n = lists[0].len();
    if let Some(k) = keys.iter().zip(&lists).find(|(_, l)| l.len() != n) {
        return Err(format!(
            "'{}' has {} elements but out_rows has {n}: one per band",
            k.0,
            k.1.len()
        ));
    }
    let flag = |k: &str, v: usize| match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(format!("{k} elements are 0 or 1, not {v}")),
    };
    let mut out_top = 0usize;
    let mut bands = Vec::with_capacity(n);
    // Column `k` of band `i` (the lists are the plan's fields, one per band).
    let at = |k: usize, i: usize| lists[k][i];
    for i in 0..n {
        bands.push(RowBand {
            out_top,
            out_rows: at(0, i),
            in_top: at(1, i),
            in_rows: at(2, i),
            pad_top: at(3, i),
            pad_bottom: at(4, i),
            reuse_weights: flag("reuse_weights", at(5, i))?,
            keep_weights: flag("keep_weights", at(6, i))?,
        });
        out_top = out_top.saturating_add(at(0, i));
    }
    Ok(CbufPlan {
        data_bank: int("data_bank")?,
        weight_bank: int("weight_bank")?,
        bands,
    })
}

fn attr_value(a: Attribute) -> Option<AttrValue> {
    if let Some(s) = ir::str_attr(a) {
        return Some(AttrValue::Str(s));
    }
    if let Some((v, _)) = ir::int_attr(a) {
        return Some(AttrValue::Int(v));
    }
    ir::float_attr(a).map(AttrValue::Float)
}

fn dims(ty: melior::ir::Type) -> Option<(Vec<usize>, String)> {
    let s = ir::tensor_shape(ty)?;
    Some((s.static_dims()?, s.element))
}

/// Converts one function.
pub fn program_from_func<'c>(func: &OperationRef<'c, '_>) -> Result<Program, Vec<FromIrError<'c>>> {
    let floc = func.location();
    let config = match config_of(func) {
        Some(Ok(c)) => c,
        Some(Err(e)) => return Err(vec![(floc, e)]),
        None => return Err(vec![(floc, "the module has no nvdla.config attribute (run convert-onnx-to-nvdla{config=...} first)".into())]),
    };
    let region = func.region(0).map_err(|e| vec![(floc, e.to_string())])?;
    let block: BlockRef = region
        .first_block()
        .ok_or_else(|| vec![(floc, "the function has no body".to_string())])?;
    let mut p = Program::new(config);
    let mut ids: HashMap<usize, TensorId> = HashMap::new();
    let mut errors = Vec::new();

    let arg_names = ir::func_arg_strings(func, false, "onnx.name");
    let arg_mem = arg_placements(func, "arg_attrs");
    for i in 0..block.argument_count() {
        let Ok(arg) = block.argument(i) else { continue };
        let name = arg_names
            .get(i)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("input_{i}"));
        let Some((shape, element)) = dims(arg.r#type()) else {
            errors.push((
                floc,
                format!("argument {i} ('{name}') is not a statically shaped tensor"),
            ));
            continue;
        };
        let Some(precision) = precision_of_element(&element) else {
            errors.push((floc, format!("argument {i} ('{name}') has element type {element}; NVDLA inputs are f16, i8 or i16")));
            continue;
        };
        let t = p.add_tensor(Tensor {
            name,
            shape,
            precision,
            kind: TensorKind::Input(i as u16),
            place: arg_mem.get(i).copied().flatten(),
        });
        ids.insert(key(&arg), t);
        p.inputs.push(t);
    }

    let mut op = block.first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        let here = o.location();
        let result = match name.as_str() {
            "func.return" => {
                let res_names = ir::func_arg_strings(func, true, "onnx.name");
                let res_mem = arg_placements(func, "res_attrs");
                for (i, v) in o.operands().enumerate() {
                    match ids.get(&key(&v)) {
                        Some(&t) => {
                            if let Some(n) = res_names.get(i).cloned().flatten() {
                                p.tensors[t].name = n;
                            }
                            if let Some(m) = res_mem.get(i).copied().flatten() {
                                p.tensors[t].place = Some(m);
                            }
                            p.tensors[t].kind = TensorKind::Output(i as u16);
                            p.outputs.push(t);
                        }
                        // After an earlier error this only repeats it.
                        None if errors.is_empty() => errors.push((here, format!("return operand {i} is not produced by an nvdla op"))),
                        None => {}
                    }
                }
                Ok(())
            }
            "arith.constant" => read_weight(&o).map(|t| {
                let id = p.add_tensor(t);
                if let Ok(r) = o.result(0) {
                    ids.insert(key(&r), id);
                }
            }),
            _ => match name.strip_prefix("nvdla.").and_then(Engine::from_op_name) {
                Some(engine) => read_op(&o, engine, &ids, &mut p).map(|(op, out)| {
                    if let Ok(r) = o.result(0) {
                        ids.insert(key(&r), out);
                    }
                    p.ops.push(op);
                }),
                None if name.starts_with("onnx.") => {
                    Err(format!("'{name}' op is left over: the NVDLA back end needs every op lowered (run convert-onnx-to-nvdla)"))
                }
                None => Err(format!("'{name}' op has no NVDLA meaning")),
            },
        };
        if let Err(e) = result {
            errors.push((here, e));
        }
    }
    if errors.is_empty() {
        Ok(p)
    } else {
        Err(errors)
    }
}

/// `nvdla.mem` of each argument (or result) dictionary.
fn arg_placements(func: &OperationRef, which: &str) -> Vec<Option<Placement>> {
    let Some(list) = func
        .attribute(which)
        .ok()
        .and_then(|a| melior::ir::attribute::ArrayAttribute::try_from(a).ok())
    else {
        return Vec::new();
    };
    (0..list.len())
        .map(|i| {
            let d = DictionaryAttribute::try_from(list.element(i).ok()?).ok()?;
            placement(d.element_by_name("nvdla.mem")?)
        })
        .collect()
}

fn read_weight(o: &OperationRef) -> Result<Tensor, String> {
    let value = o
        .attribute("value")
        .map_err(|_| "it has no value attribute".to_string())
        .and_then(ir::elements_to_tensor_or_why)?;
    let name = o
        .attribute("nvdla.result")
        .ok()
        .and_then(ir::str_attr)
        .or_else(|| Loc::from_location(o.location()).name)
        .unwrap_or_else(|| "weight".into());
    let precision = match o.attribute("nvdla.precision").ok().and_then(ir::str_attr) {
        Some(s) => Precision::parse(&s)
            .ok_or_else(|| format!("nvdla.precision \"{s}\" is not int8, int16 or fp16"))?,
        None => Precision::Fp16,
    };
    let shape = value.shape().to_vec();
    let data = onnc_nvdla::Weights::of_tensor(&value);
    let place = o.attribute("nvdla.mem").ok().and_then(placement);
    Ok(Tensor {
        name,
        shape,
        precision,
        kind: TensorKind::Weight(data),
        place,
    })
}

fn read_op(
    o: &OperationRef,
    engine: Engine,
    ids: &HashMap<usize, TensorId>,
    p: &mut Program,
) -> Result<(Op, TensorId), String> {
    let mut attrs = BTreeMap::new();
    let mut hw_layer = String::new();
    let mut segments = None;
    for (ident, v) in o.attributes() {
        let k = ident.as_string_ref().as_str().unwrap_or("").to_string();
        if k == "hw_layer" {
            hw_layer = ir::str_attr(v).unwrap_or_default();
        } else if k == "operandSegmentSizes" {
            segments = ir::i32_array_attr(v);
        } else if k.starts_with("nvdla.") || STRUCTURAL.contains(&k.as_str()) {
            continue;
        } else {
            let value = attr_value(v).ok_or_else(|| {
                format!("attribute '{k}' is neither an integer, a float nor a string")
            })?;
            attrs.insert(k, value);
        }
    }
    let mut operands = o.operands().map(|v| {
        ids.get(&key(&v)).copied().ok_or_else(|| {
            "an operand is not produced by an nvdla op, a weight or an argument".to_string()
        })
    });
    let mut inputs = Vec::new();
    match (engine, segments) {
        (Engine::Sdp, Some(seg)) => {
            for n in seg {
                inputs.push(if n > 0 {
                    Some(
                        operands
                            .next()
                            .ok_or("operandSegmentSizes promises more operands")??,
                    )
                } else {
                    None
                });
            }
        }
        _ => {
            for v in operands {
                inputs.push(Some(v?));
            }
        }
    }
    let r = o.result(0).map_err(|e| e.to_string())?;
    let (shape, element) =
        dims(r.r#type()).ok_or("the result is not a statically shaped tensor")?;
    let name = o
        .attribute("nvdla.result")
        .ok()
        .and_then(ir::str_attr)
        .unwrap_or_else(|| hw_layer.clone());
    let place = o.attribute("nvdla.mem").ok().and_then(placement);
    if engine == Engine::Conv {
        if let Ok(a) = o.attribute("nvdla.cbuf") {
            let plan = cbuf_plan(a).map_err(|e| format!("nvdla.cbuf: {e}"))?;
            if p.cbuf.insert(hw_layer.clone(), plan).is_some() {
                return Err(format!(
                    "nvdla.cbuf: another conv named '{hw_layer}' has a CBUF plan too; hardware-layer names of convs must differ"
                ));
            }
        }
    }
    let (kind, precision) = if engine == Engine::Conv {
        let prec = attrs
            .get("out_precision")
            .or(attrs.get("in_precision"))
            .and_then(AttrValue::as_str)
            .and_then(Precision::parse)
            .unwrap_or(Precision::Fp16);
        let want = accumulator_dtype(prec).mlir_name();
        if element != want {
            return Err(format!(
                "the accumulator of a {prec} convolution is {want}, not {element}"
            ));
        }
        (TensorKind::Fused, prec)
    } else {
        let prec = precision_of_element(&element)
            .ok_or_else(|| format!("result element type {element} is not f16, i8 or i16"))?;
        (TensorKind::Activation, prec)
    };
    let onnx_nodes = Loc::from_location(o.location())
        .name
        .map(|n| n.split('+').map(str::to_string).collect())
        .unwrap_or_default();
    let out = p.add_tensor(Tensor {
        name,
        shape,
        precision,
        kind,
        place,
    });
    Ok((
        Op {
            engine,
            hw_layer,
            attrs,
            inputs,
            output: out,
            onnx_nodes,
        },
        out,
    ))
}
