//! Graph builders shared by the front-end tests.
#![allow(dead_code)]

pub mod net;

use onnc_onnx::{Graph, Node, ValueInfo};
use onnc_tensor::{Attr, Tensor};

/// A float value of static shape `dims`.
pub fn vi(name: &str, dims: &[usize]) -> ValueInfo {
    ValueInfo::f32(name, dims)
}

/// A 3x3 conv node with pad 1 and stride `s`.
pub fn conv3x3(name: &str, x: &str, w: &str, y: &str, s: i64) -> Node {
    Node::new(name, "Conv", &[x, w], &[y])
        .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
        .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
        .with_attr("strides", Attr::Ints(vec![s, s]))
        .with_attr("dilations", Attr::Ints(vec![1, 1]))
        .with_attr("group", Attr::Int(1))
}

/// Deterministic float weights in [-1, 1) that are not integers.
pub fn weights(shape: &[usize], salt: u64) -> Tensor {
    let n: usize = shape.iter().product();
    let v = (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_add(salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as f32;
            h / (1u64 << 23) as f32 - 1.0 + 1.0 / 1024.0
        })
        .collect();
    Tensor::from_f32(shape.to_vec(), v).unwrap()
}

/// BARVINN's distilled ResNet-18 for CIFAR (research/targets.md §A.2): 17 3x3
/// convs with pad 1, ReLU after each, 64/128/256/512 channels, stride 2 at
/// conv3_x.0, conv4_x.0, conv5_x.0, input [1, 3, 32, 32], no shortcuts.
pub fn resnet18() -> Graph {
    let mut names = vec!["conv1.0".to_string()];
    for stage in 2..=5 {
        for block in 0..2 {
            for conv in [0, 3] {
                names.push(format!("conv{stage}_x.{block}.residual_function.{conv}"));
            }
        }
    }
    let mut g = Graph {
        name: "distilled_resnet18".into(),
        inputs: vec![vi("input", &[1, 3, 32, 32])],
        ..Graph::default()
    };
    let (mut c, mut hw, mut x) = (3usize, 32usize, "input".to_string());
    for (i, name) in names.iter().enumerate() {
        let stage = if i == 0 { 2 } else { 2 + (i - 1) / 4 };
        let out = 64usize << (stage - 2);
        let stride = if i > 1 && (i - 1) % 4 == 0 { 2 } else { 1 };
        let w = format!("{name}.weight");
        g.initializers
            .push((w.clone(), weights(&[out, c, 3, 3], i as u64)));
        let y = format!("{name}.out");
        g.nodes.push(conv3x3(name, &x, &w, &y, stride as i64));
        let r = format!("{name}.relu");
        g.nodes
            .push(Node::new(&format!("{name}.relu"), "Relu", &[&y], &[&r]));
        x = r;
        c = out;
        hw = (hw - 3 + 2) / stride + 1;
    }
    g.outputs.push(vi(&x, &[1, c, hw, hw]));
    g
}

/// A scratch directory under the cargo target dir, emptied.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("onnc-mvu")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.parent().unwrap()).unwrap();
    d
}

/// Integer weights in `-m..=m` (as f32) from a fixed hash of the index and
/// `salt`: the split tests' weights, whose codes are the values themselves.
pub fn int_weights(shape: &[usize], m: i64, salt: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let v = (0..n)
        .map(|i| ((i + salt * 1_000_003) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33)
        .map(|h| (h % (2 * m as u64 + 1)) as i64 - m)
        .map(|k| k as f32)
        .collect();
    Tensor::from_f32(shape.to_vec(), v).expect("weights")
}

/// Compile options with every precision at `bits` and no test vectors.
pub fn opts(bits: u32) -> onnc_mvu::CompileOptions {
    onnc_mvu::CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        test_vectors: false,
        ..onnc_mvu::CompileOptions::default()
    }
}

/// A compile error's problems as lines (one line for any other error).
pub fn problems(e: onnc_mvu::Error) -> Vec<String> {
    match e {
        onnc_mvu::Error::Problems(p) => p.iter().map(ToString::to_string).collect(),
        other => vec![other.to_string()],
    }
}
