//! ONNX graph → `onnx` dialect.
//!
//! In: an [`onnc_onnx::Model`] (loaded, validated, opset-normalized, every
//! default attribute materialized — see `passes/onnx`). Out: a
//! module with one `func.func @main_graph` whose arguments are the graph
//! inputs and whose results are the graph outputs:
//!
//! ```mlir
//! func.func @main_graph(%arg0: tensor<1x3x224x224xf32>) -> tensor<1x1000xf32> {
//!   %0 = "onnx.constant"() {onnx.name = "conv1_w", value = dense_resource<conv1_w> : tensor<64x3x7x7xf32>} : () -> tensor<64x3x7x7xf32> loc("conv1_w")
//!   %1 = "onnx.conv"(%arg0, %0) {auto_pad = "NOTSET", ..., onnx.name = "conv1", ...} : (...) -> tensor<1x64x112x112xf32> loc("conv1")
//!   ...
//! }
//! ```
//!
//! - Each node becomes `onnx.<op_type in snake_case>` with every attribute,
//!   at `loc("<node name>")`, and carries its name as the attribute
//!   `onnx.name` ([`NAME_ATTR`]) too: locations are printed only with
//!   `--mlir-print-debuginfo`, the attribute always, so the ONNX name
//!   survives a text round trip through any tool and `--export-onnx` writes
//!   it back. Optional inputs that are absent are left out and
//!   `operandSegmentSizes`/`resultSegmentSizes` say which (when the op's IRDL
//!   declaration needs them).
//! - Initializers become `onnx.constant` ops whose values are `dense_resource`
//!   blobs that take over the model's buffers (no copy); small ones are
//!   inline `dense<…>`. Unused initializers are not emitted.
//! - Unknown operators (not declared in `onnx.irdl.mlir`, or of another
//!   domain) become `onnx.custom` with `op_type`, `domain` and the node's
//!   attributes, so that later passes report all of them at once.
//! - Result types come from `onnc_onnx::infer_graph_with`. The output of an
//!   unknown op takes the graph's declared output type when it is one, else
//!   the element type and rank of the op's first input with every dimension
//!   unknown (`?`); that assumption flows downstream, where every known op's
//!   type comes from its own rules. A known op whose output type still
//!   cannot be inferred (a `Reshape` to a computed shape of unknown length)
//!   is an import error naming the node: the importer never invents a rank.

/// The discardable attribute holding an op's ONNX node name (an
/// initializer's tensor name on `onnx.constant`), as `onnx.name` holds
/// graph input and output names on function arguments and results.
pub const NAME_ATTR: &str = "onnx.name";

use crate::blobs::Blobs;
use crate::Error;
use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::FunctionType,
        Attribute, Block, Identifier, Location, Module, Region, RegionLike, Type, Value,
    },
    Context,
};
use onnc_dialects::{
    ir,
    schema::{self, Variadicity},
};
use onnc_onnx::{Dim, Model, Node, TypeInfo};
use onnc_tensor::{Attr, DType};
use std::collections::{HashMap, HashSet};
use std::sync::{OnceLock, RwLock};

/// The ONNX domains whose ops map onto the `onnx` dialect.
const DEFAULT_DOMAINS: [&str; 2] = ["", "ai.onnx"];

/// `Conv` → `conv`, `MatMul` → `mat_mul`, `PRelu` → `prelu`, `LRN` → `lrn`:
/// `_` before a capital that follows a lowercase letter or digit, then lowercase.
pub fn snake_case(op_type: &str) -> String {
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for c in op_type.chars() {
        if c.is_ascii_uppercase()
            && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
        {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        prev = Some(c);
    }
    out
}

/// The dialect op for a node: `onnx.<snake>` when declared, else `onnx.custom`.
pub fn dialect_op(node: &Node) -> Option<&'static schema::OpSchema> {
    if !DEFAULT_DOMAINS.contains(&node.domain.as_str()) {
        return None;
    }
    // Asked several times for every node of every graph (the importer, the
    // naming rule after each pass): the answer per operator type is kept.
    static BY_OP_TYPE: OnceLock<RwLock<HashMap<String, Option<&'static schema::OpSchema>>>> =
        OnceLock::new();
    let cache = BY_OP_TYPE.get_or_init(Default::default);
    if let Some(found) = cache
        .read()
        .ok()
        .and_then(|m| m.get(&node.op_type).copied())
    {
        return found;
    }
    let found = schema::lookup(&format!("onnx.{}", snake_case(&node.op_type)))
        .filter(|s| s.name != "onnx.custom");
    if let Ok(mut m) = cache.write() {
        m.insert(node.op_type.clone(), found);
    }
    found
}

