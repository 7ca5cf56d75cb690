//! Calibration file formats (issue 18, item 3): NVIDIA calibtable JSON,
//! TensorRT calibration cache, Ascend AMCT records (binary and text, both
//! variants): detection, readers, writers, errors, and a round trip through
//! every format that must give the same registers.

use onnc_nvdla::ctable::{
    self, apply_calib, apply_scales, detect, parse_calib, save_calib, CalibFormat, Calibration,
    SaveOptions, TensorScale, TensorScales,
};
use onnc_nvdla::registers;
use onnc_nvdla::{ConfigName, Engine, Error, Op, Precision, Program, Tensor, TensorKind, Value};

fn tensor(p: &mut Program, name: &str, shape: &[usize], kind: TensorKind) -> usize {
    p.add_tensor(Tensor {
        name: name.into(),
        shape: shape.to_vec(),
        precision: Precision::Int8,
        kind,
        place: None,
    })
}

fn op(p: &mut Program, engine: Engine, layer: &str, inputs: Vec<Option<usize>>, output: usize) {
    let mut attrs = registers::defaults(engine);
    if engine == Engine::Pdp {
        attrs.insert("pool_width".into(), Value::Int(2));
        attrs.insert("stride_x".into(), Value::Int(2));
    }
    if engine == Engine::Emu {
        attrs.insert("axis".into(), Value::Int(1));
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

/// `data → conv1(+SDP) → pool1 → norm1 → prob`, all INT8 (a conv, its
/// fused SDP, a pooling that keeps the scale, an LRN, a softmax whose
/// output tensor has its layer's name, as Caffe-made models have).
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
    op(&mut p, Engine::Conv, "conv1", vec![Some(x), Some(w)], acc);
    op(
        &mut p,
        Engine::Sdp,
        "conv1",
        vec![Some(acc), None, None, None],
        c1,
    );
    op(&mut p, Engine::Pdp, "pool1", vec![Some(c1)], p1);
    op(&mut p, Engine::Cdp, "norm1", vec![Some(p1)], n1);
    op(&mut p, Engine::Emu, "prob", vec![Some(n1)], y);
    p
}

/// Scales for every tensor, as a per-tensor calibrator writes them,
/// including `bn1`, a tensor fusion removed from the program.
fn scales() -> TensorScales {
    let mut t = TensorScales::new("computed", "calibtable");
    for (name, s) in [
        ("data", 0.1_f32),
        ("conv1", 0.05),
        ("pool1", 0.05),
        ("norm1", 0.0425),
        ("prob", 1.0 / 127.0),
        ("bn1", 0.07),
    ] {
        t.insert(name, TensorScale::new(s), name).unwrap();
    }
    t
}

fn applied(t: &TensorScales) -> (Program, ctable::LoadStats) {
    let mut p = program();
    let stats = apply_scales(&mut p, t).unwrap_or_else(|e| panic!("{e}"));
    (registers_only(p), stats)
}

/// `p` without the record of where its scales came from (`quant.format`,
/// `quant.method`), which differs by format while the registers do not.
fn registers_only(mut p: Program) -> Program {
    for op in &mut p.ops {
        op.attrs.remove("quant.format");
        op.attrs.remove("quant.method");
    }
    p
}

fn scales_of(c: Calibration) -> TensorScales {
    match c {
        Calibration::Scales(t) => t,
        Calibration::Ctable { file, .. } => panic!("{file} read as a CTable"),
    }
}

/// Every per-tensor format and writer variant.
fn variants() -> Vec<(CalibFormat, SaveOptions)> {
    let inner = SaveOptions {
        amct_inner: true,
        ..SaveOptions::default()
    };
    vec![
        (CalibFormat::Calibtable, SaveOptions::default()),
        (CalibFormat::TrtCache, SaveOptions::default()),
        (CalibFormat::Amct, SaveOptions::default()),
        (CalibFormat::Amct, inner.clone()),
        (CalibFormat::AmctText, SaveOptions::default()),
        (CalibFormat::AmctText, inner),
    ]
}

#[test]
fn every_format_round_trips_to_the_same_registers() {
    let p0 = program();
    let (want, stats) = applied(&scales());
    assert_ne!(want, p0, "the scales change the registers");
    assert_eq!(stats.unmatched, ["'bn1'"]);
    for (format, opts) in variants() {
        let bytes = save_calib(&scales(), format, Some(&p0), &opts).unwrap();
        assert_eq!(detect(&bytes), Some(format), "{format} {opts:?}");
        let t = scales_of(parse_calib(&bytes, "f", None).unwrap());
        let (got, stats) = applied(&t);
        assert_eq!(got, want, "{format} {opts:?}");
        // The fused-away tensor is still a note, whatever the format.
        assert!(
            stats.unmatched.iter().any(|u| u.contains("'bn1'")),
            "{format}: {:?}",
            stats.unmatched
        );
        // Written again from what was read: the same bytes.
        let again = save_calib(&t, format, Some(&p0), &opts).unwrap();
        assert_eq!(again, bytes, "{format} {opts:?}");
    }
}

#[test]
fn the_loadable_is_the_same_through_every_format() {
    // Two formats side by side through apply_calib (the dispatching entry):
    // the registers of every op agree.
    let p0 = program();
    let mut regs = Vec::new();
    for (format, opts) in variants() {
        let bytes = save_calib(&scales(), format, Some(&p0), &opts).unwrap();
        let c = parse_calib(&bytes, "f", Some(format)).unwrap();
        let mut p = program();
        apply_calib(&mut p, &c).unwrap();
        let p = registers_only(p);
        regs.push(p.ops.iter().map(|o| o.attrs.clone()).collect::<Vec<_>>());
    }
    assert!(regs.windows(2).all(|w| w[0] == w[1]));
    // The conv's kernels have scales 1.27/127, 0.2/127, 0.4/127: per
    // channel. X1 rescales kernel k from 0.1 · s_w[k] to U = 0.05 / 256:
    // r = 5.12, 0.806, 1.613; the largest fits 2^12 (20972), so
    // m = (20972, 3303, 6605) and X1 truncate 12; out_cvt maps U to 0.05:
    // 2^-8 = 16384 · 2^-22.
    let sdp = &regs[0][1];
    assert_eq!(
        sdp["quant.weight_scale_mode"],
        Value::Str("per_channel".into())
    );
    assert_eq!(sdp["x1_op.type"], Value::Str("mul".into()));
    assert_eq!(sdp["x1_op.mode"], Value::Str("per_kernel".into()));
    assert_eq!(sdp["x1_op.truncate"], Value::Int(12));
    assert_eq!(sdp["out_cvt.scale"], Value::Int(16384));
    assert_eq!(sdp["out_cvt.truncate"], Value::Int(22));
    let mut p = program();
    apply_scales(&mut p, &scales()).unwrap();
    let x1 = p.ops[1].inputs[1].expect("an X1 operand was added");
    assert_eq!(p.tensors[x1].shape, [1, 3, 1, 1]);
    let TensorKind::Weight(m) = &p.tensors[x1].kind else {
        panic!("not a weight")
    };
    let m = m.values();
    let m: Vec<f32> = m.iter().map(|v| v * 4096.0).collect();
    assert_eq!(m, [20972.0, 3303.0, 6605.0]);
    // The conv's weights are in their kernel's units: ±127 at each max.
    let TensorKind::Weight(w) = &p.tensors[1].kind else {
        panic!("not a weight")
    };
    let w = w.values();
    assert_eq!(w[1], -127.0);
    assert!(
        (w[3] - 127.0).abs() < 1e-4 && (w[5] - 127.0).abs() < 1e-4,
        "{w:?}"
    );
    // Per tensor (as before): one scale, 0.1 · (1.27 / 127) / 0.05 = 0.02 =
    // 20972 · 2^-20, and no X1 operand.
    let mut p = program();
    let opts = ctable::ApplyOptions { per_channel: false };
    ctable::apply_scales_with(&mut p, &scales(), &opts).unwrap();
    let sdp = &p.ops[1];
    assert_eq!(sdp.int("out_cvt.scale"), Some(20972));
    assert_eq!(sdp.int("out_cvt.truncate"), Some(20));
    assert_eq!(sdp.inputs[1], None);
    assert_eq!(sdp.str("quant.weight_scale_mode"), Some("per_tensor"));
    assert_eq!(
        sdp.str("quant.weight_scale_note"),
        Some("per-tensor weights were asked for")
    );
}

#[test]
fn trt_cache_hex_is_the_big_endian_f32_bits() {
    let cache = "TRT-8601-EntropyCalibration2\ndata: 3f9839e4\nconv1: 3dcccccd\nshort: 3c\n";
    let t = scales_of(parse_calib(cache.as_bytes(), "a.cache", None).unwrap());
    assert_eq!(t.entries["data"].scale, 1.189_266_7);
    assert_eq!(t.entries["conv1"].scale, 0.1);
    assert_eq!(t.entries["short"].scale, f32::from_bits(0x3c));
    assert_eq!(t.header.as_deref(), Some("TRT-8601-EntropyCalibration2"));
    let mut one = TensorScales::new("o", "x");
    one.insert("a:b", TensorScale::new(0.1), "1").unwrap();
    let text = save_calib(&one, CalibFormat::TrtCache, None, &SaveOptions::default()).unwrap();
    assert_eq!(
        String::from_utf8(text.clone()).unwrap(),
        "TRT-8601-EntropyCalibration2\na:b: 3dcccccd\n"
    );
    // A name with ':' reads back (the hex follows the last ':').
    let back = scales_of(parse_calib(&text, "o", None).unwrap());
    assert_eq!(back.entries["a:b"].scale, 0.1);
}

fn err(bytes: &[u8], format: Option<CalibFormat>) -> String {
    parse_calib(bytes, "bad", format)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn trt_cache_errors_name_line_and_tensor() {
    let h = "TRT-8601-EntropyCalibration2\n";
    let cases = [
        (
            "TRT-x-Entropy\na: 3dcccccd\n".to_string(),
            "bad: line 1: expected a header line such as 'TRT-8601-EntropyCalibration2', got 'TRT-x-Entropy'",
        ),
        (
            format!("{h}a: 3dcccccd\nb: xyz\n"),
            "bad: line 3: tensor 'b': 'xyz' is not 1 to 8 hex digits",
        ),
        (
            format!("{h}a: 3dcccccd\nb 3dcccccd\n"),
            "bad: line 3: expected '<tensor name>: <hex f32 bits>'",
        ),
        (
            format!("{h}a: 3dcccccd\n\na: 3dcccccd\n"),
            "bad: line 4: 'a' is given twice (first at line 2); keep one",
        ),
        (format!("{h}z: 0\n"), "bad: line 2: tensor 'z' (0): scale 0 must be finite and positive"),
        (format!("{h}n: bdcccccd\n"), "bad: line 2: tensor 'n' (bdcccccd): scale -0.1 must be"),
        (format!("{h}i: 7f800000\n"), "scale inf must be finite"),
        (format!("{h}q: 7fc00000\n"), "scale NaN must be finite"),
        (format!("{h}: 3dcccccd\n"), "bad: line 2: the tensor name before ':' is empty"),
        (format!("{h}l: 123456789\n"), "'123456789' is not 1 to 8 hex digits"),
    ];
    for (text, want) in cases {
        let e = err(text.as_bytes(), Some(CalibFormat::TrtCache));
        assert!(e.contains(want), "{e}\nwanted: {want}");
    }
    // Every bad line at once.
    let e = err(format!("{h}a: x\nb: y\n").as_bytes(), None);
    assert!(
        e.starts_with("bad: 2 problems:") && e.contains("line 3"),
        "{e}"
    );
}

/// AMCT's documentation sample (inner variant: shift_bit, skip_fusion,
/// INT4, prune records).
const AMCT_SAMPLE: &str = r#"record {
  key: "fc4/Tensordot/MatMul"
  value {
    scale_d: 0.0798481479
    offset_d: 1
    scale_w: 0.00297622895
    offset_w: 0
    shift_bit: 1
    dst_type: "INT8"
  }
}
record {
  key: "depthwise"
  value {
    scale_d: 0.00962011795
    offset_d: 1
    scale_w: 0.00787108205
    scale_w: 0.00787108205
    offset_w: 0
    offset_w: 0
    skip_fusion: true
    dst_type: "INT4"
  }
}
record {
  key: "conv2d/Conv2D"
  value {
    scale_d: 0.00392156886
    offset_d: -128
    scale_w: 0.00106807391
    offset_w: 0
  }
}
prune_record {
  producer {
    name: "conv_1"
    attr { name: "type" type: STRING s: "Conv2D" }
    attr { name: "begin" type: INT i: 0 }
  }
  consumer { name: "BN_1" }
}
"#;

#[test]
fn amct_documentation_sample_reads_with_its_offsets_folded() {
    assert_eq!(detect(AMCT_SAMPLE.as_bytes()), Some(CalibFormat::AmctText));
    let t = scales_of(parse_calib(AMCT_SAMPLE.as_bytes(), "record.txt", None).unwrap());
    assert!(t.entries.is_empty() && t.layer_inputs.len() == 3);
    // INT8, offset 1: codes -129..126 → amax = 129 · scale_d.
    let fc = &t.layer_inputs["fc4/Tensordot/MatMul"];
    assert_eq!(
        fc.scale,
        (f64::from(0.079_848_15_f32) * 129.0 / 127.0) as f32
    );
    assert_eq!(fc.weight_scales, [0.002_976_229]);
    // INT4, offset 1: codes -9..6 → amax = 9 · scale_d.
    let dw = &t.layer_inputs["depthwise"];
    assert_eq!(
        dw.scale,
        (f64::from(0.009_620_118_f32) * 9.0 / 127.0) as f32
    );
    assert_eq!(dw.weight_scales.len(), 2);
    // [0, 1] mapped onto -128..127: amax = 255 · scale_d = 1.
    let c = &t.layer_inputs["conv2d/Conv2D"];
    assert_eq!(
        c.scale,
        (f64::from(0.003_921_569_f32) * 255.0 / 127.0) as f32
    );
    assert_eq!((c.min, c.max), (Some(0.0), Some(1.0)));
    assert!(
        t.notes
            .iter()
            .any(|n| n.contains("1 prune record not applied")),
        "{:?}",
        t.notes
    );
    assert!(t.notes.iter().any(|n| n.contains("INT4")), "{:?}", t.notes);
    // The same record in binary reads the same.
    let bin = save_calib(&t, CalibFormat::Amct, None, &SaveOptions::default()).unwrap();
    let back = scales_of(parse_calib(&bin, "r.bin", None).unwrap());
    assert_eq!(
        back.layer_inputs.keys().collect::<Vec<_>>(),
        t.layer_inputs.keys().collect::<Vec<_>>()
    );
}

#[test]
fn amct_layer_keys_give_their_input_scale() {
    // conv1's record is data's scale; pool1's is conv1's; norm1's is pool1's;
    // prob's is norm1's; the output's is under `tensor:prob`.
    let text = r#"
record { key: "conv1" value { scale_d: 0.1 offset_d: 0 scale_w: 0.01 offset_w: 0 } }
record { key: "pool1" value { scale_d: 0.05 } }
record { key: "norm1" value { scale_d: 0.05 } }
record { key: "prob" value { scale_d: 0.0425 } }
record { key: "tensor:prob" value { scale_d: 0.007874016 } }
record { key: "bn_fused_away" value { scale_d: 0.5 } }
"#;
    let t = scales_of(parse_calib(text.as_bytes(), "r.txt", None).unwrap());
    let mut p = program();
    let stats = apply_scales(&mut p, &t).unwrap();
    let (want, _) = applied(&scales());
    assert_eq!(registers_only(p), want);
    assert_eq!(stats.unmatched, ["'bn_fused_away'"]);
}

#[test]
fn amct_errors_name_the_record_and_line() {
    let cases: [(&str, &str); 8] = [
        (
            "record {\n  key: \"a\"\n  value { scale_d: 0.1 }\n}\nrecord {\n  key: \"a\"\n  value { scale_d: 0.2 }\n}\n",
            "bad: record 2 (line 5): 'a' is given twice (first at record 1 (line 1)); keep one",
        ),
        (
            "record {\n  key: \"a\"\n  value { scale_d: 0.1 scale_d: 0.2 }\n}\n",
            "bad: line 3, column 33: not an AMCT record in text format: 'scale_d' is already set",
        ),
        (
            "record {\n  key: \"a\"\n  value { scale: 0.1 }\n}\n",
            "bad: line 3, column 11: not an AMCT record in text format: field 'scale' not found",
        ),
        (
            "record {\n  key: \"a\"\n  value { scale_d: -0.1 }\n}\n",
            "bad: record 1 (line 1): layer 'a': scale_d: scale -0.1 must be finite and positive",
        ),
        (
            "record { key: \"a\" value { scale_d: 0.1 scale_w: 0.1 offset_w: 3 } }",
            "layer 'a': offset_w[0] is 3: weights are symmetric",
        ),
        (
            "record { key: \"a\" value { scale_d: 0.1 dst_type: \"INT16\" } }",
            "layer 'a': dst_type 'INT16' is not INT8 or INT4",
        ),
        (
            "record { key: \"a\" value { offset_d: 0 } }",
            "layer 'a': the record has no scale_d",
        ),
        (
            "record { value { scale_d: 0.1 } }",
            "record 1 (line 1): the record has no key",
        ),
    ];
    for (text, want) in cases {
        let e = err(text.as_bytes(), None);
        assert!(e.contains(want), "{e}\nwanted: {want}");
    }
    let e = err(b"record {\n  key: \"a\"\n", None);
    assert!(
        e.starts_with("bad: line 3, column 1: not an AMCT record"),
        "{e}"
    );
    let e = err(b"\x0a\x05\x0a\x01", Some(CalibFormat::Amct));
    assert!(
        e.starts_with("bad: <protobuf>: not a valid AMCT record"),
        "{e}"
    );
}

#[test]
fn missing_tensors_are_listed_with_the_count_and_the_fix() {
    let mut t = TensorScales::new("partial.cache", "trt-cache");
    t.insert("data", TensorScale::new(0.1), "line 2").unwrap();
    let mut p = program();
    let e = apply_scales(&mut p, &t).unwrap_err();
    assert!(matches!(e, Error::MissingScales { .. }));
    assert_eq!(
        e.to_string(),
        "partial.cache: the table has no scale for 3 tensors the program needs: 'conv1', \
         'norm1', 'prob'; add an entry for each (keyed by its ONNX tensor name), or calibrate \
         from data"
    );
    assert_eq!(p, program(), "nothing applied");
    // Many: the first 8 named, the rest counted.
    let names: Vec<String> = (0..11).map(|i| format!("t{i}")).collect();
    let e = Error::MissingScales {
        file: "f".into(),
        tensors: names,
        unmatched: vec![],
    };
    assert!(e.to_string().contains("'t7' (and 3 more)"), "{e}");
}

#[test]
fn garbage_is_not_a_calibration_file() {
    for bytes in [
        &b""[..],
        b"hello world",
        b"\x00\x01\x02",
        b"\xff\xfe",
        b"TRT-\n",
    ] {
        assert_eq!(detect(bytes), None, "{bytes:?}");
        let e = err(bytes, None);
        assert!(
            e.starts_with("bad: not a calibration file: expected one of ONNC CTable JSON (ctable), NVIDIA calibtable JSON (calibtable), TensorRT calibration cache"),
            "{e}"
        );
    }
    assert!(err(b"", None).ends_with("the file is empty"));
    // Binary where text is needed.
    let e = err(b"\xff\xfe", Some(CalibFormat::TrtCache));
    assert!(e.contains("byte 0") && e.contains("is UTF-8 text"), "{e}");
}

#[test]
fn ctable_json_dispatches_to_the_register_loader() {
    let mut p = program();
    let gen = ctable::gen(&p);
    assert_eq!(detect(gen.as_bytes()), Some(CalibFormat::Ctable));
    let c = parse_calib(gen.as_bytes(), "t.json", None).unwrap();
    assert!(matches!(c, Calibration::Ctable { .. }));
    let stats = apply_calib(&mut p, &c).unwrap();
    assert_eq!(stats.changed, 0);
    let e = save_calib(
        &scales(),
        CalibFormat::Ctable,
        None,
        &SaveOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("ctable::gen"), "{e}");
}

#[test]
fn writers_refuse_what_the_format_cannot_hold() {
    let mut t = TensorScales::new("w", "x");
    let mut s = TensorScale::new(0.1);
    s.offset = 3;
    t.insert("a", s, "1").unwrap();
    let e = save_calib(&t, CalibFormat::TrtCache, None, &SaveOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("offset 3 cannot be written"), "{e}");
    let e = save_calib(&scales(), CalibFormat::Amct, None, &SaveOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs the program"), "{e}");
    let amct = scales_of(parse_calib(AMCT_SAMPLE.as_bytes(), "r", None).unwrap());
    let e = save_calib(&amct, CalibFormat::TrtCache, None, &SaveOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("keyed by layer"), "{e}");
}

#[test]
fn load_calib_reads_files_and_names_unreadable_ones() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("calib_formats");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.cache");
    let bytes = save_calib(
        &scales(),
        CalibFormat::TrtCache,
        None,
        &SaveOptions::default(),
    )
    .unwrap();
    std::fs::write(&path, bytes).unwrap();
    let t = scales_of(ctable::load_calib(&path, None).unwrap());
    assert_eq!(t.entries.len(), 6);
    assert_eq!(t.file, path.display().to_string());
    let e = ctable::load_calib(&dir.join("none.cache"), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("cannot read '") && e.contains("none.cache': "),
        "{e}"
    );
}

/// A deterministic xorshift stream.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn no_reader_panics_on_truncated_or_random_bytes() {
    let p0 = program();
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for (format, opts) in variants() {
        let good = save_calib(&scales(), format, Some(&p0), &opts).unwrap();
        for cut in 0..good.len() {
            inputs.push(good[..cut].to_vec());
        }
        // Flipped bytes.
        for (i, r) in noise(good.len() as u64, 64).into_iter().enumerate() {
            let mut b = good.clone();
            let at = (i * 7919) % b.len();
            b[at] ^= r | 1;
            inputs.push(b);
        }
    }
    inputs.push(AMCT_SAMPLE.as_bytes().to_vec());
    for seed in 1..200u64 {
        inputs.push(noise(seed, (seed as usize * 13) % 300));
        let mut b = vec![0x0a];
        b.extend(noise(seed, 40));
        inputs.push(b);
    }
    for b in &inputs {
        let _ = detect(b);
        for f in CalibFormat::ALL.into_iter().map(Some).chain([None]) {
            if let Ok(c) = parse_calib(b, "fuzz", f) {
                let mut p = program();
                let _ = apply_calib(&mut p, &c);
            }
        }
    }
}

