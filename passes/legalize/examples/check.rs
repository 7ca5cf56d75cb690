//! Legalizes one ONNX file for one target and prints the report or every violation.
//!
//! `cargo run --release -p onnc-legalize --example check -- MODEL.onnx TARGET`

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(target)) = (args.next(), args.next()) else {
        eprintln!("usage: check MODEL.onnx TARGET");
        std::process::exit(2);
    };
    let target: onnc_legalize::Target = match target.parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let g = match onnc_onnx::load(&path, &Default::default()) {
        Ok(m) => m.graph,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut opts = onnc_legalize::Options::default();
    if std::env::var_os("CHECK_GREEDY").is_some() {
        opts.extractor = onnc_legalize::ExtractorKind::Greedy;
    }
    match onnc_legalize::legalize(g, target, &opts) {
        Ok(r) => {
            print!("{}", r.report);
            if std::env::var_os("CHECK_NODES").is_some() {
                for (n, p) in r.graph.nodes.iter().zip(&r.provenance) {
                    println!(
                        "{} {} {:?} -> {:?}  from {:?}",
                        n.name, n.op_type, n.inputs, n.outputs, p.sources
                    );
                }
            }
        }
        Err(e) => {
            println!("{e}");
            std::process::exit(1);
        }
    }
}
