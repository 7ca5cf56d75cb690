//! ONNX nodes the NNIE lowering maps besides [`super::lower`]'s table:
//! element-wise activations, one-axis slices and scalar affine maps.
//!
//! In: a node of the legalized graph (its constant operands from the graph's
//! initializers, shapes from `types`). Out: `None` when the node is not one
//! of these forms (the main table decides), else the layer kind and its data
//! inputs, or why it cannot run (what, fix).
//!
//! | ONNX | layer | conditions |
//! |---|---|---|
//! | Sigmoid | Sigmoid | |
//! | Tanh | TanH | |
//! | Slice | Slice | one axis (1–3) of a 4-D tensor, step 1, constant bounds; the unused pieces are extra tops |
//! | Split | Slice (one top per output) | 4-D, axis 1–3, static output shapes |
//! | Mul(x, c), Add(x, c) | Power `y = scale·x + shift` | `c` a constant scalar, `x` a feature map |
//! | Pow(x, p) | Power `y = x^p` | `p` a constant scalar |
//! | Mul(x, g) | Flatten + Scale (axis 0) | `x` N×C×H×W, `g` N×C×1×1, both feature maps (squeeze-excitation) |
//! | BatchNormalization | Scale with bias | 4-D, constant parameters: `scale = γ/√(σ²+ε)`, `bias = β − μ·scale` |

use std::collections::HashMap;

use onnc_onnx::{Graph, Node, TypeInfo};

use super::layer::{Layer, LayerKind};
use onnc_tensor::Tensor;

/// `(what, fix)` of a refusal.
type Why = (String, String);

/// The layer of `node` when it is one of this file's forms (module doc).
pub(super) fn lower(
    graph: &Graph,
    types: &HashMap<String, TypeInfo>,
    node: &Node,
) -> Option<Result<(LayerKind, Vec<String>), Why>> {
    let x0 = || node.input(0).map(str::to_string).into_iter().collect();
    match node.op_type.as_str() {
        "Sigmoid" => Some(Ok((LayerKind::Sigmoid, x0()))),
        "Tanh" => Some(Ok((LayerKind::Tanh, x0()))),
        "Slice" => Some(slice(graph, types, node).map(|k| (k, x0()))),
        "Split" => Some(split(types, node).map(|k| (k, x0()))),
        "Mul" => power(graph, node).or_else(|| channel_scale(graph, types, node)),
        "Add" => power(graph, node),
        "Pow" => Some(pow(graph, node)),
        _ => None,
    }
}

/// The values of constant operand `i` as `i64`s.
fn const_ints(graph: &Graph, node: &Node, i: usize) -> Option<Vec<i64>> {
    Some(graph.initializer(node.input(i)?)?.data().to_i64_vec())
}

fn slice(graph: &Graph, types: &HashMap<String, TypeInfo>, node: &Node) -> Result<LayerKind, Why> {
    let bad = |what: String| {
        (
            format!("Slice {what}; NNIE's Slice cuts one axis with step 1"),
            "slice one of the channel, row or column axes with constant bounds and step 1 (or move the slice to the host)".to_string(),
        )
    };
    let x = node
        .input(0)
        .and_then(|n| types.get(n))
        .and_then(TypeInfo::static_shape)
        .unwrap_or_default();
    if x.len() != 4 {
        return Err(bad(format!("of a {}-D tensor", x.len())));
    }
    let present = |i| node.input(i).is_some();
    if (1..=4).any(|i| present(i) && graph.initializer(node.input(i).unwrap_or("")).is_none()) {
        return Err(bad("with bounds computed at run time".into()));
    }
    let starts = const_ints(graph, node, 1).unwrap_or_default();
    let ends = const_ints(graph, node, 2).unwrap_or_default();
    let axes = const_ints(graph, node, 3).unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = const_ints(graph, node, 4).unwrap_or_else(|| vec![1; starts.len()]);
    if starts.len() != 1 || ends.len() != 1 || axes.len() != 1 || steps.len() != 1 {
        return Err(bad(format!("of {} axes", starts.len())));
    }
    let axis = if axes[0] < 0 { axes[0] + 4 } else { axes[0] };
    if !(1..4).contains(&axis) {
        return Err(bad(format!("of axis {}", axes[0])));
    }
    let len = x[axis as usize];
    let (start, end) =
        onnc_legalize::targets::nnie_slice::window(starts[0], ends[0], steps[0], len)
            .map_err(|e| bad(format!("needs {e}")))?;
    Ok(LayerKind::Slice {
        axis: axis as usize,
        start,
        end,
        len,
    })
}

/// `Mul(x, c)` / `Add(x, c)` with one scalar constant `c` (either operand).
fn power(graph: &Graph, node: &Node) -> Option<Result<(LayerKind, Vec<String>), Why>> {
    let (a, b) = (node.input(0)?, node.input(1)?);
    let (x, c) = match (graph.initializer(a), graph.initializer(b)) {
        (None, Some(c)) => (a, c),
        (Some(c), None) => (b, c),
        _ => return None,
    };
    let v = c.data().to_f64_vec();
    if v.len() != 1 {
        return None;
    }
    let v = v[0] as f32;
    let kind = if node.op_type == "Mul" {
        LayerKind::Power {
            scale: v,
            shift: 0.0,
            power: 1.0,
        }
    } else {
        LayerKind::Power {
            scale: 1.0,
            shift: v,
            power: 1.0,
        }
    };
    Some(Ok((kind, vec![x.to_string()])))
}

