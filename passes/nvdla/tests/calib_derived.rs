//! Tensors the nv_small lowering makes and no calibrator observes (issue
//! 19): ReLU6's `Max(x, 0)` is fused as the X unit's ReLU (no intermediate
//! tensor), a channel shuffle's selection convolution takes its input's
//! scale, and a split Gemm's partial sum takes the calibrator's `#psum`
//! range.

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::ctable::{apply_scales, TensorScale, TensorScales};
use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::{ConfigName, Engine, Program};
use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::{Attr, DType, Tensor};

fn vi(n: &str, d: &[usize]) -> ValueInfo {
    ValueInfo {
        name: n.into(),
        dtype: DType::F32,
        dims: d.iter().map(|&x| Dim::Fixed(x)).collect(),
    }
}

/// Deterministic values in [-1, 1).
fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let h = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8;
            (h % 2000) as f32 / 1000.0 - 1.0
        })
        .collect()
}

fn small(g: &Graph) -> Program {
    let l = legalize(g.clone(), Target::NvSmall, &Options::default()).unwrap();
    lower(&l.graph, ConfigName::NvSmall, &LowerOptions::default()).unwrap()
}

/// Every ONNX value a calibrator would observe, with one scale.
fn table(g: &Graph, s: f32) -> TensorScales {
    let mut t = TensorScales::new("t.json", "calibtable");
    for v in &g.inputs {
        t.entries.insert(v.name.clone(), TensorScale::new(s));
    }
    for n in &g.nodes {
        for o in &n.outputs {
            t.entries.insert(o.clone(), TensorScale::new(s));
        }
    }
    t
}

#[test]
fn max_zero_then_min_is_one_sdp_on_nv_small() {
    // Conv → Max(·, 0) → Min(·, 6): ReLU6 as the legalizer leaves it when
    // it does not rewrite Max(x, 0) to Relu.
    let mut g = Graph {
        inputs: vec![vi("x", &[1, 8, 4, 4])],
        outputs: vec![vi("y", &[1, 8, 4, 4])],
        ..Default::default()
    };
    g.initializers.push((
        "w".into(),
        Tensor::from_f32(vec![8, 8, 1, 1], values(64, 1)).unwrap(),
    ));
    g.initializers
        .push(("b".into(), Tensor::from_f32(vec![8], values(8, 2)).unwrap()));
    g.initializers
        .push(("zero".into(), Tensor::from_f32(vec![], vec![0.0]).unwrap()));
    g.initializers
        .push(("six".into(), Tensor::from_f32(vec![], vec![6.0]).unwrap()));
    g.nodes = vec![
        Node::new("conv", "Conv", &["x", "w", "b"], &["c"])
            .with_attr("kernel_shape", Attr::Ints(vec![1, 1])),
        Node::new("clip/max", "Max", &["c", "zero"], &["m"]),
        Node::new("clip", "Min", &["m", "six"], &["y"]),
    ];
    let p = lower(&g, ConfigName::NvSmall, &LowerOptions::default()).unwrap();
    let sdps: Vec<_> = p.ops.iter().filter(|o| o.engine == Engine::Sdp).collect();
    assert_eq!(sdps.len(), 1, "one SDP: bias, ReLU and Min on X1 and X2");
    assert_eq!(sdps[0].str("x1_op.act"), Some("relu"));
    assert_eq!(sdps[0].str("x2_op.alu_type"), Some("min"));
    assert!(p.tensors.iter().all(|t| t.name != "clip/max"));
}

#[test]
fn a_channel_shuffle_selection_takes_its_input_scale() {
    // Split → conv+ReLU on one half → Concat → ShuffleNet's channel shuffle.
    let mut g = Graph {
        inputs: vec![vi("x", &[1, 16, 4, 4])],
        outputs: vec![vi("y", &[1, 16, 4, 4])],
        ..Default::default()
    };
    let i64s = |v: Vec<i64>| Tensor::from_i64(vec![v.len()], v).unwrap();
    g.initializers.push((
        "w".into(),
        Tensor::from_f32(vec![8, 8, 1, 1], values(64, 3)).unwrap(),
    ));
    g.initializers.push(("split".into(), i64s(vec![8, 8])));
    g.initializers
        .push(("s5".into(), i64s(vec![1, 2, 8, 4, 4])));
    g.initializers.push(("s4".into(), i64s(vec![1, 16, 4, 4])));
    g.nodes = vec![
        Node::new("chunk", "Split", &["x", "split"], &["x1", "x2"]).with_attr("axis", Attr::Int(1)),
        Node::new("branch", "Conv", &["x2", "w"], &["c2"])
            .with_attr("kernel_shape", Attr::Ints(vec![1, 1])),
        Node::new("relu", "Relu", &["c2"], &["r2"]),
        Node::new("concat", "Concat", &["x1", "r2"], &["cat"]).with_attr("axis", Attr::Int(1)),
        Node::new("group", "Reshape", &["cat", "s5"], &["gr"]),
        Node::new("swap", "Transpose", &["gr"], &["t"])
            .with_attr("perm", Attr::Ints(vec![0, 2, 1, 3, 4])),
        Node::new("flat", "Reshape", &["t", "s4"], &["y"]),
    ];
    let mut p = small(&g);
    let mut t = table(&g, 0.05);
    // The program names the Split's second result `chunk:1`, the graph `x2`;
    // the relu's scale differs so that the derived one can be told apart.
    t.entries.insert("r2".into(), TensorScale::new(0.03));
    // What the MLIR import names `chunk:1` has no entry there (the
    // calibrator keys a node's first result by the node): a selection
    // convolution makes it, so it is derived.
    t.entries.remove("x2");
    t.entries.insert("y".into(), TensorScale::new(0.04));
    let stats = apply_scales(&mut p, &t).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        stats
            .notes
            .iter()
            .any(|n| n.contains("selection convolutions: data movement")),
        "{:?}",
        stats.notes
    );
}

