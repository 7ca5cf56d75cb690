//! The light model-zoo nets (from the `onnx` Python package's test data):
//! legalized for every target; on nv_full no source-only op may remain.
//! Skips (with a message) when Python or the package is missing.

use onnc_legalize::{legalize, Error, Options, Target, ALL_TARGETS};
use std::path::PathBuf;
use std::process::Command;

/// Ops that must not survive legalization for nv_full.
const GONE: &[&str] = &[
    "Gemm",
    "GlobalAveragePool",
    "Clip",
    "BatchNormalization",
    "Flatten",
    "Identity",
    "Dropout",
    "Sub",
    "Div",
    "Sum",
    "MatMul",
    "ReduceMean",
    "Pad",
];

fn zoo_dir() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .ok()?;
    let dir =
        PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()).join("backend/test/data/light");
    dir.is_dir().then_some(dir)
}

fn nets() -> Vec<(String, onnc_onnx::Graph)> {
    let Some(dir) = zoo_dir() else {
        eprintln!("skipping: python3 with the onnx package not found");
        return vec![];
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                onnc_onnx::load(&p, &Default::default()).unwrap().graph,
            )
        })
        .collect()
}

#[test]
fn nv_full_leaves_no_source_only_ops() {
    for (name, g) in nets() {
        let r = legalize(g, Target::NvFull, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for n in &r.graph.nodes {
            assert!(
                !GONE.contains(&n.op_type.as_str()),
                "{name}: {} ({}) remains",
                n.name,
                n.op_type
            );
        }
        assert_eq!(r.provenance.len(), r.graph.nodes.len());
        eprintln!(
            "{name}: {} -> {} nodes, {} iterations, {:?}",
            r.report.input_nodes,
            r.report.output_nodes,
            r.report.iterations,
            r.report.total_time()
        );
    }
}

#[test]
fn every_target_either_legalizes_or_reports_every_problem() {
    for (name, g) in nets() {
        for t in ALL_TARGETS {
            match legalize(g.clone(), t, &Options::default()) {
                Ok(r) => assert!(!r.graph.nodes.is_empty(), "{name} {t}"),
                Err(Error::Illegal { violations, .. }) => {
                    assert!(!violations.is_empty());
                    for v in &violations {
                        assert!(
                            !v.reason.is_empty() && !v.node.is_empty(),
                            "{name} {t}: {v}"
                        );
                    }
                    eprintln!(
                        "{name} on {t}: {} violation(s), first: {}",
                        violations.len(),
                        violations[0]
                    );
                }
                Err(e) => panic!("{name} {t}: {e}"),
            }
        }
    }
}

#[test]
fn results_are_deterministic() {
    for (name, g) in nets()
        .into_iter()
        .filter(|(n, _)| n.contains("resnet50") || n.contains("shufflenet"))
    {
        let a = legalize(g.clone(), Target::NvFull, &Options::default()).unwrap();
        let b = legalize(g, Target::NvFull, &Options::default()).unwrap();
        assert_eq!(a.graph, b.graph, "{name}");
        assert_eq!(a.provenance, b.provenance, "{name}");
    }
}

/// The light nets' weights are `ConstantOfShape` splats; replace them by
/// random initializers (rank 1: [0.5, 1.5), e.g. BN parameters; rank ≥ 2:
/// ±√(3/fan-in)) so numeric comparisons mean something, and compare the
/// logits before a final Softmax.
fn randomize(mut g: onnc_onnx::Graph) -> onnc_onnx::Graph {
    let mut seed = 1u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut nodes = vec![];
    for n in std::mem::take(&mut g.nodes) {
        let shape = (n.op_type == "ConstantOfShape")
            .then(|| n.input(0).and_then(|s| g.initializer(s)))
            .flatten()
            .map(|t| t.data().to_i64_vec());
        match shape {
            Some(shape) => {
                let shape: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
                let numel: usize = shape.iter().product();
                let fan_in: usize = shape.iter().skip(1).product::<usize>().max(1);
                let scale = (3.0 / fan_in as f32).sqrt();
                let v: Vec<f32> = (0..numel)
                    .map(|_| {
                        if shape.len() == 1 {
                            0.5 + next()
                        } else {
                            (next() * 2.0 - 1.0) * scale
                        }
                    })
                    .collect();
                g.initializers.push((
                    n.outputs[0].clone(),
                    onnc_tensor::Tensor::from_f32(shape, v).unwrap(),
                ));
            }
            None => nodes.push(n),
        }
    }
    // Compare logits, not saturated probabilities: drop a final Softmax.
    if nodes.last().is_some_and(|n| {
        n.op_type == "Softmax" && g.outputs.len() == 1 && n.outputs[0] == g.outputs[0].name
    }) {
        let sm = nodes.pop().unwrap();
        g.outputs[0].name = sm.inputs[0].clone().unwrap();
    }
    g.nodes = nodes;
    g
}

/// Runs a net (with random weights) before and after legalization on the
/// same input; returns the largest difference relative to the largest output.
fn max_diff(g: onnc_onnx::Graph, t: Target) -> f32 {
    let g = randomize(g);
    let input = &g.inputs[0];
    let shape: Vec<usize> = input.dims.iter().map(|d| d.fixed().unwrap_or(1)).collect();
    let n: usize = shape.iter().product();
    let x = onnc_tensor::Tensor::from_f32(
        shape,
        (0..n)
            .map(|i| ((i * 7919) % 1000) as f32 / 1000.0)
            .collect(),
    )
    .unwrap();
    let name = input.name.clone();
    let before = onnc_interp::run_graph(&g, &[(name.clone(), x.clone())]).unwrap();
    let after_g = legalize(g, t, &Options::default()).unwrap().graph;
    let after = onnc_interp::run_graph(&after_g, &[(name, x)]).unwrap();
    let (a, b) = (before[0].1.as_f32().unwrap(), after[0].1.as_f32().unwrap());
    assert_eq!(a.len(), b.len());
    let scale = a.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-12);
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q).abs())
        .fold(0f32, f32::max)
        / scale
}

