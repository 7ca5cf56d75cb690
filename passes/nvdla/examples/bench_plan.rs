//! Memory-planning benchmark: load, legalize and lower ONNX models for
//! nv_full, then time `plan` (best fit and naive) and print the pool sizes.
//!
//! In: model paths (default: the nine light nets of the `onnx` Python
//! package). Out: one line per model on stdout.
//!
//! ```text
//! cargo run --release -p onnc-nvdla --example bench_plan [-- MODEL.onnx ...]
//! net            act bytes  lower bound  ratio  naive bytes  best-fit µs (median of 20)
//! ```

use onnc_nvdla::lower::{lower, LowerOptions};
use onnc_nvdla::plan::{plan, PlanOptions, Strategy};
use onnc_nvdla::ConfigName;
use std::path::PathBuf;

fn light_nets() -> Vec<PathBuf> {
    let out = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .expect("python3 with the onnx package (run tools/bootstrap.sh)");
    let dir =
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("backend/test/data/light");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    v.sort();
    v
}

fn main() {
    let mut paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        paths = light_nets();
    }
    println!(
        "{:<28} {:>12} {:>12} {:>6} {:>12} {:>10}",
        "net", "act bytes", "lower bound", "ratio", "naive", "plan µs"
    );
    for path in paths {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let run = || -> Result<(), String> {
            let g = onnc_onnx::load(&path, &Default::default())
                .map_err(|e| e.to_string())?
                .graph;
            let g = onnc_legalize::legalize(g, onnc_legalize::Target::NvFull, &Default::default())
                .map_err(|e| e.to_string())?
                .graph;
            let p = lower(&g, ConfigName::NvFull, &LowerOptions::default())
                .map_err(|e| e.to_string())?;
            let mut times = Vec::new();
            let mut report = None;
            for _ in 0..20 {
                let mut q = p.clone();
                let t = std::time::Instant::now();
                report = Some(plan(&mut q, &PlanOptions::default()).map_err(|e| e.to_string())?);
                times.push(t.elapsed().as_secs_f64() * 1e6);
            }
            times.sort_by(f64::total_cmp);
            let r = report.unwrap_or_default();
            let naive = plan(
                &mut p.clone(),
                &PlanOptions {
                    strategy: Strategy::Naive,
                },
            )
            .map_err(|e| e.to_string())?;
            println!(
                "{:<28} {:>12} {:>12} {:>6.3} {:>12} {:>10.0}",
                name,
                r.activation_bytes,
                r.activation_lower_bound_bytes,
                r.ratio(),
                naive.activation_bytes,
                times[10]
            );
            Ok(())
        };
        if let Err(e) = run() {
            println!("{name:<28} error: {e}");
        }
    }
}
