//! Legalization rules: named, one topic per file, kept as data.
//!
//! In: a [`Target`]. Out: its rules ([`rules_for`]) as egg rewrites
//! ([`rewrites`]). Every rule is a [`Rule`] constant: a name
//! `<target-or-common>/<kebab-name>`, the op its left-hand side is rooted
//! at, the targets it is for, a one-line doc, and an `apply` function that
//! checks conditions (through [`crate::cond`] and the [`Cx`] helpers) and
//! builds the right-hand side, returning the e-class to merge with the
//! matched one. Rules never remove anything: the extractor decides, with the
//! target's cost model.
//!
//! Why Rust functions and not s-expression patterns: nearly every rule here
//! *computes* its right-hand side (folded weights, split sizes, reshape
//! shapes, correction constants) from attributes and constant values, which
//! a pattern language cannot express; conditions read e-class shapes and
//! constants. Keeping each rule a `const Rule` in a topic file keeps the set
//! declarative and reviewable, and `cargo test` type-checks every rule.
//! See `passes/legalize/README.md` for how to add one.
//!
//! ```
//! use onnc_legalize::{rules, Target};
//! let names: Vec<&str> = rules::rules_for(Target::NvFull).iter().map(|r| r.name).collect();
//! assert!(names.contains(&"common/gemm-to-conv"));
//! assert!(names.iter().all(|n| n.starts_with("common/") || n.starts_with("nvdla/") || n.starts_with("nv_full/")));
//! ```

use crate::analysis::{const_value, Graph};
use crate::lang::{ENode, Op, OpKey};
use crate::target::{Config, Target};
use egg::{Applier, Id, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol};
use onnc_onnx::TypeInfo;
use onnc_tensor::{Attr, Attrs, Tensor};
use std::sync::Arc;

pub mod activation;
pub mod arith;
pub mod batchnorm;
pub mod channel_select;
pub mod conv_split;
pub mod cpu;
pub mod gemm;
pub mod hard_swish;
pub mod identity;
pub mod layer_norm;
pub mod nnie;
pub mod nnie_erf;
pub mod nnie_layer_norm;
pub mod nnie_patch;
pub mod nnie_resize;
pub mod pad;
pub mod pool;
pub mod shape;
pub mod shuffle;
pub mod sigmoid_pwl;
pub mod stride;
pub mod transpose;
pub mod transpose_eltwise;
pub mod transpose_linear;

/// Which targets a rule is for.
pub type Targets = &'static [Target];

/// Every target.
pub const ALL: Targets = &crate::target::ALL_TARGETS;
/// The NVDLA configurations.
pub const NVDLA: Targets = &[Target::NvFull, Target::NvLarge, Target::NvSmall];
/// The NVDLA configurations and NNIE (layout moves both handle).
pub const NVDLA_NNIE: Targets = &[
    Target::NvFull,
    Target::NvLarge,
    Target::NvSmall,
    Target::Nnie,
];
/// BARVINN's MVU.
pub const MVU: Targets = &[Target::Mvu];

/// One legalization rule.
#[derive(Debug)]
pub struct Rule {
    /// `<target-or-common>/<kebab-name>`.
    pub name: &'static str,
    /// Whether the rule looks at the producers of its operands (then it is
    /// re-run when an operand e-class gains e-nodes; otherwise once per e-node).
    pub deep: bool,
    /// The op at the root of the left-hand side.
    pub op: &'static str,
    /// The targets it applies to.
    pub targets: Targets,
    /// What it does, one line.
    pub doc: &'static str,
    /// Checks conditions and builds the right-hand side.
    pub apply: fn(&mut Cx) -> Option<Id>,
}

/// Every rule, in a fixed order.
pub fn all_rules() -> Vec<&'static Rule> {
    let files: &[&'static [Rule]] = &[
        identity::RULES,
        shape::RULES,
        transpose::RULES,
        transpose_eltwise::RULES,
        transpose_linear::RULES,
        arith::RULES,
        activation::RULES,
        hard_swish::RULES,
        sigmoid_pwl::RULES,
        batchnorm::RULES,
        gemm::RULES,
        layer_norm::RULES,
        pool::RULES,
        nnie::RULES,
        nnie_layer_norm::RULES,
        nnie_erf::RULES,
        nnie_resize::RULES,
        nnie_patch::RULES,
        pad::RULES,
        conv_split::RULES,
        stride::RULES,
        shuffle::RULES,
        channel_select::RULES,
        cpu::RULES,
    ];
    files.iter().flat_map(|f| f.iter()).collect()
}

/// The rules for `target`, in a fixed order.
pub fn rules_for(target: Target) -> Vec<&'static Rule> {
    all_rules()
        .into_iter()
        .filter(|r| r.targets.contains(&target))
        .collect()
}

