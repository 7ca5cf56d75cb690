//! FP16 execution of hand-built programs against onnc-interp on the
//! equivalent ONNX ops (inputs and weights rounded to f16 for the reference).

use onnc_interp::{run_op, Tolerance};
use onnc_nvdla::exec::{self, round_f16};
use onnc_nvdla::Error;
use onnc_nvdla::{
    registers, ConfigName, Engine, Op, Precision, Program, Tensor, TensorKind, Value,
};
use onnc_tensor::{Attr, Attrs, Tensor as T};

fn add(p: &mut Program, name: &str, shape: &[usize], kind: TensorKind) -> usize {
    p.add_tensor(Tensor {
        name: name.into(),
        shape: shape.to_vec(),
        precision: Precision::Fp16,
        kind,
        place: None,
    })
}

/// Adds an fp16 op with its defaults overridden by `set`.
fn op(
    p: &mut Program,
    engine: Engine,
    inputs: Vec<Option<usize>>,
    output: usize,
    set: &[(&str, Value)],
) {
    let mut attrs = registers::defaults(engine);
    for (k, v) in attrs.iter_mut() {
        if k.ends_with("precision") && v.as_str().is_some() {
            *v = Value::Str("fp16".into());
        }
    }
    for (k, v) in set {
        attrs.insert(k.to_string(), v.clone());
    }
    let layer = format!("l{}", p.ops.len());
    p.ops.push(Op {
        engine,
        hw_layer: layer,
        attrs,
        inputs,
        output,
        onnx_nodes: vec![],
    });
}

fn s(v: &str) -> Value {
    Value::Str(v.into())
}
fn i(v: i64) -> Value {
    Value::Int(v)
}

/// Deterministic values in [-2, 2) that are not all f16-exact.
fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|k| {
            (((k as u32).wrapping_mul(2654435761).wrapping_add(seed) >> 8) % 4000) as f32 / 1000.0
                - 2.0
                + 1e-4
        })
        .collect()
}

fn f16_tensor(shape: &[usize], v: &[f32]) -> T {
    T::from_f32(shape.to_vec(), v.iter().map(|x| round_f16(*x)).collect()).unwrap()
}

fn ints(v: &[i64]) -> Attr {
    Attr::Ints(v.to_vec())
}

fn check(expected: &T, actual: &T) {
    let tol = Tolerance {
        rtol: 4e-3,
        atol: 2e-3,
    };
    if let Err(m) = tol.check(
        expected,
        &actual.clone().reshape(expected.shape().to_vec()).unwrap(),
    ) {
        panic!("mismatch: {m:?}");
    }
}

/// conv 3x3 pad 1 + per-kernel bias + ReLU == Conv(x, w, b) → Relu.
#[test]
fn conv_bias_relu() {
    let mut p = Program::new(ConfigName::NvFull);
    let (xv, wv, bv) = (values(2 * 5 * 5, 1), values(4 * 2 * 9, 2), values(4, 3));
    let x = add(&mut p, "x", &[1, 2, 5, 5], TensorKind::Input(0));
    let w = add(
        &mut p,
        "w",
        &[4, 2, 3, 3],
        TensorKind::Weight(onnc_nvdla::Weights::from(wv.clone())),
    );
    let b = add(
        &mut p,
        "b",
        &[1, 4, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(bv.clone())),
    );
    let acc = add(&mut p, "acc", &[1, 4, 5, 5], TensorKind::Fused);
    let y = add(&mut p, "y", &[1, 4, 5, 5], TensorKind::Output(0));
    let pads = [
        ("pad_x_left", i(1)),
        ("pad_x_right", i(1)),
        ("pad_y_top", i(1)),
        ("pad_y_bottom", i(1)),
    ];
    op(&mut p, Engine::Conv, vec![Some(x), Some(w)], acc, &pads);
    let bias = [
        ("x1_op.enable", i(1)),
        ("x1_op.type", s("add")),
        ("x1_op.mode", s("per_kernel")),
        ("x1_op.act", s("relu")),
    ];
    op(
        &mut p,
        Engine::Sdp,
        vec![Some(acc), Some(b), None, None],
        y,
        &bias,
    );
    (p.inputs, p.outputs) = (vec![x], vec![y]);

    let out = exec::run(&p, &[T::from_f32(vec![1, 2, 5, 5], xv.clone()).unwrap()]).unwrap();
    let mut attrs = Attrs::new();
    attrs.insert("pads".into(), ints(&[1, 1, 1, 1]));
    let (xt, wt, bt) = (
        f16_tensor(&[1, 2, 5, 5], &xv),
        f16_tensor(&[4, 2, 3, 3], &wv),
        f16_tensor(&[4], &bv),
    );
    let conv = run_op("Conv", &attrs, &[Some(&xt), Some(&wt), Some(&bt)]).unwrap();
    let relu = run_op("Relu", &Attrs::new(), &[Some(&conv[0])]).unwrap();
    check(&relu[0], &out[0]);
    assert!(
        out[0].as_f32().unwrap().contains(&0.0)
            && out[0].as_f32().unwrap().iter().any(|v| *v > 0.0)
    );
}

