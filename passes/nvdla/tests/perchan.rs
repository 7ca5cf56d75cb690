//! Per-channel INT8 register derivation on small hand-built programs:
//! known scales give known registers, and each fallback to per-tensor
//! weights is recorded with its reason.
//!
//! In: `x → conv (K kernels, 1×1) → SDP(X1 as given) → y`, INT8 on nv_small,
//! and per-tensor scales. Out: assertions on the SDP's registers, its X1
//! operand, the conv's weights and the `quant.*` record.

use onnc_nvdla::ctable::{self, TensorScale, TensorScales};
use onnc_nvdla::qrecord::{QuantRecord, WeightMode};
use onnc_nvdla::{
    registers, ConfigName, Engine, Op, Precision, Program, Tensor, TensorKind, Value,
};

fn tensor(
    p: &mut Program,
    name: &str,
    shape: &[usize],
    kind: TensorKind,
    prec: Precision,
) -> usize {
    p.add_tensor(Tensor {
        name: name.into(),
        shape: shape.to_vec(),
        precision: prec,
        kind,
        place: None,
    })
}

/// A 1×1 conv over 2 input channels with `w` (`[K, 2, 1, 1]`) and an SDP
/// whose X1 is `x1` = (type, act, operand rows `[rows, K]`).
fn program(w: Vec<f32>, x1: Option<(&str, &str, Vec<f32>)>) -> Program {
    let k = w.len() / 2;
    let mut p = Program::new(ConfigName::NvSmall);
    let x = tensor(
        &mut p,
        "x",
        &[1, 2, 2, 2],
        TensorKind::Input(0),
        Precision::Int8,
    );
    let wt = tensor(
        &mut p,
        "w",
        &[k, 2, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(w)),
        Precision::Int8,
    );
    let acc = tensor(
        &mut p,
        "acc",
        &[1, k, 2, 2],
        TensorKind::Fused,
        Precision::Int8,
    );
    let y = tensor(
        &mut p,
        "y",
        &[1, k, 2, 2],
        TensorKind::Output(0),
        Precision::Int8,
    );
    p.inputs = vec![x];
    p.outputs = vec![y];
    let mut conv = registers::defaults(Engine::Conv);
    conv.insert("in_precision".into(), Value::Str("int8".into()));
    conv.insert("out_precision".into(), Value::Str("int8".into()));
    p.ops.push(Op {
        engine: Engine::Conv,
        hw_layer: "c".into(),
        attrs: conv,
        inputs: vec![Some(x), Some(wt)],
        output: acc,
        onnx_nodes: vec!["c".into()],
    });
    let mut sdp = registers::defaults(Engine::Sdp);
    sdp.insert("src_precision".into(), Value::Str("int8".into()));
    sdp.insert("dst_precision".into(), Value::Str("int8".into()));
    let mut operand = None;
    if let Some((ty, act, rows)) = x1 {
        let n = if ty == "both" { 2 } else { 1 };
        let set = |k: &str, v: Value| (format!("x1_op.{k}"), v);
        sdp.extend([
            set("enable", Value::Int(1)),
            set("type", Value::Str(ty.into())),
            set("mode", Value::Str("per_kernel".into())),
            set("act", Value::Str(act.into())),
            set("precision", Value::Str("int16".into())),
        ]);
        operand = Some(tensor(
            &mut p,
            "c.x1",
            &[n, k, 1, 1],
            TensorKind::Weight(onnc_nvdla::Weights::from(rows)),
            Precision::Int16,
        ));
    }
    p.ops.push(Op {
        engine: Engine::Sdp,
        hw_layer: "c".into(),
        attrs: sdp,
        inputs: vec![Some(acc), operand, None, None],
        output: y,
        onnx_nodes: vec!["c".into()],
    });
    p
}

fn scales(s_x: f32, s_y: f32) -> TensorScales {
    let mut t = TensorScales::new("t", "calibtable");
    t.insert("x", TensorScale::new(s_x), "1").unwrap();
    t.insert("y", TensorScale::new(s_y), "2").unwrap();
    t
}

fn weight(p: &Program, t: usize) -> Vec<f32> {
    match &p.tensors[t].kind {
        TensorKind::Weight(v) => v.values().to_vec(),
        _ => panic!("not a weight"),
    }
}

