//! Per-stage times of the Rust-only part of `onnc compile` on one model:
//! load, legalize (nv_full), lower, split (CBUF bands), plan, emit.
//!
//! `cargo run --release -p onnc-nvdla --example stage_times -- MODEL.onnx`
//! (the in-memory driver also renames values between passes; this skips it).
//! Each line also shows the process's resident memory after the stage and
//! its high-water mark so far (Linux `/proc/self/status`; blank elsewhere).

use std::time::Instant;

/// `rss 123 MiB, peak 456 MiB`: `VmRSS` and `VmHWM` of this process.
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| format!("{} MiB", kb / 1024))
            .unwrap_or_default()
    };
    format!("rss {}, peak {}", field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: stage_times MODEL.onnx");
        std::process::exit(2);
    };
    let t = Instant::now();
    let g = onnc_onnx::load(&path, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .graph;
    println!(
        "load      {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
    let t = Instant::now();
    let l = onnc_legalize::legalize(g, onnc_legalize::Target::NvFull, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "legalize  {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
    print!("{}", l.report);
    let t = Instant::now();
    let mut p = onnc_nvdla::lower::lower(
        &l.graph,
        onnc_nvdla::ConfigName::NvFull,
        &Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!(
        "lower     {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
    let t = Instant::now();
    onnc_nvdla::emit::split_convs(&mut p).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "split     {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
    let t = Instant::now();
    onnc_nvdla::plan::plan(&mut p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "plan      {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
    let t = Instant::now();
    onnc_nvdla::emit::emit(&p, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "emit      {:8.1} ms   {}",
        t.elapsed().as_secs_f64() * 1e3,
        memory()
    );
}