/// `Pow(x, p)` with a constant scalar exponent `p`: Power `y = x^p`.
fn pow(graph: &Graph, node: &Node) -> Result<(LayerKind, Vec<String>), Why> {
    let refuse = || {
        (
            "Pow with an exponent that is not one constant scalar; Caffe's Power raises to one fixed power".to_string(),
            "raise to a constant scalar power".to_string(),
        )
    };
    let x = node.input(0).ok_or_else(refuse)?;
    let p = node
        .input(1)
        .and_then(|n| graph.initializer(n))
        .map(|t| t.data().to_f64_vec())
        .filter(|v| v.len() == 1 && graph.initializer(x).is_none())
        .ok_or_else(refuse)?;
    let kind = LayerKind::Power {
        scale: 1.0,
        shift: 0.0,
        power: p[0] as f32,
    };
    Ok((kind, vec![x.to_string()]))
}

fn split(types: &HashMap<String, TypeInfo>, node: &Node) -> Result<LayerKind, Why> {
    let shape = |n: &str| types.get(n).and_then(TypeInfo::static_shape);
    let x = node.input(0).and_then(shape).unwrap_or_default();
    let rank = x.len() as i64;
    let a = node
        .attrs
        .get("axis")
        .and_then(onnc_tensor::Attr::as_int)
        .unwrap_or(0);
    let axis = if a < 0 { a + rank } else { a };
    if rank != 4 || !(1..4).contains(&axis) {
        return Err((
            format!("Split of axis {a} of a {rank}-D tensor; NNIE's Slice cuts the channel, row or column axis of a 4-D map"),
            "split a 4-D feature map along channels, rows or columns".into(),
        ));
    }
    let axis = axis as usize;
    let mut points = Vec::new();
    let mut at = 0;
    for (k, out) in node.outputs.iter().enumerate() {
        let s = shape(out).ok_or_else(|| {
            (
                format!("output `{out}` has no static shape"),
                "export with fixed input shapes".to_string(),
            )
        })?;
        if k > 0 {
            points.push(at);
        }
        at += s.get(axis).copied().unwrap_or(0);
    }
    if at != x[axis] {
        return Err((
            format!("the pieces cover {at} of {} on axis {axis}", x[axis]),
            "report this as a bug (shape inference disagrees with the Split)".into(),
        ));
    }
    Ok(LayerKind::Split {
        axis,
        points,
        tops: node.outputs.clone(),
    })
}

/// `Mul(x, g)` / `Mul(g, x)` with `x` N×C×H×W and `g` N×C×1×1, both
/// computed: the bottoms `[x, g]`.
fn channel_scale(
    graph: &Graph,
    types: &HashMap<String, TypeInfo>,
    node: &Node,
) -> Option<Result<(LayerKind, Vec<String>), Why>> {
    let (a, b) = (node.input(0)?, node.input(1)?);
    if graph.initializer(a).is_some() || graph.initializer(b).is_some() {
        return None;
    }
    let shape = |n: &str| types.get(n).and_then(TypeInfo::static_shape);
    let (sa, sb) = (shape(a)?, shape(b)?);
    let gate = |g: &[usize], x: &[usize]| {
        g.len() == 4 && x.len() == 4 && g[..2] == x[..2] && g[2..] == [1, 1] && x[2] * x[3] > 1
    };
    let bottoms = if gate(&sb, &sa) {
        vec![a.to_string(), b.to_string()]
    } else if gate(&sa, &sb) {
        vec![b.to_string(), a.to_string()]
    } else {
        return None;
    };
    Some(Ok((LayerKind::ChannelScale, bottoms)))
}

/// `BatchNormalization` (inference) as a per-channel affine layer: the
/// layer with its `weight` (scale) and `bias`.
pub(super) fn batch_norm(
    graph: &Graph,
    types: &HashMap<String, TypeInfo>,
    node: &Node,
    top: &str,
) -> Option<Result<Layer, Why>> {
    if node.op_type != "BatchNormalization" {
        return None;
    }
    let x = node.input(0)?;
    let c = match types.get(x).and_then(TypeInfo::static_shape) {
        Some(s) if s.len() == 4 => s[1],
        s => {
            return Some(Err((
                format!("BatchNormalization of shape {s:?}; NNIE's Scale needs an N×C×H×W map"),
                "normalize a 4-D feature map".into(),
            )))
        }
    };
    let param = |i: usize| -> Option<Vec<f32>> {
        let t = graph.initializer(node.input(i)?)?;
        let v: Vec<f32> = t
            .data()
            .to_f64_vec()
            .into_iter()
            .map(|v| v as f32)
            .collect();
        (v.len() == c).then_some(v)
    };
    let (Some(gamma), Some(beta), Some(mean), Some(var)) = (param(1), param(2), param(3), param(4))
    else {
        return Some(Err((
            "BatchNormalization parameters are not constant per-channel vectors".into(),
            "export the model in inference mode with constant statistics".into(),
        )));
    };
    let eps = node
        .attrs
        .get("epsilon")
        .and_then(onnc_tensor::Attr::as_float)
        .unwrap_or(1e-5);
    let scale: Vec<f32> = (0..c).map(|i| gamma[i] / (var[i] + eps).sqrt()).collect();
    let bias: Vec<f32> = (0..c).map(|i| beta[i] - mean[i] * scale[i]).collect();
    let t = |v| {
        Tensor::from_f32(vec![c], v)
            .map_err(|e| (e.to_string(), "report this as a bug".to_string()))
    };
    let (w, b) = match (t(scale), t(bias)) {
        (Ok(w), Ok(b)) => (w, b),
        (Err(e), _) | (_, Err(e)) => return Some(Err(e)),
    };
    let mut l = Layer::new(
        &node.name,
        &node.op_type,
        LayerKind::Affine,
        vec![x.to_string()],
        top,
    );
    l.weight = Some(w);
    l.bias = Some(b);
    Some(Ok(l))
}