/// What an `apply` function sees: the matched e-node and the e-graph.
pub struct Cx<'a> {
    /// The e-graph.
    pub eg: &'a mut Graph,
    /// The target.
    pub target: Target,
    /// Its limits.
    pub cfg: Config,
    /// The matched e-node.
    pub node: ENode,
    /// Its key.
    pub key: Arc<OpKey>,
    /// Its e-class.
    pub class: Id,
}

impl Cx<'_> {
    /// Operand `i` of the matched node (the `Absent` class when out of range; check [`Cx::has`]).
    pub fn arg(&self, i: usize) -> Id {
        match self.node.children.get(i) {
            Some(c) => self.eg.find(*c),
            None => self
                .eg
                .lookup(ENode::leaf(Op::Absent))
                .unwrap_or(self.class),
        }
    }

    /// Number of operands.
    pub fn arity(&self) -> usize {
        self.node.children.len()
    }

    /// Whether operand `i` is present.
    pub fn has(&self, i: usize) -> bool {
        crate::cond::operand_present(self.eg, &self.node, i)
    }

    /// The `Absent` leaf.
    pub fn absent(&mut self) -> Id {
        self.eg.add(ENode::leaf(Op::Absent))
    }

    /// The type of a value class.
    pub fn ty(&self, id: Id) -> Option<TypeInfo> {
        self.eg[id].data.ty().cloned()
    }

    /// The static shape of a value class.
    pub fn shape(&self, id: Id) -> Option<Vec<usize>> {
        self.eg[id].data.shape()
    }

    /// The static shape of the matched node's result.
    pub fn out_shape(&self) -> Option<Vec<usize>> {
        self.eg[self.class].data.shape()
    }

    /// Whether a class is constant.
    pub fn is_const(&self, id: Id) -> bool {
        self.eg[id].data.konst
    }

    /// The value of a constant class.
    pub fn value(&self, id: Id) -> Option<Arc<Tensor>> {
        const_value(self.eg, id)
    }

    /// The values of a constant class as `f32`s.
    pub fn floats(&self, id: Id) -> Option<Vec<f32>> {
        Some(
            self.value(id)?
                .data()
                .to_f64_vec()
                .into_iter()
                .map(|v| v as f32)
                .collect(),
        )
    }

    /// Operand `i` of another e-node (e.g. a producer), canonical.
    pub fn child(&self, node: &ENode, i: usize) -> Option<Id> {
        node.children.get(i).map(|c| self.eg.find(*c))
    }

    /// The first application of `op` in class `id`.
    pub fn producer(&self, id: Id, op: &str) -> Option<ENode> {
        self.eg[id].nodes.iter().find(|n| n.is_op(op)).cloned()
    }

    /// How many e-nodes in the whole e-graph use class `id` as an operand (an upper bound on its consumers).
    pub fn uses(&self, id: Id) -> usize {
        let id = self.eg.find(id);
        let mut ps: Vec<Id> = self.eg[id].parents().map(|p| self.eg.find(p)).collect();
        ps.sort();
        ps.dedup();
        ps.len()
    }

    /// The matched node's name with `suffix` (`""` keeps it).
    pub fn name(&self, suffix: &str) -> String {
        format!("{}{}", self.key.name, suffix)
    }

    /// Adds an application named `<matched name><suffix>` with the matched node's sources.
    pub fn op(&mut self, op_type: &str, attrs: Attrs, children: &[Id], suffix: &str) -> Id {
        let name = self.name(suffix);
        let sources: Vec<Symbol> = self.key.sources.clone();
        self.op_with(op_type, "", attrs, children, 1, &name, &sources)
    }

    /// Adds an application with an explicit name, domain, result count and sources.
    #[allow(clippy::too_many_arguments)]
    pub fn op_with(
        &mut self,
        op_type: &str,
        domain: &str,
        attrs: Attrs,
        children: &[Id],
        n_out: usize,
        name: &str,
        sources: &[Symbol],
    ) -> Id {
        let srcs: Vec<&str> = sources.iter().map(|s| s.as_str()).collect();
        let key = OpKey::new(op_type, domain, attrs, n_out, name, &srcs);
        self.eg.add(ENode {
            op: Op::Apply(Arc::new(key)),
            children: children.to_vec(),
        })
    }

    /// Adds result `k` of a tuple class.
    pub fn proj(&mut self, tuple: Id, k: usize) -> Id {
        self.eg.add(ENode {
            op: Op::Proj(k),
            children: vec![tuple],
        })
    }

    /// Adds a named tensor (`<matched name>__<suffix>`) to the weight table and returns its leaf.
    pub fn tensor(&mut self, suffix: &str, t: Tensor) -> Id {
        let name = format!("{}__{}", self.key.name, suffix);
        let sym = self.eg.analysis.weights.insert(&name, t, false);
        self.eg.add(ENode::leaf(Op::Weight(sym)))
    }

    /// Adds an `i64` vector constant.
    pub fn ints(&mut self, suffix: &str, v: &[i64]) -> Id {
        let t = Tensor::from_i64(vec![v.len()], v.to_vec())
            .unwrap_or_else(|_| Tensor::full(onnc_tensor::DType::I64, vec![0], 0.0));
        self.tensor(suffix, t)
    }

    /// Adds an `f32` constant of `shape`.
    pub fn f32s(&mut self, suffix: &str, shape: Vec<usize>, v: Vec<f32>) -> Option<Id> {
        let t = Tensor::from_f32(shape, v).ok()?;
        Some(self.tensor(suffix, t))
    }
}

