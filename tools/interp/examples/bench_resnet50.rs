//! Times ResNet-50 inference (the ONNX backend `light` model) on the
//! interpreter and checks the result against the ONNX reference output.
//!
//! ```text
//! cargo run --release -p onnc-interp --example bench_resnet50 [-- MODEL.onnx [RUNS]]
//! ```
//! Without arguments the model is `light/light_resnet50.onnx` from the
//! installed `onnx` package. The input is `arange(n) / n`, as the ONNX
//! runner makes it; `RAYON_NUM_THREADS` sets the thread count.

use onnc_interp::{compare, run_graph};
use onnc_onnx::{load, read_tensor_pb, Options};
use onnc_tensor::Tensor;
use std::path::PathBuf;
use std::time::Instant;

fn default_model() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .expect("python3 with the onnx package (run tools/bootstrap.sh)");
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    PathBuf::from(dir).join("backend/test/data/light/light_resnet50.onnx")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(default_model);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let model = load(&path, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let feed: Vec<(String, Tensor)> = model
        .graph
        .inputs
        .iter()
        .map(|v| {
            let shape: Vec<usize> = v.dims.iter().map(|d| d.fixed().unwrap_or(1)).collect();
            let n: usize = shape.iter().product();
            let data = (0..n).map(|i| (i as f64 / n as f64) as f32).collect();
            (
                v.name.clone(),
                Tensor::from_f32(shape, data).expect("arange fits its shape"),
            )
        })
        .collect();
    let mut times = Vec::new();
    let mut last = None;
    for i in 0..=runs {
        let t = Instant::now();
        let out = run_graph(&model.graph, &feed).unwrap_or_else(|e| panic!("{e}"));
        let dt = t.elapsed().as_secs_f64();
        if i > 0 {
            times.push(dt);
        } else {
            println!("warm-up: {dt:.3} s");
        }
        last = Some(out);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{}: {} nodes, {runs} runs: min {:.3} s, median {:.3} s, max {:.3} s",
        path.display(),
        model.graph.nodes.len(),
        times[0],
        times[times.len() / 2],
        times[times.len() - 1]
    );
    let expected = path.with_file_name(format!(
        "{}_output_0.pb",
        path.file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default()
    ));
    if let (Ok((_, e)), Some(out)) = (read_tensor_pb(&expected), last) {
        let d = compare(&e, &out[0].1);
        println!(
            "vs {}: max_abs {:e}, max_rel {:e}",
            expected.display(),
            d.max_abs,
            d.max_rel
        );
    }
}
