//! Fuzz target `clip_table`: any bytes as MQBench's clip-table JSON must
//! read, snap and rewrite to `Ok` or `Err`, never panic; a table must reread
//! its own JSON unchanged. The logic is `../entry.rs`, shared with
//! `tests/fuzz_corpus.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::run(data));
