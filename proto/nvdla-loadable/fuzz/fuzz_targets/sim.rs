//! Fuzz target `sim`: any bytes as a loadable through the simulator's
//! `load` and `simulate` (inputs zero) must give `Ok` or `Err`, never a
//! panic, hang or unbounded allocation. The logic is `../sim_entry.rs`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../sim_entry.rs"]
mod entry;

fuzz_target!(|data: &[u8]| entry::run(data));