#[test]
fn bias_and_per_channel_multiplier_share_x1() {
    // Kernels with max |w| 2.54 and 0.254: s_w = 0.02, 0.002. s_in = 0.5,
    // s_out = 0.25: a = (0.01, 0.001), U = 0.25/256, r = (10.24, 1.024):
    // 10.24 · 2^11 = 20971.52 → truncate 11, m = (20972, 2097).
    let mut p = program(
        vec![2.54, -1.0, 0.1, -0.254],
        Some(("add", "relu", vec![0.05, -0.003])),
    );
    ctable::apply_scales(&mut p, &scales(0.5, 0.25)).unwrap();
    let sdp = &p.ops[1];
    assert_eq!(sdp.str("x1_op.type"), Some("both"));
    assert_eq!(sdp.str("x1_op.act"), Some("relu"));
    assert_eq!(sdp.int("x1_op.truncate"), Some(11));
    assert_eq!(sdp.int("x1_op.shift_value"), Some(0));
    assert_eq!(
        (sdp.int("out_cvt.scale"), sdp.int("out_cvt.truncate")),
        (Some(16384), Some(22))
    );
    let x1 = weight(&p, sdp.inputs[1].unwrap());
    // Row 0: bias in its channel's accumulator unit (0.05/0.01, −0.003/0.001).
    assert!(
        (x1[0] - 5.0).abs() < 1e-5 && (x1[1] + 3.0).abs() < 1e-5,
        "{x1:?}"
    );
    assert_eq!([x1[2] * 2048.0, x1[3] * 2048.0], [20972.0, 2097.0]);
    // Each kernel spans ±127 of its own scale.
    let w = weight(&p, 1);
    assert_eq!((w[0], w[3]), (127.0, -127.0));
    let r = QuantRecord::from_op(sdp);
    assert_eq!(r.weight_mode, Some(WeightMode::PerChannel));
    // Recorded as f32, as the IR stores them.
    let f32_of = |v: f64| f64::from(v as f32);
    assert_eq!(
        r.weight_scales,
        Some((
            f32_of(f64::from(0.254f32) / 127.0),
            f32_of(f64::from(2.54f32) / 127.0)
        ))
    );
    assert_eq!((r.input_scale, r.output_scale), (Some(0.5), Some(0.25)));
    assert!(r.calibrated && r.note.is_none());
    assert_eq!(r.format.as_deref(), Some("calibtable"));
    assert!(
        registers::check_op(sdp).is_empty(),
        "{:?}",
        registers::check_op(sdp)
    );
}

#[test]
fn an_existing_multiplier_is_folded_into_the_rescale() {
    // X1 both (bias, −2 per channel: a fused Sub of a scaled value): m_k
    // takes the factor, its sign included.
    let mut p = program(
        vec![1.27, 0.0, 0.127, 0.0],
        Some(("both", "none", vec![0.0, 0.0, -2.0, -2.0])),
    );
    ctable::apply_scales(&mut p, &scales(1.0, 1.0)).unwrap();
    let sdp = &p.ops[1];
    let t = sdp.int("x1_op.truncate").unwrap();
    let x1 = weight(&p, sdp.inputs[1].unwrap());
    let m: Vec<f64> = x1[2..]
        .iter()
        .map(|v| f64::from(*v) * 2f64.powi(t as i32))
        .collect();
    // r = −2 · (0.01, 0.001) · 256 = (−5.12, −0.512).
    assert_eq!(t, 12);
    assert_eq!(m, [-20972.0, -2097.0]);
}

#[test]
fn fallbacks_are_per_tensor_with_the_reason() {
    let cases = [
        (
            program(vec![1.0, 0.5, -1.0, 0.2], None),
            "every output channel has the same max |w|",
        ),
        (
            program(
                vec![1.0, 0.5, 0.1, 0.2],
                Some(("mul", "prelu", vec![0.1, 0.2])),
            ),
            "the X1 multiplier holds the PReLU slope",
        ),
    ];
    for (mut p, why) in cases {
        ctable::apply_scales(&mut p, &scales(0.5, 0.25)).unwrap();
        let sdp = &p.ops[1];
        let r = QuantRecord::from_op(sdp);
        assert_eq!(r.weight_mode, Some(WeightMode::PerTensor), "{why}");
        assert_eq!(r.note.as_deref(), Some(why));
        // One scale, max |w| = 1 → s_w = 1/127; out_cvt ≈ 0.5/127/0.25.
        let (m, n) = ctable::fixed_point(0.5 / 127.0 / 0.25).unwrap();
        assert_eq!(
            (sdp.int("out_cvt.scale"), sdp.int("out_cvt.truncate")),
            (Some(m), Some(n))
        );
        assert!(registers::check_op(sdp).is_empty());
    }
    // The PReLU slope (a MUL factor) gets the largest truncate that fits
    // int16: 0.2 · 2^17 = 26214.4.
    let mut p = program(
        vec![1.0, 0.5, 0.1, 0.2],
        Some(("mul", "prelu", vec![0.1, 0.2])),
    );
    ctable::apply_scales(&mut p, &scales(0.5, 0.25)).unwrap();
    assert_eq!(p.ops[1].int("x1_op.truncate"), Some(17));
}

#[test]
fn a_trt_cache_records_its_method() {
    let cache = "TRT-8601-EntropyCalibration2\nx: 3f000000\ny: 3e800000\n";
    let c = ctable::parse_calib(cache.as_bytes(), "c.cache", None).unwrap();
    let mut p = program(vec![2.54, -1.0, 0.1, -0.254], None);
    ctable::apply_calib(&mut p, &c).unwrap();
    let r = QuantRecord::from_op(&p.ops[1]);
    assert_eq!(r.method.as_deref(), Some("entropy"));
    assert_eq!(r.format.as_deref(), Some("trt-cache"));
    assert_eq!(p.ops[1].str("x1_op.type"), Some("mul"));
}
