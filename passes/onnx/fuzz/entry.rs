//! The entry point shared by the `onnx` cargo-fuzz target
//! (`fuzz/fuzz_targets/onnx.rs`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`): included in both with `#[path]`, so the fuzzer
//! and the ordinary suite run exactly the same code.

use std::path::Path;

use onnc_onnx::onnc_proto::onnx::TensorProto;
use onnc_onnx::onnc_proto::prost::Message;

/// Runs untrusted bytes through every ONNX reader of `onnc-onnx`: `decode`
/// (parse, validate, normalize), `infer_graph` and `export` on success, the
/// exported model decoded again, and the bytes read as a `TensorProto` (the
/// `input_<k>.pb` reader). Errors are fine; a panic, abort, hang or huge
/// allocation is a bug.
pub fn run(data: &[u8]) {
    // No external data is ever found there: the fuzzer cannot reach files.
    let base = Path::new("/nonexistent");
    let opts = onnc_onnx::Options::default();
    if let Ok(model) = onnc_onnx::decode(data, base, &opts) {
        let _ = onnc_onnx::infer_graph(&model.graph);
        let bytes = onnc_onnx::export(&model).encode_to_vec();
        let _ = onnc_onnx::decode(&bytes, base, &opts);
    }
    if let Ok(t) = TensorProto::decode(data) {
        let _ = onnc_onnx::tensor_from_proto(&t, base);
    }
}
