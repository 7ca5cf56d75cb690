//! CTable gen/load and NVIDIA calibtable conversion on a small INT8 program
//! (conv+SDP → PDP → CDP → EMU softmax).

use onnc_nvdla::ctable;
use onnc_nvdla::registers;
use onnc_nvdla::Error;
use onnc_nvdla::{ConfigName, Engine, Op, Precision, Program, Tensor, TensorKind, Value};

fn tensor(p: &mut Program, name: &str, shape: &[usize], kind: TensorKind) -> usize {
    p.add_tensor(Tensor {
        name: name.into(),
        shape: shape.to_vec(),
        precision: Precision::Int8,
        kind,
        place: None,
    })
}

fn op(
    p: &mut Program,
    engine: Engine,
    layer: &str,
    inputs: Vec<Option<usize>>,
    output: usize,
    set: &[(&str, Value)],
) {
    let mut attrs = registers::defaults(engine);
    for (k, v) in set {
        attrs.insert(k.to_string(), v.clone());
    }
    p.ops.push(Op {
        engine,
        hw_layer: layer.into(),
        attrs,
        inputs,
        output,
        onnx_nodes: vec![layer.into()],
    });
}

/// `data → conv1(+SDP) → pool1 → norm1 → prob`, all INT8.
fn program() -> Program {
    let mut p = Program::new(ConfigName::NvSmall);
    let x = tensor(&mut p, "data", &[1, 2, 4, 4], TensorKind::Input(0));
    let w = tensor(
        &mut p,
        "conv1_w",
        &[3, 2, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(vec![
            0.5, -1.27, 0.1, 0.2, 0.3, 0.4,
        ])),
    );
    let acc = tensor(&mut p, "conv1_acc", &[1, 3, 4, 4], TensorKind::Fused);
    let c1 = tensor(&mut p, "conv1", &[1, 3, 4, 4], TensorKind::Activation);
    let p1 = tensor(&mut p, "pool1", &[1, 3, 2, 2], TensorKind::Activation);
    let n1 = tensor(&mut p, "norm1", &[1, 3, 2, 2], TensorKind::Activation);
    let y = tensor(&mut p, "prob", &[1, 3, 2, 2], TensorKind::Output(0));
    p.inputs = vec![x];
    p.outputs = vec![y];
    op(
        &mut p,
        Engine::Conv,
        "conv1",
        vec![Some(x), Some(w)],
        acc,
        &[],
    );
    op(
        &mut p,
        Engine::Sdp,
        "conv1",
        vec![Some(acc), None, None, None],
        c1,
        &[],
    );
    op(
        &mut p,
        Engine::Pdp,
        "pool1",
        vec![Some(c1)],
        p1,
        &[("pool_width", Value::Int(2)), ("stride_x", Value::Int(2))],
    );
    op(&mut p, Engine::Cdp, "norm1", vec![Some(p1)], n1, &[]);
    op(
        &mut p,
        Engine::Emu,
        "prob",
        vec![Some(n1)],
        y,
        &[("axis", Value::Int(1))],
    );
    p
}

fn fixture(name: &str) -> String {
    format!("{}/tests/data/ctable/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn gen_matches_the_golden_template() {
    let text = ctable::gen(&program());
    let path = fixture("template.json");
    if std::env::var_os("ONNC_TEST_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    assert_eq!(text, std::fs::read_to_string(&path).unwrap());
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  \"") && l.ends_with('{'))
        .collect();
    assert_eq!(
        keys,
        [
            "  \"version\": {",
            "  \"qinfo\": {",
            "  \"conv1.CONV\": {",
            "  \"conv1.SDP\": {",
            "  \"norm1.CDP\": {",
            "  \"norm1.LUT\": {",
            "  \"prob.EMU\": {"
        ]
    );
}

