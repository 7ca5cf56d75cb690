//! The model's own ONNX nodes, and the way back to them from the names the
//! lowering carries.
//!
//! In: the model's graph right after import (names canonical: an unnamed
//! node is `<op_type>_<index>`), and later the node names a hardware layer
//! records (`Op::onnx_nodes`, NNIE/MVU layer names). Legalization names
//! what it makes after the node it came from plus a `/` suffix
//! (`conv/g3`, `conv/groups/slice3`, `fc/part1`), so a recorded name maps to
//! the longest prefix, cut at a `/`, that is a node of the model. Out:
//! [`Origins::resolve`] and the per-node view [`Origins::view`], with each
//! node's MACs computed from the model's inferred shapes.
//!
//! ```text
//! resolve("n11/groups/slice7") == Some("n11")     (n11 is a node of the model)
//! resolve("/layer1/layer1.0/conv1") == Some("/layer1/layer1.0/conv1")
//! ```

use super::{HwLayer, OnnxNode};
use onnc_onnx::{Graph, Node, TypeInfo};
use std::collections::{BTreeSet, HashMap};

/// The model's nodes (name, op type, MACs) in graph order.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    nodes: Vec<(String, String, u64)>,
    index: HashMap<String, usize>,
}

fn elements(shape: &[usize]) -> u64 {
    shape.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64))
}

/// Multiply-accumulates of one node, from its operands' and results' shapes
/// (0 for ops without a product-sum, or when a shape is unknown).
pub fn node_macs(node: &Node, types: &HashMap<String, TypeInfo>) -> u64 {
    let shape = |v: Option<&String>| {
        v.and_then(|v| types.get(v))
            .and_then(TypeInfo::static_shape)
    };
    let input = |i: usize| shape(node.inputs.get(i).and_then(|v| v.as_ref()));
    let output = shape(node.outputs.first());
    let per = |w: &[usize]| match w.first() {
        Some(&k) if k > 0 => elements(w) / k as u64,
        _ => 0,
    };
    match node.op_type.as_str() {
        // out[n,k,y,x] sums C/g · kh · kw products.
        "Conv" => match (output, input(1)) {
            (Some(o), Some(w)) => elements(&o).saturating_mul(per(&w)),
            _ => 0,
        },
        // Every input element is spread over (K/g) · kh · kw outputs.
        "ConvTranspose" => match (input(0), input(1)) {
            (Some(x), Some(w)) => elements(&x).saturating_mul(per(&w)),
            _ => 0,
        },
        "Gemm" => {
            let trans_a = node
                .attrs
                .get("transA")
                .and_then(|a| a.as_int())
                .unwrap_or(0);
            match (output, input(0)) {
                (Some(o), Some(a)) if a.len() == 2 => {
                    elements(&o).saturating_mul(a[if trans_a == 0 { 1 } else { 0 }] as u64)
                }
                _ => 0,
            }
        }
        "MatMul" => match (output, input(0)) {
            (Some(o), Some(a)) => elements(&o).saturating_mul(*a.last().unwrap_or(&0) as u64),
            _ => 0,
        },
        _ => 0,
    }
}

