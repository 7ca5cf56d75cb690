//! The output directory: every file, its format, atomic replacement and
//! determinism; Gemm/MatMul chains and DequantizeLinear weights.

mod common;

use common::{conv3x3, scratch, vi, weights};
use onnc_mvu::{compile, CompileOptions};
use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, DType, Tensor};

/// conv (64 → 128, stride 2) → relu → flatten → gemm (8192 → 10, transB) on [1, 64, 16, 16].
fn conv_gemm() -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, 64, 16, 16])],
        outputs: vec![vi("logits", &[1, 10])],
        initializers: vec![
            ("conv.weight".into(), weights(&[128, 64, 3, 3], 3)),
            ("fc.weight".into(), weights(&[10, 128 * 8 * 8], 4)),
            (
                "fc.bias".into(),
                Tensor::from_f32(vec![10], (0..10).map(|i| i as f32).collect()).unwrap(),
            ),
        ],
        nodes: vec![
            conv3x3("conv", "x", "conv.weight", "c", 2),
            Node::new("relu", "Relu", &["c"], &["r"]),
            Node::new("flat", "Flatten", &["r"], &["f"]).with_attr("axis", Attr::Int(1)),
            Node::new("fc", "Gemm", &["f", "fc.weight", "fc.bias"], &["logits"])
                .with_attr("transB", Attr::Int(1)),
        ],
        ..Graph::default()
    }
}

fn opts() -> CompileOptions {
    CompileOptions {
        aprec: 2,
        wprec: 4,
        oprec: 2,
        per_channel: true,
        seed: 5,
        ..CompileOptions::default()
    }
}

#[test]
fn write_dir_produces_every_file() {
    let c = compile(&conv_gemm(), &opts()).unwrap();
    let dir = scratch("every_file");
    let paths = c.write_dir(&dir).unwrap();
    let names: Vec<String> = paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "mvu_config.json",
            "mvu_config.txt",
            "mvu_config.h",
            "mvu_program.s",
            "conv.weight.hex",
            "fc.weight.hex",
            "fc.weight.bias.hex",
            "input_0.bin",
            "input_0.hex",
            "expected_output_0.bin",
            "test_vectors.json"
        ]
    );
    // JSON: the documented keys, one row per layer.
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("mvu_config.json")).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for key in [
        "name",
        "kind",
        "aprec",
        "wprec",
        "oprec",
        "iShape",
        "fShape",
        "ilength",
        "ijump",
        "wlength",
        "wjump",
        "countdown",
        "total_layer_countdown",
    ] {
        assert!(rows.iter().all(|r| r.get(key).is_some()), "missing {key}");
    }
    assert_eq!(
        (rows[0]["kind"].as_str(), rows[1]["kind"].as_str()),
        (Some("conv"), Some("matmul"))
    );
    let total: u64 = rows
        .iter()
        .map(|r| r["total_layer_countdown"].as_u64().unwrap())
        .sum();
    assert_eq!(v["total_countdown"].as_u64(), Some(total));
    // matmul 8192 -> 10 at 2/4 bits: m_w = 128, m_h = 1, countdown = 128 * 1 * 2 * 4.
    assert_eq!(rows[1]["countdown"].as_u64(), Some(1024));
    // Header and assembly mention every layer.
    let h = std::fs::read_to_string(dir.join("mvu_config.h")).unwrap();
    let s = std::fs::read_to_string(dir.join("mvu_program.s")).unwrap();
    for l in ["CONV", "FC"] {
        assert!(
            h.contains(&format!("ONNC_MVU_LAYER_{l} ")),
            "header lacks {l}"
        );
    }
    assert!(s.contains("onnc_mvu_l0") && s.contains("onnc_mvu_l1"));
    // Weight images: wprec lines per 4096 weights (last block zero-padded), 4096 binary digits each.
    for (file, count) in [
        ("conv.weight.hex", 128 * 64 * 9),
        ("fc.weight.hex", 10 * 8192),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), (count as usize).div_ceil(4096) * 4, "{file}");
        assert!(
            lines
                .iter()
                .all(|l| l.len() == 4096 && l.bytes().all(|b| b == b'0' || b == b'1')),
            "{file}"
        );
    }
    // Signed 4-bit weights: some line has a 1 in the sign plane (line 0 of each block).
    assert!(std::fs::read_to_string(dir.join("conv.weight.hex"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .contains('1'));
    // Test vectors: raw f32 of the declared shapes.
    assert_eq!(
        std::fs::read(dir.join("input_0.bin")).unwrap().len(),
        4 * 64 * 16 * 16
    );
    assert_eq!(
        std::fs::read(dir.join("expected_output_0.bin"))
            .unwrap()
            .len(),
        4 * 10
    );
    let tv: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("test_vectors.json")).unwrap()).unwrap();
    assert_eq!(tv["expected_output"]["shape"], serde_json::json!([1, 10]));
    assert_eq!(tv["seed"], 5);
}

