//! Legalization time per net and for synthetic Conv chains.
//!
//! `cargo run --release -p onnc-legalize --example bench [-- target]`
//! Prints one line per light model-zoo net (if the `onnx` Python package is
//! installed) and per synthetic chain of 50/200/800 Conv+BN+Relu layers.

use onnc_legalize::{legalize, Options, Target};
use onnc_onnx::{Dim, Graph, Node, ValueInfo};
use onnc_tensor::{Attr, DType, Tensor};
use std::time::Instant;

fn chain(layers: usize) -> Graph {
    let c = 16;
    let vi = |n: &str| ValueInfo {
        name: n.into(),
        dtype: DType::F32,
        dims: [1, c, 16, 16].iter().map(|&d| Dim::Fixed(d)).collect(),
    };
    let mut nodes = vec![];
    let mut inits = vec![];
    let mut cur = "x".to_string();
    for i in 0..layers {
        let (w, bn) = (format!("w{i}"), format!("bn{i}"));
        inits.push((
            w.clone(),
            Tensor::from_f32(vec![c, c, 3, 3], vec![0.01; c * c * 9]).unwrap(),
        ));
        for p in ["s", "b", "m", "v"] {
            inits.push((
                format!("{bn}_{p}"),
                Tensor::from_f32(vec![c], vec![1.0; c]).unwrap(),
            ));
        }
        nodes.push(
            Node::new(
                &format!("conv{i}"),
                "Conv",
                &[&cur, &w],
                &[&format!("c{i}")],
            )
            .with_attr("kernel_shape", Attr::Ints(vec![3, 3]))
            .with_attr("pads", Attr::Ints(vec![1, 1, 1, 1]))
            .with_attr("strides", Attr::Ints(vec![1, 1]))
            .with_attr("dilations", Attr::Ints(vec![1, 1]))
            .with_attr("group", Attr::Int(1))
            .with_attr("auto_pad", Attr::String("NOTSET".into())),
        );
        let ins: Vec<String> = ["s", "b", "m", "v"]
            .iter()
            .map(|p| format!("{bn}_{p}"))
            .collect();
        nodes.push(
            Node::new(
                &bn,
                "BatchNormalization",
                &[&format!("c{i}"), &ins[0], &ins[1], &ins[2], &ins[3]],
                &[&format!("n{i}")],
            )
            .with_attr("epsilon", Attr::Float(1e-5))
            .with_attr("momentum", Attr::Float(0.9))
            .with_attr("training_mode", Attr::Int(0)),
        );
        let out = if i + 1 == layers {
            "y".to_string()
        } else {
            format!("r{i}")
        };
        nodes.push(Node::new(
            &format!("relu{i}"),
            "Relu",
            &[&format!("n{i}")],
            &[&out],
        ));
        cur = out;
    }
    Graph {
        name: format!("chain{layers}"),
        inputs: vec![vi("x")],
        outputs: vec![vi("y")],
        initializers: inits,
        nodes,
    }
}

fn run(name: &str, g: Graph, t: Target) {
    let n = g.nodes.len();
    let start = Instant::now();
    match legalize(g, t, &Options::default()) {
        Ok(r) => {
            let rep = &r.report;
            if std::env::var_os("BENCH_REPORT").is_some() {
                print!("{rep}");
            }
            println!(
                "{name:<24} {t:<8} {n:>5} -> {:>5} nodes  {:>6} e-nodes {:>2} iters  {:>8.1} ms (build {:.1}, saturate {:.1}, extract {:.1})",
                rep.output_nodes,
                rep.enodes,
                rep.iterations,
                start.elapsed().as_secs_f64() * 1e3,
                rep.build_time.as_secs_f64() * 1e3,
                rep.saturate_time.as_secs_f64() * 1e3,
                rep.extract_time.as_secs_f64() * 1e3
            );
        }
        Err(e) => println!(
            "{name:<24} {t:<8} {n:>5} nodes  error after {:.1} ms: {}",
            start.elapsed().as_secs_f64() * 1e3,
            e.to_string().lines().next().unwrap_or("")
        ),
    }
}

fn main() {
    let t: Target = std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("nv_full")
        .parse()
        .unwrap_or(Target::NvFull);
    let dir = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| std::path::PathBuf::from(s.trim()).join("backend/test/data/light"));
    if let Some(dir) = dir.filter(|d| d.is_dir()) {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
            .collect();
        files.sort();
        for f in files {
            let g = match onnc_onnx::load(&f, &Default::default()) {
                Ok(m) => m.graph,
                Err(e) => {
                    println!("{}: {e}", f.display());
                    continue;
                }
            };
            run(&f.file_stem().unwrap_or_default().to_string_lossy(), g, t);
        }
    }
    for layers in [50, 200, 800] {
        run(&format!("conv-bn-relu chain {layers}"), chain(layers), t);
    }
}