impl Origins {
    /// The nodes of `g` (shapes inferred for the MACs; a graph whose shapes
    /// cannot be inferred gets 0 MACs everywhere).
    pub fn from_graph(g: &Graph) -> Origins {
        let types = onnc_onnx::infer_graph(g).unwrap_or_default();
        let nodes: Vec<(String, String, u64)> = g
            .nodes
            .iter()
            .map(|n| (n.name.clone(), n.op_type.clone(), node_macs(n, &types)))
            .collect();
        let index = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.0.clone(), i))
            .collect();
        Origins { nodes, index }
    }

    /// The model's node a recorded name comes from: the name itself, or its
    /// longest prefix ending before a `/` that is a node; `None` if neither.
    pub fn resolve<'a>(&'a self, name: &str) -> Option<&'a str> {
        let mut cut = name;
        loop {
            if let Some(&i) = self.index.get(cut) {
                return Some(&self.nodes[i].0);
            }
            cut = &cut[..cut.rfind('/')?];
        }
    }

    /// `names` mapped to the model's nodes, without repeats, in first-seen
    /// order; a name that maps to no node is kept as it is.
    pub fn map_names(&self, names: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for n in names {
            let m = self.resolve(n).unwrap_or(n).to_string();
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    /// The per-node view: every node of the model, with the hardware layers
    /// whose `onnx_nodes` name it.
    pub fn view(&self, layers: &[HwLayer]) -> Vec<OnnxNode> {
        let mut per: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for (li, l) in layers.iter().enumerate() {
            for n in &l.onnx_nodes {
                if let Some(&i) = self.index.get(n) {
                    if !per[i].contains(&li) {
                        per[i].push(li);
                    }
                }
            }
        }
        self.nodes
            .iter()
            .zip(per)
            .enumerate()
            .map(|(index, ((name, op_type, macs), ls))| {
                let mut engines: Vec<&str> = Vec::new();
                for &li in &ls {
                    for e in &layers[li].engines {
                        if !engines.contains(&e.as_str()) {
                            engines.push(e);
                        }
                    }
                }
                let quant: BTreeSet<bool> = ls
                    .iter()
                    .filter_map(|&li| layers[li].quant.as_ref().map(|q| q.calibrated))
                    .collect();
                OnnxNode {
                    index,
                    name: name.clone(),
                    op_type: op_type.clone(),
                    hw_layers: ls.iter().map(|&li| layers[li].name.clone()).collect(),
                    engine: if engines.is_empty() {
                        "-".into()
                    } else {
                        engines.join("+")
                    },
                    precision: ls
                        .first()
                        .map_or("-".into(), |&li| layers[li].precision.clone()),
                    macs: *macs,
                    descriptors: ls.iter().map(|&li| layers[li].descriptors).sum(),
                    weight_bytes: ls.iter().map(|&li| layers[li].weight_bytes).sum(),
                    output_bytes: ls.iter().map(|&li| layers[li].output_bytes).sum(),
                    calibrated: if quant.is_empty() {
                        None
                    } else {
                        Some(!quant.contains(&false))
                    },
                }
            })
            .collect()
    }
}

/// The model's nodes as the compile names them: loaded with the
/// `--input-shape` specs and canonicalized like the import stage does.
pub fn load(model: &std::path::Path, shapes: &[String]) -> Result<Origins, Vec<String>> {
    let mut g = crate::stages::load(model, shapes)?.graph;
    onnc_passes::pipeline::names::canonicalize(&mut g)
        .map_err(|e| vec![format!("{}: error: {e}", model.display())])?;
    Ok(Origins::from_graph(&g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(names: &[&str]) -> Origins {
        let nodes: Vec<(String, String, u64)> = names
            .iter()
            .map(|n| (n.to_string(), "Conv".to_string(), 0))
            .collect();
        let index = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.0.clone(), i))
            .collect();
        Origins { nodes, index }
    }

    #[test]
    fn legalized_pieces_map_back_to_their_node() {
        let o = origins(&["n11", "/layer1/conv1", "a/b"]);
        assert_eq!(o.resolve("n11/groups/slice7"), Some("n11"));
        assert_eq!(o.resolve("n11/g95"), Some("n11"));
        assert_eq!(o.resolve("/layer1/conv1"), Some("/layer1/conv1"));
        assert_eq!(o.resolve("/layer1/conv1/part0"), Some("/layer1/conv1"));
        assert_eq!(o.resolve("a/b/c"), Some("a/b"));
        assert_eq!(o.resolve("n1"), None);
        assert_eq!(o.resolve("/layer1"), None);
        let names: Vec<String> = ["n11", "n11/g0", "n11/g1", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(o.map_names(&names), ["n11", "x"]);
    }
}
