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

use super::{with_module, DirFile, DirOutput, Error, Input, Kind, Translation};
use crate::{nnie::from_ir::module_from_func, onnx::functions::main_function};
use onnc_dialects::ir::Loc;
use onnc_nnie::frontend::QUANT_REPORT_FILE;

/// `--to-nnie-package`.
pub const TO_PACKAGE: Translation = Translation {
    flag: "to-nnie-package",
    summary: "Write nnie dialect IR as an nnie_mapper package directory (-o DIR)",
    kind: Kind::Emit,
    options: &[],
    run: no_single_file,
    dir: Some(DirOutput {
        marker: QUANT_REPORT_FILE,
        files: package_files,
    }),
};

fn no_single_file(input: &Input) -> Result<Vec<u8>, Error> {
    Err(input.error("--to-nnie-package writes a directory: give -o DIR"))
}

fn package_files(input: &Input) -> Result<Vec<DirFile>, Error> {
    let file = input.path.display().to_string();
    with_module(input, |module| {
        let op = module.as_operation();
        let func = main_function(&op).map_err(|e| input.error(e))?;
        let m = module_from_func(&func).map_err(|errors| {
            Error(
                errors
                    .into_iter()
                    .map(|(at, e)| {
                        let loc = Loc::from_location(at);
                        match (&loc.file, &loc.name) {
                            (Some(_), _) => format!("{loc}: error: {e}"),
                            (None, Some(_)) => format!("{file}: {loc}: error: {e}"),
                            (None, None) => format!("{file}: error: {e}"),
                        }
                    })
                    .collect(),
            )
        })?;
        let c = &m.compiled;
        let mut files = c.package().files().to_vec();
        files.push((
            QUANT_REPORT_FILE.to_string(),
            c.report().to_json().into_bytes(),
        ));
        Ok(files)
    })
}
