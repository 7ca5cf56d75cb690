//! Hostile inputs to the NVDLA back end (issue 15): each test replays the
//! smallest reproducer of a defect found by the hostile-input campaign.

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions};
use onnc_nvdla::{ConfigName, Engine};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile")
        .join(name)
}

/// R17: an Identity-only model (the output is the input) compiles: the
/// output gets its own buffer, filled by an SDP copy, and the copy is exact.
#[test]
fn r17_identity_only_model_compiles_with_a_copy() {
    let g = onnc_onnx::load(data("r17_identity_only.onnx"), &Default::default())
        .unwrap()
        .graph;
    for config in [ConfigName::NvFull, ConfigName::NvSmall] {
        let target = if config == ConfigName::NvSmall {
            Target::NvSmall
        } else {
            Target::NvFull
        };
        let l = legalize(g.clone(), target, &Options::default()).unwrap();
        let mut p = lower(&l.graph, config, &LowerOptions::default())
            .unwrap_or_else(|e| panic!("{config:?}: {e}"));
        let engines: Vec<Engine> = p.ops.iter().map(|o| o.engine).collect();
        assert!(engines.contains(&Engine::Sdp), "{config:?}: {engines:?}");
        plan(&mut p, &PlanOptions::default()).unwrap_or_else(|e| panic!("{config:?}: {e}"));
        assert_ne!(p.inputs, p.outputs);
        if config == ConfigName::NvFull {
            let x = onnc_tensor::Tensor::from_f32(
                vec![1, 8, 4, 4],
                (0..128).map(|i| i as f32 * 0.25 - 16.0).collect(),
            )
            .unwrap();
            let y = onnc_nvdla::exec::run(&p, std::slice::from_ref(&x)).unwrap();
            assert_eq!(y[0].as_f32().unwrap(), x.as_f32().unwrap());
        }
    }
}

/// A 1×1 conv `x(1x3x4x4) → y(1x4x4x4)` with weights `w` (12 values).
fn conv_graph(w: Vec<f32>) -> onnc_onnx::Graph {
    use onnc_onnx::{Dim, Graph, Node, ValueInfo};
    use onnc_tensor::{DType, Tensor};
    let vi = |n: &str, d: &[usize]| ValueInfo {
        name: n.into(),
        dtype: DType::F32,
        dims: d.iter().map(|&x| Dim::Fixed(x)).collect(),
    };
    Graph {
        inputs: vec![vi("x", &[1, 3, 4, 4])],
        outputs: vec![vi("y", &[1, 4, 4, 4])],
        initializers: vec![("w".into(), Tensor::from_f32(vec![4, 3, 1, 1], w).unwrap())],
        nodes: vec![Node::new("conv1", "Conv", &["x", "w"], &["y"])],
        ..Default::default()
    }
}

/// Issue 15, item 6: NaN/∞ weights compiled without a word (NNIE refused
/// them). Now an error naming the node and the weight.
#[test]
fn nan_and_infinite_weights_are_errors() {
    for bad in [f32::NAN, f32::INFINITY] {
        let mut w = vec![0.5; 12];
        w[7] = bad;
        for config in [ConfigName::NvFull, ConfigName::NvSmall] {
            let e = lower(&conv_graph(w.clone()), config, &LowerOptions::default())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("'conv1'") && e.contains("weight 'w'") && e.contains("element 7"),
                "{e}"
            );
        }
    }
}

/// FP16 weights beyond ±65504 become ∞ on the hardware: a warning naming
/// the weight and the largest value; INT8 (scaled per layer) has none.
#[test]
fn fp16_overflowing_weights_are_warnings() {
    let mut w = vec![0.5; 12];
    w[3] = 1.0e6;
    w[4] = -7.0e4;
    let p = lower(
        &conv_graph(w.clone()),
        ConfigName::NvFull,
        &LowerOptions::default(),
    )
    .unwrap();
    let warnings = onnc_nvdla::lower::weight_values::warnings(&p);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let m = warnings[0].to_string();
    assert!(
        m.contains("'conv1'")
            && m.contains("weight 'w' has 2 value(s)")
            && m.contains("largest |w| = 1000000"),
        "{m}"
    );
    let p = lower(
        &conv_graph(w),
        ConfigName::NvSmall,
        &LowerOptions::default(),
    )
    .unwrap();
    assert!(onnc_nvdla::lower::weight_values::warnings(&p).is_empty());
    let ok = lower(
        &conv_graph(vec![65504.0; 12]),
        ConfigName::NvFull,
        &LowerOptions::default(),
    )
    .unwrap();
    assert!(onnc_nvdla::lower::weight_values::warnings(&ok).is_empty());
}

/// R04: a 2^62-line input (`--input-shape x=1x3x4611686018427387904x8`)
/// aborted on a huge allocation in the conv splitter. Legalization and the
/// lowering refuse every tensor above `MAX_TENSOR_BYTES`, naming it; the
/// splitter's own bound is tested in `emit::split`.
#[test]
fn r04_a_huge_input_height_is_refused_by_size() {
    let opts = onnc_onnx::Options {
        input_shapes: vec![("x".into(), vec![1, 3, 1 << 62, 8])],
    };
    let g = onnc_onnx::load(data("r04_conv_pool.onnx"), &opts)
        .unwrap()
        .graph;
    // Legalization refuses it first (its size check names the conv); the
    // lowering's own check names the input when given the graph directly.
    let Err(e) = legalize(g.clone(), Target::NvFull, &Options::default()) else {
        panic!("accepted")
    };
    let e = e.to_string();
    assert!(e.contains("--max-tensor-bytes"), "{e}");
    let e = lower(&g, ConfigName::NvFull, &LowerOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("'x'") && e.contains("--max-tensor-bytes"), "{e}");
}
