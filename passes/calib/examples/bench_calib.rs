//! Times calibration of a model over a folder of sets (tools/bench-calib.sh).
//!
//! ```text
//! cargo run --release -p onnc-calib --example bench_calib -- MODEL.onnx DIR [METHOD...]
//! ```
//! In: the model, the calibration folder (any layout `CalibSource::detect`
//! knows), and the methods to time after the pass (default: all four).
//! Out, on stdout, one `key=value` per line: `sets`, `threads`,
//! `collect_seconds` (reading the sets, running them, folding the
//! statistics), and per method `<method>_seconds` plus the number of scales
//! and the first tensor's threshold, for a sanity check.

use std::time::Instant;

use onnc_calib::{collect, CalibSource, Method, Preprocess};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(model), Some(dir)) = (args.next(), args.next()) else {
        eprintln!("usage: bench_calib MODEL.onnx DIR [max|percentile|entropy|mse ...]");
        std::process::exit(2);
    };
    let mut methods: Vec<Method> = args
        .map(|a| a.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect();
    if methods.is_empty() {
        methods = vec![
            Method::Max,
            Method::Percentile(99.99),
            Method::Entropy,
            Method::Mse,
        ];
    }
    let g = onnc_onnx::load(&model, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .graph;
    let src =
        CalibSource::detect(dir.as_ref(), Preprocess::default()).unwrap_or_else(|e| panic!("{e}"));
    // The same sets through the interpreter alone (parallel as collect
    // runs them), to separate the statistics' cost from inference.
    if std::env::var_os("BENCH_CALIB_INTERP").is_some() {
        use rayon::prelude::*;
        let plans = src.plan(&g).unwrap_or_else(|e| panic!("{e}"));
        let t = Instant::now();
        plans.par_iter().for_each(|p| {
            let set = src.load(p, &g).unwrap_or_else(|e| panic!("{e}"));
            onnc_interp::run_graph(&g, &set.inputs).unwrap_or_else(|e| panic!("{e}"));
        });
        println!("interp_only_seconds={:.3}", t.elapsed().as_secs_f64());
    }
    let t = Instant::now();
    let stats = collect(&g, &src, true).unwrap_or_else(|e| panic!("{e}"));
    println!("sets={}", stats.sets());
    println!("threads={}", rayon::current_num_threads());
    println!("tensors={}", stats.names().count());
    println!("collect_seconds={:.3}", t.elapsed().as_secs_f64());
    for m in methods {
        let t = Instant::now();
        let c = stats.calibration(m);
        let dt = t.elapsed().as_secs_f64();
        let name = m.to_string().replace([':', '.'], "_");
        println!("{name}_seconds={dt:.3}");
        let last = g.outputs.first().map(|o| o.name.as_str()).unwrap_or("");
        println!(
            "{name}_scales={} {name}_output_amax={:?}",
            c.scales.len(),
            c.threshold(last)
        );
    }
}
