//! Per-stage times of the Rust-only part of `onnc compile` on one model:
//! load, legalize (nv_full), lower, plan, emit.
//!
//! `cargo run --release -p onnc-nvdla --example stage_times -- MODEL.onnx`
//! (the in-memory driver also renames values between passes; this skips it).

use std::time::Instant;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: stage_times MODEL.onnx");
        std::process::exit(2);
    };
    let t = Instant::now();
    let g = onnc_onnx::load(&path, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .graph;
    println!("load      {:8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let l = onnc_legalize::legalize(g, onnc_legalize::Target::NvFull, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    println!("legalize  {:8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    print!("{}", l.report);
    let t = Instant::now();
    let mut p = onnc_nvdla::lower::lower(
        &l.graph,
        onnc_nvdla::ConfigName::NvFull,
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!("lower     {:8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    onnc_nvdla::plan::plan(&mut p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    println!("plan      {:8.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    onnc_nvdla::emit::emit(&p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    println!("emit      {:8.1} ms", t.elapsed().as_secs_f64() * 1e3);
}
