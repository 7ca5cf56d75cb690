//! `--export-onnx`: the `onnx` dialect → an ONNX model file.
//!
//! In: MLIR (text or bytecode) with one `func.func` in the `onnx` dialect
//! (`@main_graph`, or the only function). Out: a binary ONNX ModelProto at
//! IR version 9 (10 when a node carries a target annotation such as
//! `onnc.device`, written as node metadata), the normalized default-domain
//! opset (the form the importer normalizes to) plus opset 1 of every other
//! domain that `onnx.custom` ops use — open it in Netron, check it with
//! `onnx.checker`, run it with onnxruntime. Node names are the ops' ONNX
//! names (`onnx.name`, or a named location). Weights must be present (not
//! elided) in the input.

use super::{Error, Input, Kind, Translation};
use crate::export::onnx::graph_from_func;
use onnc_dialects::{ir, verify};
use prost::Message;
use std::collections::BTreeMap;

/// `--export-onnx`.
pub const EXPORT_ONNX: Translation = Translation {
    flag: "export-onnx",
    summary: "Write the onnx dialect as an ONNX model (opset 18)",
    kind: Kind::Emit,
    options: &[],
    run: export_onnx,
    dir: None,
};

fn export_onnx(input: &Input) -> Result<Vec<u8>, Error> {
    let file = input.path.display().to_string();
    let context =
        ir::new_context().map_err(|d| Error(d.iter().map(|d| d.to_string()).collect()))?;
    let capture = ir::DiagnosticCapture::attach(&context);
    let module = match ir::parse_module_bytes(&context, input.bytes, &file) {
        Some(m) if verify::verify_module(&m) => m,
        _ => {
            return Err(Error(
                capture.take().iter().map(|d| d.to_string()).collect(),
            ))
        }
    };
    let op = module.as_operation();
    let main = crate::onnx::functions::main_function(&op).map_err(|e| input.error(e))?;
    let graph = graph_from_func(&main).map_err(|e| {
        Error(
            e.into_iter()
                .map(|(at, m)| format!("{}: error: {m}", ir::Loc::from_location(at)))
                .collect(),
        )
    })?;
    let mut opsets = BTreeMap::from([(String::new(), onnc_onnx::NORMALIZED_OPSET)]);
    for n in &graph.nodes {
        if !n.domain.is_empty() {
            opsets.entry(n.domain.clone()).or_insert(1);
        }
    }
    let model = onnc_onnx::Model {
        ir_version: 8,
        opset_imports: opsets,
        producer: "onnc".into(),
        graph,
        warnings: Vec::new(),
    };
    Ok(onnc_onnx::export(&model).encode_to_vec())
}
