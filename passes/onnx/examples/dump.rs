//! Loads an ONNX model and prints every node with its inferred output types.
//!
//! `cargo run -p onnc-onnx --example dump -- MODEL.onnx [name=1x3x224x224 ...]`

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dump MODEL.onnx [name=DIMS ...]");
        std::process::exit(2);
    };
    let input_shapes = args
        .filter_map(|a| onnc_onnx::Options::parse_input_shape(&a))
        .collect();
    let opts = onnc_onnx::Options { input_shapes };
    let model = match onnc_onnx::load(&path, &opts) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let types = match onnc_onnx::infer_graph(&model.graph) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    println!(
        "ir {} opsets {:?} producer '{}'",
        model.ir_version, model.opset_imports, model.producer
    );
    for w in &model.warnings {
        println!("warning: {w}");
    }
    for i in &model.graph.inputs {
        println!("input {} : {}", i.name, i.type_info());
    }
    for n in &model.graph.nodes {
        let outs: Vec<String> = n
            .outputs
            .iter()
            .map(|o| {
                types
                    .get(o)
                    .map_or_else(|| format!("{o}: ?"), |t| format!("{o}: {t}"))
            })
            .collect();
        let ins: Vec<&str> = n
            .inputs
            .iter()
            .map(|i| i.as_deref().unwrap_or("<none>"))
            .collect();
        println!(
            "{} {}({}) {:?} -> {}",
            n.name,
            n.op_type,
            ins.join(", "),
            n.attrs.keys().collect::<Vec<_>>(),
            outs.join(", ")
        );
    }
    for o in &model.graph.outputs {
        println!("output {} : {}", o.name, o.type_info());
    }
}
