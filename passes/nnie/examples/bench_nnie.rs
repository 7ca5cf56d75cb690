//! Times the NNIE frontend (legalize, calibration, quality runs, package)
//! on a model and a calibration folder (docs/perf.md, "NNIE calibration").
//!
//! ```text
//! cargo run --release -p onnc-nnie --example bench_nnie -- MODEL.onnx CALIB_DIR OUT_DIR
//! ```
//! In: the model, a folder of `.npy` sets (or ONNX test data), the package
//! directory to write. Out, on stdout, `key=value` lines: `threads`,
//! `compile_seconds` (everything `frontend::compile` does), `layers`; the
//! package and `quant_report.json` are written to OUT_DIR so two builds can
//! be compared byte for byte. `RAYON_NUM_THREADS` chooses the thread count.

use std::path::Path;
use std::time::Instant;

use onnc_nnie::frontend::{compile, CalibSource, CompileOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, dir, out] = args.as_slice() else {
        eprintln!("usage: bench_nnie MODEL.onnx CALIB_DIR OUT_DIR");
        std::process::exit(2);
    };
    let g = onnc_onnx::load(model, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .graph;
    let dir = Path::new(dir);
    let source = if onnc_calib::npy_sets::is_npy_dir(dir) {
        CalibSource::Npy(dir.into())
    } else {
        CalibSource::TestData(dir.into())
    };
    let opts = CompileOptions::new(source);
    let start = Instant::now();
    let compiled = compile(&g, &opts).unwrap_or_else(|e| panic!("{e}"));
    let seconds = start.elapsed().as_secs_f64();
    compiled
        .write_dir(Path::new(out))
        .unwrap_or_else(|e| panic!("{e}"));
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "default".into());
    println!("threads={threads}");
    println!("compile_seconds={seconds:.2}");
    println!("layers={}", compiled.layers().len());
}