#[test]
fn gen_load_gen_is_a_fixed_point_and_load_sets_registers() {
    let mut p = program();
    let mut edited = ctable::gen(&p)
        .replace("\"out_cvt.scale\": 1,", "\"out_cvt.scale\": 17597,")
        .replace("\"cdp:in_cvt.offset\": 0", "\"cdp:in_cvt.offset\": -3")
        .replace(
            "\"input_scale_factor\": 1.0",
            "\"input_scale_factor\": 0.11757779121398926",
        );
    edited = edited.replace(
        "\"out_cvt.truncate\": 0\n  },\n  \"norm1",
        "\"out_cvt.truncate\": 25\n  },\n  \"norm1",
    );
    let stats = ctable::load(&mut p, &edited, "edited.json").unwrap();
    assert_eq!(stats.layers, 5);
    assert_eq!(stats.changed, 4);
    assert_eq!(stats.registers, 10 + 15 + 7 + 4 + 2);
    assert_eq!(stats.qinfo["qstrategy"], "sls");
    let sdp = &p.ops[1];
    assert_eq!(
        (sdp.int("out_cvt.scale"), sdp.int("out_cvt.truncate")),
        (Some(17597), Some(25))
    );
    assert_eq!(p.ops[3].int("in_cvt.offset"), Some(-3));
    assert_eq!(
        p.ops[4].float("input_scale_factor"),
        Some(f64::from(0.11757779_f32))
    );

    let once = ctable::gen(&p);
    let mut q = p.clone();
    ctable::load(&mut q, &once, "once.json").unwrap();
    assert_eq!(q, p);
    assert_eq!(ctable::gen(&q), once);
}

#[test]
fn per_tensor_entries_are_accepted_and_counted() {
    let mut p = program();
    let stats = ctable::load(
        &mut p,
        r#"{"pool1": {"scale": 0.0069, "offset": 0.0034}}"#,
        "t.json",
    )
    .unwrap();
    assert_eq!((stats.tensor_entries, stats.registers), (1, 0));
    assert_eq!(p, program());
}

fn load_err(json: &str) -> Error {
    let mut p = program();
    let err = ctable::load(&mut p, json, "bad.json").unwrap_err();
    assert_eq!(p, program(), "a failed load must not change the program");
    err
}

