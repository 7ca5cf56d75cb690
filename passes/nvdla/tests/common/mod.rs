//! The nine model-zoo "light" nets that the `onnx` Python package ships
//! (`onnx/backend/test/data/light/light_*.onnx`), for the integration tests.
//!
//! In: nothing (asks `python3` where the package is). Out: the folder or the
//! nine paths, sorted. Panics with what to install when the package is
//! missing: `tools/bootstrap.sh` installs it, and a test that skips silently
//! would prove nothing.

#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;

/// `.../onnx/backend/test/data/light`.
pub fn zoo_dir() -> PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import onnx,os;print(os.path.dirname(onnx.__file__))"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); run tools/bootstrap.sh"));
    let dir =
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("backend/test/data/light");
    assert!(
        dir.is_dir(),
        "the onnx Python package and its light model zoo are missing ({}); run tools/bootstrap.sh",
        dir.display()
    );
    dir
}

/// The nine `light_*.onnx` files, sorted.
pub fn zoo_paths() -> Vec<PathBuf> {
    let dir = zoo_dir();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 9, "the nine light nets in {}", dir.display());
    paths
}