/// The largest dimension a builtin tensor type holds (MLIR dims are i64).
pub const MAX_DIM: usize = i64::MAX as usize;

/// `tensor<1x?x3xf32>` for `t`. Out: an error for a dimension beyond
/// [`MAX_DIM`] (huge pads or shapes), which MLIR cannot represent.
fn ranked_type<'c>(context: &'c Context, t: &TypeInfo) -> Result<Type<'c>, String> {
    let mut text = String::from("tensor<");
    for d in &t.dims {
        match d {
            Dim::Fixed(n) if *n > MAX_DIM => {
                return Err(format!(
                    "a dimension of {n} is beyond the largest a tensor can have (2^63-1); the shape, pads or strides that produce it are wrong"
                ))
            }
            Dim::Fixed(n) => text.push_str(&format!("{n}x")),
            _ => text.push_str("?x"),
        }
    }
    text.push_str(t.dtype.mlir_name());
    text.push('>');
    Type::parse(context, &text)
        .ok_or_else(|| format!("internal error: '{text}' is not a valid tensor type"))
}

/// The types assumed for the outputs of `node`, an operator inference does
/// not know: a graph output's declared type, else [`unknown_like`] its first
/// input.
fn assume_unknown_op(
    node: &Node,
    types: &HashMap<String, TypeInfo>,
    declared: &HashMap<String, TypeInfo>,
) -> Vec<TypeInfo> {
    let first = node
        .inputs
        .iter()
        .flatten()
        .next()
        .and_then(|n| types.get(n));
    node.outputs
        .iter()
        .map(|o| {
            declared
                .get(o)
                .cloned()
                .unwrap_or_else(|| unknown_like(first))
        })
        .collect()
}

fn unknown_like(t: Option<&TypeInfo>) -> TypeInfo {
    match t {
        Some(t) => TypeInfo {
            dtype: t.dtype,
            dims: vec![Dim::Unknown; t.dims.len()],
        },
        None => TypeInfo {
            dtype: DType::F32,
            dims: vec![Dim::Unknown],
        },
    }
}

/// A resource-blob name made of the tensor name's safe characters.
fn blob_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("t_{s}")
    } else {
        s
    }
}

/// Imports `model` into a new module of `context`. `file` names the model
/// in messages. The model's weights move into the module without copying.
pub fn import_model<'c>(
    context: &'c Context,
    model: Model,
    file: &str,
) -> Result<Module<'c>, Error> {
    let module = Module::new(Location::unknown(context));
    let func = build_main_func(context, model.graph, file, "main_graph")?;
    module.body().append_operation(func);
    Ok(module)
}

/// `s` as the body of an MLIR string literal: `\\`, `\"` and every control
/// character as `\XX` bytes (MLIR's hex escape), so that any
/// ONNX name (newlines included) round-trips.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// `[{onnx.name = "a"}, {onnx.name = "b"}]`: the ONNX tensor names of the
/// function's arguments or results, so that export restores them.
fn name_attrs<'c>(context: &'c Context, names: &[String]) -> Attribute<'c> {
    let items: Vec<String> = names
        .iter()
        .map(|n| format!("{{onnx.name = \"{}\"}}", escape(n)))
        .collect();
    let text = format!("[{}]", items.join(", "));
    Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
}

/// Builds `func.func @<name>` for `graph` (not yet inserted anywhere).
pub fn build_main_func<'c>(
    context: &'c Context,
    graph: onnc_onnx::Graph,
    file: &str,
    func_name: &str,
) -> Result<melior::ir::Operation<'c>, Error> {
    rebuild_main_func(context, graph, file, func_name, &Blobs::new())
}