/// conv 1x1 + bias (X1) + element-wise add of a second input (X2 per-point) == Conv → Add.
#[test]
fn conv_eltwise_add() {
    let mut p = Program::new(ConfigName::NvFull);
    let (xv, rv, wv, bv) = (
        values(3 * 16, 4),
        values(2 * 16, 5),
        values(2 * 3, 6),
        values(2, 7),
    );
    let x = add(&mut p, "x", &[1, 3, 4, 4], TensorKind::Input(0));
    let r = add(&mut p, "r", &[1, 2, 4, 4], TensorKind::Input(1));
    let w = add(
        &mut p,
        "w",
        &[2, 3, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(wv.clone())),
    );
    let b = add(
        &mut p,
        "b",
        &[1, 2, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(bv.clone())),
    );
    let acc = add(&mut p, "acc", &[1, 2, 4, 4], TensorKind::Fused);
    let y = add(&mut p, "y", &[1, 2, 4, 4], TensorKind::Output(0));
    op(&mut p, Engine::Conv, vec![Some(x), Some(w)], acc, &[]);
    let set = [
        ("x1_op.enable", i(1)),
        ("x1_op.type", s("add")),
        ("x1_op.mode", s("per_kernel")),
        ("x2_op.enable", i(1)),
        ("x2_op.type", s("add")),
        ("x2_op.mode", s("per_point")),
    ];
    op(
        &mut p,
        Engine::Sdp,
        vec![Some(acc), Some(b), Some(r), None],
        y,
        &set,
    );
    (p.inputs, p.outputs) = (vec![x, r], vec![y]);

    let inputs = [
        T::from_f32(vec![1, 3, 4, 4], xv.clone()).unwrap(),
        T::from_f32(vec![1, 2, 4, 4], rv.clone()).unwrap(),
    ];
    let out = exec::run(&p, &inputs).unwrap();
    let (xt, wt, bt) = (
        f16_tensor(&[1, 3, 4, 4], &xv),
        f16_tensor(&[2, 3, 1, 1], &wv),
        f16_tensor(&[2], &bv),
    );
    let conv = run_op("Conv", &Attrs::new(), &[Some(&xt), Some(&wt), Some(&bt)]).unwrap();
    let sum = run_op(
        "Add",
        &Attrs::new(),
        &[Some(&conv[0]), Some(&f16_tensor(&[1, 2, 4, 4], &rv))],
    )
    .unwrap();
    check(&sum[0], &out[0]);
}

fn pool_program(mode: &str) -> Program {
    let mut p = Program::new(ConfigName::NvFull);
    let x = add(&mut p, "x", &[1, 2, 5, 5], TensorKind::Input(0));
    let y = add(&mut p, "y", &[1, 2, 3, 3], TensorKind::Output(0));
    let set = [
        ("pool_mode", s(mode)),
        ("pool_width", i(3)),
        ("pool_height", i(3)),
        ("stride_x", i(2)),
        ("stride_y", i(2)),
        ("pad_left", i(1)),
        ("pad_right", i(1)),
        ("pad_top", i(1)),
        ("pad_bottom", i(1)),
    ];
    op(&mut p, Engine::Pdp, vec![Some(x)], y, &set);
    (p.inputs, p.outputs) = (vec![x], vec![y]);
    p
}

/// PDP max and average (the full window, padding as 0) with 1-element padding.
#[test]
fn pdp_max_and_avg_with_padding() {
    let xv: Vec<f32> = values(50, 8).iter().map(|v| v - 3.0).collect(); // all negative: padding must not win max
    let xt = f16_tensor(&[1, 2, 5, 5], &xv);
    let mut attrs = Attrs::new();
    attrs.insert("kernel_shape".into(), ints(&[3, 3]));
    attrs.insert("strides".into(), ints(&[2, 2]));
    attrs.insert("pads".into(), ints(&[1, 1, 1, 1]));
    let max = exec::run(&pool_program("max"), std::slice::from_ref(&xt)).unwrap();
    check(
        &run_op("MaxPool", &attrs, &[Some(&xt)]).unwrap()[0],
        &max[0],
    );
    attrs.insert("count_include_pad".into(), Attr::Int(1));
    let avg = exec::run(&pool_program("avg"), std::slice::from_ref(&xt)).unwrap();
    check(
        &run_op("AveragePool", &attrs, &[Some(&xt)]).unwrap()[0],
        &avg[0],
    );
}

