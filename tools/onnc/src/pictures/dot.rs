//! `onnc compile --emit dot`: the hardware layers of an NVDLA program as a
//! Graphviz digraph.
//!
//! In: a placed [`Program`]. Out: DOT text. One box per hardware layer
//! (name, engines, output cube and precision; filled by its first engine,
//! dashed for memory views that emit no descriptor), one ellipse per
//! network input and output, one edge per tensor passed between layers
//! (labelled with its name, shape and pool/offset; a conv→SDP accumulator
//! stays inside its layer), and a legend record with the pool sizes.
//!
//! ```text
//! digraph "mini_resnet.onnx" {
//!   "L0" [label="conv1_bn1\nconv+sdp\n1x16x16x16 fp16", fillcolor="#cfe2ff", ...];
//!   "in0" -> "L0" [label="x\n1x3x16x16 act@0"];
//! ```

use super::escape;
use onnc_nvdla::{Engine, Pool, Program, TensorKind};
use std::collections::BTreeMap;

fn color(e: Engine) -> &'static str {
    match e {
        Engine::Conv => "#cfe2ff",
        Engine::Sdp => "#d1e7dd",
        Engine::Pdp => "#fff3cd",
        Engine::Cdp => "#f8d7da",
        Engine::Rubik => "#e2d9f3",
        Engine::Bdma => "#e9ecef",
        Engine::Emu => "#ffd8a8",
        _ => "#ffffff",
    }
}

fn dims(shape: &[usize]) -> String {
    shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

fn place(p: &Program, t: usize) -> String {
    match p.tensors[t].place {
        Some(m) => format!(
            "{}@{} ({} B)",
            m.pool.map_or("none", Pool::as_str),
            m.offset,
            m.size
        ),
        None => "unplaced".into(),
    }
}

/// The DOT text of `p`; `title` names the graph (the model path).
pub fn render(p: &Program, title: &str, pools: &[(&str, u64)]) -> String {
    // Layers in execution order; the layer of every op.
    let mut order: Vec<&str> = Vec::new();
    let mut layer_of: Vec<usize> = Vec::with_capacity(p.ops.len());
    let mut ops_of: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, op) in p.ops.iter().enumerate() {
        let i = match order.iter().position(|&n| n == op.hw_layer) {
            Some(i) => i,
            None => {
                order.push(&op.hw_layer);
                order.len() - 1
            }
        };
        layer_of.push(i);
        ops_of.entry(i).or_default().push(k);
    }
    let mut s = format!(
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n",
        escape(title)
    );
    for (i, t) in p.inputs.iter().enumerate() {
        let x = &p.tensors[*t];
        s.push_str(&format!(
            "  \"in{i}\" [shape=ellipse, fillcolor=\"#ffffff\", label=\"input {}\\n{} {}\"];\n",
            escape(&x.name),
            dims(&x.shape),
            x.precision.as_str()
        ));
    }
    for (i, name) in order.iter().enumerate() {
        let ops = &ops_of[&i];
        let engines: Vec<&str> = ops.iter().map(|&k| p.ops[k].engine.op_name()).collect();
        let first = p.ops[ops[0]].engine;
        let last = &p.tensors[p.ops[*ops.last().expect("a layer has ops")].output];
        let style = if first.is_virtual() {
            "dashed"
        } else {
            "filled"
        };
        s.push_str(&format!(
            "  \"L{i}\" [label=\"{}\\n{}\\n{} {}\", fillcolor=\"{}\", style=\"{style}\"];\n",
            escape(name),
            engines.join("+"),
            dims(&last.shape),
            last.precision.as_str(),
            color(first)
        ));
    }
    for (i, t) in p.outputs.iter().enumerate() {
        let x = &p.tensors[*t];
        s.push_str(&format!(
            "  \"out{i}\" [shape=ellipse, fillcolor=\"#ffffff\", label=\"output {}\\n{} {}\"];\n",
            escape(&x.name),
            dims(&x.shape),
            x.precision.as_str()
        ));
    }
    // Edges: each tensor read by a layer other than its producer's.
    let mut producer: Vec<Option<usize>> = vec![None; p.tensors.len()];
    for (k, op) in p.ops.iter().enumerate() {
        producer[op.output] = Some(k);
    }
    let mut seen = std::collections::BTreeSet::new();
    for (k, op) in p.ops.iter().enumerate() {
        for t in op.operands() {
            let x = &p.tensors[t];
            if x.is_weight() || matches!(x.kind, TensorKind::Fused) {
                continue;
            }
            let from = match (producer[t], &x.kind) {
                (Some(pk), _) if layer_of[pk] == layer_of[k] => continue,
                (Some(pk), _) => format!("L{}", layer_of[pk]),
                (None, TensorKind::Input(_)) => {
                    format!("in{}", p.inputs.iter().position(|&i| i == t).unwrap_or(0))
                }
                (None, _) => continue,
            };
            let to = format!("L{}", layer_of[k]);
            if seen.insert((from.clone(), to.clone(), t)) {
                s.push_str(&format!(
                    "  \"{from}\" -> \"{to}\" [label=\"{}\\n{} {}\"];\n",
                    escape(&x.name),
                    dims(&x.shape),
                    place(p, t)
                ));
            }
        }
    }
    for (i, &t) in p.outputs.iter().enumerate() {
        if let Some(pk) = producer[t] {
            s.push_str(&format!(
                "  \"L{}\" -> \"out{i}\" [label=\"{}\"];\n",
                layer_of[pk],
                place(p, t)
            ));
        }
    }
    let legend: Vec<String> = pools
        .iter()
        .map(|(name, bytes)| format!("{{{name}|{bytes} B}}"))
        .collect();
    s.push_str(&format!(
        "  \"pools\" [shape=record, fillcolor=\"#ffffff\", label=\"{{memory pools|{}}}\"];\n}}\n",
        legend.join("|")
    ));
    s
}
