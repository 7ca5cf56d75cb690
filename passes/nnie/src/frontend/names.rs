//! The names a clip-table key may use for a node: the ONNX model's own.
//!
//! MQBench keys its `gfpq_param_dict` by the ONNX node that consumes the
//! clipped value; people also write a node's output tensor name. The NNIE
//! layers carry the names the compile gives: the node's name (an unnamed
//! node is `<op_type>_<index>`), merged nodes joined by `+` (`conv1+bn1`),
//! pieces legalization made suffixed after a `/` (`fc/conv`, `conv/g3`).
//!
//! In: the model as loaded and the same graph with the compile's node names
//! (node `i` of one is node `i` of the other), or one graph for both. Out:
//! [`OnnxNames`] — every ONNX node name and output tensor name mapped to the
//! compiled node name — and [`OnnxNames::origins`], the compiled nodes a
//! layer comes from, so a key matches a layer when it names one of them.
//!
//! ```
//! use onnc_nnie::frontend::OnnxNames;
//! use onnc_onnx::{Graph, Node};
//! let raw = Graph { nodes: vec![Node::new("", "Conv", &["x", "w"], &["c1"])], ..Graph::default() };
//! let mut compiled = raw.clone();
//! compiled.nodes[0].name = "Conv_0".into();
//! let names = OnnxNames::new(&raw, &compiled);
//! assert_eq!(names.node("c1"), Some("Conv_0"));
//! assert_eq!(names.origins("Conv_0/g1", &[]), ["Conv_0/g1", "Conv_0"]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use onnc_onnx::Graph;

/// ONNX names → compiled node names (see the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OnnxNames {
    alias: BTreeMap<String, String>,
    nodes: BTreeSet<String>,
}

impl OnnxNames {
    /// From the model as loaded (`raw`) and the compile's names for the
    /// same nodes (`compiled`, same node order). Node names win over tensor
    /// names that spell the same text.
    pub fn new(raw: &Graph, compiled: &Graph) -> Self {
        let mut alias = BTreeMap::new();
        let pairs = || raw.nodes.iter().zip(&compiled.nodes);
        for (r, c) in pairs() {
            for o in r.outputs.iter().filter(|o| !o.is_empty()) {
                alias.insert(o.clone(), c.name.clone());
            }
        }
        for (r, c) in pairs() {
            if !r.name.is_empty() {
                alias.insert(r.name.clone(), c.name.clone());
            }
            alias.insert(c.name.clone(), c.name.clone());
        }
        let nodes = compiled.nodes.iter().map(|n| n.name.clone()).collect();
        Self { alias, nodes }
    }

    /// [`OnnxNames::new`] for a graph that already has the compile's names.
    pub fn of(graph: &Graph) -> Self {
        Self::new(graph, graph)
    }

    /// The compiled node a node or tensor name stands for.
    pub fn node(&self, name: &str) -> Option<&str> {
        self.alias.get(name).map(String::as_str)
    }

    /// Whether `name` is the compiled name of a node.
    pub fn is_node(&self, name: &str) -> bool {
        self.nodes.contains(name)
    }

    /// The names a layer answers to: its own, each `+` part of it, each
    /// part's longest `/`-prefix that is a node, and `sources`.
    pub fn origins(&self, layer: &str, sources: &[String]) -> Vec<String> {
        let mut out = vec![layer.to_string()];
        let mut add = |n: &str| {
            if !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        };
        for part in layer.split('+').filter(|p| !p.is_empty()) {
            add(part);
            let mut cut = part;
            while let Some(i) = cut.rfind('/') {
                cut = &cut[..i];
                if self.is_node(cut) {
                    add(cut);
                    break;
                }
            }
        }
        for s in sources {
            add(s);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::Node;

    fn graph(nodes: &[(&str, &str)]) -> Graph {
        Graph {
            nodes: nodes
                .iter()
                .map(|(n, out)| Node::new(n, "Conv", &["x"], &[out]))
                .collect(),
            ..Graph::default()
        }
    }

    #[test]
    fn node_names_win_over_tensor_names() {
        // node b's output tensor is called "a", like node a itself
        let g = graph(&[("a", "t"), ("b", "a")]);
        let n = OnnxNames::of(&g);
        assert_eq!(n.node("a"), Some("a"));
        assert_eq!(n.node("t"), Some("a"));
        assert_eq!(n.node("zz"), None);
    }

    #[test]
    fn origins_of_merged_and_split_layers() {
        let g = graph(&[("conv1", "c1"), ("bn1", "b1"), ("/m/fc", "y")]);
        let n = OnnxNames::of(&g);
        assert_eq!(n.origins("conv1+bn1", &[]), ["conv1+bn1", "conv1", "bn1"]);
        assert_eq!(n.origins("/m/fc/part1", &[]), ["/m/fc/part1", "/m/fc"]);
        // a prefix that is no node is not an origin
        assert_eq!(n.origins("/m/x/y", &[]), ["/m/x/y"]);
        assert_eq!(n.origins("p", &["q".into()]), ["p", "q"]);
    }
}
