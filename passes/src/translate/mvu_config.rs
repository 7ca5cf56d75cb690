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

use super::{directory_only, read_level, with_module, DirFile, DirOutput, Error, Input};
use super::{Kind, Translation};
use crate::mvu::from_ir::module_from_func;

/// `--to-mvu-config`.
pub const TO_MVU_CONFIG: Translation = Translation {
    flag: "to-mvu-config",
    summary: "Write mvu dialect IR as a BARVINN configuration directory (-o DIR)",
    kind: Kind::Emit,
    options: &[],
    run: directory_only,
    dir: Some(DirOutput {
        marker: onnc_mvu::emit::CONFIG_JSON,
        files: config_files,
    }),
};

fn config_files(input: &Input) -> Result<Vec<DirFile>, Error> {
    with_module(input, |module| {
        let m = read_level(input, module, module_from_func)?;
        Ok(m.compiled
            .files()
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect())
    })
}
