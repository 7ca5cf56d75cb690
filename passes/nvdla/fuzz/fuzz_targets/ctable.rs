//! Fuzz target `ctable`: any bytes as ONNC's CTable JSON, loaded onto a fixed
//! program, must give `Ok` or `Err`, never a panic; a table that loads must
//! reload after `gen`. The logic is `../entry.rs`, shared with
//! `tests/fuzz_corpus.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::ctable(data));
