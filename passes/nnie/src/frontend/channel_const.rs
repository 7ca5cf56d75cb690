//! `Mul`/`Add` of a feature map by one constant per channel as a Caffe
//! Scale with a bias (`nnie.affine`, the layer `BatchNormalization` also
//! becomes): ConvNeXt's layer scale `γ·x`, and the `γ`/`β` and Linear biases
//! of its layer norms and MLPs once their Transposes have sunk (onnc-legalize,
//! `common/transpose-through-*`, `nnie/layer-norm-channels`).
//!
//! In: a node of the legalized graph and the graph's shapes. Out: `None`
//! unless the node is `Mul(x, c)` / `Add(x, c)` (either order) with `x` an
//! `N×C×H×W` feature map and `c` a constant of shape `[C, 1, 1]` or
//! `[1, C, 1, 1]`; else the layer: weight `c` and bias 0 for `Mul`, weight 1
//! and bias `c` for `Add` (exact: one f32 multiply or add per element).

use std::collections::HashMap;

use onnc_onnx::{Graph, Node, TypeInfo};
use onnc_tensor::Tensor;

use super::layer::{Layer, LayerKind};

/// `(what, fix)` of a refusal.
type Why = (String, String);

/// The Scale layer of a per-channel `Mul`/`Add` (module doc).
pub(super) fn affine(
    graph: &Graph,
    types: &HashMap<String, TypeInfo>,
    node: &Node,
    top: &str,
) -> Option<Result<Layer, Why>> {
    let op = node.op_type.as_str();
    if op != "Mul" && op != "Add" {
        return None;
    }
    let (a, b) = (node.input(0)?, node.input(1)?);
    let (x, c) = match (graph.initializer(a), graph.initializer(b)) {
        (None, Some(c)) => (a, c),
        (Some(c), None) => (b, c),
        _ => return None,
    };
    let shape = types.get(x).and_then(TypeInfo::static_shape)?;
    if !onnc_legalize::targets::nnie::per_channel(c.shape(), &shape) {
        return None;
    }
    let values: Vec<f32> = c
        .data()
        .to_f64_vec()
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let n = values.len();
    let (weight, bias) = if op == "Mul" {
        (values, vec![0.0; n])
    } else {
        (vec![1.0; n], values)
    };
    let t = |v| {
        Tensor::from_f32(vec![n], v)
            .map_err(|e| (e.to_string(), "report this as a bug".to_string()))
    };
    let (w, b) = match (t(weight), t(bias)) {
        (Ok(w), Ok(b)) => (w, b),
        (Err(e), _) | (_, Err(e)) => return Some(Err(e)),
    };
    let mut l = Layer::new(&node.name, op, LayerKind::Affine, vec![x.to_string()], top);
    l.weight = Some(w);
    l.bias = Some(b);
    Some(Ok(l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use onnc_onnx::ValueInfo;

    fn graph_with(c_shape: Vec<usize>, op: &str) -> (Graph, HashMap<String, TypeInfo>) {
        let n: usize = c_shape.iter().product();
        let c = Tensor::from_f32(c_shape, (0..n).map(|i| i as f32 + 0.5).collect()).unwrap();
        let g = Graph {
            name: "g".into(),
            inputs: vec![ValueInfo::f32("x", &[1, 3, 2, 2])],
            outputs: vec![],
            initializers: vec![("c".into(), c)],
            nodes: vec![Node::new("n", op, &["c", "x"], &["y"])],
        };
        let types = [(
            "x".to_string(),
            TypeInfo::fixed(onnc_tensor::DType::F32, &[1, 3, 2, 2]),
        )]
        .into_iter()
        .collect();
        (g, types)
    }

    #[test]
    fn per_channel_mul_and_add_are_scale_layers_with_weight_or_bias() {
        for shape in [vec![3, 1, 1], vec![1, 3, 1, 1]] {
            let (g, types) = graph_with(shape.clone(), "Mul");
            let l = affine(&g, &types, &g.nodes[0], "y").unwrap().unwrap();
            assert_eq!(l.kind, LayerKind::Affine);
            assert_eq!(l.bottoms, ["x"]);
            assert_eq!(l.weight.unwrap().as_f32().unwrap(), [0.5, 1.5, 2.5]);
            assert_eq!(l.bias.unwrap().as_f32().unwrap(), [0.0; 3]);
            let (g, types) = graph_with(shape, "Add");
            let l = affine(&g, &types, &g.nodes[0], "y").unwrap().unwrap();
            assert_eq!(l.weight.unwrap().as_f32().unwrap(), [1.0; 3]);
            assert_eq!(l.bias.unwrap().as_f32().unwrap(), [0.5, 1.5, 2.5]);
        }
    }

    #[test]
    fn other_constants_are_left_to_the_other_forms() {
        // A scalar is a Power layer; a row vector is not per channel.
        for shape in [vec![], vec![1, 1, 1, 2], vec![3]] {
            let (g, types) = graph_with(shape.clone(), "Mul");
            assert!(affine(&g, &types, &g.nodes[0], "y").is_none(), "{shape:?}");
        }
        let (g, types) = graph_with(vec![3, 1, 1], "Sub");
        assert!(affine(&g, &types, &g.nodes[0], "y").is_none());
    }
}
