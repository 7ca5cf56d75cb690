//! `nnie` dialect function → [`NnieModule`] (inverse of
//! [`super::to_ir::build_func`]).
//!
//! In: a `func.func` holding `arith.constant` weights, `nnie.*` ops and
//! `func.return`, with the package attributes of [`super::package_attrs`].
//! Out: the module — layers, graph inputs and outputs, value types, and the
//! package made again from them ([`onnc_nnie::frontend::Compiled::from_level`]) —
//! or one error per offending op at its location: an op of another level,
//! a missing or ill-typed attribute, a clip off the `2^(k/16)` grid or not
//! matching its `z`, a weight whose blob is absent.
//!
//! Required attributes: each op's are those `dialects/nnie.irdl.mlir`
//! declares ([`required_attributes`], read from the IRDL file itself), all
//! checked before the op is read; the function's are
//! [`super::package_attrs::FUNCTION_ATTRS`].
//!
//! Names: a layer is its `layer_name`, its outputs its `tops`, a function
//! argument its `onnx.name`; an op's operands defined by `arith.constant`
//! are, in order, its weight and its bias, the others its data inputs.
//! Derived, not stored: conv and fc `num_output` (weight dim 0), deconv's
//! (weight dim 1 × group), a slice's axis length (the input's type). Not in
//! the text: the ONNX op type and legalization provenance (a read layer's
//! `op_type` is its Caffe type, its `sources` its name).
//!
//! ```text
//! %1 = "nnie.relu"(%0) {layer_name = "relu1", negative_slope = 0.0 : f32, tops = ["r1"]} : ...
//!   → Layer { name: "relu1", kind: Relu { negative_slope: 0.0 }, bottoms: [<%0's top>], top: "r1", .. }
//! ```

use super::package_attrs;
use crate::pipeline::NnieModule;
use melior::ir::{
    attribute::ArrayAttribute, block::BlockLike, operation::OperationLike, Attribute, BlockRef,
    Location, OperationRef, RegionLike, Type, ValueLike,
};
use onnc_dialects::ir;
use onnc_nnie::frontend::{Compiled, EltwiseOp, Layer, LayerKind};
use onnc_nnie::ClipValue;
use onnc_onnx::{Dim, Graph, TypeInfo, ValueInfo};
use onnc_tensor::{DType, Tensor};
use std::collections::HashMap;

/// One problem, at the op it concerns.
pub type FromIrError<'c> = (Location<'c>, String);

/// The attributes the reader requires on `nnie.<op>`: exactly those the
/// dialect declares (IRDL makes every declared attribute required);
/// `None` for an op the dialect does not have.
pub fn required_attributes(op: &str) -> Option<&'static [String]> {
    onnc_dialects::schema::lookup(&format!("nnie.{op}")).map(|s| s.attributes.as_slice())
}

/// Err naming every attribute of [`required_attributes`] that `o` lacks.
fn check_required<'c: 'a, 'a>(op: &str, o: &impl OperationLike<'c, 'a>) -> Result<(), String> {
    let required =
        required_attributes(op).ok_or(format!("'nnie.{op}' is not an op of the nnie dialect"))?;
    let missing: Vec<String> = required
        .iter()
        .filter(|k| o.attribute(k).is_err())
        .map(|k| format!("'{k}'"))
        .collect();
    match missing.len() {
        0 => Ok(()),
        1 => Err(format!("missing attribute {}", missing[0])),
        _ => Err(format!("missing attributes {}", missing.join(", "))),
    }
}

fn key<'c>(v: &impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

/// The static shape and element type of a tensor type.
fn type_info(ty: Type) -> Option<TypeInfo> {
    let s = ir::tensor_shape(ty)?;
    let dtype = DType::from_mlir_name(&s.element)?;
    Some(TypeInfo::fixed(dtype, &s.static_dims()?))
}

/// Reads the attributes of one op.
struct Attrs<'a, 'c, 'o> {
    op: &'a OperationRef<'c, 'o>,
}

