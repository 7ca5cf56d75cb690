//! Fuzz target `onnx`: ONNX bytes through `onnc-onnx`'s readers (decode =
//! parse + validate + normalize, shape inference, export, TensorProto) must
//! return `Ok` or `Err`, never panic, abort, hang or allocate without bound.
//! The logic is `../entry.rs`, shared with `tests/fuzz_corpus.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::run(data));
