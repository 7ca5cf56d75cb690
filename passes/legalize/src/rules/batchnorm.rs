//! Batch normalization at inference: folded into the preceding `Conv`'s
//! weights and bias, or expanded into `Mul` + `Add` with per-channel constants,
//! or (on the MVU, which multiplies only in its matrix units) a depthwise 1×1
//! `Conv` with weights `S` and bias `B`.
//!
//! In: `BatchNormalization(x, scale, bias, mean, var)` with constant
//! parameters, one result. Out: `Conv(x', W·S, (b − mean)·S + bias)` when `x`
//! is a Conv with constant weights used only by this BN (name `conv+bn`), else
//! `Add(Mul(x, S), B)` with `S = scale / √(var + ε)`, `B = bias − mean·S`
//! as new initializers.
//!
//! ```text
//! common/bn-fold-into-conv  (BatchNormalization (Conv x W b) s β m v)  => (Conv x W' b')
//! common/bn-to-mul-add      (BatchNormalization x s β m v)             => (Add (Mul x S) B)
//! mvu/bn-to-depthwise-conv  (BatchNormalization x s β m v)             => (Conv{group=C, 1×1} x S B)
//! ```

use super::{attrs, Cx, Rule, ALL, MVU};
use egg::{Id, Symbol};
use onnc_tensor::{Attrs, Tensor};

/// The rules of this file (fold first: it must see the Conv with one consumer).
pub const RULES: &[Rule] = &[
    Rule {
        name: "common/bn-fold-into-conv",
        deep: true,
        op: "BatchNormalization",
        targets: ALL,
        doc: "BN after Conv folds into the Conv's weights and bias",
        apply: fold,
    },
    Rule {
        name: "common/bn-to-mul-add",
        deep: false,
        op: "BatchNormalization",
        targets: ALL,
        doc: "BN = x·S + B with per-channel constants",
        apply: mul_add,
    },
    Rule {
        name: "mvu/bn-to-depthwise-conv",
        deep: false,
        op: "BatchNormalization",
        targets: MVU,
        doc: "BN = a depthwise 1×1 Conv with weights S and bias B (the MVU multiplies only in its matrix units)",
        apply: depthwise,
    },
];

/// Per-channel scale `S` and shift `B` of an inference BN, as f64s.
fn scale_shift(cx: &mut Cx) -> Option<(Vec<f64>, Vec<f64>)> {
    if cx.key.n_out != 1 || cx.key.int("training_mode").unwrap_or(0) != 0 || cx.arity() < 5 {
        return None;
    }
    let eps = cx.key.float("epsilon").unwrap_or(1e-5) as f64;
    let mut p = Vec::with_capacity(4);
    for i in 1..5 {
        let id = cx.arg(i);
        p.push(cx.value(id)?.data().to_f64_vec());
    }
    let c = p[0].len();
    if p.iter().any(|v| v.len() != c) {
        return None;
    }
    let s: Vec<f64> = (0..c).map(|i| p[0][i] / (p[3][i] + eps).sqrt()).collect();
    let b: Vec<f64> = (0..c).map(|i| p[1][i] - p[2][i] * s[i]).collect();
    Some((s, b))
}

fn mul_add(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let dtype = cx.ty(x)?.dtype;
    let (s, b) = scale_shift(cx)?;
    if xs.len() < 2 || xs[1] != s.len() {
        return None;
    }
    let mut shape = vec![1; xs.len()];
    shape[1] = s.len();
    let st = Tensor::new(shape.clone(), onnc_tensor::Data::from_f64s(dtype, &s)).ok()?;
    let bt = Tensor::new(shape, onnc_tensor::Data::from_f64s(dtype, &b)).ok()?;
    let s_id = cx.tensor("scale", st);
    let b_id = cx.tensor("shift", bt);
    let m = cx.op("Mul", Attrs::new(), &[x, s_id], "/mul");
    Some(cx.op("Add", Attrs::new(), &[m, b_id], ""))
}

