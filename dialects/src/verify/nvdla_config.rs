//! Configuration rules for `nvdla` ops: what the module's hardware
//! configuration (`nvdla.config = "nv_small"` on the enclosing
//! `builtin.module`) has.
//!
//! In: an `nvdla.*` op. Out: messages such as `precision "fp16" is not
//! supported by nv_small (it runs int8)` or `nv_large has no RUBIK engine`.
//! Ops outside a module with `nvdla.config` are not checked here (the
//! register ranges still are).
//!
//! ```mlir
//! module attributes {nvdla.config = "nv_small"} {
//!   // error: 'nvdla.pdp' op precision "fp16" is not supported by nv_small (it runs int8)
//!   %y = "nvdla.pdp"(%x) {precision = "fp16", ...}
//! }
//! ```

use super::common::*;
use melior::ir::{operation::OperationLike, OperationRef};
use onnc_nvdla_hw::{Config, ConfigName, Precision};

/// The configuration named by the nearest enclosing op's `nvdla.config`.
pub fn config_of(op: &OperationRef) -> Option<Config> {
    let mut at = op.parent_operation();
    while let Some(p) = at {
        if let Some(name) = string(&p, "nvdla.config") {
            return name.parse::<ConfigName>().ok().map(Config::get);
        }
        at = p.parent_operation();
    }
    None
}

/// Datapath precision attributes. (An SDP sub-unit's operand precision is not
/// one: INT8 networks read 16-bit bias operands, as the official compiler does.)
const PRECISION_ATTRS: &[&str] = &[
    "precision",
    "in_precision",
    "out_precision",
    "src_precision",
    "dst_precision",
];

pub(super) fn check(op_name: &str, op: &OperationRef, out: &mut Vec<String>) {
    let Some(c) = config_of(op) else { return };
    let name = c.name;
    for attr in PRECISION_ATTRS {
        let Some(p) = string(op, attr) else { continue };
        if let Some(p) = Precision::parse(&p).filter(|p| !c.supports(*p)) {
            let runs: Vec<&str> = c.precisions.iter().map(|p| p.as_str()).collect();
            out.push(format!(
                "{attr} \"{p}\" is not supported by {name} (it runs {})",
                runs.join(", ")
            ));
        }
    }
    match op_name {
        "rubik" if !c.has_rubik => out.push(format!("{name} has no RUBIK engine")),
        "bdma" if !c.has_bdma => out.push(format!("{name} has no BDMA engine")),
        "sdp" => {
            for unit in ["x1", "x2", "y"] {
                let on = int(op, &format!("{unit}_op.enable")) == Some(1);
                if on
                    && !c.has_sdp_lut
                    && string(op, &format!("{unit}_op.act")).as_deref() == Some("lut")
                {
                    out.push(format!(
                        "{unit}_op.act = \"lut\" but {name} has no SDP lookup table"
                    ));
                }
                // Per-point operands of X1/X2 exist everywhere; the Y unit does not.
                let lut = string(op, "y_op.act").as_deref() == Some("lut");
                if on && unit == "y" && !c.has_sdp_eltwise && !lut {
                    out.push(format!(
                        "y_op.enable = 1 but {name} has no SDP Y (EW) unit (use X1 and X2)"
                    ));
                }
            }
        }
        _ => {}
    }
    if let Some(n) = operand_dims(op, 0).and_then(|d| d.first().copied().flatten()) {
        if n > c.max_batch {
            out.push(format!(
                "batch {n} exceeds {name}'s maximum of {}",
                c.max_batch
            ));
        }
    }
}
