//! `nvdla-split-conv` — decides the CBUF allotment and row bands of every
//! convolution that does not fit the convolution buffer whole.
//!
//! Input: `nvdla` dialect → Output: the same ops, each `nvdla.conv` cut into
//! row bands carrying `nvdla.cbuf = {data_bank, weight_bank, out_rows,
//! in_top, in_rows, pad_top, pad_bottom, reuse_weights, keep_weights}` (one
//! array element per band, one descriptor pair per band in the loadable).
//!
//! Before: `%1 = "nvdla.conv"(%arg0, %0) {hw_layer = "stem", ...}`
//! After `--pass-pipeline='builtin.module(nvdla-split-conv)'` (ResNet-50's
//! stem on nv_full):
//! ```mlir
//! %1 = "nvdla.conv"(%arg0, %0) {hw_layer = "stem", ..., nvdla.cbuf = {data_bank = 15 : i64, weight_bank = 1 : i64, out_rows = array<i64: 31, 31, 31, 19>, in_top = array<i64: 0, 59, 121, 183>, ...}}
//! ```
//!
//! Convs that fit whole get no attribute (their one-band allotment has no
//! cut in it; emission derives it), nor do convs emitted in channel chunks
//! (decided with the memory plan, `onnc_nvdla::emit::chunking`). The rules
//! are `onnc_nvdla::emit::split`'s. Emission reads the recorded plans and
//! refuses a conv that needs bands but has none. Preconditions: a module
//! with `nvdla.config`. Failure: a conv that fits neither whole, in bands
//! nor in channel chunks is reported by name; the IR is unchanged.

use crate::pipeline::{mlir_face, Diags, Module, Pass};
use onnc_dialects::pass_api::{PassFailed, PassOptions, PassRegistration};

/// Registration of `nvdla-split-conv`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    flag: "nvdla-split-conv",
    summary: "Decide the CBUF banks and row bands of each NVDLA convolution too big for the CBUF (nvdla.cbuf)",
    anchor: "builtin.module",
    options: &[],
    factory: |o: &PassOptions| mlir_face::body("nvdla-split-conv", o),
};

/// The in-memory `nvdla-split-conv` (see [`crate::pipeline`]).
pub fn memory(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(SplitConv))
}

struct SplitConv;

impl Pass for SplitConv {
    fn run(&self, module: &mut Module, diags: &mut Diags) -> Result<(), PassFailed> {
        let n = module.nvdla_mut("nvdla-split-conv").map_err(|e| {
            diags.error(None, e);
            PassFailed
        })?;
        // On failure `split_convs` leaves the program as it was.
        onnc_nvdla::emit::split_convs(&mut n.program).map_err(|e| {
            diags.error(None, format!("nvdla-split-conv: {e}"));
            PassFailed
        })?;
        Ok(())
    }
}
