//! `onnx` dialect → ONNX graph (the inverse of `crate::import::onnx`).
//!
//! In: a `func.func` whose body holds `onnx.*` ops (and `arith.constant`
//! tensors), ending in `func.return`. Out: an [`onnc_onnx::Graph`]: one node
//! per op (ONNX op type from the op's `Spec:` line in `onnx.irdl.mlir`, or
//! `op_type`/`domain` of `onnx.custom`), initializers from constants, graph
//! inputs/outputs from the function's arguments/results (named by their
//! `onnx.name` argument attributes when the importer set them).
//!
//! Node names come from locations: `loc("conv1")` → `conv1`; a fused
//! location of merged ops → `conv1+bn1`; without a named location (IR read
//! back from text printed without `--mlir-print-debuginfo`) from the op's
//! `onnx.name` attribute, which the importer sets on every op. Tensor names
//! are the producing node's name (`conv1`, or `split1:1` for a second
//! result). Other dotted attributes (`onnc.device = "cpu"`) are target
//! annotations, not ONNX attributes: they stay in the node's attributes and
//! `onnc_onnx::export` writes them as the node's `metadata_props`.
//!
//! ```mlir
//! %y = "onnx.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("relu1")
//! ```
//! becomes `Node { name: "relu1", op_type: "Relu", inputs: [Some("x")], outputs: ["relu1"] }`.

use melior::ir::{
    block::BlockLike, operation::OperationLike, BlockRef, Location, OperationRef, RegionLike,
    Value, ValueLike,
};
use onnc_dialects::{
    ir::{self, Loc},
    schema::{self, Variadicity},
};
use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::Attrs;
use std::collections::{HashMap, HashSet};

/// Attributes that describe the op's structure rather than ONNX semantics.
const STRUCTURAL: [&str; 3] = [
    "operandSegmentSizes",
    "resultSegmentSizes",
    crate::import::onnx::NAME_ATTR,
];

/// The ONNX name an op carries: its named location, else its `onnx.name`.
fn op_name_of(o: &OperationRef, at: &Loc) -> Option<String> {
    at.name.clone().or_else(|| {
        o.attribute(crate::import::onnx::NAME_ATTR)
            .ok()
            .and_then(ir::str_attr)
            .filter(|n| !n.is_empty())
    })
}

/// The node name a location stands for (`conv1`, `conv1+bn1`), if any.
pub fn location_name(loc: Location) -> Option<String> {
    Loc::from_location(loc).name
}

fn value_key<'c>(v: &impl ValueLike<'c>) -> usize {
    v.to_raw().ptr as usize
}

fn value_info(name: String, ty: melior::ir::Type) -> Result<ValueInfo, String> {
    let shape = ir::tensor_shape(ty)
        .ok_or_else(|| format!("value '{name}' has type {ty}, not a tensor"))?;
    let dtype = onnc_tensor::DType::from_mlir_name(&shape.element).ok_or_else(|| {
        format!(
            "value '{name}' has element type {} which ONNX export does not support",
            shape.element
        )
    })?;
    let dims = shape
        .dims
        .ok_or_else(|| format!("value '{name}' is unranked"))?
        .into_iter()
        .map(|d| d.map(Dim::Fixed).unwrap_or(Dim::Unknown))
        .collect();
    Ok(ValueInfo { name, dtype, dims })
}

/// Makes `base` unique among `used` (`conv1`, `conv1_1`, …).
pub fn unique(base: &str, used: &mut HashSet<String>) -> String {
    let mut name = base.to_string();
    let mut i = 1;
    while !used.insert(name.clone()) {
        name = format!("{base}_{i}");
        i += 1;
    }
    name
}

/// One export problem, at the op it concerns.
pub type ExportError<'c> = (Location<'c>, String);

/// Converts one function. Each error carries the location of its op.
pub fn graph_from_func<'c>(func: &OperationRef<'c, '_>) -> Result<Graph, Vec<ExportError<'c>>> {
    graph_and_locations(func).map(|(g, _)| g)
}

