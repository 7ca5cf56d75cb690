//! Convolution speed of the simulator on real loadables: for each loadable,
//! the fast convolution loops (`conv::run`, the default) against the
//! reference loops (`conv::run_reference`, every MAC block over every
//! lane), with 1 and 2 threads, best of RUNS, in the same process — and a
//! check that the four outputs are byte-identical.
//!
//! Usage (release build of this crate only):
//! `cargo run --release -p onnc-nvdla-sim --example bench_sim -- [--runs N] A.nvdla [B.nvdla …]`
//! (`tools/bench-sim-conv.sh` compiles the model zoo's ResNet-50 and
//! ShuffleNet for nv_full and runs this.)
//!
//! In: loadables; every input gets seeded uniform values in [−1, 1].
//! Out: one line per (loadable, loops, threads) with the wall time and the
//! ratio reference / fast; exit status 1 if any output differs.

use onnc_nvdla_sim::{conv, load, Engines, LoadOptions, Options, Tensor, TensorData};
use std::time::Instant;

fn main() {
    if let Err(e) = real_main() {
        eprintln!("bench_sim: {e}");
        std::process::exit(1);
    }
}

fn real_main() -> Result<(), String> {
    let mut runs = 1usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            let n = args.next().ok_or("--runs needs a number")?;
            runs = n.parse().map_err(|_| format!("--runs {n}: not a number"))?;
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        return Err("usage: bench_sim [--runs N] A.nvdla [B.nvdla …]".into());
    }
    let mut same = true;
    for f in &files {
        same &= bench(f, runs.max(1))?;
    }
    if same {
        Ok(())
    } else {
        Err("outputs differ (see above)".into())
    }
}

/// Seeded uniform inputs in [−1, 1] for every input binding.
fn inputs(bytes: &[u8]) -> Result<Vec<Tensor>, String> {
    let net = load(bytes, &LoadOptions::default()).map_err(|e| e.to_string())?;
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    Ok(net
        .inputs
        .iter()
        .map(|b| {
            let t = &b.tensor;
            let n = [t.n, t.c, t.h, t.w]
                .iter()
                .map(|&d| d.max(1) as usize)
                .product();
            let v = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
                })
                .collect();
            Tensor {
                bind_id: b.bind_id,
                data: TensorData::F32(v),
            }
        })
        .collect())
}

/// Times one loadable; returns whether all outputs were byte-identical.
fn bench(path: &str, runs: usize) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let ins = inputs(&bytes)?;
    let mut results = Vec::new();
    for (name, conv_fn) in [
        (
            "reference",
            conv::run_reference as onnc_nvdla_sim::engine::ConvFn,
        ),
        ("fast", conv::run),
    ] {
        let opts = Options {
            engines: Some(Engines {
                conv: Some(conv_fn),
                ..Engines::builtin()
            }),
            ..Options::default()
        };
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            let mut best = f64::INFINITY;
            let mut out = None;
            for _ in 0..runs {
                let t = Instant::now();
                let o = pool
                    .install(|| onnc_nvdla_sim::simulate(&bytes, &ins, &opts))
                    .map_err(|e| format!("{path}: {e}"))?;
                best = best.min(t.elapsed().as_secs_f64());
                out = Some(o);
            }
            results.push((name, threads, best, out));
        }
    }
    let raw = |o: &Option<onnc_nvdla_sim::Outputs>| {
        o.as_ref()
            .map(|o| o.tensors.iter().map(|t| t.raw.clone()).collect::<Vec<_>>())
    };
    let first = raw(&results[0].3);
    let same = results.iter().all(|r| raw(&r.3) == first);
    let file = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |f| f.to_string_lossy());
    for threads in [1, 2] {
        let time = |n: &str| {
            results
                .iter()
                .find(|r| r.0 == n && r.1 == threads)
                .map_or(f64::NAN, |r| r.2)
        };
        let (r, f) = (time("reference"), time("fast"));
        println!(
            "{file}: {threads} thread(s): reference {r:.3} s, fast {f:.3} s, reference / fast = {:.2}",
            r / f
        );
    }
    println!(
        "{file}: outputs of reference and fast, 1 and 2 threads: {}",
        if same { "byte-identical" } else { "DIFFERENT" }
    );
    Ok(same)
}