#[test]
fn unknown_layer_key_suggests_the_nearest() {
    let err = load_err(r#"{"conv1.SPD": {"out_cvt.scale": 2}}"#);
    assert_eq!(
        err,
        Error::UnknownLayer {
            file: "bad.json".into(),
            key: "conv1.SPD".into(),
            suggestions: vec!["conv1.SDP".into()]
        }
    );
    assert_eq!(
        err.to_string(),
        "bad.json: unknown layer key 'conv1.SPD' (did you mean 'conv1.SDP'?)"
    );
}

#[test]
fn unknown_register_suggests_the_nearest() {
    let err = load_err(r#"{"norm1.CDP": {"in_cvt.offset": 2}}"#);
    let Error::UnknownRegister {
        key,
        register,
        suggestions,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(
        (key.as_str(), register.as_str()),
        ("norm1.CDP", "in_cvt.offset")
    );
    assert_eq!(suggestions[0], "cdp:in_cvt.offset");
}

#[test]
fn out_of_range_names_register_range_and_value() {
    let err = load_err(r#"{"conv1.CONV": {"out_cvt.truncate": 17}}"#);
    let msg = err.to_string();
    assert!(matches!(err, Error::OutOfRange { .. }), "{msg}");
    assert!(
        msg.contains("bad.json: 'conv1.CONV'")
            && msg.contains("out_cvt.truncate")
            && msg.contains("0..=16")
            && msg.contains("17"),
        "{msg}"
    );
    let err = load_err(r#"{"norm1.LUT": {"lut_param.linear_only_end": 274877906944}}"#);
    assert!(err.to_string().contains("0..=274877906943"), "{err}");
}

#[test]
fn wrong_json_type_is_reported() {
    let err = load_err(r#"{"conv1.SDP": {"out_cvt.scale": 1.5}}"#);
    assert_eq!(
        err.to_string(),
        "bad.json: 'conv1.SDP': register 'out_cvt.scale' must be a JSON integer, got 1.5"
    );
    let err = load_err(r#"{"prob.EMU": {"output_scale_factor": "0.5"}}"#);
    assert!(matches!(err, Error::WrongType { .. }), "{err}");
}

#[test]
fn malformed_json_has_line_and_column() {
    let err = load_err("{\n  \"conv1.SDP\": {\n    \"out_cvt.scale\": 3,\n  }\n}");
    let Error::Json { line, column, .. } = err else {
        panic!("{err}")
    };
    assert_eq!((line, column), (4, 3));
}

#[test]
fn every_problem_is_reported_and_nothing_applied() {
    let err = load_err(
        r#"{"conv1.SDP": {"out_cvt.scale": 7, "out_cvt.truncate": 99}, "pool9.CDP": {}, "version": {"major": 2, "minor": 0, "sub_minor": 0}}"#,
    );
    let Error::Several { errors, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(errors.len(), 3, "{err}");
    assert!(err.to_string().contains("major version 2"), "{err}");
}

#[test]
fn nvidia_calibtable_sets_converters() {
    let mut p = program();
    let json = std::fs::read_to_string(fixture("nvidia_calibtable.json")).unwrap();
    // Per-tensor weights (per-channel ones: tests/calib_formats.rs).
    let t = ctable::parse_nvidia_calibtable(&json, "nvidia_calibtable.json").unwrap();
    let opts = ctable::ApplyOptions { per_channel: false };
    let stats = ctable::apply_scales_with(&mut p, &t, &opts).unwrap();
    // conv1: s_in 0.1 · s_w (1.27 / 127 = 0.01) / s_out 0.05 = 0.02 = 20972 · 2^-20.
    let sdp = &p.ops[1];
    assert_eq!(
        (
            sdp.int("out_cvt.scale"),
            sdp.int("out_cvt.truncate"),
            sdp.int("out_cvt.offset")
        ),
        (Some(20972), Some(20), Some(0))
    );
    // prob: its input norm1 is given by min/max (6.35 / 127 = 0.05); output 1/127.
    let emu = &p.ops[4];
    assert_eq!(emu.float("input_scale_factor"), Some(f64::from(0.05_f32)));
    assert_eq!(
        emu.float("output_scale_factor"),
        Some(f64::from((1.0 / 127.0) as f32))
    );
    // The conv's weights are put in units of s_w = 0.01 (its truncate 0), so
    // the accumulator counts s_in · s_w as the SDP's out_cvt assumes.
    assert_eq!(p.ops[0].int("out_cvt.truncate"), Some(0));
    let TensorKind::Weight(w) = &p.tensors[1].kind else {
        panic!()
    };
    let w = w.values();
    let q: Vec<f32> = w.iter().map(|v| v.round()).collect();
    assert_eq!(q, [50.0, -127.0, 10.0, 20.0, 30.0, 40.0]);
    assert_eq!((stats.layers, stats.registers), (3, 6));
}

#[test]
fn nvidia_calibtable_errors_name_the_tensor() {
    let mut p = program();
    // A key naming no tensor is not refused (fusion removes tensors), but
    // the tensors the converters need are, each named, with the stray key.
    let err = ctable::load_nvidia_calibtable(&mut p, r#"{"conv": {"scale": 0.1}}"#, "c.json")
        .unwrap_err();
    let Error::MissingScales {
        tensors, unmatched, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(tensors, &["data", "conv1", "norm1", "prob"]);
    assert_eq!(unmatched, &["'conv' (nearest tensor: 'conv1')"]);
    let err = ctable::load_nvidia_calibtable(&mut p, r#"{"conv1": {"scale": 0.1}}"#, "c.json")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "c.json: the table has no scale for 3 tensors the program needs: 'data', 'norm1', \
         'prob'; add an entry for each (keyed by its ONNX tensor name), or calibrate from data"
    );
    let err =
        ctable::load_nvidia_calibtable(&mut p, r#"{"data": {"min": 1}}"#, "c.json").unwrap_err();
    assert!(
        err.to_string()
            .contains("needs a numeric 'scale' or both 'min' and 'max'"),
        "{err}"
    );
    assert_eq!(p, program());
}

// --- hostile tables (issue 15, R15 and item 6) -------------------------------

/// R15: a 50 MB string where a register wants an integer used to be echoed
/// whole (52 MB on stderr). The value is clipped to 80 characters.
#[test]
fn huge_values_are_clipped_in_errors() {
    let big = "a".repeat(50 << 20);
    let json = format!(r#"{{"conv1.SDP": {{"out_cvt.scale": "{big}"}}}}"#);
    let msg = load_err(&json).to_string();
    assert!(msg.len() < 400, "{} bytes: {}", msg.len(), &msg[..400]);
    assert!(
        msg.contains("'out_cvt.scale'") && msg.contains("(52428802 bytes)"),
        "{msg}"
    );
    // A huge unknown key is clipped too.
    let json = format!(r#"{{"{big}": {{}}}}"#);
    assert!(load_err(&json).to_string().len() < 400);
}

#[test]
fn duplicate_keys_are_refused_with_both_places() {
    let json = "{\n  \"conv1.SDP\": {\"out_cvt.truncate\": 1},\n  \"conv1.SDP\": {\"out_cvt.truncate\": 2}\n}";
    let err = load_err(json);
    assert_eq!(
        err.to_string(),
        "bad.json:3:3: key 'conv1.SDP' appears twice in one object (first at line 2, column 3); keep one"
    );
    let err = load_err(r#"{"conv1.SDP": {"out_cvt.truncate": 1, "out_cvt.truncate": 2}}"#);
    assert!(
        matches!(
            err,
            Error::DuplicateKey {
                first: (1, 16),
                second: (1, 39),
                ..
            }
        ),
        "{err}"
    );
    let mut p = program();
    let err = ctable::load_nvidia_calibtable(
        &mut p,
        "{\"data\": {\"scale\": 0.1},\n\"data\": {\"scale\": 0.2}}",
        "c.json",
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("c.json:2:1: key 'data' appears twice"),
        "{err}"
    );
    assert_eq!(p, program());
}

#[test]
fn calibtable_entries_are_checked_field_by_field() {
    let mut p = program();
    for (entry, want) in [
        (
            r#"{"scale": "abc", "min": -1, "max": 1}"#,
            "'scale' must be a finite number, got \"abc\"",
        ),
        (r#"{"min": 2, "max": 1}"#, "'min' 2 is greater than 'max' 1"),
        (r#"{"min": "x", "max": 1}"#, "'min' must be a finite number"),
    ] {
        let json = format!("{{\n\"data\": {entry}\n}}");
        let err = ctable::load_nvidia_calibtable(&mut p, &json, "c.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("tensor 'data'") && err.contains(want) && err.contains("(line 2)"),
            "{err}"
        );
    }
    assert_eq!(p, program());
}

/// Thousands of unknown keys: the first 20 problems listed, the rest counted.
#[test]
fn many_problems_are_listed_then_counted() {
    let keys: Vec<String> = (0..1000)
        .map(|i| format!(r#""nope{i}.SDP": {{}}"#))
        .collect();
    let msg = load_err(&format!("{{{}}}", keys.join(","))).to_string();
    assert!(
        msg.starts_with("bad.json: 1000 problems:") && msg.contains("… and 980 more"),
        "{msg}"
    );
    assert_eq!(msg.lines().count(), 22, "{msg}");
}
