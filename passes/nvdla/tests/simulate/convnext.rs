//! A ConvNeXt-shaped net on nv_full (FP16): `tests/data/convnext/convnext_mini.onnx`
//! (stem with LayerNorm2d, one channels-last block, a downsample, the head;
//! made by `make_convnext_mini.py` op for op as torchvision exports ConvNeXt),
//! legalized (the layout Transposes sink and cancel), compiled, simulated
//! bit-exactly and compared with the reference interpreter.
//!
//! In: the committed fixture. Out: assertions on the agreement and on the
//! loadable holding no transposing op.

use crate::harness::{check, Check};

fn fixture() -> onnc_onnx::Graph {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/convnext/convnext_mini.onnx"
    );
    onnc_onnx::load(path, &Default::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .graph
}

#[test]
fn convnext_mini_on_nv_full() {
    let r = check(fixture(), Check::classifier());
    println!("{}", r.line());
    assert!(r.worst() < 3e-3, "{}", r.line());
    // Every Transpose cancelled: the loadable only convolves, runs SDP
    // passes and pools (no RUBIK, no CPU op).
    assert!(
        r.ops
            .iter()
            .all(|o| ["CONV", "SDP", "PDP"].contains(&o.as_str())),
        "{}",
        r.line()
    );
    assert_eq!(r.count("PDP"), 1, "the head's global average pool");
}
