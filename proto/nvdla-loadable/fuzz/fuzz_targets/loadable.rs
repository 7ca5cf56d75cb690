//! Fuzz target `loadable`: any bytes as an NVDLA loadable through the
//! reader, ABI detection, dump, verifier, writer and ABI conversion must give
//! `Ok`/`Err` or text, never a panic. The logic is `../entry.rs`, shared with
//! `tests/fuzz_corpus.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::run(data));