/// [`build_main_func`] for a function rebuilt in the context it was read
/// from: a weight equal to the one of `blobs` with its blob name reuses that
/// attribute, so a round trip text → pass → text keeps the blob names.
pub fn rebuild_main_func<'c>(
    context: &'c Context,
    mut graph: onnc_onnx::Graph,
    file: &str,
    func_name: &str,
    blobs: &Blobs<'c>,
) -> Result<melior::ir::Operation<'c>, Error> {
    let declared: HashMap<String, TypeInfo> = graph
        .outputs
        .iter()
        .map(|o| (o.name.clone(), o.type_info()))
        .collect();
    let infer = |g: &onnc_onnx::Graph| {
        onnc_onnx::infer_graph_with(g, |node, types| {
            Some(assume_unknown_op(node, types, &declared))
        })
        .map_err(|e| Error(vec![format!("{file}: error: {e}")]))
    };
    let mut types = infer(&graph)?;
    if graph.nodes.iter().any(|n| {
        n.inputs.len() > super::wide::VARIADIC_SLOTS
            || n.outputs.len() > super::wide::VARIADIC_SLOTS
    }) {
        super::wide::expand(&mut graph, &types)
            .map_err(|e| Error(vec![format!("{file}: error: {e}")]))?;
        types = infer(&graph)?;
    }
    // Where inference knows nothing (after an unknown op), trust the graph's declared outputs.
    for o in &graph.outputs {
        types.entry(o.name.clone()).or_insert_with(|| o.type_info());
    }
    let unknown = Location::unknown(context);

    let input_types: Vec<Type> = graph
        .inputs
        .iter()
        .map(|v| {
            ranked_type(context, &v.type_info())
                .map_err(|e| Error(vec![format!("{file}: input '{}': error: {e}", v.name)]))
        })
        .collect::<Result<_, _>>()?;
    let output_infos: Vec<TypeInfo> = graph
        .outputs
        .iter()
        .map(|v| types.get(&v.name).cloned().unwrap_or_else(|| v.type_info()))
        .collect();
    let output_types: Vec<Type> = output_infos
        .iter()
        .zip(&graph.outputs)
        .map(|(t, v)| {
            ranked_type(context, t)
                .map_err(|e| Error(vec![format!("{file}: output '{}': error: {e}", v.name)]))
        })
        .collect::<Result<_, _>>()?;

    let block = Block::new(
        &input_types
            .iter()
            .map(|t| (*t, unknown))
            .collect::<Vec<_>>(),
    );
    let mut values: HashMap<String, Value> = HashMap::new();
    for (i, v) in graph.inputs.iter().enumerate() {
        values.insert(
            v.name.clone(),
            block
                .argument(i)
                .map_err(|e| Error(vec![format!("{file}: internal error: {e}")]))?
                .into(),
        );
    }

    // Weights: only those something reads.
    let mut used: HashSet<&str> = graph
        .nodes
        .iter()
        .flat_map(|n| n.inputs.iter().flatten().map(String::as_str))
        .collect();
    used.extend(graph.outputs.iter().map(|o| o.name.as_str()));
    let used: HashSet<String> = used.into_iter().map(str::to_string).collect();
    let mut errors = Vec::new();
    for (name, tensor) in graph.initializers {
        if !used.contains(&name) || values.contains_key(&name) {
            continue;
        }
        let ty = ir::tensor_type(context, tensor.shape(), tensor.dtype());
        let value = blobs.weight_attr(context, tensor, &blob_name(&name));
        let loc = Location::name(context, &name, unknown);
        let op = OperationBuilder::new("onnx.constant", loc)
            .add_attributes(&[
                (Identifier::new(context, "value"), value),
                (
                    Identifier::new(context, NAME_ATTR),
                    StringAttribute::new(context, &name).into(),
                ),
            ])
            .add_results(&[ty])
            .build()
            .map_err(|e| {
                Error(vec![format!(
                    "{file}: internal error building constant '{name}': {e}"
                )])
            })?;
        let op = block.append_operation(op);
        values.insert(
            name,
            op.result(0).map_err(|e| Error(vec![e.to_string()]))?.into(),
        );
    }

    for node in &graph.nodes {
        match build_node(context, &block, node, &types, &values, blobs) {
            Ok(results) => {
                for (name, v) in node.outputs.iter().zip(results) {
                    if let (false, Some(v)) = (name.is_empty(), v) {
                        values.insert(name.clone(), v);
                    }
                }
            }
            // A node after a failed one only repeats its producer's error.
            Err(_)
                if !errors.is_empty()
                    && node
                        .inputs
                        .iter()
                        .flatten()
                        .any(|i| !values.contains_key(i)) => {}
            Err(e) => errors.push(format!(
                "{file}: node '{}' ({}): error: {e}",
                node.name, node.op_type
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Error(errors));
    }

    let mut returned = Vec::new();
    for o in &graph.outputs {
        match values.get(&o.name) {
            Some(v) => returned.push(*v),
            None => errors.push(format!(
                "{file}: error: graph output '{}' is produced by no node",
                o.name
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Error(errors));
    }
    block.append_operation(
        OperationBuilder::new("func.return", unknown)
            .add_operands(&returned)
            .build()
            .map_err(|e| Error(vec![format!("{file}: internal error: {e}")]))?,
    );
    let region = Region::new();
    region.append_block(block);
    let arg_names: Vec<String> = graph.inputs.iter().map(|v| v.name.clone()).collect();
    let res_names: Vec<String> = graph.outputs.iter().map(|v| v.name.clone()).collect();
    let func = OperationBuilder::new("func.func", Location::name(context, &graph.name, unknown))
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, func_name).into(),
            ),
            (
                Identifier::new(context, "arg_attrs"),
                name_attrs(context, &arg_names),
            ),
            (
                Identifier::new(context, "res_attrs"),
                name_attrs(context, &res_names),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, &input_types, &output_types).into())
                    .into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| Error(vec![format!("{file}: internal error: {e}")]))?;
    Ok(func)
}

