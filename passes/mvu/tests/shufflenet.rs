//! ShuffleNetV2 on the MVU: its units as torchvision exports them (channel
//! `Slice`s, BatchNormalizations, depthwise 3×3 convs, `Concat`, the channel
//! shuffle Reshape–Transpose–Reshape, `ReduceMean` over H, W), legalized by
//! `onnc-legalize{target=mvu}` and compiled. The Slices and shuffles become
//! 1×1 convs that copy channels (`mvu/slice-to-conv`,
//! `common/shuffle-as-conv`), folded into the weight columns of the convs
//! that read them (`mvu/selection-into-conv`); what a `Concat` reads stays a
//! copy layer. At 2, 4 and 8 bits the model of the MVU jobs equals
//! `onnc-interp` on the legalized integer network, and the legalized network
//! computes what the exported one does.

mod common;
use common::net::matches_interpreter;
use common::{opts, vi, weights};
use onnc_mvu::frontend::{compile, random_codes, reference_codes, simulate};

use onnc_legalize::{legalize, Options, Target};
use onnc_onnx::{Graph, Node};
use onnc_tensor::{Attr, Tensor};

/// Builds a ShuffleNetV2-like graph node by node.
struct Builder {
    g: Graph,
    salt: u64,
}

impl Builder {
    fn init(&mut self, name: &str, t: Tensor) -> String {
        self.g.initializers.push((name.to_string(), t));
        name.to_string()
    }

    fn ints(&mut self, name: &str, v: &[i64]) -> String {
        self.init(name, Tensor::from_i64(vec![v.len()], v.to_vec()).unwrap())
    }

    /// `Conv` (k×k, pad k/2, stride `s`, `group`) of `x` (`c` channels) to
    /// `o` channels, then `BatchNormalization`, then `Relu` when `relu`.
    #[allow(clippy::too_many_arguments)]
    fn conv_bn(
        &mut self,
        name: &str,
        x: &str,
        (c, o): (usize, usize),
        k: usize,
        s: i64,
        group: usize,
        relu: bool,
    ) -> String {
        self.salt += 1;
        let w = self.init(
            &format!("{name}.weight"),
            weights(&[o, c / group, k, k], self.salt),
        );
        let y = format!("{name}.conv");
        let p = (k / 2) as i64;
        self.g.nodes.push(
            Node::new(name, "Conv", &[x, &w], &[&y])
                .with_attr("kernel_shape", Attr::Ints(vec![k as i64; 2]))
                .with_attr("pads", Attr::Ints(vec![p; 4]))
                .with_attr("strides", Attr::Ints(vec![s; 2]))
                .with_attr("group", Attr::Int(group as i64)),
        );
        let shifted = |v: Tensor, by: f32| {
            let d: Vec<f32> = v.as_f32().unwrap().iter().map(|x| x * 0.5 + by).collect();
            Tensor::from_f32(vec![o], d).unwrap()
        };
        let params: Vec<String> = [("scale", 1.0), ("bias", 0.0), ("mean", 0.0), ("var", 1.0)]
            .iter()
            .enumerate()
            .map(|(i, (p, by))| {
                let t = shifted(weights(&[o], self.salt * 10 + i as u64), *by);
                self.init(&format!("{name}.bn.{p}"), t)
            })
            .collect();
        let b = format!("{name}.bn");
        let mut inputs = vec![y.as_str()];
        inputs.extend(params.iter().map(String::as_str));
        self.g.nodes.push(
            Node::new(&format!("{name}_bn"), "BatchNormalization", &inputs, &[&b])
                .with_attr("epsilon", Attr::Float(1e-5)),
        );
        if !relu {
            return b;
        }
        let r = format!("{name}.relu");
        self.g
            .nodes
            .push(Node::new(&format!("{name}_relu"), "Relu", &[&b], &[&r]));
        r
    }

    /// Channels `a..b` of `x` (a `Slice` on axis 1, as torchvision's `chunk`).
    fn slice(&mut self, name: &str, x: &str, a: i64, b: i64) -> String {
        let st = self.ints(&format!("{name}.starts"), &[a]);
        let en = self.ints(&format!("{name}.ends"), &[b]);
        let ax = self.ints(&format!("{name}.axes"), &[1]);
        let y = format!("{name}.out");
        self.g
            .nodes
            .push(Node::new(name, "Slice", &[x, &st, &en, &ax], &[&y]));
        y
    }

