//! Fuzz target: `onnc_onnx::decode` (+ `infer_graph` and `export` on success)
//! must return `Ok` or `Err` for any bytes, never panic or abort.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = onnc_onnx::Options::default();
    if let Ok(model) = onnc_onnx::decode(data, std::path::Path::new("/nonexistent"), &opts) {
        let _ = onnc_onnx::infer_graph(&model.graph);
        let _ = onnc_onnx::export(&model);
    }
});
