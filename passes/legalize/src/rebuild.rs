//! Selection → Graph.
//!
//! In: the e-graph, a [`Selection`], the root and the [`Plan`] from
//! [`crate::build`]; the weight table is taken out of the e-graph (moved,
//! not copied). Out: an [`onnc_onnx::Graph`] in topological order (operands
//! first, graph outputs in order) and, for each node, the input-graph nodes
//! it was made from ([`Provenance`]).
//!
//! Names: a node keeps its e-node's name (`conv1`, or `conv1+bn1` for a
//! fusion, `gap/pool0` for a piece of a split), made unique with `#k`. A
//! value keeps the name it had in the input graph when its e-class computed
//! one (the first in graph order), graph outputs keep their names exactly,
//! and new values are named after their node. Initializers are the used
//! weights in table order: input initializers first, then the tensors rules
//! created (e.g. folded Conv weights).
//!
//! ```
//! use onnc_legalize::{build::build, cost::NodeCosts, extract::greedy, rebuild::rebuild, Target};
//! use onnc_onnx::{Dim, Graph, Node, ValueInfo};
//! let vi = |n: &str| ValueInfo { name: n.into(), dtype: onnc_tensor::DType::F32, dims: vec![Dim::Fixed(1), Dim::Fixed(4)] };
//! let g = Graph { inputs: vec![vi("x")], outputs: vec![vi("y")], nodes: vec![Node::new("r", "Relu", &["x"], &["y"])], ..Default::default() };
//! let mut b = build(g).unwrap();
//! let costs = NodeCosts::new(&b.egraph, Target::NvFull);
//! let sel = greedy(&b.egraph, &costs, b.root);
//! let weights = std::mem::take(&mut b.egraph.analysis.weights);
//! let (out, prov) = rebuild(&b.egraph, weights, &sel, b.root, &b.plan);
//! assert_eq!(out.nodes[0].outputs, ["y"]);
//! assert_eq!(prov[0].sources, ["r"]);
//! ```

use crate::analysis::{Graph, Weights};
use crate::build::Plan;
use crate::extract::Selection;
use crate::lang::Op;
use crate::Provenance;
use egg::{Id, Symbol};
use onnc_onnx::Node;
use onnc_tensor::Attr;
use rustc_hash::FxHashSet as HashSet;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

struct Emitter<'a> {
    eg: &'a Graph,
    sel: &'a Selection,
    preferred: BTreeMap<Id, String>,
    used: HashSet<String>,
    node_names: HashSet<String>,
    /// Value name(s) of each emitted e-class (several for a tuple).
    done: BTreeMap<Id, Vec<Option<String>>>,
    nodes: Vec<Node>,
    provenance: Vec<Provenance>,
    weights_used: BTreeSet<Symbol>,
}

