//! The entry point shared by the `loadable` cargo-fuzz target
//! (`fuzz/fuzz_targets/loadable.rs`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`): included in both with `#[path]`, so the fuzzer
//! and the ordinary suite run exactly the same code.

use onnc_nvdla_loadable::{convert_abi, detect_abi, dump, dump_detected, verify, Abi, Loadable};

/// Untrusted bytes through everything `onnc-translate`/`nvdla-loadable`
/// does with a loadable: `Loadable::read`, ABI detection, the dump and the
/// verifier under both ABIs, the writer (whose output must read back), and
/// ABI conversion both ways. Errors are fine; a panic is a bug.
pub fn run(data: &[u8]) {
    let Ok(l) = Loadable::read(data) else {
        return;
    };
    let guess = detect_abi(&l);
    let _ = dump_detected(&l);
    for abi in [Abi::Legacy, Abi::Current] {
        let _ = dump(&l, abi);
        let _ = verify(&l, abi);
    }
    if let Err(e) = Loadable::read(&l.write()) {
        panic!("a loadable that reads does not reread after write: {e}");
    }
    let other = match guess.abi {
        Abi::Legacy => Abi::Current,
        Abi::Current => Abi::Legacy,
    };
    if let Ok(c) = convert_abi(&l, guess.abi, other) {
        let _ = verify(&c, other);
        let _ = dump(&c, other);
        let _ = convert_abi(&c, other, guess.abi);
    }
}
