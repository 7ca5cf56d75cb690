//! Phase 2 of loading: `ModelProto` → [`Model`] (not yet validated or normalized).
//!
//! In: a decoded `ModelProto`, the folder external data is relative to, and
//! [`Options`]. Out: a [`Model`] whose graph inputs exclude initializers,
//! whose `Constant` nodes are initializers, whose nodes have unique names and
//! whose input shapes carry the `--input-shape` overrides. Graph outputs the
//! file leaves untyped are returned separately, to be typed by inference.

use crate::proto_attr::attr_from_proto;
use crate::tensor_proto::{dtype_of, tensor_from_proto};
use crate::{Dim, Error, Graph, Model, Node, Options, Result, ValueInfo};
use onnc_proto::onnx::{
    tensor_shape_proto::dimension, type_proto, GraphProto, ModelProto, NodeProto, ValueInfoProto,
};
use onnc_tensor::{Attr, DType, Tensor};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// Oldest supported `ModelProto.ir_version`; older files are rejected.
pub const MIN_IR_VERSION: i64 = 3;
/// Newest IR version whose fields this crate knows; newer files load with a warning.
pub const MAX_IR_VERSION: i64 = 10;
/// Newest supported opset per domain (`""` = default ONNX domain). Domains
/// not listed are accepted at any version; their nodes are kept as they are.
/// Opsets 23–25 changed only element types of the operators in the registry
/// (checked against the ONNX backend test models, `tests/conformance.rs`).
pub const NEWEST_OPSETS: &[(&str, i64)] = &[("", 25)];

/// The result of conversion: the model and the outputs still to be typed.
pub(crate) struct Converted {
    pub model: Model,
    pub untyped_outputs: HashSet<String>,
}

/// Converts a decoded model.
/// The proto is consumed: each initializer's bytes are freed as soon as it is
/// converted, so peak memory stays near one copy of the weights.
pub(crate) fn convert(mut p: ModelProto, base_dir: &Path, opts: &Options) -> Result<Converted> {
    if p.ir_version == 0 && p.graph.is_none() {
        return Err(Error::Decode {
            reason: "no ir_version and no graph: not an ONNX model".into(),
        });
    }
    let mut warnings = Vec::new();
    if p.ir_version < MIN_IR_VERSION {
        return Err(Error::IrVersion {
            version: p.ir_version,
            min: MIN_IR_VERSION,
            max: MAX_IR_VERSION,
        });
    }
    if p.ir_version > MAX_IR_VERSION {
        warnings.push(format!(
            "IR version {} is newer than {MAX_IR_VERSION}; fields added since are ignored",
            p.ir_version
        ));
    }
    let opset_imports = opsets(&p)?;
    let g = p.graph.as_mut().ok_or(Error::NoGraph)?;
    let (graph, untyped_outputs) = convert_graph(g, base_dir, opts, &mut warnings)?;
    let mut opset_imports = opset_imports;
    if !opset_imports.contains_key("") && graph.nodes.iter().any(|n| n.domain.is_empty()) {
        let newest = NEWEST_OPSETS[0].1;
        warnings.push(format!(
            "no opset import for the default domain; assuming opset {newest}"
        ));
        opset_imports.insert(String::new(), newest);
    }
    let producer = match (p.producer_name.as_str(), p.producer_version.as_str()) {
        (n, "") => n.to_string(),
        (n, v) => format!("{n} {v}"),
    };
    let model = Model {
        ir_version: p.ir_version,
        opset_imports,
        producer,
        graph,
        warnings,
    };
    Ok(Converted {
        model,
        untyped_outputs,
    })
}

/// `"ai.onnx"` and `""` are the same domain.
pub(crate) fn canonical_domain(d: &str) -> String {
    if d == "ai.onnx" {
        String::new()
    } else {
        d.to_string()
    }
}

fn opsets(p: &ModelProto) -> Result<BTreeMap<String, i64>> {
    let mut out = BTreeMap::new();
    for o in &p.opset_import {
        let d = canonical_domain(&o.domain);
        if let Some(&(_, newest)) = NEWEST_OPSETS.iter().find(|(n, _)| *n == d) {
            if o.version > newest {
                return Err(Error::OpsetTooNew {
                    domain: d,
                    version: o.version,
                    newest,
                });
            }
        }
        let v = out.entry(d).or_insert(o.version);
        *v = (*v).max(o.version);
    }
    Ok(out)
}

