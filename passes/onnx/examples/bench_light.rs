//! Load + infer benchmark over the light model-zoo nets (not a timed test).
//!
//! `cargo run --release -p onnc-onnx --example bench_light` finds the nets in
//! the `onnx` Python package and runs each in a fresh process (so the peak RSS,
//! `VmHWM` from `/proc/self/status`, is per net). With a path argument it
//! benchmarks that one model: the median of 20 `load` + `infer_graph` runs.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const RUNS: usize = 20;

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.to_string())
        })
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn one(path: &str) {
    let opts = onnc_onnx::Options::default();
    let mut times = Vec::with_capacity(RUNS);
    let mut nodes = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let m = onnc_onnx::load(path, &opts).unwrap_or_else(|e| panic!("{e}"));
        let types = onnc_onnx::infer_graph(&m.graph).unwrap_or_else(|e| panic!("{e}"));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        nodes = m.graph.nodes.len();
        std::hint::black_box(types);
    }
    times.sort_by(f64::total_cmp);
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let name = PathBuf::from(path)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    println!(
        "| {name} | {:.1} | {nodes} | {:.2} | {:.2} | {:.1} |",
        size as f64 / 1024.0,
        times[RUNS / 2],
        times[0],
        peak_rss_kib() as f64 / 1024.0
    );
}

fn main() {
    if let Some(path) = std::env::args().nth(1) {
        one(&path);
        return;
    }
    let out = Command::new("python3")
        .args([
            "-c",
            "import onnx, os; print(os.path.dirname(onnx.__file__))",
        ])
        .output()
        .expect("python3 with onnx (run the bootstrap)");
    let dir =
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("backend/test/data/light");
    let mut nets: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("light nets")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    nets.sort();
    println!("| net | file KiB | nodes | load+infer median ms | min ms | peak RSS MiB |");
    println!("|---|---|---|---|---|---|");
    let exe = std::env::current_exe().expect("own path");
    for n in nets {
        let st = Command::new(&exe).arg(&n).status().expect("spawn");
        assert!(st.success(), "{}", n.display());
    }
}