/// `Conv{group = C, kernel 1×1}(x, S as [C, 1, 1, 1], B)`: each channel times
/// its scale plus its shift, which the MVU runs as a convolution (onnc-mvu
/// expands the groups into block-diagonal weights).
fn depthwise(cx: &mut Cx) -> Option<Id> {
    let x = cx.arg(0);
    let xs = cx.shape(x)?;
    let dtype = cx.ty(x)?.dtype;
    let (s, b) = scale_shift(cx)?;
    let c = s.len();
    if xs.len() != 4 || xs[1] != c || !dtype.is_float() {
        return None;
    }
    let wt = Tensor::new(vec![c, 1, 1, 1], onnc_tensor::Data::from_f64s(dtype, &s)).ok()?;
    let bt = Tensor::new(vec![c], onnc_tensor::Data::from_f64s(dtype, &b)).ok()?;
    let w = cx.tensor("dw_scale", wt);
    let bias = cx.tensor("dw_shift", bt);
    let ints = |v: &[i64]| onnc_tensor::Attr::Ints(v.to_vec());
    let a = attrs(&[
        ("dilations", ints(&[1, 1])),
        ("group", onnc_tensor::Attr::Int(c as i64)),
        ("kernel_shape", ints(&[1, 1])),
        ("pads", ints(&[0, 0, 0, 0])),
        ("strides", ints(&[1, 1])),
    ]);
    Some(cx.op("Conv", a, &[x, w, bias], ""))
}

fn fold(cx: &mut Cx) -> Option<Id> {
    let conv_class = cx.arg(0);
    let conv = cx.producer(conv_class, "Conv")?;
    if cx.uses(conv_class) != 1 {
        return None;
    }
    let ck = conv.key()?.clone();
    let w_id = cx.child(&conv, 1)?;
    let w = cx.value(w_id)?;
    let dtype = w.dtype();
    if !dtype.is_float() {
        return None;
    }
    let (s, b) = scale_shift(cx)?;
    let m = w.shape().first().copied()?;
    if m != s.len() || m == 0 {
        return None;
    }
    let wt = fold_weights(&w, &s)?;
    let has_bias = crate::cond::operand_present(cx.eg, &conv, 2);
    let old_b = if has_bias {
        cx.value(cx.child(&conv, 2)?)?.data().to_f64_vec()
    } else {
        vec![0.0; m]
    };
    if old_b.len() != m {
        return None;
    }
    let nb: Vec<f64> = (0..m).map(|o| old_b[o] * s[o] + b[o]).collect();
    let name = format!("{}+{}", ck.name, cx.key.name);
    let mut sources: Vec<Symbol> = ck.sources.clone();
    sources.extend(cx.key.sources.iter().copied());
    let bt = Tensor::new(vec![m], onnc_tensor::Data::from_f64s(dtype, &nb)).ok()?;
    let w2 = cx.tensor("folded_w", wt);
    let b2 = cx.tensor("folded_b", bt);
    let x = cx.child(&conv, 0)?;
    let _ = attrs;
    Some(cx.op_with(
        "Conv",
        ck.domain.as_str(),
        ck.to_attrs(),
        &[x, w2, b2],
        1,
        &name,
        &sources,
    ))
}

