//! Phase 4 of loading: opset normalization, attribute materialization and
//! shape inference, in one walk over the sorted nodes.
//!
//! In: a validated [`Model`] (nodes topologically sorted). Out: the same model
//! with every node of a known operator rewritten into the modern operand form
//! (see the README's normalization table) with every defaulted attribute
//! materialized, new constants appended to the initializers, and the type of
//! every value inference could reach (returned).
//!
//! Normalizers see the types inferred so far ([`NormCx`]), so rewrites that
//! depend on shapes (Softmax before opset 13, Conv `auto_pad`) are decided
//! with the facts in hand.

use crate::infer::{infer_node, record};
use crate::ops::{self, attrs::check_and_fill};
use crate::{Error, Model, Node, Result, TypeInfo, NORMALIZED_OPSET};
use onnc_tensor::Tensor;
use std::collections::{HashMap, HashSet};

/// What a normalizer may look at and add.
pub struct NormCx<'a> {
    /// The model's opset for the node's domain.
    pub opset: i64,
    types: &'a HashMap<String, TypeInfo>,
    inits: &'a mut Vec<(String, Tensor)>,
    init_index: &'a mut HashMap<String, usize>,
    names: &'a mut HashSet<String>,
}

impl NormCx<'_> {
    /// The inferred type of a value, if known.
    pub fn ty(&self, name: &str) -> Option<&TypeInfo> {
        self.types.get(name)
    }

    /// The inferred type of `node`'s input `i`, if present and known.
    pub fn input_ty(&self, node: &Node, i: usize) -> Option<&TypeInfo> {
        node.input(i).and_then(|n| self.types.get(n))
    }

    /// The value of an initializer.
    pub fn constant(&self, name: &str) -> Option<&Tensor> {
        self.init_index.get(name).map(|&i| &self.inits[i].1)
    }

    /// A value or node name not used yet, `hint` if free.
    pub fn fresh(&mut self, hint: &str) -> String {
        let mut name = hint.to_string();
        let mut k = 1;
        while self.names.contains(&name) {
            name = format!("{hint}_{k}");
            k += 1;
        }
        self.names.insert(name.clone());
        name
    }

    /// Adds an initializer named after `hint` (made unique) and returns its name.
    pub fn add_const(&mut self, hint: &str, t: Tensor) -> String {
        let name = self.fresh(hint);
        self.init_index.insert(name.clone(), self.inits.len());
        self.inits.push((name.clone(), t));
        name
    }
}

/// Normalizes and infers the whole graph; returns the type of every value reached.
pub(crate) fn normalize_model(model: &mut Model) -> Result<HashMap<String, TypeInfo>> {
    let opsets = model.opset_imports.clone();
    let g = &mut model.graph;
    let mut types: HashMap<String, TypeInfo> = HashMap::new();
    for vi in &g.inputs {
        types.insert(vi.name.clone(), vi.type_info());
    }
    for (n, t) in &g.initializers {
        types.insert(n.clone(), TypeInfo::of(t));
    }
    let mut names: HashSet<String> = types.keys().cloned().collect();
    for n in &g.nodes {
        names.insert(n.name.clone());
        names.extend(n.outputs.iter().cloned());
    }
    let mut init_index: HashMap<String, usize> = g
        .initializers
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.clone(), i))
        .collect();

    let mut known: HashMap<String, Tensor> = HashMap::new();
    let nodes = std::mem::take(&mut g.nodes);
    let mut out = Vec::with_capacity(nodes.len());
    for mut node in nodes {
        let Some(spec) = ops::find(&node.op_type, &node.domain) else {
            out.push(node);
            continue;
        };
        let opset = opsets
            .get(&node.domain)
            .copied()
            .unwrap_or(NORMALIZED_OPSET);
        if opset < spec.min_opset || opset > spec.max_opset {
            return Err(Error::OpOpset {
                node: node.name.clone(),
                op: node.op_type.clone(),
                opset,
                min: spec.min_opset,
                max: spec.max_opset,
            });
        }
        check_and_fill(&mut node, spec.attrs, opset)?;
        let replaced = match spec.normalize {
            None => vec![node],
            Some(f) => {
                let mut cx = NormCx {
                    opset,
                    types: &types,
                    inits: &mut g.initializers,
                    init_index: &mut init_index,
                    names: &mut names,
                };
                f(node, &mut cx)?
            }
        };
        for mut n in replaced {
            if let Some(s) = ops::find(&n.op_type, &n.domain) {
                check_and_fill(&mut n, s.attrs, NORMALIZED_OPSET.max(opset))?;
            }
            let lookup = |name: &str| {
                init_index
                    .get(name)
                    .map(|&i| &g.initializers[i].1)
                    .or_else(|| known.get(name))
            };
            if let Some((ts, values)) = infer_node(&n, &types, lookup)? {
                record(&n, ts, values, &mut types, &mut known);
            }
            out.push(n);
        }
    }
    g.nodes = out;
    Ok(types)
}
