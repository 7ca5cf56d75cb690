//! `--to-nvdla-loadable`: `nvdla` dialect IR → NVDLA loadable.
//!
//! In: MLIR text or bytecode whose main function holds the `nvdla` dialect
//! (from `convert-onnx-to-nvdla` and `nvdla-plan-memory`; an unplanned
//! function is refused with the pass to run). Out: the loadable
//! (FlatBuffers, identifier `NVDA`), descriptors in the `--nvdla-abi` layout
//! (`current` = firmware 0.12.x, the default; `legacy` = the 2018 layout of
//! ONNC and the golden files).
//!
//! ```text
//! onnc-translate --to-nvdla-loadable lenet.nvdla.mlir -o lenet.nvdla
//! ```

use super::{with_module, Error, Input, Kind, Translation, TranslationOption};
use crate::nvdla::emit::emit_module;
use onnc_nvdla_loadable::Abi;

/// `--to-nvdla-loadable`.
pub const TO_LOADABLE: Translation = Translation {
    flag: "to-nvdla-loadable",
    summary: "Write nvdla dialect IR as an NVDLA loadable",
    kind: Kind::Emit,
    options: &[TranslationOption {
        name: "nvdla-abi",
        values: "current|legacy",
        help: "descriptor layout: firmware 0.12.x (default) or the 2018 layout",
    }],
    run: to_loadable,
    dir: None,
};

/// Parses `--nvdla-abi`.
pub fn abi_option(value: Option<&str>) -> Result<Abi, String> {
    match value {
        None | Some("current") => Ok(Abi::Current),
        Some("legacy") => Ok(Abi::Legacy),
        Some(other) => Err(format!(
            "--nvdla-abi takes current or legacy, not '{other}'"
        )),
    }
}

fn to_loadable(input: &Input) -> Result<Vec<u8>, Error> {
    let abi = abi_option(input.option("nvdla-abi")).map_err(|e| input.error(e))?;
    let file = input.path.display().to_string();
    with_module(input, |module| {
        emit_module(module, abi)
            .map(|(bytes, _)| bytes)
            .map_err(|m| Error(m.into_iter().map(|m| format!("{file}: {m}")).collect()))
    })
}
