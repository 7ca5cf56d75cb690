//! The interpreter half of `tools/bench-interp.sh`: N inferences of one
//! model through `onnc_interp::run_graph`, timed, and checked against
//! onnxruntime's outputs when they are there.
//!
//! ```text
//! cargo bench -p onnc-interp --bench resnet50_batch -- DIR [N] [--sets-parallel]
//! ```
//! In: `DIR/resnet50.onnx`, `DIR/inputs/input_I.pb` for I in 0..N (what
//! `tools/bench_interp.py DIR N` writes), optionally
//! `DIR/inputs/ort_output_I.pb`. Out (stdout): `interp_seconds=T` for the N
//! inferences after one warm-up, and the worst absolute and relative
//! difference from onnxruntime. `RAYON_NUM_THREADS` sets the thread count.
//! By default the inferences run one after another, each parallel inside
//! its kernels; `--sets-parallel` runs them as a calibrator may, several
//! inferences at once on the rayon pool. `--per-op` also prints the time
//! spent per operator type (measured between node completions).

use onnc_interp::{compare, run_graph, run_graph_observed};
use onnc_onnx::{load, read_tensor_pb, Options};
use onnc_tensor::Tensor;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let sets_parallel = args.iter().any(|a| a == "--sets-parallel");
    let pos: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(dir) = pos.first().map(PathBuf::from) else {
        eprintln!(
            "usage: resnet50_batch DIR [N] [--sets-parallel] (DIR from tools/bench_interp.py)"
        );
        std::process::exit(2);
    };
    let n: usize = pos.get(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let model_path = dir.join("resnet50.onnx");
    let model = load(&model_path, &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", model_path.display()));
    let feeds: Vec<Vec<(String, Tensor)>> = (0..n)
        .map(|i| {
            let p = dir.join(format!("inputs/input_{i}.pb"));
            let (name, t) = read_tensor_pb(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            vec![(name, t)]
        })
        .collect();
    let run = |feed: &Vec<(String, Tensor)>| {
        run_graph(&model.graph, feed)
            .unwrap_or_else(|e| panic!("{e}"))
            .remove(0)
            .1
    };
    run(&feeds[0]);
    let t = Instant::now();
    let outs: Vec<Tensor> = if sets_parallel {
        feeds.par_iter().map(run).collect()
    } else {
        feeds.iter().map(run).collect()
    };
    let dt = t.elapsed().as_secs_f64();
    if args.iter().any(|a| a == "--per-op") {
        per_op(&model.graph, &feeds);
    }
    let (mut abs, mut rel, mut checked) = (0f64, 0f64, 0);
    for (i, y) in outs.iter().enumerate() {
        if let Ok((_, e)) = read_tensor_pb(dir.join(format!("inputs/ort_output_{i}.pb"))) {
            let d = compare(&e, y);
            abs = abs.max(d.max_abs);
            rel = rel.max(d.max_rel);
            checked += 1;
        }
    }
    println!("threads={}", rayon::current_num_threads());
    println!("interp_seconds={dt:.4}");
    if checked > 0 {
        println!("vs_onnxruntime: {checked} outputs, max_abs {abs:.3e}, max_rel {rel:.3e}");
    }
}

/// Prints the time per operator type over all `feeds`, largest first.
fn per_op(graph: &onnc_onnx::Graph, feeds: &[Vec<(String, Tensor)>]) {
    let mut acc: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for feed in feeds {
        let mut last = Instant::now();
        run_graph_observed(graph, feed, &mut |node, _| {
            let now = Instant::now();
            let e = acc.entry(node.op_type.clone()).or_default();
            e.0 += (now - last).as_secs_f64();
            e.1 += 1;
            last = now;
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut rows: Vec<_> = acc.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.total_cmp(&a.1 .0));
    for (op, (s, k)) in rows {
        println!("  {op:<20} {:9.4} s over {k} nodes", s);
    }
}
