//! Compiles an ONNX model for the MVU as `onnc compile --target mvu` does
//! (test vectors on, optional calibration codes) and writes the output
//! directory; prints how long each step took. The timing harness of
//! docs/perf.md (MVU section), without building the MLIR-linked `onnc`.
//!
//! In: `compile_dir MODEL.onnx BITS OUT_DIR [CODES.npy]` (`CODES.npy`: the
//! calibration input codes, an f32 `.npy`, as the support table's
//! `--calib codes/<model>/`). Out: the files in `OUT_DIR` and one line
//! `load …s, compile …s, write …s, N files, B bytes`; exit 1 with the reason
//! when a step fails.
//!
//! `cargo run --release -p onnc-mvu --example compile_dir -- vgg16.onnx 8 /tmp/out codes/vgg16/sample_0.npy`

#[path = "common/cli.rs"]
mod cli;
#[path = "common/npy.rs"]
mod npy;

use std::process::ExitCode;
use std::time::Instant;

use onnc_mvu::frontend::{compile, CompileOptions};

fn run(args: &[String]) -> Result<String, String> {
    let [path, bits, out, rest @ ..] = args else {
        return Err("usage: compile_dir MODEL.onnx BITS OUT_DIR [CODES.npy]".into());
    };
    let bits: u32 = bits.parse().map_err(|e| format!("BITS '{bits}': {e}"))?;
    let t = Instant::now();
    let g = onnc_onnx::load(path, &onnc_onnx::Options::default())
        .map_err(|e| format!("{path}: {e}"))?
        .graph;
    let load_s = t.elapsed().as_secs_f64();
    let calibration = match rest.first() {
        Some(f) => vec![npy::npy_f32(f)?.into_iter().map(|v| v as i64).collect()],
        None => Vec::new(),
    };
    let o = CompileOptions {
        aprec: bits,
        wprec: bits,
        oprec: bits,
        calibration,
        ..CompileOptions::default()
    };
    let t = Instant::now();
    let c = compile(&g, &o).map_err(|e| format!("{path} at {bits} bits: {e}"))?;
    let compile_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let files = c
        .write_dir(std::path::Path::new(out))
        .map_err(|e| format!("{out}: {e}"))?;
    let write_s = t.elapsed().as_secs_f64();
    let bytes: usize = c.files().iter().map(|f| f.bytes.len()).sum();
    Ok(format!(
        "{path} at {bits} bits: load {load_s:.1}s, compile {compile_s:.1}s, write {write_s:.1}s, \
         {} files, {bytes} bytes",
        files.len()
    ))
}

fn main() -> ExitCode {
    cli::main_with(run)
}