    /// `Concat(a, b)` on channels, then the channel shuffle of 2 groups of a
    /// `c`-channel `h`×`w` map: Reshape, Transpose(0, 2, 1, 3, 4), Reshape.
    fn concat_shuffle(&mut self, name: &str, a: &str, b: &str, c: usize, hw: usize) -> String {
        let j = format!("{name}.cat");
        self.g.nodes.push(
            Node::new(&format!("{name}_cat"), "Concat", &[a, b], &[&j])
                .with_attr("axis", Attr::Int(1)),
        );
        let (c, hw) = (c as i64, hw as i64);
        let s5 = self.ints(&format!("{name}.s5"), &[1, 2, c / 2, hw, hw]);
        let s4 = self.ints(&format!("{name}.s4"), &[1, c, hw, hw]);
        let (k, l, y) = (
            format!("{name}.k"),
            format!("{name}.l"),
            format!("{name}.out"),
        );
        self.g.nodes.push(Node::new(
            &format!("{name}_r1"),
            "Reshape",
            &[&j, &s5],
            &[&k],
        ));
        self.g.nodes.push(
            Node::new(&format!("{name}_t"), "Transpose", &[&k], &[&l])
                .with_attr("perm", Attr::Ints(vec![0, 2, 1, 3, 4])),
        );
        self.g.nodes.push(Node::new(
            &format!("{name}_r2"),
            "Reshape",
            &[&l, &s4],
            &[&y],
        ));
        y
    }

    /// A down-sampling unit (stride 2, no Slice): `c` → `2·h` channels.
    fn down(&mut self, name: &str, x: &str, c: usize, h: usize, hw: usize) -> String {
        let l1 = self.conv_bn(&format!("{name}.b1.0"), x, (c, c), 3, 2, c, false);
        let l = self.conv_bn(&format!("{name}.b1.2"), &l1, (c, h), 1, 1, 1, true);
        let r1 = self.conv_bn(&format!("{name}.b2.0"), x, (c, h), 1, 1, 1, true);
        let r2 = self.conv_bn(&format!("{name}.b2.3"), &r1, (h, h), 3, 2, h, false);
        let r = self.conv_bn(&format!("{name}.b2.5"), &r2, (h, h), 1, 1, 1, true);
        self.concat_shuffle(name, &l, &r, 2 * h, hw)
    }

    /// A basic unit of `c` channels: halves by Slice, the second through
    /// 1×1 → depthwise 3×3 → 1×1.
    fn basic(&mut self, name: &str, x: &str, c: usize, hw: usize) -> String {
        let h = c / 2;
        let a = self.slice(&format!("{name}.s1"), x, 0, h as i64);
        let b = self.slice(&format!("{name}.s2"), x, h as i64, c as i64);
        let b1 = self.conv_bn(&format!("{name}.b2.0"), &b, (h, h), 1, 1, 1, true);
        let b2 = self.conv_bn(&format!("{name}.b2.3"), &b1, (h, h), 3, 1, h, false);
        let b3 = self.conv_bn(&format!("{name}.b2.5"), &b2, (h, h), 1, 1, 1, true);
        self.concat_shuffle(name, &a, &b3, c, hw)
    }
}

/// A 128×128 input, stem conv 3×3/2 + MaxPool 3×3/2 pad 1, a
/// down-sampling unit to 116 channels at 16×16 (two 58-channel parts:
/// unaligned, gap channels in their buffer), two basic units, a second
/// down-sampling unit (reading a shuffle) to 232 at 8×8, conv 1×1,
/// `ReduceMean` over H, W and `Gemm`, as torchvision exports
/// ShuffleNetV2 (whose stage 2 is 116 channels at 28×28).
fn shufflenet() -> Graph {
    let mut b = Builder {
        g: Graph {
            name: "shufflenet".into(),
            inputs: vec![vi("x", &[1, 3, 128, 128])],
            ..Graph::default()
        },
        salt: 0,
    };
    let s = b.conv_bn("conv1", "x", (3, 24), 3, 2, 1, true);
    b.g.nodes.push(
        Node::new("maxpool", "MaxPool", &[&s], &["pool.out"])
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("strides", Attr::Ints(vec![2, 2]))
            .with_attr("pads", Attr::Ints(vec![1; 4])),
    );
    let x = b.down("stage2.0", "pool.out", 24, 58, 16);
    let x = b.basic("stage2.1", &x, 116, 16);
    let x = b.basic("stage2.2", &x, 116, 16);
    let x = b.down("stage3.0", &x, 116, 116, 8);
    let x = b.conv_bn("conv5", &x, (232, 64), 1, 1, 1, true);
    let axes = b.ints("mean.axes", &[2, 3]);
    b.g.nodes.push(
        Node::new("mean", "ReduceMean", &[&x, &axes], &["mean.out"])
            .with_attr("keepdims", Attr::Int(0)),
    );
    let fw = b.init("fc.weight", weights(&[10, 64], 99));
    b.g.nodes.push(
        Node::new("fc", "Gemm", &["mean.out", &fw], &["y"]).with_attr("transB", Attr::Int(1)),
    );
    b.g.outputs.push(vi("y", &[1, 10]));
    b.g
}

