//! Graph → e-graph.
//!
//! In: an [`onnc_onnx::Graph`] (normalized, topologically sorted), taken by
//! value: its initializers move into the weight table, nothing is copied.
//! Out: a [`Built`] e-graph whose root `Outputs` e-node lists the graph
//! outputs, plus what extraction needs to give values their old names back.
//!
//! One `Apply` e-node per node (its `name` and `sources` are the node's
//! name); a node with several results becomes a tuple e-class read through
//! `Proj(k)`; graph inputs are `Input` leaves; initializers `Weight` leaves.
//!
//! ```
//! use onnc_onnx::{Graph, Node, ValueInfo, Dim};
//! use onnc_tensor::DType;
//! let g = Graph {
//!     inputs: vec![ValueInfo { name: "x".into(), dtype: DType::F32, dims: vec![Dim::Fixed(4)] }],
//!     outputs: vec![ValueInfo { name: "y".into(), dtype: DType::F32, dims: vec![Dim::Fixed(4)] }],
//!     nodes: vec![Node::new("r", "Relu", &["x"], &["y"])],
//!     ..Default::default()
//! };
//! let b = onnc_legalize::build::build(g).unwrap();
//! assert_eq!(b.egraph.number_of_classes(), 4); // x, absent, relu, outputs
//! ```

use crate::analysis::{Graph, TensorAnalysis};
use crate::lang::{ENode, Op, OpKey};
use crate::{Error, Result};
use egg::{Id, Symbol};
use onnc_onnx::ValueInfo;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// What extraction needs besides the e-graph.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Graph name.
    pub name: String,
    /// Graph inputs, unchanged.
    pub inputs: Vec<ValueInfo>,
    /// Graph outputs, unchanged.
    pub outputs: Vec<ValueInfo>,
    /// Value names of the input graph by the e-class that computed them, in graph order.
    pub value_names: Vec<(Id, String)>,
    /// Names of the input graph's nodes.
    pub node_names: Vec<String>,
}

/// A graph as an e-graph.
#[derive(Debug)]
pub struct Built {
    /// The e-graph.
    pub egraph: Graph,
    /// The `Outputs` e-class.
    pub root: Id,
    /// Names and signature for extraction.
    pub plan: Plan,
}

/// Builds the e-graph of `graph`.
pub fn build(graph: onnc_onnx::Graph) -> Result<Built> {
    let mut analysis = TensorAnalysis::default();
    for vi in &graph.inputs {
        analysis
            .inputs
            .insert(Symbol::from(vi.name.as_str()), vi.type_info());
    }
    let mut env: HashMap<String, Id> = HashMap::default();
    let mut plan = Plan {
        name: graph.name.clone(),
        inputs: graph.inputs.clone(),
        outputs: graph.outputs.clone(),
        ..Plan::default()
    };
    let init_names: Vec<String> = graph.initializers.iter().map(|(n, _)| n.clone()).collect();
    for (name, t) in graph.initializers {
        analysis.weights.insert(&name, t, true);
    }
    let mut eg = Graph::new(analysis);
    for vi in &graph.inputs {
        let id = eg.add(ENode::leaf(Op::Input(vi.name.as_str().into())));
        env.insert(vi.name.clone(), id);
    }
    for name in &init_names {
        let id = eg.add(ENode::leaf(Op::Weight(name.as_str().into())));
        env.insert(name.clone(), id);
    }
    let absent = eg.add(ENode::leaf(Op::Absent));
    for node in graph.nodes {
        let mut children = Vec::with_capacity(node.inputs.len());
        for i in &node.inputs {
            match i {
                None => children.push(absent),
                Some(n) => children.push(*env.get(n).ok_or_else(|| Error::Graph {
                    node: node.name.clone(),
                    message: format!("operand '{n}' is not defined before the node"),
                })?),
            }
        }
        let n_out = node.outputs.len().max(1);
        let key = OpKey::new(
            &node.op_type,
            &node.domain,
            node.attrs,
            n_out,
            &node.name,
            &[node.name.as_str()],
        );
        let id = eg.add(ENode {
            op: Op::Apply(Arc::new(key)),
            children,
        });
        plan.node_names.push(node.name.clone());
        if node.outputs.len() <= 1 {
            if let Some(o) = node.outputs.first() {
                env.insert(o.clone(), id);
                plan.value_names.push((id, o.clone()));
            }
        } else {
            for (k, o) in node.outputs.iter().enumerate() {
                if o.is_empty() {
                    continue;
                }
                let p = eg.add(ENode {
                    op: Op::Proj(k),
                    children: vec![id],
                });
                env.insert(o.clone(), p);
                plan.value_names.push((p, o.clone()));
            }
        }
    }
    let mut outs = Vec::with_capacity(graph.outputs.len());
    for vi in &graph.outputs {
        outs.push(*env.get(&vi.name).ok_or_else(|| Error::Graph {
            node: String::new(),
            message: format!("graph output '{}' is never computed", vi.name),
        })?);
    }
    let root = eg.add(ENode {
        op: Op::Outputs,
        children: outs,
    });
    eg.rebuild();
    Ok(Built {
        egraph: eg,
        root,
        plan,
    })
}
