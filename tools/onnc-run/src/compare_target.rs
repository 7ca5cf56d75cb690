//! `onnc-run model.onnx --compare-target nv_full|nv_large|nv_small`:
//! compile the model for the NVDLA configuration, run the loadable in the
//! bit-exact simulator and the ONNX model in the reference interpreter on
//! the same inputs, and compare every output, then every hardware layer
//! (`onnc_passes::sim_check`, with the per-layer table and the memory-plan
//! check).
//!
//! INT8 configurations (nv_small, nv_large) are calibrated first
//! ([`super::int8_scales`]: on `--calib DIR`, else on the compared inputs),
//! compiled with those scales, fed inputs quantized with them, and their
//! outputs dequantized and compared by RMS error (`sim_check::check_int8`,
//! INT8's tolerance). `--uncalibrated` keeps identity scales instead: exact
//! for integer-valued data (`test/nvdla/eltwise.test`), meaningless for real
//! data, which a warning on stderr says.
//!
//! In: the graph and its inputs (given or seeded). Out: the report on
//! stdout; `Ok(false)` when an output is beyond the tolerance
//! (`--target-tolerance`; default 1e-2 of max |reference| in FP16, 0.15 of
//! the RMS reference in INT8), a top-1 class differs, or the memory plan
//! changes the outputs.

use super::int8_scales::Choice;
use onnc_passes::sim_check;
use onnc_tensor::Tensor;

/// Compiles, simulates, compares and prints; see the module doc. `calib`:
/// how an INT8 target is calibrated, `None` for `--uncalibrated`.
pub fn run(
    graph: &onnc_onnx::Graph,
    file: &str,
    target: &str,
    inputs: &[(String, Tensor)],
    tolerance: Option<f64>,
    calib: Option<&Choice>,
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
    let c = match (target, calib) {
        ("nv_full", _) => sim_check::compile_and_check(
            graph,
            file,
            target,
            inputs,
            tolerance.unwrap_or(sim_check::FP16_TOLERANCE),
        )
        .map_err(prefix)?,
        (_, Some(choice)) => {
            let scales = super::int8_scales::scales(graph, file, inputs, choice)?;
            let (bytes, _) =
                sim_check::int8::compile_int8(graph, file, target, "best-fit", &scales)
                    .map_err(prefix)?;
            sim_check::check_int8(
                graph,
                file,
                target,
                inputs,
                &scales,
                tolerance.unwrap_or(sim_check::int8::INT8_TOLERANCE),
                &bytes,
                sim_check::Detail::Layers,
            )
            .map_err(prefix)?
        }
        (_, None) => {
            // Identity scales: exact only where every input, weight and
            // result is an integer in INT8's range.
            onnc_tools::diagnostics::emit_messages(
                &[format!(
                    "onnc-run: warning: --compare-target {target} --uncalibrated compiles in INT8 with identity scales: the comparison is exact only for integer-valued inputs and weights; without --uncalibrated the scales are calibrated (on --calib DIR or on the compared inputs)"
                )],
                None,
            );
            sim_check::compile_and_check(
                graph,
                file,
                target,
                inputs,
                tolerance.unwrap_or(sim_check::FP16_TOLERANCE),
            )
            .map_err(prefix)?
        }
    };
    onnc_io::stdout::print(&c.text).map_err(|e| {
        vec![format!(
            "onnc-run: error: {}",
            onnc_io::stdout::describe(&e).trim_start_matches("error: ")
        )]
    })?;
    Ok(c.ok)
}
