//! `nvdla-plan-memory{strategy=...}` — places every tensor in memory.
//!
//! Input: `nvdla` dialect → Output: the same ops with `nvdla.mem =
//! {pool, offset, size, line_stride, surf_stride}` on each result (and on
//! bound arguments/results), and on the module `nvdla.memory =
//! {activation_bytes, activation_lower_bound_bytes, weight_bytes, bind_bytes}`.
//!
//! Before: `%1 = "nvdla.pdp"(%0) {...}`
//! After `--pass-pipeline='builtin.module(nvdla-plan-memory)'`:
//! ```mlir
//! %1 = "nvdla.pdp"(%0) {..., nvdla.mem = {pool = "act", offset = 4096 : i64, size = 8192 : i64, line_stride = 256 : i64, surf_stride = 2048 : i64}}
//! ```
//!
//! Activations share one pool with liveness-based reuse (best fit); weights
//! are packed per engine format; concat/slice/reshape results alias their
//! operands. The algorithm lives in `onnc_nvdla::plan`. Option: `strategy`
//! (best-fit | naive: no reuse, for comparison). Preconditions: a module
//! with `nvdla.config`. Failure modes: a view that cannot alias (a window
//! not aligned to the memory atom, a member of two concats) is reported
//! with the tensor and the fix; the IR is unchanged.

use crate::pipeline::{mlir_face, Diags, Module, Pass};
use onnc_dialects::pass_api::{OptionKind, OptionSpec, PassFailed, PassOptions, PassRegistration};
use onnc_nvdla::plan::{plan, PlanOptions, Strategy};

/// Registration of `nvdla-plan-memory`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "nvdla-plan-memory",
    summary: "Place activations (liveness-based reuse), weights and bound tensors in NVDLA memory",
    anchor: "builtin.module",
    options: &[OptionSpec {
        name: "strategy",
        kind: OptionKind::Enum(&["best-fit", "naive"]),
        default: "best-fit",
        help: "best-fit reuse of the activation pool, or naive (every tensor its own bytes)",
    }],
    factory: |o: &PassOptions| mlir_face::body("nvdla-plan-memory", o),
};

/// The in-memory `nvdla-plan-memory` (see [`crate::pipeline`]): places the
/// program's tensors and records the summary on the module.
pub fn memory(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Plan::new(o)))
}

impl Plan {
    fn new(o: &PassOptions) -> Plan {
        let strategy = if o.str("strategy") == "naive" {
            Strategy::Naive
        } else {
            Strategy::BestFit
        };
        Plan { strategy }
    }

    fn options(&self) -> PlanOptions {
        PlanOptions {
            strategy: self.strategy,
        }
    }
}

impl Pass for Plan {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let n = module.nvdla_mut("nvdla-plan-memory").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        let report = plan(&mut n.program, &self.options()).map_err(|e| {
            diags.error(None, format!("nvdla-plan-memory: {e}"));
            PassFailed
        })?;
        n.memory = Some(report);
        crate::pipeline::program_order::canonical_order(&mut n.program);
        Ok(())
    }
}

struct Plan {
    strategy: Strategy,
}