/// The network as `onnc-legalize{target=mvu}` leaves it.
fn legalized() -> Graph {
    legalize(shufflenet(), Target::Mvu, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .graph
}

#[test]
fn legalized_shufflenet_computes_the_exported_one() {
    let g = legalized();
    let ops: Vec<&str> = g.nodes.iter().map(|n| n.op_type.as_str()).collect();
    assert!(
        ops.iter().all(|o| [
            "Conv",
            "Relu",
            "Concat",
            "MaxPool",
            "GlobalAveragePool",
            "Reshape",
            "Gemm"
        ]
        .contains(o)),
        "{ops:?}"
    );
    let x: Vec<f32> = (0..3 * 128 * 128).map(|i| ((i * 7) % 16) as f32).collect();
    let x = Tensor::from_f32(vec![1, 3, 128, 128], x).unwrap();
    let want = onnc_interp::run_graph(&shufflenet(), &[("x".into(), x.clone())]).unwrap();
    let got = onnc_interp::run_graph(&g, &[("x".into(), x)]).unwrap();
    let (w, v) = (want[0].1.as_f32().unwrap(), got[0].1.as_f32().unwrap());
    for (i, (p, q)) in w.iter().zip(v).enumerate() {
        assert!(
            (p - q).abs() <= 1e-4 * (1.0 + p.abs()),
            "output {i}: {p} vs {q}"
        );
    }
}

#[test]
fn shufflenet_matches_the_interpreter() {
    let g = legalized();
    for bits in [2, 4, 8] {
        matches_interpreter("shufflenet", &g, bits, 11);
    }
}

/// The nodes of `g` that copy channels: 1×1 convs whose weights are 0/1 with one 1 per row.
fn copy_layers(g: &Graph) -> Vec<String> {
    let w = |name: &str| {
        g.initializers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    };
    g.nodes
        .iter()
        .filter(|n| n.op_type == "Conv")
        .filter(|n| {
            let t = w(n.inputs[1].as_deref().unwrap()).unwrap();
            let c = t.shape()[1];
            t.shape()[2..] == [1, 1]
                && t.as_f32().unwrap().chunks(c).all(|r| {
                    r.iter().all(|&v| v == 0.0 || v == 1.0)
                        && r.iter().filter(|&&v| v == 1.0).count() == 1
                })
        })
        .map(|n| n.name.clone())
        .collect()
}

#[test]
fn slices_and_shuffles_fold_into_convs_but_concat_parts() {
    let g = legalized();
    // The basic units' passed halves are Concat parts: a copy layer each,
    // reading the previous Concat's buffer (the shuffle composed into the
    // selection). The last shuffle before the down-sampling unit stays a
    // copy layer: its depthwise reader would become a dense 3×3 conv.
    assert_eq!(
        copy_layers(&g),
        ["stage2.1.s1", "stage2.2.s1", "stage2.2_r2"]
    );
    let reads = |name: &str| {
        g.nodes
            .iter()
            .find(|n| n.name.starts_with(name))
            .unwrap()
            .inputs[0]
            .clone()
            .unwrap()
    };
    assert_eq!(reads("stage2.1.s1"), "stage2.0.cat");
    assert_eq!(reads("stage2.2.b2.0"), "stage2.1.cat");
    assert_eq!(reads("stage3.0.b2.0"), "stage2.2.cat");
    assert_eq!(reads("stage3.0.b1.0"), "stage2.2.out");
    assert_eq!(reads("conv5"), "stage3.0.cat");
    // On the MVU the copy layers keep their 0/1 weights with scale 1 and no ReLU.
    let c = compile(&g, &opts(4)).unwrap();
    for l in c
        .lowered()
        .iter()
        .filter(|l| l.node.ends_with(".s1") || l.node.ends_with("_r2"))
    {
        assert!(
            l.weights.values.iter().all(|&v| v == 0 || v == 1),
            "{}",
            l.node
        );
        assert!(
            l.weights.scales.iter().all(|&s| s == 1.0) && !l.relu,
            "{}",
            l.node
        );
    }
}

#[test]
fn shufflenet_bytes_are_deterministic() {
    let g = legalized();
    let a = compile(&g, &opts(2)).unwrap();
    let b = compile(&legalized(), &opts(2)).unwrap();
    assert_eq!(a.files(), b.files());
}

#[test]
fn calibrated_8_bits_match_the_interpreter() {
    let g = legalized();
    let n = 3 * 128 * 128;
    let o = onnc_mvu::CompileOptions {
        calibration: vec![random_codes(n, 8, 5)
            .into_iter()
            .map(|v| v as i64)
            .collect()],
        ..opts(8)
    };
    let c = compile(&g, &o).unwrap_or_else(|e| panic!("{e}"));
    let x = random_codes(n, 8, 6);
    let mvu = simulate(&c, &x).unwrap();
    assert_eq!(mvu, reference_codes(&g, &c, &x).unwrap());
    assert!(mvu.iter().any(|&v| v != 0));
}
