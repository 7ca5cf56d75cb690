//! `onnc-run model.onnx --compare-target nv_full|nv_large|nv_small`:
//! compile the model for the NVDLA configuration, run the loadable in the
//! bit-exact simulator and the ONNX model in the reference interpreter on
//! the same inputs, and compare every output.
//!
//! In: the graph and its inputs (given or seeded). Out: a line per output
//! with the largest absolute error, its ratio to the largest reference
//! magnitude, and for classifier-shaped outputs whether the top-1 class
//! agrees; `Ok(false)` when an output is beyond the tolerance
//! (`--target-tolerance`, default 1e-2 of max |reference|, FP16's budget)
//! or the top-1 differs. Then the per-layer table ([`crate::layers`]):
//! every hardware layer's surface against the reference tensor of the same
//! ONNX value, and the first layer beyond the tolerance — where to look
//! when an output disagrees. The table comes from a second compile with
//! the `naive` memory planner (no reuse), so every surface survives the
//! run; the arithmetic is the same as with the default planner. The
//! outputs of the two loadables must be identical bytes: when they are
//! not, the memory plan makes two live surfaces share bytes, and a line
//! says so (how the banded-conv aliasing defect that made VGG-19 and
//! ResNet-50 diverge would have been told apart from an arithmetic one).

use onnc_passes::numerics;
use onnc_tensor::{DType, Tensor};

fn err(m: impl std::fmt::Display) -> Vec<String> {
    vec![format!("onnc-run: error: {m}")]
}

/// The largest element's index (ties: the first).
fn argmax(v: &[f32]) -> Option<usize> {
    v.iter()
        .enumerate()
        .filter(|(_, x)| !x.is_nan())
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
}

/// Compiles, simulates and compares; see the module doc.
pub fn run(
    graph: &onnc_onnx::Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: f64,
) -> Result<bool, Vec<String>> {
    let (bytes, _) = numerics::compile_nvdla(graph.clone(), file, target)?;
    let (naive_bytes, program) =
        numerics::compile_nvdla_planned(graph.clone(), file, target, "naive")?;
    // Reference values of the ONNX nodes and values the layers name.
    let wanted: std::collections::HashSet<&str> = program
        .tensors
        .iter()
        .map(|t| t.name.as_str())
        .chain(
            program
                .ops
                .iter()
                .flat_map(|o| o.onnx_nodes.iter().map(String::as_str)),
        )
        .collect();
    let mut values = std::collections::HashMap::new();
    let reference = onnc_interp::run_graph_observed(graph, inputs, &mut |node, outs| {
        if let (true, Some(t)) = (wanted.contains(node.name.as_str()), outs.first()) {
            values.insert(node.name.clone(), t.clone());
        }
        for (name, t) in node.outputs.iter().zip(outs) {
            if wanted.contains(name.as_str()) {
                values.insert(name.clone(), t.clone());
            }
        }
    })
    .map_err(|e| err(format!("{file}: {e}")))?;
    let sim_inputs: Vec<onnc_nvdla_sim::run::Tensor> = graph
        .inputs
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let t = inputs
                .iter()
                .find(|(n, _)| *n == v.name)
                .map(|(_, t)| t)
                .ok_or_else(|| err(format!("no value for input '{}'", v.name)))?;
            let values = t
                .cast(DType::F32)
                .as_f32()
                .map_err(|e| err(e.to_string()))?
                .to_vec();
            Ok(onnc_nvdla_sim::run::Tensor {
                bind_id: k as u16,
                data: onnc_nvdla_sim::run::TensorData::F32(values),
            })
        })
        .collect::<Result<_, Vec<String>>>()?;
    // nv_large lays memory out as nv_full does, so the configuration is
    // given rather than inferred from the loadable.
    let opts = onnc_nvdla_sim::run::Options {
        hw: onnc_nvdla_sim::engine::Hw::by_name(target),
        ..Default::default()
    };
    let outs = onnc_nvdla_sim::run::simulate(&bytes, &sim_inputs, &opts)
        .map_err(|e| err(format!("{file} on {target}: {e}")))?;
    let (naive_outs, memory) =
        onnc_nvdla_sim::run::simulate_memory(&naive_bytes, &sim_inputs, &opts)
            .map_err(|e| err(format!("{file} on {target} (naive plan): {e}")))?;
    if outs.tensors.len() != reference.len() {
        return Err(err(format!(
            "the loadable has {} outputs, the model {}",
            outs.tensors.len(),
            reference.len()
        )));
    }
    let mut ok = true;
    let mut text = format!("{file} on {target} (simulated) against the reference interpreter:\n");
    for ((name, r), o) in reference.iter().zip(&outs.tensors) {
        let r = r.cast(DType::F32);
        let r = r.as_f32().map_err(|e| err(e.to_string()))?;
        if r.len() != o.values.len() {
            return Err(err(format!(
                "output '{name}': {} values from the loadable, {} from the model",
                o.values.len(),
                r.len()
            )));
        }
        let max_ref = r.iter().fold(0f32, |m, x| m.max(x.abs())) as f64;
        let max_abs = r
            .iter()
            .zip(&o.values)
            .fold(0f64, |m, (a, b)| m.max(f64::from((a - b).abs())));
        let ratio = if max_ref > 0.0 {
            max_abs / max_ref
        } else {
            max_abs
        };
        let pass = ratio <= tolerance;
        let top1 = if r.len() > 1 && r.len() == o.values.len() {
            let (a, b) = (argmax(r), argmax(&o.values));
            Some((a == b, a, b))
        } else {
            None
        };
        ok &= pass && top1.is_none_or(|t| t.0);
        let top = match top1 {
            Some((true, a, _)) => format!(", top-1 {} agrees", a.unwrap_or(0)),
            Some((false, a, b)) => format!(", top-1 DIFFERS: reference {a:?}, simulated {b:?}"),
            None => String::new(),
        };
        text += &format!(
            "  {name}: max abs error {max_abs:.3e} = {ratio:.3e} of max |reference| {max_ref:.3e} ({}){top}\n",
            if pass { "ok" } else { "BEYOND TOLERANCE" }
        );
    }
    let hw = opts
        .hw
        .clone()
        .unwrap_or(onnc_nvdla_sim::engine::Hw::NV_FULL);
    let rows = crate::layers::compare(&program, &memory, &hw, &values)
        .map_err(|e| err(format!("{file} on {target}: per-layer table: {e}")))?;
    text += &crate::layers::render(&rows, tolerance);
    let same = outs
        .tensors
        .iter()
        .zip(&naive_outs.tensors)
        .all(|(a, b)| a.raw == b.raw);
    if !same {
        text +=
            "  the outputs differ between the shipped memory plan and one without reuse (every \
                 surface its own bytes): the memory plan makes two live surfaces share bytes; \
                 report it with this model\n";
        ok = false;
    }
    onnc_io::stdout::print(&text)
        .map_err(|e| err(onnc_io::stdout::describe(&e).trim_start_matches("error: ")))?;
    Ok(ok)
}
