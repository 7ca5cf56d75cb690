//! Deep chains of Conv + ReLU6 (`Clip(0, 6)`): the `Max(x, 0)` → `Relu`
//! rule must fire in every block however deep the chain is, and
//! saturation must stop on its own, not on a limit (a time limit would make
//! the result depend on machine speed).

use onnc_legalize::{legalize, Options, StopReason, Target};
use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::{Attr, DType, Tensor};

/// `blocks` × (3×3 Conv, 32 channels, + Clip(0, 6)) on a 1×32×32×32 input,
/// each Clip with its own bound initializers, as torchvision exports them;
/// with `residual`, each block's input is also added to its output, so every
/// value has two users and tree costs double per block (2^100 saturates).
fn conv_relu6_chain(blocks: usize, residual: bool) -> Graph {
    let c = 32;
    let vi = |n: &str| ValueInfo {
        name: n.into(),
        dtype: DType::F32,
        dims: [1, c, 32, 32].iter().map(|&d| Dim::Fixed(d)).collect(),
    };
    let (mut nodes, mut inits) = (vec![], vec![]);
    let mut cur = "x".to_string();
    for i in 0..blocks {
        let (w, lo, hi) = (format!("w{i}"), format!("lo{i}"), format!("hi{i}"));
        let weights = (0..c * c * 9).map(|k| ((k % 7) as f32 - 3.0) * 0.01);
        inits.push((
            w.clone(),
            Tensor::from_f32(vec![c, c, 3, 3], weights.collect()).unwrap(),
        ));
        inits.push((lo.clone(), Tensor::from_f32(vec![], vec![0.0]).unwrap()));
        inits.push((hi.clone(), Tensor::from_f32(vec![], vec![6.0]).unwrap()));
        let conv_out = format!("c{i}");
        nodes.push(
            Node::new(&format!("conv{i}"), "Conv", &[&cur, &w], &[&conv_out])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1])),
        );
        let out = if i + 1 == blocks {
            "y".to_string()
        } else {
            format!("o{i}")
        };
        let clip_out = if residual {
            format!("r{i}")
        } else {
            out.clone()
        };
        nodes.push(Node::new(
            &format!("clip{i}"),
            "Clip",
            &[&conv_out, &lo, &hi],
            &[&clip_out],
        ));
        if residual {
            nodes.push(Node::new(
                &format!("add{i}"),
                "Add",
                &[&cur, &clip_out],
                &[&out],
            ));
        }
        cur = out;
    }
    Graph {
        inputs: vec![vi("x")],
        outputs: vec![vi("y")],
        nodes,
        initializers: inits,
        ..Default::default()
    }
}

fn check(blocks: usize, residual: bool, target: Target) {
    let out = legalize(
        conv_relu6_chain(blocks, residual),
        target,
        &Options::default(),
    )
    .unwrap();
    let count = |op: &str| out.graph.nodes.iter().filter(|n| n.op_type == op).count();
    eprintln!(
        "{blocks} blocks on {}: stop {:?}, {} iterations, {} e-nodes, Relu {} Max {}",
        target.name(),
        out.report.stop_reason,
        out.report.iterations,
        out.report.enodes,
        count("Relu"),
        count("Max")
    );
    assert_eq!(out.report.stop_reason, StopReason::Saturated);
    assert_eq!(count("Max"), 0, "a Max(x, 0) survived");
    assert_eq!(count("Relu"), blocks);
}

#[test]
fn relu6_becomes_relu_in_every_block_of_a_deep_chain_nv_small() {
    for blocks in [1, 4, 8, 16, 32, 64] {
        check(blocks, false, Target::NvSmall);
    }
}

/// MobileNetV2's failure: with residual fan-out the greedy tree costs of
/// deep blocks saturate (or lose the ε a constant operand costs to rounding),
/// `Max(x, 0)` and `Relu(x)` tie and the older e-node (`Max`) won.
#[test]
fn relu6_becomes_relu_in_every_block_of_a_deep_residual_chain() {
    for blocks in [8, 40, 100] {
        check(blocks, true, Target::NvSmall);
        check(blocks, true, Target::NvFull);
    }
}
