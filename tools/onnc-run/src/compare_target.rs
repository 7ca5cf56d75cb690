//! `onnc-run model.onnx --compare-target nv_full|nv_large|nv_small`:
//! compile the model for the NVDLA configuration, run the loadable in the
//! bit-exact simulator and the ONNX model in the reference interpreter on
//! the same inputs, and compare every output, then every hardware layer
//! (`onnc_passes::sim_check`, with the per-layer table and the memory-plan
//! check).
//!
//! INT8 configurations (nv_small, nv_large) compile uncalibrated here, with
//! identity scales: exact for integer-valued data (`test/nvdla/eltwise.test`),
//! meaningless for real data, which a warning on stderr says, naming the
//! calibrated check (`onnc compile --calib DIR --check-sim`).
//!
//! In: the graph and its inputs (given or seeded). Out: the report on
//! stdout; `Ok(false)` when an output is beyond the tolerance
//! (`--target-tolerance`, default 1e-2 of max |reference|, FP16's budget),
//! a top-1 class differs, or the memory plan changes the outputs.

use onnc_passes::sim_check;
use onnc_tensor::Tensor;

/// Compiles, simulates, compares and prints; see the module doc.
pub fn run(
    graph: &onnc_onnx::Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: f64,
) -> Result<bool, Vec<String>> {
    let prefix = |v: Vec<String>| {
        v.into_iter()
            .map(|m| {
                if m.starts_with("error: ") {
                    format!("onnc-run: {m}")
                } else {
                    m
                }
            })
            .collect::<Vec<_>>()
    };
    if target != "nv_full" {
        // The compile here has no calibration: identity scales, exact only
        // where every input, weight and result is an integer in INT8's range.
        onnc_tools::diagnostics::emit_messages(
            &[format!(
                "onnc-run: warning: --compare-target {target} compiles in INT8 without calibration (identity scales): the comparison is exact only for integer-valued inputs and weights; to check a calibrated loadable, run `onnc compile {file} --target {target} --calib DIR --check-sim`"
            )],
            None,
        );
    }
    let c = sim_check::compile_and_check(graph, file, target, inputs, tolerance).map_err(prefix)?;
    onnc_io::stdout::print(&c.text).map_err(|e| {
        vec![format!(
            "onnc-run: error: {}",
            onnc_io::stdout::describe(&e).trim_start_matches("error: ")
        )]
    })?;
    Ok(c.ok)
}