/// CDP with AlexNet's LRN parameters == LRN.
#[test]
fn cdp_lrn() {
    let mut p = Program::new(ConfigName::NvFull);
    let x = add(&mut p, "x", &[1, 7, 3, 3], TensorKind::Input(0));
    let y = add(&mut p, "y", &[1, 7, 3, 3], TensorKind::Output(0));
    let set = [
        ("local_size", i(5)),
        ("alpha", Value::Float(0.5)),
        ("beta", Value::Float(0.75)),
        ("bias", Value::Float(2.0)),
    ];
    op(&mut p, Engine::Cdp, vec![Some(x)], y, &set);
    (p.inputs, p.outputs) = (vec![x], vec![y]);
    let xt = f16_tensor(&[1, 7, 3, 3], &values(63, 9));
    let mut attrs = Attrs::new();
    attrs.insert("size".into(), Attr::Int(5));
    attrs.insert("alpha".into(), Attr::Float(0.5));
    attrs.insert("beta".into(), Attr::Float(0.75));
    attrs.insert("bias".into(), Attr::Float(2.0));
    check(
        &run_op("LRN", &attrs, &[Some(&xt)]).unwrap()[0],
        &exec::run(&p, &[xt]).unwrap()[0],
    );
}

/// EMU softmax over channels == Softmax(axis = 1).
#[test]
fn emu_softmax() {
    let mut p = Program::new(ConfigName::NvFull);
    let x = add(&mut p, "x", &[1, 10, 1, 1], TensorKind::Input(0));
    let y = add(&mut p, "y", &[1, 10, 1, 1], TensorKind::Output(0));
    op(&mut p, Engine::Emu, vec![Some(x)], y, &[("axis", i(1))]);
    (p.inputs, p.outputs) = (vec![x], vec![y]);
    let xt = f16_tensor(&[1, 10], &values(10, 10));
    let mut attrs = Attrs::new();
    attrs.insert("axis".into(), Attr::Int(1));
    check(
        &run_op("Softmax", &attrs, &[Some(&xt)]).unwrap()[0],
        &exec::run(&p, &[xt]).unwrap()[0],
    );
}

/// concat of two inputs, then a channel slice, is exact.
#[test]
fn concat_then_slice_is_exact() {
    let mut p = Program::new(ConfigName::NvFull);
    let a = add(&mut p, "a", &[1, 2, 2, 2], TensorKind::Input(0));
    let b = add(&mut p, "b", &[1, 3, 2, 2], TensorKind::Input(1));
    let c = add(&mut p, "c", &[1, 5, 2, 2], TensorKind::Activation);
    let y = add(&mut p, "y", &[1, 2, 2, 2], TensorKind::Output(0));
    op(&mut p, Engine::Concat, vec![Some(a), Some(b)], c, &[]);
    op(
        &mut p,
        Engine::Slice,
        vec![Some(c)],
        y,
        &[("c_start", i(1))],
    );
    (p.inputs, p.outputs) = (vec![a, b], vec![y]);
    let (at, bt) = (
        f16_tensor(&[1, 2, 2, 2], &values(8, 11)),
        f16_tensor(&[1, 3, 2, 2], &values(12, 12)),
    );
    let mut attrs = Attrs::new();
    attrs.insert("axis".into(), Attr::Int(1));
    let cat = run_op("Concat", &attrs, &[Some(&at), Some(&bt)]).unwrap();
    let (starts, ends, axes) = (
        T::from_i64(vec![1], vec![1]).unwrap(),
        T::from_i64(vec![1], vec![3]).unwrap(),
        T::from_i64(vec![1], vec![1]).unwrap(),
    );
    let sl = run_op(
        "Slice",
        &Attrs::new(),
        &[Some(&cat[0]), Some(&starts), Some(&ends), Some(&axes)],
    )
    .unwrap();
    assert_eq!(
        exec::run(&p, &[at, bt]).unwrap()[0].as_f32().unwrap(),
        sl[0].as_f32().unwrap()
    );
}

/// 2048 + 1 is 2049 in f32 but 2048 in f16: the SDP output is rounded.
#[test]
fn sdp_output_is_rounded_to_f16() {
    let mut p = Program::new(ConfigName::NvFull);
    let x = add(&mut p, "x", &[1, 1, 1, 2], TensorKind::Input(0));
    let y = add(&mut p, "y", &[1, 1, 1, 2], TensorKind::Output(0));
    let one = i64::from(half::f16::from_f32(1.0).to_bits());
    let set = [
        ("x1_op.enable", i(1)),
        ("x1_op.type", s("add")),
        ("x1_op.alu_operand", i(one)),
    ];
    op(
        &mut p,
        Engine::Sdp,
        vec![Some(x), None, None, None],
        y,
        &set,
    );
    (p.inputs, p.outputs) = (vec![x], vec![y]);
    let out = exec::run(
        &p,
        &[T::from_f32(vec![1, 1, 1, 2], vec![2048.0, 3.0]).unwrap()],
    )
    .unwrap();
    assert_eq!(out[0].as_f32().unwrap(), &[2048.0, 4.0]);
}

#[test]
fn int8_ops_are_unsupported_by_name() {
    let mut p = pool_program("max");
    p.ops[0].attrs.insert("precision".into(), s("int8"));
    let err = exec::run(&p, &[f16_tensor(&[1, 2, 5, 5], &values(50, 1))]).unwrap_err();
    assert!(
        matches!(&err, Error::NotModelled { layer, .. } if layer == "l0"),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("layer 'l0' (nvdla.pdp): unsupported: precision = \"int8\""),
        "{err}"
    );
}