#[test]
fn a_split_gemm_partial_sum_takes_the_psum_range() {
    // Flatten [1, 512, 6, 6] → Gemm to 8 outputs: 8 kernels of 18432 INT8
    // weights are 144 KiB, more than nv_small's CBUF, so the reduction is
    // split in input channels and one partial sum is written.
    let k = 512 * 36;
    let mut g = Graph {
        inputs: vec![vi("x", &[1, 512, 6, 6])],
        outputs: vec![vi("y", &[1, 8])],
        ..Default::default()
    };
    g.initializers.push((
        "w".into(),
        Tensor::from_f32(vec![8, k], values(8 * k, 4)).unwrap(),
    ));
    g.initializers
        .push(("b".into(), Tensor::from_f32(vec![8], values(8, 5)).unwrap()));
    g.nodes = vec![
        Node::new("flatten", "Flatten", &["x"], &["f"]).with_attr("axis", Attr::Int(1)),
        Node::new("fc", "Gemm", &["f", "w", "b"], &["y"]).with_attr("transB", Attr::Int(1)),
    ];
    let mut p = small(&g);
    let parts: Vec<usize> = p
        .ops
        .iter()
        .enumerate()
        .filter(|(_, o)| o.engine == Engine::Sdp && p.tensors[o.output].name.contains("/part"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(parts.len(), 1, "one partial sum written");
    // Without the partial-sum entry the table is incomplete, and says which.
    let t = table(&g, 0.05);
    let err = apply_scales(&mut p.clone(), &t).unwrap_err().to_string();
    assert!(err.contains("/part1"), "{err}");
    // With it the partial sum's scale is that range / 127 (its slice ends
    // at the last channel: a suffix of the reduction).
    let mut t = table(&g, 0.05);
    t.entries.insert("fc#psum".into(), TensorScale::new(0.5));
    let stats = apply_scales(&mut p, &t).unwrap_or_else(|e| panic!("{e}"));
    // The entry is used, not listed as naming no tensor (the Flatten's is:
    // the reshape is fused away).
    assert!(
        stats.unmatched.iter().all(|u| !u.contains("psum")),
        "{:?}",
        stats.unmatched
    );
    assert!(
        stats.notes.iter().any(|n| n.contains("partial sum")),
        "{:?}",
        stats.notes
    );
    let out = p.ops[parts[0]].float("quant.output_scale").unwrap();
    assert!((out - 0.5).abs() < 1e-6, "{out}");
}

#[test]
fn a_hard_sigmoid_result_takes_the_scale_one_over_127() {
    // Conv → HardSigmoid(1/6, 0.5) → Conv; the table has no entry for the
    // gate (as for the one nv_small's HardSwish legalization makes): its
    // range is [0, 1], so it is derived as 1/127.
    let mut g = Graph {
        inputs: vec![vi("x", &[1, 8, 4, 4])],
        outputs: vec![vi("y", &[1, 8, 4, 4])],
        ..Default::default()
    };
    for (name, seed) in [("w1", 5), ("w2", 6)] {
        g.initializers.push((
            name.into(),
            Tensor::from_f32(vec![8, 8, 1, 1], values(64, seed)).unwrap(),
        ));
    }
    g.nodes = vec![
        Node::new("conv1", "Conv", &["x", "w1"], &["c1"])
            .with_attr("kernel_shape", Attr::Ints(vec![1, 1])),
        Node::new("gate", "HardSigmoid", &["c1"], &["h"])
            .with_attr("alpha", Attr::Float(1.0 / 6.0))
            .with_attr("beta", Attr::Float(0.5)),
        Node::new("conv2", "Conv", &["h", "w2"], &["y"])
            .with_attr("kernel_shape", Attr::Ints(vec![1, 1])),
    ];
    let mut p = small(&g);
    let mut t = table(&g, 0.05);
    t.entries.remove("h");
    let stats = apply_scales(&mut p, &t).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        stats
            .notes
            .iter()
            .any(|n| n.contains("(clamped to [0, 1]: HardSigmoid) takes the scale 1/127: 'h'")),
        "{:?}",
        stats.notes
    );
    // Only the clamp is derived: without the output's entry the table is
    // still refused.
    t.entries.remove("y");
    let mut p2 = small(&g);
    assert!(apply_scales(&mut p2, &t).is_err());
}

#[test]
fn sigmoid_ramps_take_their_bounds_as_scales() {
    // Sigmoid on nv_small is legalized into weighted ramps and partial sums
    // (`nvdla/sigmoid-to-ramps`) that a calibrator of the ONNX graph never
    // sees: each takes the bound of its ops, a ramp its weight, a partial
    // sum the sum of its terms' (the input's range ±6 covers every clamp).
    use onnc_legalize::rules::sigmoid_pwl::{FIT, SEGMENTS};
    let g = Graph {
        inputs: vec![vi("x", &[1, 8, 4, 4])],
        outputs: vec![vi("y", &[1, 8, 4, 4])],
        nodes: vec![Node::new("sig", "Sigmoid", &["x"], &["y"])],
        ..Default::default()
    };
    let mut p = small(&g);
    let mut t = TensorScales::new("t.json", "calibtable");
    t.entries.insert("x".into(), TensorScale::new(6.0 / 127.0));
    t.entries.insert("y".into(), TensorScale::new(1.0 / 127.0));
    let stats = apply_scales(&mut p, &t).unwrap_or_else(|e| panic!("{e}"));
    let derived = 2 * SEGMENTS - 2; // every term, the partial sums but the last
    let note = stats
        .notes
        .iter()
        .find(|n| n.contains("element-wise steps of calibrated tensors"))
        .unwrap_or_else(|| panic!("{:?}", stats.notes));
    assert!(note.starts_with(&format!("{derived} tensors")), "{note}");
    let w = FIT.ramps();
    let first = format!("'sig/term0' (±{:.4})", w[0].2);
    let sum = format!("'sig/sum1' (±{:.4})", w[0].2 + w[1].2);
    assert!(note.contains(&first) && note.contains(&sum), "{note}");
    // Without the input's scale nothing is bounded, and the table is refused.
    t.entries.remove("x");
    let mut p2 = small(&g);
    assert!(apply_scales(&mut p2, &t).is_err());
}

#[test]
fn a_split_conv_sum_of_parts_takes_the_prefix_range() {
    // A 3×3 over 2048 channels, 28 wide (FCN's classifier): three channel
    // parts on nv_small, the first with the bias, summed as
    // (part0 + part1) + part2.
    let mut g = Graph {
        inputs: vec![vi("x", &[1, 2048, 28, 28])],
        outputs: vec![vi("y", &[1, 8, 28, 28])],
        ..Default::default()
    };
    g.initializers.push((
        "w".into(),
        Tensor::from_f32(vec![8, 2048, 3, 3], values(8 * 2048 * 9, 6)).unwrap(),
    ));
    g.initializers
        .push(("b".into(), Tensor::from_f32(vec![8], values(8, 7)).unwrap()));
    g.nodes = vec![Node::new("conv", "Conv", &["x", "w", "b"], &["y"])
        .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
        .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))];
    let mut p = small(&g);
    let by_name = |p: &Program, n: &str| {
        p.ops
            .iter()
            .position(|o| p.tensors[o.output].name == n)
            .unwrap_or_else(|| panic!("no op writes '{n}'"))
    };
    // Without the entry, the parts are refused by name.
    let err = apply_scales(&mut p.clone(), &table(&g, 0.05))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("conv/part1") && err.contains("conv/add0"),
        "{err}"
    );
    let mut t = table(&g, 0.05);
    t.entries.insert("conv#psum".into(), TensorScale::new(0.5));
    let stats = apply_scales(&mut p, &t).unwrap_or_else(|e| panic!("{e}"));
    let scale = |p: &Program, n: &str| p.ops[by_name(p, n)].float("quant.output_scale").unwrap();
    // part1 is a middle range: twice the prefix range.
    assert!((scale(&p, "conv/part1") - 1.0).abs() < 1e-6);
    // add0 = bias + part0 + part1 is a prefix: the range plus the largest
    // |bias| (the entry leaves the bias out).
    let b_max = values(8, 7).iter().fold(0f32, |m, v| m.max(v.abs()));
    let want = (0.5 * 127.0 + f64::from(b_max)) / 127.0;
    assert!(
        (scale(&p, "conv/add0") - want).abs() < 1e-6,
        "{}",
        scale(&p, "conv/add0")
    );
    assert!(
        stats.notes.iter().any(|n| n.contains("a sum of its parts")),
        "{:?}",
        stats.notes
    );
}
