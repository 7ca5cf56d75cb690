//! `--to-nnie-package`: `nnie` dialect IR → the `nnie_mapper` package.
//!
//! In: MLIR text or bytecode whose main function is at the `nnie` level
//! (from `convert-onnx-to-nnie`, printed with its resources). Out: the
//! directory `onnc compile --target nnie` writes — `<name>.prototxt`,
//! `<name>.caffemodel`, `<name>.cfg`, `image_list.txt`, the clip table
//! `<name>_gfpq_param_dict.json`, `channel_mean.txt` (with channel means),
//! the calibration files and `quant_report.json` — byte for byte, made from
//! the text alone ([`crate::nnie::from_ir`]). Bad text (an op of another
//! level, a missing attribute, a clip off the grid, an elided weight) is an
//! error at the op, and nothing is written.
//!
//! ```text
//! onnc-translate --to-nnie-package model.nnie.mlir -o model.nnie
//! ```

use super::{directory_only, read_level, with_module, DirFile, DirOutput, Error, Input};
use super::{Kind, Translation};
use crate::nnie::from_ir::module_from_func;
use onnc_nnie::frontend::QUANT_REPORT_FILE;

/// `--to-nnie-package`.
pub const TO_PACKAGE: Translation = Translation {
    flag: "to-nnie-package",
    summary: "Write nnie dialect IR as an nnie_mapper package directory (-o DIR)",
    kind: Kind::Emit,
    options: &[],
    run: directory_only,
    dir: Some(DirOutput {
        marker: QUANT_REPORT_FILE,
        files: package_files,
    }),
};

fn package_files(input: &Input) -> Result<Vec<DirFile>, Error> {
    with_module(input, |module| {
        let m = read_level(input, module, module_from_func)?;
        let c = &m.compiled;
        let mut files = c.package().files().to_vec();
        files.push((
            QUANT_REPORT_FILE.to_string(),
            c.report().to_json().into_bytes(),
        ));
        Ok(files)
    })
}