#[test]
fn expected_output_is_the_dequantized_network() {
    let g = conv_gemm();
    let c = compile(&g, &opts()).unwrap();
    // Rebuild the reference independently: weights = q * scale per output channel.
    let mut reference = g.clone();
    for (l, init) in c.lowered().iter().zip(["conv.weight", "fc.weight"]) {
        let per = l.weights.values.len() / l.weights.scales.len();
        assert_eq!(
            l.weights.scales.len(),
            l.layer.out_channels() as usize,
            "per-channel scales"
        );
        let deq: Vec<f32> = l
            .weights
            .values
            .iter()
            .enumerate()
            .map(|(i, &q)| q as f32 * l.weights.scales[i / per])
            .collect();
        let slot = reference
            .initializers
            .iter_mut()
            .find(|(n, _)| n == init)
            .unwrap();
        // Quantization moved each weight by at most half a step.
        let orig = slot.1.as_f32().unwrap();
        assert!(orig
            .iter()
            .zip(&deq)
            .enumerate()
            .all(|(i, (a, b))| (a - b).abs() <= l.weights.scales[i / per] / 2.0 + 1e-6));
        slot.1 = Tensor::from_f32(slot.1.shape().to_vec(), deq).unwrap();
    }
    let v = c.vectors().unwrap();
    let out = onnc_interp::run_graph(&reference, &[("x".into(), v.input.clone())]).unwrap();
    assert_eq!(out[0].1.as_f32().unwrap(), v.output.as_f32().unwrap());
}

