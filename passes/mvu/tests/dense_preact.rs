//! DenseNet's pre-activation dense block as `onnc-legalize{target=mvu}`
//! leaves it: each `BatchNormalization` that reads a `Concat` is a depthwise
//! 1×1 `Conv` with its scale as weights and its shift as bias
//! (`mvu/bn-to-depthwise-conv`), the transition's `AveragePool` 2×2/2 a
//! depthwise 2×2/2 `Conv` of weights 1/4 (`mvu/avgpool-to-depthwise-conv`),
//! and the dense layers end in a 3×3 conv without ReLU whose output is a
//! `Concat` part (written with the pooler off). Compiled at 2, 4 and 8 bits,
//! the model of its MVU jobs equals `onnc-interp` on the same integer
//! network.

mod common;
use common::net::{matches_interpreter, Net};
use common::weights;

use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// Appends a depthwise conv `name` (`c` channels, k×k, stride `s`) of `x`
/// with weights `w` (`None`: seeded floats) and a bias when `bias`; its
/// weight initializer is named like a legalized BN's, `/`s and all.
fn depthwise(
    n: &mut Net,
    name: &str,
    x: &str,
    c: usize,
    (k, s): (usize, i64),
    w: Option<f32>,
    bias: bool,
) -> String {
    n.salt += 1;
    let wn = format!("/features/{name}/BatchNormalization__dw_scale");
    let t = match w {
        Some(v) => onnc_tensor::Tensor::from_f32(vec![c, 1, k, k], vec![v; c * k * k]).unwrap(),
        None => weights(&[c, 1, k, k], n.salt),
    };
    n.g.initializers.push((wn.clone(), t));
    let mut inputs = vec![x.to_string(), wn];
    if bias {
        let bn = format!("/features/{name}/BatchNormalization__dw_shift");
        n.g.initializers
            .push((bn.clone(), weights(&[c], n.salt + 100)));
        inputs.push(bn);
    }
    let y = format!("{name}.out");
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    n.g.nodes.push(
        Node::new(name, "Conv", &refs, &[&y])
            .with_attr("group", Attr::Int(c as i64))
            .with_attr("kernel_shape", Attr::Ints(vec![k as i64, k as i64]))
            .with_attr("strides", Attr::Ints(vec![s, s]))
            .with_attr("pads", Attr::Ints(vec![0; 4])),
    );
    y
}

/// `Relu` of `x`.
fn relu(n: &mut Net, name: &str, x: &str) -> String {
    let y = format!("{name}.relu");
    n.g.nodes
        .push(Node::new(&format!("{name}_relu"), "Relu", &[x], &[&y]));
    y
}

/// Stem, two pre-activation dense layers (BN-ReLU-1×1-ReLU-3×3, growth 8),
/// a transition (BN-ReLU-1×1, average pool 2×2/2) and BN-ReLU at the end.
fn dense_preact() -> Graph {
    let mut n = Net::new(&[1, 8, 8, 8]);
    let x0 = n.conv("stem", "x", 8, 16, 3, true);
    let mut parts = vec![x0];
    for (i, c) in [(1, 16), (2, 24)] {
        let cat = if parts.len() == 1 {
            parts[0].clone()
        } else {
            let p: Vec<&str> = parts.iter().map(String::as_str).collect();
            n.concat(&format!("concat{}", i - 1), &p)
        };
        let bn = depthwise(&mut n, &format!("norm{i}"), &cat, c, (1, 1), None, true);
        let r = relu(&mut n, &format!("norm{i}"), &bn);
        let b = n.conv(&format!("conv{i}_1"), &r, c, 16, 1, true);
        parts.push(n.conv(&format!("conv{i}_2"), &b, 16, 8, 3, false));
    }
    let p: Vec<&str> = parts.iter().map(String::as_str).collect();
    let cat = n.concat("concat2", &p);
    let bn = depthwise(&mut n, "norm_t", &cat, 32, (1, 1), None, true);
    let r = relu(&mut n, "norm_t", &bn);
    let t = n.conv("transition", &r, 32, 16, 1, false);
    let avg = depthwise(&mut n, "avg", &t, 16, (2, 2), Some(0.25), false);
    let bn5 = depthwise(&mut n, "norm5", &avg, 16, (1, 1), None, true);
    let y = relu(&mut n, "norm5", &bn5);
    n.output(&y, &[1, 16, 4, 4])
}

#[test]
fn a_preactivation_dense_block_matches_the_interpreter_at_2_4_8_bits() {
    for bits in [2, 4, 8] {
        let c = matches_interpreter("dense_preact", &dense_preact(), bits, 10);
        // The dense layers' last convs write their parts with the pooler off.
        for name in ["conv1_2", "conv2_2"] {
            let r = c.table().rows.iter().find(|r| r.name == name).unwrap();
            assert!(!r.uses_pooler(), "{name} at {bits} bits");
        }
        // The BNs read the shared Concat buffer (stem | conv1_2 | conv2_2).
        let norm2 = c.lowered().iter().find(|l| l.node == "norm2").unwrap();
        assert_eq!(norm2.layer.in_channels(), 136);
        // File names are sanitized, the bias image's too.
        let names: Vec<&str> = c.files().iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.contains(&"_features_norm1_BatchNormalization__dw_scale.bias.hex"),
            "{names:?}"
        );
        assert!(names.iter().all(|n| !n.contains('/')), "{names:?}");
    }
}
