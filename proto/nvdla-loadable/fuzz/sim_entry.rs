//! The entry point of the `sim` cargo-fuzz target
//! (`fuzz/fuzz_targets/sim.rs`): the simulator's loader and engine
//! (`onnc-nvdla-sim`, which owns its own test suite) fed untrusted loadable
//! bytes. Kept beside the `loadable` target because the loader starts with
//! `Loadable::read` and the verifier.

use onnc_nvdla_sim::load::{load, LoadOptions};
use onnc_nvdla_sim::run::{simulate, Options};

/// `load` (read, ABI and hardware detection, verifier, descriptor decoding),
/// then, when it accepts the loadable, `simulate` with every input left zero.
/// Errors are fine; a panic, hang or unbounded allocation is a bug.
pub fn run(data: &[u8]) {
    if load(data, &LoadOptions::default()).is_ok() {
        let _ = simulate(data, &[], &Options::default());
    }
}