/// Builds one node; returns the value of each ONNX output (None for an
/// unproduced optional output).
fn build_node<'c, 'b>(
    context: &'c Context,
    block: &'b Block<'c>,
    node: &Node,
    types: &HashMap<String, TypeInfo>,
    values: &HashMap<String, Value<'c, 'b>>,
    blobs: &Blobs<'c>,
) -> Result<Vec<Option<Value<'c, 'b>>>, String> {
    let lookup = |name: &str| {
        values
            .get(name)
            .copied()
            .ok_or_else(|| format!("input '{name}' is not produced before this node"))
    };
    let type_of = |name: &str| -> Result<TypeInfo, String> {
        if let Some(t) = types.get(name) {
            return Ok(t.clone());
        }
        let untyped: Vec<&str> = node
            .inputs
            .iter()
            .flatten()
            .filter(|i| !types.contains_key(*i))
            .map(String::as_str)
            .collect();
        Err(if untyped.is_empty() {
            format!("the rank of output '{name}' cannot be inferred: it depends on values computed at run time (a shape of unknown length), and onnc needs every rank")
        } else {
            format!(
                "the rank of output '{name}' cannot be inferred: the type of input '{}' is unknown",
                untyped.join("', '")
            )
        })
    };
    let loc = node_location(context, &node.name);

    let mut attrs: Vec<(Identifier, Attribute)> = Vec::new();
    let (op_name, operands, operand_segments, result_names, result_segments) = match dialect_op(
        node,
    ) {
        Some(schema) => {
            let (operands, seg) = place_operands(node, schema, &lookup)?;
            let (results, rseg) = place_results(node, schema)?;
            (
                schema.name.clone(),
                operands,
                seg.filter(|_| schema.needs_operand_segments()),
                results,
                rseg.filter(|_| schema.needs_result_segments()),
            )
        }
        None => {
            const SLOTS: usize = 16;
            let present: Vec<&String> = node.inputs.iter().flatten().collect();
            if node.inputs.iter().any(|i| i.is_none())
                && node
                    .inputs
                    .iter()
                    .rev()
                    .skip_while(|i| i.is_none())
                    .any(|i| i.is_none())
            {
                return Err("an unknown operator with an empty input in the middle cannot be represented (onnx.custom fills inputs from the front)".into());
            }
            if present.len() > SLOTS || node.outputs.len() > SLOTS {
                return Err(format!("an unknown operator with more than {SLOTS} inputs or outputs cannot be imported"));
            }
            let operands = present
                .iter()
                .map(|n| lookup(n))
                .collect::<Result<Vec<_>, _>>()?;
            let seg: Vec<i32> = (0..SLOTS).map(|i| i32::from(i < operands.len())).collect();
            let rseg: Vec<i32> = (0..SLOTS)
                .map(|i| i32::from(i < node.outputs.len()))
                .collect();
            attrs.push((
                Identifier::new(context, "op_type"),
                StringAttribute::new(context, &node.op_type).into(),
            ));
            attrs.push((
                Identifier::new(context, "domain"),
                StringAttribute::new(context, &node.domain).into(),
            ));
            (
                "onnx.custom".to_string(),
                operands,
                Some(seg),
                node.outputs.iter().map(|o| Some(o.clone())).collect(),
                Some(rseg),
            )
        }
    };
    let reserved = [
        "op_type",
        "domain",
        "operandSegmentSizes",
        "resultSegmentSizes",
    ];
    for (name, value) in &node.attrs {
        let key = if op_name == "onnx.custom" && reserved.contains(&name.as_str()) {
            format!("attr_{name}")
        } else {
            name.clone()
        };
        let blob = blob_name(&format!("{}_{name}", node.name));
        let a = match value {
            Attr::Tensor(t) => blobs.weight_attr(context, t.clone(), &blob),
            _ => ir::attr_to_mlir(context, value, &blob),
        };
        attrs.push((Identifier::new(context, &key), a));
    }
    if !node.attrs.contains_key(NAME_ATTR) {
        attrs.push((
            Identifier::new(context, NAME_ATTR),
            StringAttribute::new(context, &node.name).into(),
        ));
    }
    if let Some(seg) = operand_segments {
        attrs.push((
            Identifier::new(context, "operandSegmentSizes"),
            segments(context, &seg),
        ));
    }
    if let Some(seg) = result_segments {
        attrs.push((
            Identifier::new(context, "resultSegmentSizes"),
            segments(context, &seg),
        ));
    }
    let result_types: Vec<Type> = result_names
        .iter()
        .flatten()
        .map(|n| ranked_type(context, &type_of(n)?).map_err(|e| format!("result '{n}': {e}")))
        .collect::<Result<_, _>>()?;
    let op = OperationBuilder::new(&op_name, loc)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_attributes(&attrs)
        .build()
        .map_err(|e| format!("cannot build {op_name}: {e}"))?;
    let op = block.append_operation(op);
    let mut produced = op.results().map(Value::from);
    let mut out = Vec::new();
    for o in &node.outputs {
        let placed = result_names.iter().flatten().any(|n| n == o) && !o.is_empty();
        out.push(if placed { produced.next() } else { None });
    }
    Ok(out)
}

