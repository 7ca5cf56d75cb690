//! The per-layer callback behind `onnc-run`'s simulation progress bar:
//! called once per layer, in execution order, counting up to the total
//! `layer_count` predicts, without changing the outputs.

use onnc_nvdla_sim::{
    layer_count, simulate, simulate_with_dump, simulate_with_layers, Dump, Layer, Options,
};
use std::path::PathBuf;

fn fbuf(test: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test/data/nvdla-golden")
        .join(format!("{test}_fbuf"));
    std::fs::read(p).unwrap()
}

/// NVIDIA's LeNet (NN_L0_0): DLA and EMU tasks.
#[test]
fn one_call_per_layer_in_order() {
    let bytes = fbuf("NN_L0_0");
    let opts = Options::default();
    let total = layer_count(&bytes, &opts).unwrap();
    let mut dumps = Vec::new();
    let mut hook = |d: &Dump| dumps.push((d.task, d.op, d.engine));
    let plain = simulate_with_dump(&bytes, &[], &opts, Some(&mut hook)).unwrap();
    let mut seen = Vec::new();
    let mut on_layer = |l: &Layer| {
        seen.push((l.index, l.total, (l.dump.task, l.dump.op, l.dump.engine)));
    };
    let counted = simulate_with_layers(&bytes, &[], &opts, &mut on_layer).unwrap();
    // Every surface the dump hook sees is one layer, once, in the same order.
    assert_eq!(seen.len(), dumps.len());
    assert_eq!(total, dumps.len(), "layer_count predicts the calls");
    for (k, (index, t, at)) in seen.iter().enumerate() {
        assert_eq!(*index, k + 1);
        assert_eq!(*t, total);
        assert_eq!(*at, dumps[k]);
    }
    assert!(
        total > 2,
        "LeNet has more than its two EMU layers: {dumps:?}"
    );
    // The outputs are the plain run's.
    assert_eq!(counted, plain);
    assert_eq!(counted, simulate(&bytes, &[], &opts).unwrap());
}

/// A task with one SDP writing to memory: one layer.
#[test]
fn single_engine_loadables_have_one_layer() {
    for (test, engine) in [
        ("SDP_X1_L0_0", "SDP"),
        ("PDP_L0_0", "PDP"),
        ("CDP_L0_0", "CDP"),
    ] {
        let bytes = fbuf(test);
        let mut engines = Vec::new();
        let mut on_layer = |l: &Layer| engines.push((l.index, l.total, l.dump.engine));
        simulate_with_layers(&bytes, &[], &Options::default(), &mut on_layer).unwrap();
        assert_eq!(engines, vec![(1, 1, engine)], "{test}");
    }
}
