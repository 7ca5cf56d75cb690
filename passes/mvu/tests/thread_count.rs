//! The compile's output does not depend on the thread count: the functional
//! model (calibration) and the weight packing run in parallel (rayon), and a
//! net compiled on one thread and on four gives the same files, the same
//! calibrated windows and the same simulated outputs, byte for byte.

mod common;
use common::{int_weights as weights, vi};
use onnc_mvu::frontend::{compile, random_codes, simulate, CompileOptions};
use onnc_onnx::{Graph, Node};
use onnc_tensor::Attr;

/// Conv 128 → 64 (3×3, pad 1, stride 1) + Relu, then Conv 64 → 64 (3×3,
/// stride 2) + Relu + MaxPool 2×2: two 64-channel input blocks, strided
/// and padded taps, a pooled layer.
fn net() -> Graph {
    Graph {
        inputs: vec![vi("x", &[1, 128, 12, 12])],
        outputs: vec![vi("p", &[1, 64, 2, 2])],
        initializers: vec![
            ("w1".into(), weights(&[64, 128, 3, 3], 127, 5)),
            ("w2".into(), weights(&[64, 64, 3, 3], 127, 6)),
        ],
        nodes: vec![
            Node::new("c1", "Conv", &["x", "w1"], &["y1"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1])),
            Node::new("r1", "Relu", &["y1"], &["a1"]),
            Node::new("c2", "Conv", &["a1", "w2"], &["y2"])
                .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
            Node::new("r2", "Relu", &["y2"], &["a2"]),
            Node::new("pool", "MaxPool", &["a2"], &["p"])
                .with_attr("kernel_shape", Attr::Ints(vec![2, 2]))
                .with_attr("strides", Attr::Ints(vec![2, 2])),
        ],
        ..Graph::default()
    }
}

/// Files (name, bytes), calibrated quantizer MSBs and simulated outputs.
type Run = (Vec<(String, Vec<u8>)>, Vec<Option<u32>>, Vec<i64>);

/// Files (name, contents), calibrated MSBs and simulated outputs of `net`
/// compiled at 8 bits on a pool of `threads` threads.
fn run(threads: usize) -> Run {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let n = 128 * 12 * 12;
        let calibration = vec![random_codes(n, 8, 40)
            .into_iter()
            .map(|v| v as i64)
            .collect()];
        let opts = CompileOptions {
            calibration,
            ..CompileOptions::default()
        };
        let c = compile(&net(), &opts).unwrap_or_else(|e| panic!("{e}"));
        let files = c
            .files()
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect();
        let msbs = c.lowered().iter().map(|l| l.layer.quant_msb).collect();
        let y = simulate(&c, &random_codes(n, 8, 1)).unwrap_or_else(|e| panic!("{e}"));
        (files, msbs, y)
    })
}

#[test]
fn one_thread_and_four_give_the_same_bytes() {
    let one = run(1);
    let four = run(4);
    assert!(
        one.0.iter().any(|(n, _)| n.ends_with(".hex")),
        "weight images"
    );
    assert!(one.2.iter().any(|&v| v != 0), "some nonzero output");
    assert_eq!(one.1, four.1, "calibrated windows");
    assert_eq!(one.2, four.2, "simulated outputs");
    assert_eq!(one.0.len(), four.0.len());
    for (a, b) in one.0.iter().zip(&four.0) {
        assert!(a == b, "file {} differs between 1 and 4 threads", a.0);
    }
}
