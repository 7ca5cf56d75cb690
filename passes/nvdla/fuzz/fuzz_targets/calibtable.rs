//! Fuzz target `calibtable`: any bytes as NVIDIA's calibtable JSON, applied
//! to a fixed program, must give `Ok` or `Err`, never a panic; the registers
//! it sets must reload after `gen`. The logic is `../entry.rs`, shared with
//! `tests/fuzz_corpus.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::calibtable(data));