/// [`graph_from_func`], plus the location of the op behind each node name
/// (for reporting problems found on the graph at the right op).
pub fn graph_and_locations<'c>(
    func: &OperationRef<'c, '_>,
) -> Result<(Graph, HashMap<String, Location<'c>>), Vec<ExportError<'c>>> {
    let mut node_locs: HashMap<String, Location<'c>> = HashMap::new();
    let fname = func
        .attribute("sym_name")
        .ok()
        .and_then(ir::str_attr)
        .unwrap_or_else(|| "main_graph".into());
    let floc = func.location();
    let region = func.region(0).map_err(|e| vec![(floc, e.to_string())])?;
    let block: BlockRef = region
        .first_block()
        .ok_or_else(|| vec![(floc, format!("function @{fname} has no body"))])?;
    let mut names: HashMap<usize, String> = HashMap::new();
    let mut used: HashSet<String> = HashSet::new();
    let mut errors = Vec::new();
    let mut graph = Graph {
        name: fname.clone(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        initializers: Vec::new(),
        nodes: Vec::new(),
    };

    let arg_names = ir::func_arg_strings(func, false, "onnx.name");
    for i in 0..block.argument_count() {
        let arg = block.argument(i).map_err(|e| vec![(floc, e.to_string())])?;
        let base = arg_names
            .get(i)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("input_{i}"));
        let name = unique(&base, &mut used);
        names.insert(value_key(&arg), name.clone());
        match value_info(name, arg.r#type()) {
            Ok(v) => graph.inputs.push(v),
            Err(e) => errors.push((floc, format!("@{fname}: argument {i}: {e}"))),
        }
    }

    let mut op = block.first_operation();
    let mut index = 0usize;
    while let Some(o) = op {
        op = o.next_in_block();
        index += 1;
        let op_name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        let here = o.location();
        let where_ = Loc::from_location(here);
        let node_base = op_name_of(&o, &where_)
            .unwrap_or_else(|| format!("{}_{index}", op_name.replace('.', "_")));
        let result = match op_name.as_str() {
            "func.return" => {
                let res_names = ir::func_arg_strings(func, true, "onnx.name");
                for (i, v) in o.operands().enumerate() {
                    let Some(inner) = names.get(&value_key(&v)).cloned() else {
                        if errors.is_empty() {
                            errors.push((
                                here,
                                format!("return operand {i} is not produced by an exported op"),
                            ));
                        }
                        continue;
                    };
                    let wanted = res_names.get(i).cloned().flatten();
                    let out_name = match wanted {
                        // Rename the producer's tensor to the declared output name when free.
                        Some(w) if w != inner && !used.contains(&w) => {
                            rename_tensor(&mut graph, &inner, &w);
                            used.insert(w.clone());
                            names
                                .values_mut()
                                .filter(|n| **n == inner)
                                .for_each(|n| *n = w.clone());
                            w
                        }
                        _ => inner,
                    };
                    match value_info(out_name, v.r#type()) {
                        Ok(vi) => graph.outputs.push(vi),
                        Err(e) => errors.push((here, e)),
                    }
                }
                Ok(())
            }
            "onnx.constant" | "arith.constant" => o
                .attribute("value")
                .map_err(|_| "it has no value attribute".to_string())
                .and_then(ir::elements_to_tensor_or_why)
                .map(|t| {
                    let name = unique(&node_base, &mut used);
                    if let Ok(r) = o.result(0) {
                        names.insert(value_key(&r), name.clone());
                    }
                    graph.initializers.push((name, t));
                }),
            _ if op_name.starts_with("onnx.") => {
                export_node(&o, &op_name, &node_base, &mut names, &mut used).map(|n| {
                    node_locs.insert(n.name.clone(), here);
                    graph.nodes.push(n)
                })
            }
            _ => Err(
                "has no ONNX form; only onnx dialect ops (and arith.constant tensors) export"
                    .to_string(),
            ),
        };
        if let Err(e) = result {
            errors.push((here, format!("'{op_name}' op {e}")));
        }
    }
    if errors.is_empty() {
        Ok((graph, node_locs))
    } else {
        Err(errors)
    }
}

fn rename_tensor(graph: &mut Graph, from: &str, to: &str) {
    for n in &mut graph.nodes {
        for o in &mut n.outputs {
            if o == from {
                *o = to.to_string();
            }
        }
        for i in n.inputs.iter_mut().flatten() {
            if i == from {
                *i = to.to_string();
            }
        }
    }
    for (n, _) in &mut graph.initializers {
        if n == from {
            *n = to.to_string();
        }
    }
    for v in &mut graph.inputs {
        if v.name == from {
            v.name = to.to_string();
        }
    }
}

fn export_node(
    o: &OperationRef,
    op_name: &str,
    node_base: &str,
    names: &mut HashMap<usize, String>,
    used: &mut HashSet<String>,
) -> Result<Node, String> {
    let schema =
        schema::lookup(op_name).ok_or_else(|| "not declared in onnx.irdl.mlir".to_string())?;
    let mut attrs = Attrs::new();
    let (op_type, domain) = if op_name == "onnx.custom" {
        let t = o
            .attribute("op_type")
            .ok()
            .and_then(ir::str_attr)
            .ok_or("onnx.custom without op_type")?;
        let d = o
            .attribute("domain")
            .ok()
            .and_then(ir::str_attr)
            .unwrap_or_default();
        (t, d)
    } else {
        (
            schema
                .spec_name
                .clone()
                .ok_or("its doc block names no ONNX operator")?,
            String::new(),
        )
    };
    for (k, v) in o.attributes() {
        let k = k.as_string_ref().as_str().unwrap_or("").to_string();
        if STRUCTURAL.contains(&k.as_str())
            || (op_name == "onnx.custom" && (k == "op_type" || k == "domain"))
        {
            continue;
        }
        let value =
            ir::mlir_to_attr(v).ok_or_else(|| format!("attribute '{k}' = {v} has no ONNX form"))?;
        let k = if op_name == "onnx.custom" {
            k.strip_prefix("attr_").map(str::to_string).unwrap_or(k)
        } else {
            k
        };
        attrs.insert(k, value);
    }
    let seg = |name: &str| o.attribute(name).ok().and_then(ir::i32_array_attr);
    let operand_counts = slot_counts(
        &schema.operands,
        seg("operandSegmentSizes"),
        o.operand_count(),
    );
    let result_counts = slot_counts(&schema.results, seg("resultSegmentSizes"), o.result_count());

    let mut inputs = Vec::new();
    let mut next = 0;
    for (slot, count) in schema.operands.iter().zip(&operand_counts) {
        if *count == 0 && slot.variadicity == Variadicity::Optional {
            inputs.push(None);
            continue;
        }
        for _ in 0..*count {
            let v: Value = o.operand(next).map_err(|e| e.to_string())?;
            next += 1;
            inputs.push(Some(names.get(&value_key(&v)).cloned().ok_or_else(
                || format!("operand {} is not produced by an exported op", next - 1),
            )?));
        }
    }
    while inputs.last() == Some(&None) {
        inputs.pop();
    }
    let name = unique(node_base, used);
    let mut outputs = Vec::new();
    let mut r = 0;
    let multi = o.result_count() > 1;
    for (slot, count) in schema.results.iter().zip(&result_counts) {
        if *count == 0 && slot.variadicity == Variadicity::Optional {
            outputs.push(String::new());
            continue;
        }
        for _ in 0..*count {
            let v = o.result(r).map_err(|e| e.to_string())?;
            let tname = if multi && r > 0 {
                unique(&format!("{name}:{r}"), used)
            } else {
                name.clone()
            };
            names.insert(value_key(&v), tname.clone());
            outputs.push(tname);
            r += 1;
        }
    }
    while outputs.last().is_some_and(|o| o.is_empty()) {
        outputs.pop();
    }
    Ok(Node {
        name,
        op_type,
        domain,
        inputs,
        outputs,
        attrs,
    })
}

/// How many values each declared slot holds: from the segment sizes when
/// present, else one per single slot and the rest for the variadic one.
fn slot_counts(slots: &[schema::Slot], segments: Option<Vec<i32>>, total: usize) -> Vec<usize> {
    if let Some(seg) = segments.filter(|s| s.len() == slots.len()) {
        return seg.into_iter().map(|s| s.max(0) as usize).collect();
    }
    let fixed = slots
        .iter()
        .filter(|s| s.variadicity == Variadicity::Single)
        .count();
    let mut rest = total.saturating_sub(fixed);
    slots
        .iter()
        .map(|s| match s.variadicity {
            Variadicity::Single => 1,
            _ => {
                let n = rest;
                rest = 0;
                n
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph of `text` (one `@main_graph` in the onnx dialect).
    fn graph_of(text: &str) -> Graph {
        let context = ir::new_context().unwrap();
        let module = ir::parse_module_bytes(&context, text.as_bytes(), "t.mlir").unwrap();
        let op = module.as_operation();
        let func = crate::onnx::functions::main_function(&op).unwrap();
        graph_from_func(&func).unwrap()
    }

    #[test]
    fn names_come_from_onnx_name_when_locations_have_none() {
        // As `onnc-opt` prints imported IR without --mlir-print-debuginfo: no named locations.
        let g = graph_of(
            r#"func.func @main_graph(%arg0: tensor<1x4xf32> {onnx.name = "x"}) -> (tensor<1x4xf32> {onnx.name = "y"}) {
  %0 = "onnx.constant"() {onnx.name = "bias", value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = "onnx.add"(%arg0, %0) {onnx.name = "/block/Add"} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %2 = "onnx.softmax"(%1) {axis = 1 : i64, onnc.device = "cpu", onnx.name = "/head/Softmax"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = "onnx.relu"(%2) : (tensor<1x4xf32>) -> tensor<1x4xf32> loc("named_by_loc")
  return %3 : tensor<1x4xf32>
}"#,
        );
        let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["/block/Add", "/head/Softmax", "named_by_loc"]);
        assert_eq!(g.initializers[0].0, "bias");
        // onnx.name is the name, not an attribute; the annotation stays for the exporter
        let sm = &g.nodes[1];
        assert!(!sm.attrs.contains_key("onnx.name"));
        assert_eq!(
            sm.attrs.get("onnc.device"),
            Some(&onnc_tensor::Attr::String("cpu".into()))
        );
        assert_eq!(g.outputs[0].name, "y");
    }

    #[test]
    fn a_named_location_wins_over_the_attribute() {
        let g = graph_of(
            r#"func.func @main_graph(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.relu"(%arg0) {onnx.name = "stale"} : (tensor<4xf32>) -> tensor<4xf32> loc(fused["conv1", "bn1"])
  return %0 : tensor<4xf32>
}"#,
        );
        assert_eq!(g.nodes[0].name, "conv1+bn1");
    }
}