fn convert_graph(
    g: &mut GraphProto,
    base_dir: &Path,
    opts: &Options,
    warnings: &mut Vec<String>,
) -> Result<(Graph, HashSet<String>)> {
    if g.node.is_empty() {
        return Err(Error::NoNodes {
            graph: g.name.clone(),
        });
    }
    let mut initializers = Vec::with_capacity(g.initializer.len());
    let mut init_names = HashSet::new();
    for t in std::mem::take(&mut g.initializer) {
        if !init_names.insert(t.name.clone()) {
            return Err(Error::DuplicateOutput {
                name: t.name.clone(),
                first: "an initializer".into(),
                second: "another initializer".into(),
            });
        }
        initializers.push((t.name.clone(), tensor_from_proto(&t, base_dir)?));
    }
    if let Some(s) = g.sparse_initializer.first() {
        let name = s
            .values
            .as_ref()
            .map(|v| v.name.clone())
            .unwrap_or_default();
        return Err(Error::Tensor {
            name,
            reason: "sparse initializers are not supported".into(),
        });
    }

    let mut inputs = Vec::new();
    for vi in g.input.iter().filter(|vi| !init_names.contains(&vi.name)) {
        let (dtype, dims) = value_type(vi)?.ok_or_else(|| Error::ValueType {
            name: vi.name.clone(),
            reason: "graph input has no tensor type".into(),
        })?;
        let overridden = opts.input_shapes.iter().find(|(n, _)| *n == vi.name);
        let dims = match (dims, overridden) {
            (Some(d), _) => d,
            // Rank unknown in the file: the override supplies it.
            (None, Some((_, shape))) => shape.iter().map(|&d| Dim::Fixed(d)).collect(),
            (None, None) => {
                return Err(Error::ValueType {
                    name: vi.name.clone(),
                    reason: "graph input has no shape; give one with --input-shape".into(),
                })
            }
        };
        inputs.push(ValueInfo {
            name: vi.name.clone(),
            dtype,
            dims,
        });
    }
    apply_overrides(&mut inputs, &opts.input_shapes)?;

    let mut outputs = Vec::new();
    let mut untyped = HashSet::new();
    for vi in &g.output {
        match value_type(vi)? {
            Some((dtype, Some(dims))) => outputs.push(ValueInfo {
                name: vi.name.clone(),
                dtype,
                dims,
            }),
            other => {
                untyped.insert(vi.name.clone());
                let dtype = other.map_or(DType::F32, |(d, _)| d);
                outputs.push(ValueInfo {
                    name: vi.name.clone(),
                    dtype,
                    dims: Vec::new(),
                });
            }
        }
    }

    let mut nodes = Vec::with_capacity(g.node.len());
    let mut used_names: HashSet<String> = HashSet::new();
    for (index, np) in g.node.iter().enumerate() {
        let node = convert_node(np, index, &mut used_names, base_dir, warnings)?;
        if node.domain.is_empty() && node.op_type == "Constant" {
            initializers.push(constant_value(&node)?);
        } else {
            nodes.push(node);
        }
    }
    let graph = Graph {
        name: g.name.clone(),
        inputs,
        outputs,
        initializers,
        nodes,
    };
    Ok((graph, untyped))
}

/// The element type and (if given) shape of a tensor-typed value; `None` when
/// the type is absent or undefined.
fn value_type(vi: &ValueInfoProto) -> Result<Option<(DType, Option<Vec<Dim>>)>> {
    let Some(tp) = vi.r#type.as_ref() else {
        return Ok(None);
    };
    let tt = match &tp.value {
        Some(type_proto::Value::TensorType(t)) => t,
        None => return Ok(None),
        Some(_) => return Err(Error::ValueType {
            name: vi.name.clone(),
            reason:
                "only tensor types are supported (not sequence, map, optional, sparse or opaque)"
                    .into(),
        }),
    };
    if tt.elem_type == 0 {
        return Ok(None);
    }
    let dtype = dtype_of(&vi.name, tt.elem_type).map_err(|e| Error::ValueType {
        name: vi.name.clone(),
        reason: e.to_string(),
    })?;
    let dims = tt.shape.as_ref().map(|s| {
        s.dim
            .iter()
            .map(|d| match &d.value {
                Some(dimension::Value::DimValue(v)) if *v >= 0 => Dim::Fixed(*v as usize),
                Some(dimension::Value::DimParam(p)) if !p.is_empty() => Dim::Param(p.clone()),
                _ => Dim::Unknown,
            })
            .collect()
    });
    Ok(Some((dtype, dims)))
}

