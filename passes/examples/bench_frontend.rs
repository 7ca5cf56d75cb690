//! Frontend benchmark: ONNX file → `onnx` dialect → `onnx-simplify`, in one
//! process, timing each stage and reporting peak RSS.
//!
//! ```text
//! cargo run --release -p onnc-passes --example bench_frontend -- MODEL.onnx [REPEATS]
//! ```
//! Prints one line: `model load_ms import_ms simplify_ms total_ms weight_MiB peak_rss_MiB`
//! (median of REPEATS runs, default 5; peak RSS is the process's high-water
//! mark, so run one model per process). Numbers go in docs/perf.md.

use melior::ir::operation::OperationLike;
use onnc_dialects::ir;
use std::time::Instant;

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: bench_frontend MODEL.onnx [REPEATS]");
    let repeats: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    onnc_passes::register_all();
    let (mut load, mut import, mut simplify, mut total) = (vec![], vec![], vec![], vec![]);
    let mut weight_bytes = 0usize;
    for _ in 0..repeats {
        let t0 = Instant::now();
        let model = onnc_onnx::load(path, &onnc_onnx::Options::default()).expect("model loads");
        let t1 = Instant::now();
        let context = ir::new_context().expect("dialects load");
        let capture = ir::DiagnosticCapture::attach(&context);
        let mut module =
            onnc_passes::import::onnx::import_model(&context, model, path).expect("model imports");
        let t2 = Instant::now();
        let runner = ir::PipelineRunner::new(
            &context,
            "builtin.module(onnx-simplify)",
            &ir::PipelineOptions::default(),
        )
        .expect("pipeline parses");
        assert!(
            runner.run(&mut module),
            "simplify failed: {:?}",
            capture.take()
        );
        let t3 = Instant::now();
        weight_bytes = 0;
        module
            .as_operation()
            .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
                if op.name().as_string_ref().as_str() == Ok("onnx.constant") {
                    if let Ok(a) = op.attribute("value") {
                        if let Some(t) = ir::elements_to_tensor(a) {
                            weight_bytes += t.numel() * t.dtype().size();
                        }
                    }
                }
                melior::ir::operation::WalkResult::Advance
            });
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
        load.push(ms(t0, t1));
        import.push(ms(t1, t2));
        simplify.push(ms(t2, t3));
        total.push(ms(t0, t3));
    }
    let name = std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    println!(
        "{name} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
        median(load),
        median(import),
        median(simplify),
        median(total),
        weight_bytes as f64 / (1024.0 * 1024.0),
        peak_rss_mib()
    );
}