#[test]
fn a_node_split_into_parts_is_found_by_its_first_part() {
    // Gemm 'fc' legalized into 'fc/reshape_in', 'fc/conv' (+SDP) and 'fc'.
    let mut p = Program::new(ConfigName::NvSmall);
    let x = tensor(&mut p, "x", &[1, 4, 1, 1], TensorKind::Input(0));
    let r = tensor(
        &mut p,
        "fc/reshape_in",
        &[1, 4, 1, 1],
        TensorKind::Activation,
    );
    let w = tensor(
        &mut p,
        "fc_w",
        &[2, 4, 1, 1],
        TensorKind::Weight(onnc_nvdla::Weights::from(vec![0.5; 8])),
    );
    let acc = tensor(&mut p, "fc/conv.acc", &[1, 2, 1, 1], TensorKind::Fused);
    let c = tensor(&mut p, "fc/conv", &[1, 2, 1, 1], TensorKind::Activation);
    let y = tensor(&mut p, "y", &[1, 2], TensorKind::Output(0));
    op(&mut p, Engine::Reshape, "fc/reshape_in", vec![Some(x)], r);
    op(&mut p, Engine::Conv, "fc/conv", vec![Some(r), Some(w)], acc);
    op(
        &mut p,
        Engine::Sdp,
        "fc/conv",
        vec![Some(acc), None, None, None],
        c,
    );
    op(&mut p, Engine::Reshape, "fc", vec![Some(c)], y);
    let mut t = TensorScales::new("s", "x");
    t.insert("x", TensorScale::new(0.1), "1").unwrap();
    t.insert("y", TensorScale::new(0.2), "2").unwrap();
    let text = save_calib(&t, CalibFormat::AmctText, Some(&p), &SaveOptions::default()).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("key: \"fc\"\n  value {\n    scale_d: 0.1\n"),
        "{text}"
    );
    assert!(text.contains("key: \"tensor:y\""), "{text}");
    let back = scales_of(parse_calib(text.as_bytes(), "r", None).unwrap());
    let (mut a, mut b) = (p.clone(), p.clone());
    apply_scales(&mut a, &t).unwrap();
    apply_scales(&mut b, &back).unwrap();
    let (a, b) = (registers_only(a), registers_only(b));
    assert_eq!(a, b);
    assert_ne!(a, p);
}