impl Attrs<'_, '_, '_> {
    fn get(&self, k: &str) -> Result<Attribute<'_>, String> {
        self.op
            .attribute(k)
            .map_err(|_| format!("missing attribute '{k}'"))
    }
    fn int(&self, k: &str) -> Result<i64, String> {
        ir::int_attr(self.get(k)?)
            .map(|(v, _)| v)
            .ok_or(format!("attribute '{k}' is not an integer"))
    }
    fn size(&self, k: &str) -> Result<usize, String> {
        let v = self.int(k)?;
        usize::try_from(v).map_err(|_| format!("attribute '{k}' = {v} is negative"))
    }
    fn float(&self, k: &str) -> Result<f32, String> {
        ir::float_attr(self.get(k)?)
            .map(|v| v as f32)
            .ok_or(format!("attribute '{k}' is not a float"))
    }
    fn text(&self, k: &str) -> Result<String, String> {
        ir::str_attr(self.get(k)?).ok_or(format!("attribute '{k}' is not a string"))
    }
    fn ints(&self, k: &str) -> Result<Vec<i64>, String> {
        ir::i64_array_attr(self.get(k)?).ok_or(format!("attribute '{k}' is not an array<i64: ...>"))
    }
    fn hw(&self, k: &str) -> Result<[usize; 2], String> {
        match self.ints(k)?.as_slice() {
            &[a, b] if a >= 0 && b >= 0 => Ok([a as usize, b as usize]),
            v => Err(format!(
                "attribute '{k}' = {v:?} is not two non-negative integers"
            )),
        }
    }
    fn strings(&self, k: &str) -> Result<Vec<String>, String> {
        let arr = ArrayAttribute::try_from(self.get(k)?)
            .map_err(|_| format!("attribute '{k}' is not an array of strings"))?;
        (0..arr.len())
            .map(|i| {
                arr.element(i)
                    .ok()
                    .and_then(ir::str_attr)
                    .ok_or(format!("attribute '{k}'[{i}] is not a string"))
            })
            .collect()
    }
}

/// A clip from its `z` (index = z + 127), checked against the printed clip.
fn clip(what: &str, c: f32, z: i64) -> Result<ClipValue, String> {
    let v = ClipValue::from_index(z + 127)
        .map_err(|e| format!("{what}: z = {z} is not a clip on the grid: {e}"))?;
    if v.value_f32().to_bits() != c.to_bits() {
        return Err(format!(
            "{what} = {c} does not match its z = {z} (2^((z + 127)/16) = {})",
            v.value_f32()
        ));
    }
    Ok(v)
}

/// The layer kind of op `name` from its attributes; `input` is the first
/// data input's type, `weight` the weight (for the derived sizes).
fn kind(
    name: &str,
    a: &Attrs,
    input: Option<&TypeInfo>,
    weight: Option<&Tensor>,
    tops: &[String],
) -> Result<LayerKind, String> {
    let weight_dim = |i: usize| {
        weight
            .and_then(|w| w.shape().get(i).copied())
            .ok_or(format!("{name} needs a constant weight operand"))
    };
    Ok(match name {
        "conv" => LayerKind::Conv {
            num_output: weight_dim(0)?,
            kernel: a.hw("kernel")?,
            stride: a.hw("stride")?,
            pad: a.hw("pad")?,
            dilation: a.hw("dilation")?,
            group: a.size("group")?,
        },
        "deconv" => {
            let group = a.size("group")?;
            LayerKind::Deconv {
                num_output: weight_dim(1)? * group,
                kernel: a.hw("kernel")?,
                stride: a.hw("stride")?,
                pad: a.hw("pad")?,
                group,
            }
        }
        "fc" => LayerKind::Fc {
            num_output: weight_dim(0)?,
        },
        "pool" => LayerKind::Pool {
            max: match a.text("pool")?.as_str() {
                "max" => true,
                "ave" => false,
                p => {
                    return Err(format!(
                        "attribute 'pool' = \"{p}\" is not \"max\" or \"ave\""
                    ))
                }
            },
            kernel: a.hw("kernel")?,
            stride: a.hw("stride")?,
            pad: a.hw("pad")?,
            global: a.int("global_pooling")? != 0,
        },
        "eltwise" => LayerKind::Eltwise {
            op: match a.text("operation")?.as_str() {
                "sum" => EltwiseOp::Sum,
                "prod" => EltwiseOp::Prod,
                "max" => EltwiseOp::Max,
                o => {
                    return Err(format!(
                        "attribute 'operation' = \"{o}\" is not sum, prod or max"
                    ))
                }
            },
        },
        "concat" => LayerKind::Concat {
            axis: a.size("axis")?,
        },
        "upsample" => LayerKind::Upsample {
            scale: u32::try_from(a.int("scale")?)
                .map_err(|_| "attribute 'scale' is out of range")?,
        },
        "relu" => LayerKind::Relu {
            negative_slope: a.float("negative_slope")?,
        },
        "softmax" => LayerKind::Softmax {
            axis: a.size("axis")?,
        },
        "reshape" => LayerKind::Reshape {
            shape: a
                .ints("shape")?
                .try_into()
                .map_err(|_| "attribute 'shape' does not have 4 entries".to_string())?,
        },
        "permute" => LayerKind::Permute,
        "slice" => {
            let axis = a.size("axis")?;
            let len = input
                .and_then(|t| t.dims.get(axis))
                .and_then(|d| match d {
                    Dim::Fixed(n) => Some(*n),
                    _ => None,
                })
                .ok_or(format!("the input has no static dimension {axis}"))?;
            LayerKind::Slice {
                axis,
                start: a.size("start")?,
                end: a.size("end")?,
                len,
            }
        }
        "split" => LayerKind::Split {
            axis: a.size("axis")?,
            points: a
                .ints("slice_point")?
                .iter()
                .map(|&p| usize::try_from(p).map_err(|_| format!("slice_point {p} is negative")))
                .collect::<Result<_, _>>()?,
            tops: tops.to_vec(),
        },
        "channel_scale" => LayerKind::ChannelScale,
        "affine" => LayerKind::Affine,
        "sigmoid" => LayerKind::Sigmoid,
        "tanh" => LayerKind::Tanh,
        "power" => LayerKind::Power {
            scale: a.float("scale")?,
            shift: a.float("shift")?,
            power: a.float("power")?,
        },
        other => return Err(format!("'nnie.{other}' is not an op of the nnie dialect")),
    })
}