fn apply_overrides(inputs: &mut [ValueInfo], overrides: &[(String, Vec<usize>)]) -> Result<()> {
    for (i, (name, _)) in overrides.iter().enumerate() {
        if overrides[..i].iter().any(|(n, _)| n == name) {
            return Err(Error::InputShape {
                name: name.clone(),
                reason: "--input-shape names this input twice; give its shape once".into(),
            });
        }
    }
    for (name, shape) in overrides {
        let known: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
        let Some(vi) = inputs.iter_mut().find(|i| &i.name == name) else {
            return Err(Error::InputShape {
                name: name.clone(),
                reason: format!("the graph has no such input (inputs: {})", known.join(", ")),
            });
        };
        if !vi.dims.is_empty() && vi.dims.len() != shape.len() {
            return Err(Error::InputShape {
                name: name.clone(),
                reason: format!(
                    "rank {} does not match the model's rank {}",
                    shape.len(),
                    vi.dims.len()
                ),
            });
        }
        vi.dims = shape.iter().map(|&d| Dim::Fixed(d)).collect();
    }
    Ok(())
}

fn convert_node(
    np: &NodeProto,
    index: usize,
    used: &mut HashSet<String>,
    base_dir: &Path,
    warnings: &mut Vec<String>,
) -> Result<Node> {
    let mut name = if np.name.is_empty() {
        format!("{}_{index}", np.op_type)
    } else {
        np.name.clone()
    };
    if used.contains(&name) {
        let mut k = 1;
        while used.contains(&format!("{name}_{k}")) {
            k += 1;
        }
        name = format!("{name}_{k}");
    }
    used.insert(name.clone());
    let mut attrs = onnc_tensor::Attrs::new();
    for a in &np.attribute {
        match attr_from_proto(a, &name, &np.op_type, base_dir)? {
            Some(v) => {
                attrs.insert(a.name.clone(), v);
            }
            None => warnings.push(format!(
                "node '{name}' ({}): attribute '{}' (graph, sparse tensor or type) is not supported and was dropped",
                np.op_type, a.name
            )),
        }
    }
    // Target annotations onnc wrote as node metadata (crate::export) come back
    // as the string attributes they were; other metadata is not onnc's.
    for e in &np.metadata_props {
        if e.key.starts_with(crate::export::ANNOTATION_PREFIX) && !attrs.contains_key(&e.key) {
            attrs.insert(e.key.clone(), onnc_tensor::Attr::String(e.value.clone()));
        }
    }
    let mut outputs = np.output.clone();
    while outputs.last().is_some_and(|o| o.is_empty()) {
        outputs.pop();
    }
    Ok(Node {
        name,
        op_type: np.op_type.clone(),
        domain: canonical_domain(&np.domain),
        inputs: np
            .input
            .iter()
            .map(|s| (!s.is_empty()).then(|| s.clone()))
            .collect(),
        outputs,
        attrs,
    })
}

/// The initializer a `Constant` node stands for.
fn constant_value(node: &Node) -> Result<(String, Tensor)> {
    let out = node
        .outputs
        .first()
        .cloned()
        .ok_or_else(|| crate::error::arity_err(node, "Constant has no output"))?;
    let mut found = node
        .attrs
        .iter()
        .filter(|(k, _)| k.starts_with("value") || *k == "sparse_value");
    let (key, value) = match (found.next(), found.next()) {
        (Some(kv), None) => kv,
        _ => {
            return Err(crate::error::arity_err(
                node,
                "Constant needs exactly one value attribute",
            ))
        }
    };
    let wrong = |expected: &'static str| Error::AttrType {
        node: node.name.clone(),
        op: node.op_type.clone(),
        attr: key.clone(),
        expected,
        actual: value.kind().to_string(),
    };
    let shaped = |r: onnc_tensor::Result<Tensor>| {
        r.map_err(|e| crate::error::attr_err(node, key, e.to_string()))
    };
    let t = match (key.as_str(), value) {
        ("value", Attr::Tensor(t)) => t.clone(),
        ("value", _) => return Err(wrong("tensor")),
        ("value_float", v) => shaped(Tensor::from_f32(
            vec![],
            vec![v.as_float().ok_or_else(|| wrong("float"))?],
        ))?,
        ("value_floats", Attr::Floats(v)) => shaped(Tensor::from_f32(vec![v.len()], v.clone()))?,
        ("value_floats", _) => return Err(wrong("floats")),
        ("value_int", Attr::Int(v)) => shaped(Tensor::from_i64(vec![], vec![*v]))?,
        ("value_int", _) => return Err(wrong("int")),
        ("value_ints", Attr::Ints(v)) => shaped(Tensor::from_i64(vec![v.len()], v.clone()))?,
        ("value_ints", _) => return Err(wrong("ints")),
        (k, _) => {
            return Err(crate::error::attr_err(
                node,
                k,
                "string and sparse constants are not supported",
            ))
        }
    };
    Ok((out, t))
}
