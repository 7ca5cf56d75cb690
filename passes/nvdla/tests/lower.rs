//! Lowering the light model-zoo nets (from the `onnx` Python package) and a
//! ResNet-18 for CIFAR-10 to NVDLA, with structural checks on the fusion.

use std::collections::BTreeMap;
mod common;

use onnc_legalize::{legalize, Options, Target};
use onnc_nvdla::lower::{engine_counts, lower, LowerOptions};
use onnc_nvdla::{ConfigName, Engine, Program};

fn lower_file(
    path: &std::path::Path,
    target: Target,
    config: ConfigName,
) -> Result<Program, onnc_nvdla::Error> {
    let g = onnc_onnx::load(path, &Default::default()).unwrap().graph;
    let l = legalize(g, target, &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    lower(&l.graph, config, &LowerOptions::default())
}

fn zoo(name: &str) -> Program {
    let dir = common::zoo_dir();
    let p = lower_file(
        &dir.join(format!("light_{name}.onnx")),
        Target::NvFull,
        ConfigName::NvFull,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let counts = engine_counts(&p);
    eprintln!("{name}: {:?} dla/emu {:?}", counts, p.op_counts());
    p
}

fn count(p: &Program, e: Engine) -> usize {
    engine_counts(p).get(&e).copied().unwrap_or(0)
}

#[test]
fn every_light_net_lowers_for_nv_full() {
    for n in [
        "bvlc_alexnet",
        "densenet121",
        "inception_v1",
        "inception_v2",
        "resnet50",
        "shufflenet",
        "squeezenet",
        "vgg19",
        "zfnet512",
    ] {
        let p = zoo(n);
        assert!(!p.ops.is_empty());
        let hw: Vec<&str> = p.ops.iter().map(|o| o.hw_layer.as_str()).collect();
        assert!(
            hw.iter()
                .all(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')),
            "{n}"
        );
        let names: std::collections::BTreeSet<&str> =
            p.tensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names.len(), p.tensors.len(), "{n}: tensor names unique");
    }
}

#[test]
fn resnet50_fuses_every_residual_add() {
    let p = zoo("resnet50");
    assert_eq!(count(&p, Engine::Conv), 54);
    assert_eq!(
        count(&p, Engine::Sdp),
        54,
        "no standalone SDP: all Relu and Add fused"
    );
    let residual = p
        .ops
        .iter()
        .filter(|o| o.str("x2_op.mode") == Some("per_point"))
        .count();
    assert_eq!(residual, 16);
    assert_eq!((count(&p, Engine::Pdp), count(&p, Engine::Emu)), (2, 1));
}

#[test]
fn inception_v1_runs_lrn_on_cdp_and_concat_as_views() {
    let p = zoo("inception_v1");
    let cdp: Vec<i64> = p
        .ops
        .iter()
        .filter(|o| o.engine == Engine::Cdp)
        .map(|o| o.int("lut_index").unwrap())
        .collect();
    assert_eq!(cdp, [0, 1]);
    assert_eq!(count(&p, Engine::Concat), 9);
    let mut by_engine = BTreeMap::new();
    for o in &p.ops {
        by_engine.entry(o.engine).or_insert(0);
    }
    assert!(!by_engine.contains_key(&Engine::Rubik));
}

#[test]
fn shufflenet_shuffles_with_permutation_convs() {
    let p = zoo("shufflenet");
    // No channel-shuffle node is left unmapped: each is a 1×1 conv whose weight is a permutation.
    let shuffles: Vec<&onnc_nvdla::Op> = p
        .ops
        .iter()
        .filter(|o| {
            o.engine == Engine::Conv && p.tensors[o.inputs[1].unwrap()].name.ends_with(".shuffle_w")
        })
        .collect();
    assert_eq!(shuffles.len(), 16);
    for o in shuffles {
        let w = &p.tensors[o.inputs[1].unwrap()];
        let onnc_nvdla::TensorKind::Weight(v) = &w.kind else {
            panic!()
        };
        let v = v.values();
        let c = w.shape[1];
        for k in 0..w.shape[0] {
            assert_eq!(v[k * c..(k + 1) * c].iter().sum::<f32>(), 1.0);
        }
    }
}

// ------------------------------------------------------------ ResNet-18 CIFAR

/// Builds ResNet-18 for CIFAR-10 (3×32×32, conv1 3×3, four stages of two
/// basic blocks, 1×1 downsample convs in stages 2–4, GAP, Flatten, FC 10)
/// with unfolded batch norms and deterministic pseudo-random weights.
fn resnet18_cifar() -> onnc_onnx::Graph {
    use onnc_onnx::{Dim, Graph, Node, ValueInfo};
    use onnc_tensor::{Attr, DType, Tensor};
    struct B {
        g: Graph,
        seed: u64,
    }
    impl B {
        fn rand(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
            (0..n)
                .map(|_| {
                    self.seed = self
                        .seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    lo + (hi - lo) * ((self.seed >> 40) as f32 / (1u64 << 24) as f32)
                })
                .collect()
        }
        fn init(&mut self, name: &str, shape: Vec<usize>, lo: f32, hi: f32) -> String {
            let v = self.rand(shape.iter().product(), lo, hi);
            self.g
                .initializers
                .push((name.into(), Tensor::from_f32(shape, v).unwrap()));
            name.into()
        }
        #[allow(clippy::too_many_arguments)]
        fn conv_bn(
            &mut self,
            x: &str,
            name: &str,
            cin: usize,
            cout: usize,
            k: usize,
            stride: i64,
            relu: bool,
        ) -> String {
            let s = (2.0 / (cin * k * k) as f32).sqrt();
            let w = self.init(&format!("{name}_w"), vec![cout, cin, k, k], -s, s);
            let p = (k / 2) as i64;
            self.g.nodes.push(
                Node::new(name, "Conv", &[x, &w], &[name])
                    .with_attr("kernel_shape", Attr::Ints(vec![k as i64; 2]))
                    .with_attr("strides", Attr::Ints(vec![stride; 2]))
                    .with_attr("pads", Attr::Ints(vec![p; 4]))
                    .with_attr("dilations", Attr::Ints(vec![1, 1]))
                    .with_attr("group", Attr::Int(1))
                    .with_attr("auto_pad", Attr::String("NOTSET".into())),
            );
            let g = self.init(&format!("{name}_g"), vec![cout], 0.5, 1.5);
            let b = self.init(&format!("{name}_b"), vec![cout], -0.1, 0.1);
            let m = self.init(&format!("{name}_m"), vec![cout], -0.1, 0.1);
            let v = self.init(&format!("{name}_v"), vec![cout], 0.5, 1.5);
            let bn = format!("{name}_bn");
            self.g.nodes.push(
                Node::new(&bn, "BatchNormalization", &[name, &g, &b, &m, &v], &[&bn])
                    .with_attr("epsilon", Attr::Float(1e-5))
                    .with_attr("momentum", Attr::Float(0.9))
                    .with_attr("training_mode", Attr::Int(0)),
            );
            if !relu {
                return bn;
            }
            let r = format!("{name}_relu");
            self.g.nodes.push(Node::new(&r, "Relu", &[&bn], &[&r]));
            r
        }
    }
    let vi = |n: &str, d: &[usize]| ValueInfo {
        name: n.into(),
        dtype: DType::F32,
        dims: d.iter().map(|&x| Dim::Fixed(x)).collect(),
    };
    let mut b = B {
        g: Graph {
            name: "resnet18_cifar".into(),
            inputs: vec![vi("input", &[1, 3, 32, 32])],
            outputs: vec![vi("logits", &[1, 10])],
            ..Default::default()
        },
        seed: 18,
    };
    let mut x = b.conv_bn("input", "conv1", 3, 64, 3, 1, true);
    let mut cin = 64;
    for (s, (cout, stride)) in [(64, 1), (128, 2), (256, 2), (512, 2)]
        .into_iter()
        .enumerate()
    {
        for blk in 0..2 {
            let name = format!("layer{}_{blk}", s + 1);
            let st = if blk == 0 { stride } else { 1 };
            let ci = if blk == 0 { cin } else { cout };
            let y = b.conv_bn(&x, &format!("{name}_conv1"), ci, cout, 3, st, true);
            let y = b.conv_bn(&y, &format!("{name}_conv2"), cout, cout, 3, 1, false);
            let skip = if st == 1 && ci == cout {
                x.clone()
            } else {
                b.conv_bn(&x, &format!("{name}_down"), ci, cout, 1, st, false)
            };
            let (add, out) = (format!("{name}_add"), format!("{name}_out"));
            b.g.nodes
                .push(Node::new(&add, "Add", &[&y, &skip], &[&add]));
            b.g.nodes.push(Node::new(&out, "Relu", &[&add], &[&out]));
            x = out;
        }
        cin = cout;
    }
    b.g.nodes
        .push(Node::new("gap", "GlobalAveragePool", &[&x], &["gap"]));
    b.g.nodes
        .push(Node::new("flatten", "Flatten", &["gap"], &["flat"]).with_attr("axis", Attr::Int(1)));
    let fw = b.init("fc_w", vec![10, 512], -0.05, 0.05);
    let fb = b.init("fc_b", vec![10], -0.05, 0.05);
    b.g.nodes.push(
        Node::new("fc", "Gemm", &["flat", &fw, &fb], &["logits"])
            .with_attr("transB", Attr::Int(1))
            .with_attr("transA", Attr::Int(0))
            .with_attr("alpha", Attr::Float(1.0))
            .with_attr("beta", Attr::Float(1.0)),
    );
    b.g
}

#[test]
fn resnet18_cifar_fits_in_49_dla_ops() {
    let g = resnet18_cifar();
    let l = legalize(g, Target::NvFull, &Options::default()).unwrap();
    let p = lower(&l.graph, ConfigName::NvFull, &LowerOptions::default()).unwrap();
    let (dla, emu) = p.op_counts();
    eprintln!("resnet18-cifar: {:?}, {dla} DLA ops", engine_counts(&p));
    assert!(dla <= 49, "{dla} DLA ops");
    assert_eq!(emu, 0);
    assert_eq!(count(&p, Engine::Conv), 21, "20 convs and the FC");
    assert_eq!(
        count(&p, Engine::Sdp),
        21,
        "every Add, Relu and BN is fused"
    );
    assert_eq!(count(&p, Engine::Pdp), 1);
    // Every residual Add is an X2 per-point sum from memory.
    let residual = p
        .ops
        .iter()
        .filter(|o| {
            o.str("x2_op.mode") == Some("per_point") && o.str("x2_op.alu_type") == Some("sum")
        })
        .count();
    assert_eq!(residual, 8);
    // Unfused, each ONNX node is its own op.
    let l2 = legalize(resnet18_cifar(), Target::NvFull, &Options::default()).unwrap();
    let unfused = lower(
        &l2.graph,
        ConfigName::NvFull,
        &LowerOptions {
            fuse: false,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        unfused.op_counts().0 > dla + 20,
        "{} unfused",
        unfused.op_counts().0
    );
}

#[test]
fn resnet18_on_nv_small_runs_each_residual_add_on_x2() {
    // nv_small has no Y unit, but X2 reads per-point operands from memory:
    // every residual Add fuses into its conv's SDP, none touches Y.
    let l = legalize(resnet18_cifar(), Target::NvSmall, &Options::default()).unwrap();
    let p = lower(&l.graph, ConfigName::NvSmall, &LowerOptions::default()).unwrap();
    let residual = p
        .ops
        .iter()
        .filter(|o| {
            o.str("x2_op.mode") == Some("per_point") && o.str("x2_op.alu_type") == Some("sum")
        })
        .count();
    assert_eq!(residual, 8);
    assert!(p.ops.iter().all(|o| o.int("y_op.enable") != Some(1)));
}

// ------------------------------------------------------------ single rules

fn small(
    nodes: Vec<onnc_onnx::Node>,
    inputs: &[(&str, &[usize])],
    out: (&str, &[usize]),
    inits: Vec<(&str, Vec<usize>)>,
) -> onnc_onnx::Graph {
    use onnc_onnx::{Dim, ValueInfo};
    let vi = |n: &str, d: &[usize]| ValueInfo {
        name: n.into(),
        dtype: onnc_tensor::DType::F32,
        dims: d.iter().map(|&x| Dim::Fixed(x)).collect(),
    };
    onnc_onnx::Graph {
        inputs: inputs.iter().map(|(n, d)| vi(n, d)).collect(),
        outputs: vec![vi(out.0, out.1)],
        initializers: inits
            .into_iter()
            .map(|(n, s)| {
                (
                    n.to_string(),
                    onnc_tensor::Tensor::from_f32(s.clone(), vec![0.5; s.iter().product()])
                        .unwrap(),
                )
            })
            .collect(),
        nodes,
        ..Default::default()
    }
}

#[test]
fn unaligned_concat_becomes_summed_selection_convs_and_aligned_is_a_view() {
    use onnc_onnx::Node;
    use onnc_tensor::Attr;
    let cat = |a: usize| {
        small(
            vec![Node::new("cat", "Concat", &["a", "b"], &["y"]).with_attr("axis", Attr::Int(1))],
            &[("a", &[1, a, 4, 4]), ("b", &[1, 8, 4, 4])],
            ("y", &[1, a + 8, 4, 4]),
            vec![],
        )
    };
    let p = lower(&cat(6), ConfigName::NvFull, &LowerOptions::default()).unwrap();
    assert_eq!(
        p.ops.iter().map(|o| o.engine).collect::<Vec<_>>(),
        [Engine::Conv, Engine::Sdp, Engine::Conv, Engine::Sdp]
    );
    assert_eq!(p.ops[3].str("x2_op.mode"), Some("per_point"));
    // Inputs are bound buffers and cannot be views either; a conv-produced 16-channel member can.
    // nv_small sums the moved members on X2 as well (it has no Y unit, but
    // per-point operands are X1/X2 business).
    let p = lower(&cat(6), ConfigName::NvSmall, &LowerOptions::default()).unwrap();
    assert_eq!(p.ops[3].str("x2_op.mode"), Some("per_point"));
    assert!(p.ops.iter().all(|o| o.int("y_op.enable") != Some(1)));
}

#[test]
fn every_unmappable_node_is_reported_at_once() {
    use onnc_onnx::Node;
    use onnc_tensor::Attr;
    let g = small(
        vec![
            Node::new("p", "AveragePool", &["x"], &["a"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("strides", Attr::Ints(vec![1, 1]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
                .with_attr("count_include_pad", Attr::Int(0)),
            Node::new("e", "Exp", &["a"], &["b"]),
            Node::new("t", "Transpose", &["b"], &["y"])
                .with_attr("perm", Attr::Ints(vec![0, 2, 3, 1])),
        ],
        &[("x", &[1, 16, 4, 4])],
        ("y", &[1, 4, 4, 16]),
        vec![],
    );
    let e = lower(&g, ConfigName::NvFull, &LowerOptions::default()).unwrap_err();
    let names: Vec<&str> = e.problems().iter().map(|p| p.node.as_str()).collect();
    assert_eq!(names, ["p", "e", "t"], "{e}");
    assert!(e.problems()[0].what.contains("count_include_pad=0"));
    assert!(e.problems()[1].what.contains("cannot run Exp"));
    assert!(e.problems()[2].what.contains("changes the feature layout"));
}

#[test]
fn flatten_into_a_1x1_conv_becomes_one_hw_kernel_conv_and_softmax_runs_on_emu() {
    use onnc_onnx::Node;
    use onnc_tensor::Attr;
    let g = small(
        vec![
            Node::new("flat", "Reshape", &["x", "shape"], &["f"]),
            Node::new("fc", "Conv", &["f", "w"], &["c"])
                .with_attr("kernel_shape", Attr::Ints(vec![1, 1])),
            Node::new("sm", "Softmax", &["c"], &["y"]).with_attr("axis", Attr::Int(1)),
        ],
        &[("x", &[1, 4, 3, 3])],
        ("y", &[1, 10, 1, 1]),
        vec![("w", vec![10, 36, 1, 1])],
    );
    let mut g = g;
    g.initializers.push((
        "shape".into(),
        onnc_tensor::Tensor::from_i64(vec![4], vec![1, 36, 1, 1]).unwrap(),
    ));
    let p = lower(&g, ConfigName::NvFull, &LowerOptions::default()).unwrap();
    assert_eq!(
        p.ops.iter().map(|o| o.engine).collect::<Vec<_>>(),
        [Engine::Conv, Engine::Sdp, Engine::Emu]
    );
    assert_eq!(p.tensors[p.ops[0].inputs[1].unwrap()].shape, [10, 4, 3, 3]);
    assert_eq!(p.ops[0].onnx_nodes, ["fc", "flat"]);
    assert_eq!(p.ops[2].str("op_type"), Some("softmax"));
}