/// Where a value comes from, by key: its blob name, or a constant.
enum Source {
    Blob(String),
    Constant(Tensor),
}

/// Reads one `nnie.*` op into a layer; records its results.
fn layer(
    name: &str,
    o: &OperationRef,
    sources: &mut HashMap<usize, Source>,
    types: &mut HashMap<String, TypeInfo>,
) -> Result<Layer, String> {
    check_required(name, o)?;
    let a = Attrs { op: o };
    let layer_name = a.text("layer_name")?;
    let tops = a.strings("tops")?;
    if tops.len() != o.result_count() || tops.is_empty() {
        return Err(format!(
            "attribute 'tops' names {} value(s), the op has {} result(s)",
            tops.len(),
            o.result_count()
        ));
    }
    let mut bottoms = Vec::new();
    let mut constants = Vec::new();
    let mut input_type = None;
    for (i, v) in o.operands().enumerate() {
        match sources.get(&key(&v)) {
            Some(Source::Blob(b)) => {
                if input_type.is_none() {
                    input_type = types.get(b).cloned();
                }
                bottoms.push(b.clone());
            }
            Some(Source::Constant(t)) => constants.push(t.clone()),
            None => {
                return Err(format!(
                    "operand {i} is neither a blob nor an arith.constant"
                ))
            }
        }
    }
    if constants.len() > 2 {
        return Err(format!(
            "{} constant operands; a layer has at most a weight and a bias",
            constants.len()
        ));
    }
    let mut constants = constants.into_iter();
    let weight = constants.next();
    let bias = constants.next();
    let kind = kind(name, &a, input_type.as_ref(), weight.as_ref(), &tops)?;
    let mut l = Layer::new(&layer_name, "", kind, bottoms, &tops[0]);
    l.op_type = l.caffe_type().to_string();
    l.weight = weight;
    l.bias = bias;
    if l.is_quantized() {
        let cs = ir::f32_array_attr(a.get("input_clip")?)
            .ok_or("attribute 'input_clip' is not an array<f32: ...>")?;
        let zs = a.ints("input_z")?;
        if cs.len() != zs.len() {
            return Err(format!(
                "input_clip has {} entries, input_z {}",
                cs.len(),
                zs.len()
            ));
        }
        l.input_clips = cs
            .iter()
            .zip(&zs)
            .enumerate()
            .map(|(i, (&c, &z))| clip(&format!("input_clip[{i}]"), c, z))
            .collect::<Result<_, _>>()?;
    }
    if l.has_weights() && o.attribute("weight_clip").is_ok() {
        l.weight_clip = Some(clip(
            "weight_clip",
            a.float("weight_clip")?,
            a.int("weight_z")?,
        )?);
    }
    for (k, t) in tops.iter().enumerate() {
        let r = o.result(k).map_err(|e| e.to_string())?;
        let ty =
            type_info(r.r#type()).ok_or(format!("result {k} is not a statically shaped tensor"))?;
        types.insert(t.clone(), ty);
        sources.insert(key(&r), Source::Blob(t.clone()));
    }
    Ok(l)
}

/// Reads `func` (see the module doc).
pub fn module_from_func<'c>(
    func: &OperationRef<'c, '_>,
) -> Result<NnieModule, Vec<FromIrError<'c>>> {
    let floc = func.location();
    let (inputs, report, warnings) = package_attrs::read(func).map_err(|e| vec![(floc, e)])?;
    let region = func.region(0).map_err(|e| vec![(floc, e.to_string())])?;
    let block: BlockRef = region
        .first_block()
        .ok_or_else(|| vec![(floc, "the function has no body".to_string())])?;
    let mut graph = Graph {
        name: func
            .attribute("sym_name")
            .ok()
            .and_then(ir::str_attr)
            .unwrap_or_default(),
        ..Graph::default()
    };
    let mut sources: HashMap<usize, Source> = HashMap::new();
    let mut types: HashMap<String, TypeInfo> = HashMap::new();
    let mut errors = Vec::new();
    let arg_names = ir::func_arg_strings(func, false, "onnx.name");
    for i in 0..block.argument_count() {
        let Ok(arg) = block.argument(i) else { continue };
        let Some(name) = arg_names.get(i).cloned().flatten() else {
            errors.push((
                floc,
                format!("argument {i} has no onnx.name (the graph input's name)"),
            ));
            continue;
        };
        let Some(t) = type_info(arg.r#type()) else {
            errors.push((
                floc,
                format!("argument {i} ('{name}') is not a statically shaped tensor"),
            ));
            continue;
        };
        graph.inputs.push(ValueInfo {
            name: name.clone(),
            dtype: t.dtype,
            dims: t.dims.clone(),
        });
        types.insert(name.clone(), t);
        sources.insert(key(&arg), Source::Blob(name));
    }
    let mut layers = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        let here = o.location();
        let result = match name.as_str() {
            "arith.constant" => o
                .attribute("value")
                .map_err(|_| "arith.constant has no value".to_string())
                .and_then(|v| ir::elements_to_tensor_or_why(v).map_err(|e| format!("weight: {e}")))
                .and_then(|t| {
                    let r = o.result(0).map_err(|e| e.to_string())?;
                    sources.insert(key(&r), Source::Constant(t));
                    Ok(())
                }),
            "func.return" => {
                for (i, v) in o.operands().enumerate() {
                    match sources.get(&key(&v)) {
                        Some(Source::Blob(b)) => {
                            let t = types.get(b).cloned().unwrap_or(TypeInfo::fixed(DType::F32, &[]));
                            graph.outputs.push(ValueInfo {
                                name: b.clone(),
                                dtype: t.dtype,
                                dims: t.dims,
                            });
                        }
                        _ => errors.push((here, format!("result {i} is no layer's output"))),
                    }
                }
                Ok(())
            }
            n if n.starts_with("nnie.") => {
                layer(&n["nnie.".len()..], &o, &mut sources, &mut types).map(|l| layers.push(l))
            }
            other => Err(format!(
                "'{other}' is not an op of the nnie level (the function must hold nnie.* ops, arith.constant weights and func.return: run convert-onnx-to-nnie first)"
            )),
        };
        if let Err(e) = result {
            errors.push((here, e));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let compiled = Compiled::from_level(graph, layers, inputs, report, warnings)
        .map_err(|e| vec![(floc, format!("the package does not build: {e}"))])?;
    Ok(NnieModule {
        compiled,
        types: Box::new(types),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{attribute::StringAttribute, operation::OperationBuilder, Identifier};

    /// The reader's own check, on an op built without verification (IRDL
    /// refuses such text at parse time already).
    #[test]
    fn every_missing_declared_attribute_is_named() {
        let context = onnc_dialects::ir::new_context().unwrap();
        let op = OperationBuilder::new("nnie.relu", Location::unknown(&context))
            .add_attributes(&[(
                Identifier::new(&context, "layer_name"),
                StringAttribute::new(&context, "r").into(),
            )])
            .build()
            .unwrap();
        assert_eq!(
            check_required("relu", &op).unwrap_err(),
            "missing attributes 'negative_slope', 'tops'"
        );
        assert!(check_required("sigmoid", &op)
            .unwrap_err()
            .contains("missing attribute 'tops'"));
        assert!(check_required("nope", &op)
            .unwrap_err()
            .contains("'nnie.nope' is not an op of the nnie dialect"));
    }
}