/// An `f32` tensor converted to `dtype` (moved, not copied, when `dtype` is `f32`).
pub fn as_dtype(t: Tensor, dtype: onnc_tensor::DType) -> Tensor {
    if dtype == onnc_tensor::DType::F32 {
        t
    } else {
        t.cast(dtype)
    }
}

/// Attributes from `(name, value)` pairs.
pub fn attrs(pairs: &[(&str, Attr)]) -> Attrs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Searcher: every e-class holding an application of one op.
struct OpSearcher(Symbol);

impl Searcher<ENode, crate::analysis::TensorAnalysis> for OpSearcher {
    /// Skips the scan when no e-class holds the operator (egg's index by
    /// [`crate::lang::OpKind`]); otherwise scans the e-classes in egg's own
    /// order, as the default does, so rules fire in the same order.
    fn search_with_limit(&self, eg: &Graph, limit: usize) -> Vec<SearchMatches<'_, ENode>> {
        let present = eg
            .classes_for_op(&crate::lang::OpKind::Apply(self.0))
            .is_some_and(|mut ids| ids.next().is_some());
        if !present || limit == 0 {
            return vec![];
        }
        let mut out = vec![];
        for class in eg.classes() {
            if out.len() == limit {
                break;
            }
            if class
                .nodes
                .iter()
                .any(|n| n.key().is_some_and(|k| k.op_type == self.0))
            {
                out.push(SearchMatches {
                    eclass: class.id,
                    substs: vec![Subst::default()],
                    ast: None,
                });
            }
        }
        out
    }

    fn search_eclass_with_limit(
        &self,
        eg: &Graph,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, ENode>> {
        let hit = limit > 0
            && eg[eclass]
                .nodes
                .iter()
                .any(|n| n.key().is_some_and(|k| k.op_type == self.0));
        hit.then(|| SearchMatches {
            eclass,
            substs: vec![Subst::default()],
            ast: None,
        })
    }

    fn vars(&self) -> Vec<egg::Var> {
        vec![]
    }
}

/// Applier: runs the rule on each matching e-node of the class once.
struct RuleApplier {
    idx: usize,
    rule: &'static Rule,
    target: Target,
}

impl Applier<ENode, crate::analysis::TensorAnalysis> for RuleApplier {
    fn apply_one(
        &self,
        eg: &mut Graph,
        eclass: Id,
        _: &Subst,
        _: Option<&PatternAst<ENode>>,
        _: Symbol,
    ) -> Vec<Id> {
        let eclass = eg.find(eclass);
        let op = Symbol::from(self.rule.op);
        let nodes: Vec<ENode> = eg[eclass]
            .nodes
            .iter()
            .filter(|n| n.key().is_some_and(|k| k.op_type == op))
            .cloned()
            .collect();
        let mut changed = vec![];
        for node in nodes {
            let sizes: Vec<usize> = if self.rule.deep {
                node.children.iter().map(|c| eg[*c].nodes.len()).collect()
            } else {
                vec![]
            };
            if !eg.analysis.fired.insert((self.idx, node.clone(), sizes)) {
                continue;
            }
            let Some(key) = node.key().map(|k| Arc::new(k.clone())) else {
                continue;
            };
            let class = eg.find(eclass);
            let mut cx = Cx {
                eg,
                target: self.target,
                cfg: self.target.config(),
                node,
                key,
                class,
            };
            if let Some(new) = (self.rule.apply)(&mut cx) {
                // Count a firing only when it changed the e-graph (a new
                // equivalence), as the report documents.
                if eg.union(new, class) {
                    changed.push(eg.find(class));
                    *eg.analysis.fire_counts.entry(self.rule.name).or_insert(0) += 1;
                }
            }
        }
        changed
    }
}

/// The rules for `target` as egg rewrites, in a fixed order.
pub fn rewrites(target: Target) -> Vec<Rewrite<ENode, crate::analysis::TensorAnalysis>> {
    rules_for(target)
        .into_iter()
        .enumerate()
        .filter_map(|(idx, rule)| {
            Rewrite::new(
                rule.name,
                OpSearcher(Symbol::from(rule.op)),
                RuleApplier { idx, rule, target },
            )
            .ok()
        })
        .collect()
}