#[test]
fn numbers_survive_legalization() {
    // ResNet-50: BN folding, Gemm→Conv, Sum→Add; Inception-v2: avg-pool pad
    // correction, BN→Mul+Add; SqueezeNet: GAP→AveragePool, Dropout; ShuffleNet:
    // group/depthwise Conv split, channel shuffle; DenseNet: BN→Mul+Add;
    // AlexNet: grouped Conv, Gemm→Conv with a CBUF channel split.
    for (name, g) in nets().into_iter().filter(|(n, _)| {
        [
            "resnet50",
            "inception_v2",
            "squeezenet",
            "shufflenet",
            "densenet121",
            "bvlc_alexnet",
        ]
        .iter()
        .any(|k| n.contains(k))
    }) {
        // onnc-interp does not run onnc.ChannelShuffle; on nv_small the shuffle is a permuting Conv.
        let t = if name.contains("shufflenet") {
            Target::NvSmall
        } else {
            Target::NvFull
        };
        let d = max_diff(g, t);
        eprintln!("{name}: max |before - after| / max |before| = {d:e}");
        assert!(d < 1e-3, "{name}: max difference {d}");
    }
}

#[test]
fn shufflenet_on_nnie_keeps_depthwise_convs() {
    // NNIE maps a depthwise Conv as a Caffe group convolution (onnc-nnie warns):
    // no Conv is refused, and none is split.
    let Some((_, g)) = nets().into_iter().find(|(n, _)| n.contains("shufflenet")) else {
        return;
    };
    let grouped = |g: &onnc_onnx::Graph| {
        g.nodes
            .iter()
            .filter(|n| {
                n.op_type == "Conv"
                    && n.attrs.get("group").and_then(|a| a.as_int()).unwrap_or(1) > 1
            })
            .count()
    };
    let before = grouped(&g);
    assert!(before > 0);
    match legalize(g, Target::Nnie, &Options::default()) {
        Ok(l) => assert_eq!(grouped(&l.graph), before),
        Err(Error::Illegal { violations, .. }) => {
            let convs: Vec<_> = violations.iter().filter(|v| v.op == "Conv").collect();
            assert!(convs.is_empty(), "{convs:?}");
        }
        Err(e) => panic!("{e}"),
    }
}
