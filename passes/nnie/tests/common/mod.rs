//! What the NNIE integration tests share: where the fixtures are and how
//! they are loaded.

use std::path::{Path, PathBuf};

/// The path of fixture `name` under `tests/data`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Fixture `name` loaded as an ONNX graph (panics: a missing fixture is a
/// broken checkout, not a skipped test).
pub fn graph(name: &str) -> onnc_onnx::Graph {
    onnc_onnx::load(data(name), &Default::default())
        .unwrap()
        .graph
}