/// `W · S` per output channel: lazily for `f32` weights (the product is
/// computed where the weights are packed into the output format, or on
/// first read, never here: a ResNet-50 folds 53 kernels, ~100 MB), eagerly
/// through `f32` for other float types.
fn fold_weights(w: &Tensor, s: &[f64]) -> Option<Tensor> {
    let scale: Vec<f32> = s.iter().map(|&v| v as f32).collect();
    if w.dtype() == onnc_tensor::DType::F32 {
        return w.scale_rows(scale).ok();
    }
    let wv: Vec<f32> = w
        .data()
        .to_f64_vec()
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let per = wv.len() / scale.len();
    let mut nw = Vec::with_capacity(wv.len());
    for (chunk, so) in wv.chunks(per.max(1)).zip(&scale) {
        nw.extend(chunk.iter().map(|v| v * so));
    }
    Some(super::as_dtype(
        Tensor::from_f32(w.shape().to_vec(), nw).ok()?,
        w.dtype(),
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::{legalize, Options, Target};
    use onnc_onnx::Node;
    use onnc_tensor::{Attr, Tensor};

    fn params(seed: u64) -> Vec<(&'static str, Tensor)> {
        let pos = |s| {
            rand(3, s)
                .into_iter()
                .map(|v: f32| v.abs() + 0.5)
                .collect::<Vec<_>>()
        };
        vec![
            ("s", Tensor::from_f32(vec![3], rand(3, seed)).unwrap()),
            ("b", Tensor::from_f32(vec![3], rand(3, seed + 1)).unwrap()),
            ("m", Tensor::from_f32(vec![3], rand(3, seed + 2)).unwrap()),
            ("v", Tensor::from_f32(vec![3], pos(seed + 3)).unwrap()),
        ]
    }

    fn bn(x: &str, y: &str) -> Node {
        Node::new("bn1", "BatchNormalization", &[x, "s", "b", "m", "v"], &[y])
            .with_attr("epsilon", Attr::Float(1e-5))
            .with_attr("momentum", Attr::Float(0.9))
            .with_attr("training_mode", Attr::Int(0))
    }

    fn conv_bn() -> onnc_onnx::Graph {
        let conv = Node::new("conv1", "Conv", &["x", "w", "cb"], &["t"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("group", Attr::Int(1))
            .with_attr("auto_pad", Attr::String("NOTSET".into()));
        let mut inits = params(3);
        inits.push((
            "w",
            Tensor::from_f32(vec![3, 2, 3, 3], rand(54, 9)).unwrap(),
        ));
        inits.push(("cb", Tensor::from_f32(vec![3], rand(3, 10)).unwrap()));
        graph(
            &[1, 2, 5, 5],
            &[1, 3, 5, 5],
            vec![conv, bn("t", "y")],
            inits,
        )
    }

    #[test]
    fn bn_folds_into_conv_with_fused_name() {
        let r = legalize(conv_bn(), Target::NvFull, &Options::default()).unwrap();
        let ops: Vec<&str> = r.graph.nodes.iter().map(|n| n.op_type.as_str()).collect();
        assert_eq!(ops, ["Conv"]);
        assert_eq!(r.graph.nodes[0].name, "conv1+bn1");
        assert_eq!(r.provenance[0].sources, ["bn1", "conv1"]);
        assert_eq!(r.graph.nodes[0].outputs, ["y"]);
        assert!(r
            .graph
            .initializers
            .iter()
            .any(|(n, _)| n == "bn1__folded_w"));
    }

    #[test]
    fn bn_fold_numbers() {
        same_numbers(conv_bn(), Target::NvFull, &[1, 2, 5, 5], 1e-4);
    }

    fn relu_bn() -> onnc_onnx::Graph {
        graph(
            &[1, 3, 2, 2],
            &[1, 3, 2, 2],
            vec![Node::new("r", "Relu", &["x"], &["t"]), bn("t", "y")],
            params(5),
        )
    }

    #[test]
    fn bn_alone_becomes_mul_add() {
        assert_eq!(ops_after(relu_bn(), Target::NvFull), ["Relu", "Mul", "Add"]);
        same_numbers(relu_bn(), Target::NvFull, &[1, 3, 2, 2], 1e-5);
    }

    #[test]
    fn bn_alone_on_the_mvu_is_a_depthwise_1x1_conv() {
        assert_eq!(ops_after(relu_bn(), Target::Mvu), ["Relu", "Conv"]);
        same_numbers(relu_bn(), Target::Mvu, &[1, 3, 2, 2], 1e-5);
    }
}
