//! NVDLA emission with a progress bar over the weight bytes packed, for
//! models whose weights are large enough for packing to take a while.
//!
//! In: the planned program, the descriptor ABI, whether progress is
//! wanted (`--progress`, `-q`). Out: the loadable's bytes and the
//! descriptors per op, exactly those of
//! [`onnc_passes::nvdla::emit::emit_program_counted`]; on a terminal,
//! meanwhile, `packing weights [bar] k/n bytes  elapsed (eta …)` on
//! stderr ([`onnc_calib::progress_bar`]), cleared at the end. Nothing is
//! drawn into a pipe or file, or for less than [`LARGE`] bytes.

use onnc_nvdla::emit::{emit_bytes_packing, Abi, EmitOptions};
use onnc_nvdla::Program;
use onnc_nvdla_loadable::Reserved;
use std::sync::OnceLock;

/// Weights below this many bytes are packed without a bar (a blink).
pub const LARGE: usize = 16 << 20;

/// The loadable of `p` and its descriptors per op (see the module doc).
pub fn emit(p: &Program, abi: Abi, wanted: bool) -> Result<(Reserved, Vec<usize>), Vec<String>> {
    let bar: OnceLock<onnc_calib::ProgressBar> = OnceLock::new();
    let packed = |n: usize, total: usize| {
        if wanted && total >= LARGE {
            bar.get_or_init(|| onnc_calib::progress_bar(total, "packing weights", "bytes", true))
                .inc(n as u64);
        }
    };
    let out = emit_bytes_packing(p, &EmitOptions { abi }, &packed)
        .map_err(|e| vec![format!("error: {e}")]);
    if let Some(b) = bar.get() {
        b.finish_and_clear();
    }
    out
}