impl Emitter<'_> {
    fn fresh_value(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.used.contains(&name) {
            k += 1;
            name = format!("{base}#{k}");
        }
        self.used.insert(name.clone());
        name
    }

    fn fresh_node(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.node_names.contains(&name) {
            k += 1;
            name = format!("{base}#{k}");
        }
        self.node_names.insert(name.clone());
        name
    }

    /// The value name of class `id`'s result `k` (emitting it first when needed).
    fn value(&mut self, id: Id) -> Option<String> {
        let id = self.eg.find(id);
        if let Some(v) = self.done.get(&id) {
            return v.first().cloned().flatten();
        }
        // Iterative post-order so deep chains do not overflow the stack.
        let mut stack = vec![(id, false)];
        while let Some((c, expanded)) = stack.pop() {
            if self.done.contains_key(&c) {
                continue;
            }
            let Some(node) = self.sel.choice.get(&c) else {
                self.done.insert(c, vec![None]);
                continue;
            };
            if !expanded {
                stack.push((c, true));
                for ch in node.children.iter().rev() {
                    let ch = self.eg.find(*ch);
                    if !self.done.contains_key(&ch) {
                        stack.push((ch, false));
                    }
                }
                continue;
            }
            let names = self.emit(c);
            self.done.insert(c, names);
        }
        self.done
            .get(&id)
            .and_then(|v| v.first().cloned().flatten())
    }

    fn emit(&mut self, c: Id) -> Vec<Option<String>> {
        let node = self.sel.choice[&c].clone();
        match &node.op {
            Op::Input(s) => vec![Some(s.as_str().to_string())],
            Op::Weight(s) => {
                self.weights_used.insert(*s);
                vec![Some(s.as_str().to_string())]
            }
            Op::Absent | Op::Outputs => vec![None],
            Op::Proj(k) => {
                let t = node.children.first().map(|c| self.eg.find(*c));
                vec![t
                    .and_then(|t| self.done.get(&t))
                    .and_then(|v| v.get(*k).cloned().flatten())]
            }
            Op::Apply(key) => {
                let inputs: Vec<Option<String>> = node
                    .children
                    .iter()
                    .map(|ch| {
                        self.done
                            .get(&self.eg.find(*ch))
                            .and_then(|v| v.first().cloned().flatten())
                    })
                    .collect();
                let name = self.fresh_node(key.name.as_str());
                let mut outputs = Vec::with_capacity(key.n_out);
                if key.n_out <= 1 {
                    let base = self
                        .preferred
                        .get(&c)
                        .cloned()
                        .unwrap_or_else(|| name.clone());
                    outputs.push(self.fresh_value(&base));
                } else {
                    for k in 0..key.n_out {
                        let proj = crate::lang::ENode {
                            op: Op::Proj(k),
                            children: vec![c],
                        };
                        let base = self
                            .eg
                            .lookup(proj)
                            .and_then(|p| self.preferred.get(&self.eg.find(p)).cloned())
                            .unwrap_or_else(|| format!("{name}:{k}"));
                        outputs.push(self.fresh_value(&base));
                    }
                }
                let attrs: BTreeMap<String, Attr> = key.to_attrs();
                self.nodes.push(Node {
                    name: name.clone(),
                    op_type: key.op_type.as_str().to_string(),
                    domain: key.domain.as_str().to_string(),
                    inputs,
                    outputs: outputs.clone(),
                    attrs,
                });
                self.provenance.push(Provenance {
                    node: name,
                    sources: key.sources.iter().map(|s| s.as_str().to_string()).collect(),
                });
                outputs.into_iter().map(Some).collect()
            }
        }
    }
}

/// Rebuilds a graph from a selection.
pub fn rebuild(
    eg: &Graph,
    weights: Weights,
    sel: &Selection,
    root: Id,
    plan: &Plan,
) -> (onnc_onnx::Graph, Vec<Provenance>) {
    let root = eg.find(root);
    let outs: Vec<Id> = eg[root]
        .nodes
        .iter()
        .find(|n| matches!(n.op, Op::Outputs))
        .map(|n| n.children.clone())
        .unwrap_or_default();
    let mut preferred = BTreeMap::new();
    let mut used: HashSet<String> = HashSet::default();
    for vi in &plan.inputs {
        used.insert(vi.name.clone());
    }
    for name in &weights.order {
        used.insert(name.as_str().to_string());
    }
    // Graph outputs keep their names; then each class's first name in graph order.
    for (vi, id) in plan.outputs.iter().zip(&outs) {
        preferred
            .entry(eg.find(*id))
            .or_insert_with(|| vi.name.clone());
    }
    for (id, name) in &plan.value_names {
        preferred
            .entry(eg.find(*id))
            .or_insert_with(|| name.clone());
    }
    let mut em = Emitter {
        eg,
        sel,
        preferred,
        used,
        node_names: HashSet::default(),
        done: BTreeMap::new(),
        nodes: vec![],
        provenance: vec![],
        weights_used: BTreeSet::new(),
    };
    for (vi, id) in plan.outputs.iter().zip(&outs) {
        let v = em.value(*id);
        if v.as_deref() != Some(vi.name.as_str()) {
            // An output that is another output, an input or a weight: copy it under its name.
            let name = em.fresh_node(&format!("{}/copy", vi.name));
            em.nodes.push(Node::new(
                &name,
                "Identity",
                &[v.as_deref().unwrap_or("")],
                &[&vi.name],
            ));
            em.provenance.push(Provenance {
                node: name,
                sources: vec![],
            });
        }
    }
    let mut initializers = Vec::new();
    let Weights { mut map, order } = weights;
    for name in order {
        if em.weights_used.contains(&name) {
            if let Some((t, _)) = map.remove(&name) {
                let t = Arc::try_unwrap(t).unwrap_or_else(|a| (*a).clone());
                initializers.push((name.as_str().to_string(), t));
            }
        }
    }
    let graph = onnc_onnx::Graph {
        name: plan.name.clone(),
        inputs: plan.inputs.clone(),
        outputs: plan.outputs.clone(),
        initializers,
        nodes: em.nodes,
    };
    (graph, em.provenance)
}