/// `loc("conv1")` for a node; a node merged from several (named
/// `conv1+bn1` by graph rewrites) gets `loc(fused["conv1", "bn1"])`.
pub fn node_location<'c>(context: &'c Context, name: &str) -> Location<'c> {
    let unknown = Location::unknown(context);
    let parts: Vec<&str> = name.split('+').filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 {
        return Location::name(context, name, unknown);
    }
    let locs: Vec<Location> = parts
        .iter()
        .map(|p| Location::name(context, p, unknown))
        .collect();
    ir::fused_location(context, &locs)
}

fn segments<'c>(context: &'c Context, seg: &[i32]) -> Attribute<'c> {
    let text = format!(
        "array<i32: {}>",
        seg.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Attribute::parse(context, &text).unwrap_or_else(|| unreachable!("'{text}' parses"))
}

/// Matches node inputs to declared operands; returns the values in order and the segment sizes.
fn place_operands<'c, 'b>(
    node: &Node,
    schema: &schema::OpSchema,
    lookup: &dyn Fn(&str) -> Result<Value<'c, 'b>, String>,
) -> Result<(Vec<Value<'c, 'b>>, Option<Vec<i32>>), String> {
    let mut operands = Vec::new();
    let mut seg = Vec::new();
    let mut next = 0usize;
    for slot in &schema.operands {
        match slot.variadicity {
            Variadicity::Single => {
                let Some(Some(name)) = node.inputs.get(next) else {
                    return Err(format!(
                        "required input '{}' (#{next}) is missing",
                        slot.name
                    ));
                };
                operands.push(lookup(name)?);
                seg.push(1);
                next += 1;
            }
            Variadicity::Optional => {
                match node.inputs.get(next) {
                    Some(Some(name)) => {
                        operands.push(lookup(name)?);
                        seg.push(1);
                    }
                    _ => seg.push(0),
                }
                next += 1;
            }
            Variadicity::Variadic => {
                let rest: Vec<&String> = node.inputs[next.min(node.inputs.len())..]
                    .iter()
                    .flatten()
                    .collect();
                for name in &rest {
                    operands.push(lookup(name)?);
                }
                seg.push(rest.len() as i32);
                next = node.inputs.len();
            }
        }
    }
    if node.inputs.len() > next && node.inputs[next..].iter().any(Option::is_some) {
        return Err(format!(
            "{} inputs given but {} declares {} operand(s) (onnx.irdl.mlir)",
            node.inputs.iter().flatten().count(),
            schema.name,
            schema.operands.len()
        ));
    }
    Ok((operands, Some(seg)))
}