#[test]
fn matmul_weights_are_transposed_to_out_in() {
    // MatMul B is [in, out]; the layer stores [out, in].
    let b: Vec<f32> = (0..64 * 3).map(|i| (i % 4) as f32).collect();
    let g = Graph {
        inputs: vec![vi("x", &[1, 64])],
        outputs: vec![vi("y", &[1, 3])],
        initializers: vec![(
            "b".into(),
            Tensor::from_f32(vec![64, 3], b.clone()).unwrap(),
        )],
        nodes: vec![Node::new("mm", "MatMul", &["x", "b"], &["y"])],
        ..Graph::default()
    };
    let c = compile(
        &g,
        &CompileOptions {
            aprec: 2,
            wprec: 2,
            oprec: 2,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    let w = &c.lowered()[0].weights.values;
    for o in 0..3 {
        for i in 0..64 {
            assert_eq!(w[o * 64 + i] as f32, b[i * 3 + o]);
        }
    }
    // Integer weights and codes: the expected output is the original graph's.
    let v = c.vectors().unwrap();
    let out = onnc_interp::run_graph(&g, &[("x".into(), v.input.clone())]).unwrap();
    assert_eq!(out[0].1.as_f32().unwrap(), v.output.as_f32().unwrap());
}

#[test]
fn dequantize_linear_weights_keep_their_codes_and_scales() {
    let codes: Vec<i64> = (0..64 * 64 * 9).map(|i| (i % 4) as i64 - 2).collect();
    let q = Tensor::new(
        vec![64, 64, 3, 3],
        onnc_tensor::Data::from_f64s(
            DType::I8,
            &codes.iter().map(|&c| c as f64).collect::<Vec<_>>(),
        ),
    )
    .unwrap();
    let g = Graph {
        inputs: vec![vi("x", &[1, 64, 8, 8])],
        outputs: vec![vi("y", &[1, 64, 8, 8])],
        initializers: vec![
            ("w_q".into(), q),
            (
                "w_scale".into(),
                Tensor::from_f32(vec![], vec![0.25]).unwrap(),
            ),
        ],
        nodes: vec![
            Node::new("w_dq", "DequantizeLinear", &["w_q", "w_scale"], &["w"])
                .with_attr("axis", Attr::Int(1)),
            conv3x3("conv", "x", "w", "y", 1),
        ],
        ..Graph::default()
    };
    let c = compile(
        &g,
        &CompileOptions {
            aprec: 2,
            wprec: 2,
            oprec: 2,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    let l = &c.lowered()[0];
    assert_eq!(
        l.weights
            .values
            .iter()
            .map(|&v| i64::from(v))
            .collect::<Vec<_>>(),
        codes
    );
    assert_eq!(
        (l.weights.scales.as_slice(), l.weights.signed),
        (&[0.25f32][..], true)
    );
    assert_eq!(l.layer.weight_file_name(), "w_q.hex");
    let v = c.vectors().unwrap();
    let out = onnc_interp::run_graph(&g, &[("x".into(), v.input.clone())]).unwrap();
    assert_eq!(out[0].1.as_f32().unwrap(), v.output.as_f32().unwrap());
}

#[test]
fn two_runs_give_the_same_bytes() {
    let a = compile(&conv_gemm(), &opts()).unwrap();
    let b = compile(&conv_gemm(), &opts()).unwrap();
    assert_eq!(a.files(), b.files());
    let (da, db) = (scratch("det_a"), scratch("det_b"));
    a.write_dir(&da).unwrap();
    b.write_dir(&db).unwrap();
    for f in a.files() {
        assert_eq!(
            std::fs::read(da.join(&f.name)).unwrap(),
            std::fs::read(db.join(&f.name)).unwrap(),
            "{}",
            f.name
        );
    }
    // Another seed changes the vectors only.
    let c = compile(&conv_gemm(), &CompileOptions { seed: 6, ..opts() }).unwrap();
    let differ: Vec<&str> = a
        .files()
        .iter()
        .zip(c.files())
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x.name.as_str())
        .collect();
    assert_eq!(
        differ,
        [
            "input_0.bin",
            "input_0.hex",
            "expected_output_0.bin",
            "test_vectors.json"
        ]
    );
}

#[test]
fn write_dir_replaces_an_earlier_output_but_not_a_foreign_directory() {
    let c = compile(&conv_gemm(), &opts()).unwrap();
    // A parent of its own: other tests write their outputs (and their
    // temporary siblings) beside one another in parallel.
    let parent = scratch("replace");
    std::fs::create_dir_all(&parent).unwrap();
    let dir = parent.join("out");
    c.write_dir(&dir).unwrap();
    std::fs::write(dir.join("stale.txt"), "old").unwrap();
    c.write_dir(&dir).unwrap();
    assert!(
        !dir.join("stale.txt").exists(),
        "the old directory is replaced as a whole"
    );
    assert!(dir.join("mvu_config.json").is_file());
    let foreign = parent.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep me").unwrap();
    let e = c.write_dir(&foreign).unwrap_err();
    assert!(
        e.to_string()
            .contains("not an earlier output (no mvu_config.json)"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert!(!foreign.join("mvu_config.json").exists());
    // No temporary sibling is left behind.
    assert!(std::fs::read_dir(&parent).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with('.')));
}