#[cfg(test)]
mod table {
    use super::*;

    #[test]
    fn rule_table() {
        let mut names = std::collections::BTreeSet::new();
        for r in all_rules() {
            let (prefix, kebab) = r
                .name
                .split_once('/')
                .expect("rule names are <target-or-common>/<kebab-name>");
            assert!(
                ["common", "nvdla", "nv_full", "nv_large", "nv_small", "nnie", "mvu"]
                    .contains(&prefix),
                "{}",
                r.name
            );
            assert!(
                kebab
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                r.name
            );
            assert!(!r.targets.is_empty() && !r.doc.is_empty(), "{}", r.name);
            assert!(names.insert(r.name), "duplicate rule {}", r.name);
            let targets: Vec<&str> = r.targets.iter().map(|t| t.name()).collect();
            println!(
                "{:<30} {:<18} {:<42} {}",
                r.name,
                r.op,
                targets.join(","),
                r.doc
            );
        }
    }
}

/// Test support: build a one-node graph, legalize it and list the result's ops.
#[cfg(test)]
pub(crate) mod testing {
    use crate::{legalize, Options, Target};
    use onnc_onnx::{Dim, Graph, Node, ValueInfo};
    use onnc_tensor::{DType, Tensor};

    /// A value info with a fixed shape.
    pub fn vi(name: &str, shape: &[usize]) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: DType::F32,
            dims: shape.iter().map(|&d| Dim::Fixed(d)).collect(),
        }
    }

    /// A graph with one f32 input `x`, output `y`, the given nodes and initializers.
    pub fn graph(x: &[usize], y: &[usize], nodes: Vec<Node>, inits: Vec<(&str, Tensor)>) -> Graph {
        Graph {
            name: "t".into(),
            inputs: vec![vi("x", x)],
            outputs: vec![vi("y", y)],
            initializers: inits.into_iter().map(|(n, t)| (n.to_string(), t)).collect(),
            nodes,
        }
    }

    /// An f32 tensor of `shape` with [`rand`] values.
    pub fn w(shape: &[usize], seed: u64) -> Tensor {
        Tensor::from_f32(shape.to_vec(), rand(shape.iter().product(), seed)).unwrap()
    }

    /// A `Transpose{perm}(i) → o` node.
    pub fn tr(name: &str, perm: &[i64], i: &str, o: &str) -> Node {
        Node::new(name, "Transpose", &[i], &[o])
            .with_attr("perm", onnc_tensor::Attr::Ints(perm.to_vec()))
    }

    /// Deterministic pseudo-random f32s in [-1, 1).
    pub fn rand(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    }

    /// The op types of the legalized graph.
    /// erf by its series (|z| < 3) and continued fraction (beyond), to
    /// 1e-12: the test's own reference, independent of the rule.
    pub fn erf_reference(z: f64) -> f64 {
        let x = z.abs();
        let v = if x < 3.0 {
            let (mut term, mut sum, mut n) = (x, x, 0.0);
            while term.abs() > 1e-17 {
                n += 1.0;
                term *= -x * x / n;
                sum += term / (2.0 * n + 1.0);
            }
            sum * std::f64::consts::FRAC_2_SQRT_PI
        } else {
            // erfc(x) = exp(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …))))
            let mut f = 0.0;
            for k in (1..60).rev() {
                f = (f64::from(k) / 2.0) / (x + f);
            }
            1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / (x + f)
        };
        v.copysign(z)
    }

    pub fn ops_after(g: Graph, t: Target) -> Vec<String> {
        let r = legalize(g, t, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        r.graph.nodes.iter().map(|n| n.op_type.clone()).collect()
    }

    /// Runs `g` and its legalization on `x` and compares outputs.
    pub fn same_numbers(g: Graph, t: Target, x_shape: &[usize], tol: f32) {
        let x = Tensor::from_f32(x_shape.to_vec(), rand(x_shape.iter().product(), 7)).unwrap();
        let before = onnc_interp::run_graph(&g, &[("x".into(), x.clone())]).unwrap();
        let after_g = legalize(g, t, &Options::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .graph;
        let after = onnc_interp::run_graph(&after_g, &[("x".into(), x)])
            .unwrap_or_else(|e| panic!("{e}: {after_g:#?}"));
        let (a, b) = (before[0].1.as_f32().unwrap(), after[0].1.as_f32().unwrap());
        assert_eq!(before[0].1.shape(), after[0].1.shape());
        for (i, (p, q)) in a.iter().zip(b).enumerate() {
            assert!(
                (p - q).abs() <= tol * (1.0 + p.abs()),
                "element {i}: {p} vs {q}"
            );
        }
    }
}