/// Where a node's outputs go: the output names that become results (None
/// where an optional result is absent) and the result segment sizes.
type Placed = (Vec<Option<String>>, Option<Vec<i32>>);

/// Matches node outputs to declared results (see [`Placed`]).
fn place_results(node: &Node, schema: &schema::OpSchema) -> Result<Placed, String> {
    let mut names = Vec::new();
    let mut seg = Vec::new();
    let mut next = 0usize;
    for slot in &schema.results {
        let out = node.outputs.get(next).filter(|o| !o.is_empty()).cloned();
        match slot.variadicity {
            Variadicity::Single => {
                // A required result is always created, even if ONNX leaves it unnamed.
                names.push(Some(
                    out.unwrap_or_else(|| format!("{}::unused{next}", node.name)),
                ));
                seg.push(1);
                next += 1;
            }
            Variadicity::Optional => {
                seg.push(i32::from(out.is_some()));
                names.push(out);
                next += 1;
            }
            Variadicity::Variadic => {
                let rest: Vec<String> = node.outputs[next.min(node.outputs.len())..].to_vec();
                seg.push(rest.len() as i32);
                names.extend(rest.into_iter().map(Some));
                next = node.outputs.len();
            }
        }
    }
    if node.outputs.len() > next && node.outputs[next..].iter().any(|o| !o.is_empty()) {
        return Err(format!(
            "{} outputs given but {} declares {}",
            node.outputs.len(),
            schema.name,
            schema.results.len()
        ));
    }
    Ok((names, Some(seg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_matches_the_dialect_convention() {
        for (a, b) in [
            ("Conv", "conv"),
            ("ConvTranspose", "conv_transpose"),
            ("MatMul", "mat_mul"),
            ("PRelu", "prelu"),
            ("LRN", "lrn"),
            ("GlobalAveragePool", "global_average_pool"),
            ("ConstantOfShape", "constant_of_shape"),
        ] {
            assert_eq!(snake_case(a), b);
        }
    }

    #[test]
    fn every_supported_onnx_op_has_a_dialect_op() {
        for op in [
            "Conv",
            "Relu",
            "MaxPool",
            "AveragePool",
            "GlobalAveragePool",
            "Concat",
            "Dropout",
            "Gemm",
            "Reshape",
            "LRN",
            "Softmax",
            "BatchNormalization",
            "Add",
            "Sum",
            "Transpose",
            "MatMul",
            "Flatten",
            "Unsqueeze",
            "ConstantOfShape",
            "Clip",
            "Resize",
            "Pad",
            "Slice",
        ] {
            let n = Node::new("n", op, &["x"], &["y"]);
            assert!(dialect_op(&n).is_some(), "{op} has no onnx dialect op");
        }
        let mut other = Node::new("n", "Conv", &["x"], &["y"]);
        other.domain = "com.microsoft".into();
        assert!(
            dialect_op(&other).is_none(),
            "other domains go to onnx.custom"
        );
    }

    #[test]
    fn merged_nodes_get_fused_locations() {
        let ctx = ir::new_context().unwrap();
        assert_eq!(node_location(&ctx, "conv1").to_string(), "loc(\"conv1\")");
        let fused = node_location(&ctx, "conv1+bn1");
        assert!(fused.to_string().contains("fused"), "{fused}");
        assert_eq!(
            ir::Loc::from_location(fused).name.as_deref(),
            Some("conv1+bn1")
        );
    }

    #[test]
    fn blob_names_are_identifiers() {
        assert_eq!(blob_name("conv1.weight"), "conv1_weight");
        assert_eq!(blob_name("0"), "t_0");
    }

    #[test]
    fn tensor_types_print_like_mlir() {
        let ctx = ir::new_context().unwrap();
        let t = TypeInfo {
            dtype: DType::F32,
            dims: vec![Dim::Fixed(1), Dim::Param("N".into()), Dim::Fixed(3)],
        };
        assert_eq!(
            ranked_type(&ctx, &t).unwrap().to_string(),
            "tensor<1x?x3xf32>"
        );
    }
}
