//! `--to-mvu-config`: `mvu` dialect IR → the BARVINN configuration directory.
//!
//! In: MLIR text or bytecode whose main function is at the `mvu` level (what
//! `convert-onnx-to-mvu` prints: `mvu.conv` / `mvu.matmul` with every
//! per-layer attribute, weights and biases as `arith.constant`s, test
//! vectors in `mvu.test_vectors`; printed with locations, which name the
//! layers). Out: the files `onnc compile --target mvu`
//! writes for the same network and options (`mvu_config.{txt,json,h}`,
//! `mvu_program.s`, the weight and bias images, and the test vectors when
//! the level carries them), which the tool writes into `-o DIR` atomically
//! ([`super::DirOutput`]). A function that is not at
//! the mvu level, a missing attribute or an out-of-range precision is an
//! error at the op; nothing is written.
//!
//! ```text
//! onnc-opt net.mlir --mlir-print-debuginfo --pass-pipeline='builtin.module(onnx-simplify,onnc-legalize{target=mvu},convert-onnx-to-mvu{test-vectors=true})' -o net.mvu.mlir
//! onnc-translate --to-mvu-config net.mvu.mlir -o net.mvu
//! ```

use super::{with_module, DirFile, DirOutput, Error, Input, Kind, Translation};
use crate::mvu::from_ir::module_from_func;
use crate::onnx::functions::main_function;
use onnc_dialects::ir::Loc;

/// `--to-mvu-config`.
pub const TO_MVU_CONFIG: Translation = Translation {
    flag: "to-mvu-config",
    summary: "Write mvu dialect IR as a BARVINN configuration directory (-o DIR)",
    kind: Kind::Emit,
    options: &[],
    run: no_single_file,
    dir: Some(DirOutput {
        marker: onnc_mvu::emit::CONFIG_JSON,
        files: config_files,
    }),
};

fn no_single_file(input: &Input) -> Result<Vec<u8>, Error> {
    Err(input.error("--to-mvu-config writes a directory: give -o DIR"))
}

fn config_files(input: &Input) -> Result<Vec<DirFile>, Error> {
    let file = input.path.display().to_string();
    with_module(input, |module| {
        let op = module.as_operation();
        let func = main_function(&op).map_err(|e| Error(vec![format!("{file}: error: {e}")]))?;
        let m = module_from_func(&func).map_err(|errors| {
            Error(
                errors
                    .into_iter()
                    .map(|(at, m)| match Loc::from_location(at) {
                        l if l.file.is_some() => format!("{l}: error: {m}"),
                        l => format!("{file}: {l}: error: {m}"),
                    })
                    .collect(),
            )
        })?;
        Ok(m.compiled
            .files()
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect())
    })
}
