//! `--import-onnx`: an ONNX model file → the `onnx` dialect (MLIR text).
//!
//! In: `model.onnx` (protobuf; external-data tensors are read relative to
//! the model file). Out: a module with `func.func @main_graph` (see
//! `crate::import::onnx`). `--input-shape name=1x3x224x224` (repeatable, or
//! comma-separated) fixes symbolic input dimensions. Every error names the
//! file and, where it applies, the node.

use super::{Error, Input, Kind, Translation, TranslationOption};
use crate::import::onnx::import_model;
use melior::ir::operation::OperationLike;
use onnc_dialects::{ir, verify};

/// `--import-onnx`.
pub const IMPORT_ONNX: Translation = Translation {
    flag: "import-onnx",
    summary: "Import an ONNX model into the onnx dialect",
    kind: Kind::Import,
    options: &[TranslationOption {
        name: "input-shape",
        values: "NAME=DxDx..",
        help: "fix a graph input's shape, e.g. data=1x3x224x224 (repeatable)",
    }],
    run: import_onnx,
    dir: None,
};

fn import_onnx(input: &Input) -> Result<Vec<u8>, Error> {
    let mut opts = onnc_onnx::Options::default();
    for (k, v) in input.options {
        if k != "input-shape" {
            continue;
        }
        for spec in v.split(',').filter(|s| !s.is_empty()) {
            let parsed = onnc_onnx::Options::parse_input_shape(spec).ok_or_else(|| {
                input.error(format!(
                    "--input-shape '{spec}' is not NAME=DxDx.. with positive dims"
                ))
            })?;
            opts.input_shapes.push(parsed);
        }
    }
    let file = input.path.display().to_string();
    let model = if file == "-" {
        onnc_onnx::decode(input.bytes, std::path::Path::new("."), &opts)
    } else {
        onnc_onnx::load(input.path, &opts)
    }
    .map_err(|e| Error(vec![e.to_string()]))?;
    for w in &model.warnings {
        onnc_io::stderr::line(&format!("{file}: warning: {w}"));
    }
    let context =
        ir::new_context().map_err(|d| Error(d.iter().map(|d| d.to_string()).collect()))?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let module = import_model(&context, model, &file)?;
    if !module.as_operation().verify() || !verify::verify_module(&module) {
        let mut lines = vec![format!("{file}: error: the imported IR does not verify (an importer defect or a model the dialect cannot express):")];
        lines.extend(capture.take().iter().map(|d| d.to_string()));
        return Err(Error(lines));
    }
    Ok(ir::print_op(
        &module.as_operation(),
        &ir::PrintOptions {
            debug_info: true,
            ..Default::default()
        },
    )
    .into_bytes())
}
