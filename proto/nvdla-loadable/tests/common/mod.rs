//! Shared test helpers: the ten golden loadables from nvdla/sw.
#![allow(dead_code)]

use onnc_nvdla_loadable::layout::{blob_roles, BlobRole};
use onnc_nvdla_loadable::Loadable;

/// The golden files (see test/data/nvdla-golden/PROVENANCE).
pub const GOLDEN: [&str; 10] = [
    "BDMA_L0_0_fbuf",
    "CDP_L0_0_fbuf",
    "CDP_L0_0_small_fbuf",
    "CONV_D_L0_0_fbuf",
    "CONV_D_L0_0_small_fbuf",
    "NN_L0_0_fbuf",
    "PDP_L0_0_fbuf",
    "RBK_L0_0_fbuf",
    "SDP_X1_L0_0_fbuf",
    "SDP_X1_L0_0_small_fbuf",
];

/// `<repo>/test/data/nvdla-golden`.
pub fn golden_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/data/nvdla-golden")
}

/// Bytes of one golden file.
pub fn golden_bytes(name: &str) -> Vec<u8> {
    let p = golden_dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// Parsed golden file.
pub fn golden(name: &str) -> Loadable {
    Loadable::read(&golden_bytes(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Index of the blob with `role` in task `task`.
pub fn role_blob(l: &Loadable, task: usize, role: BlobRole) -> usize {
    blob_roles(l)
        .into_iter()
        .find(|&(_, t, r)| t == task && r == role)
        .map(|(b, _, _)| b)
        .unwrap_or_else(|| panic!("no {role:?} blob in task {task}"))
}

/// Whether the golden is an nv_small one.
pub fn is_small(name: &str) -> bool {
    name.contains("small")
}
