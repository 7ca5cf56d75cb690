//! Build script of the tools: records what `--version` prints.
//!
//! Out: `ONNC_GIT_COMMIT` (`git rev-parse --short HEAD`, or `unknown` when
//! the sources are not a git checkout or git is missing), `ONNC_MLIR_VERSION`
//! (`llvm-config --version` of the LLVM that `mlir-sys` links, or `22` when
//! it cannot be run) and `ONNC_VERSION_LINE`, the whole line
//! (`0.1.0 (git 1a2b3c4, MLIR 22.1.8)`).

use std::{path::Path, process::Command};

/// Trimmed stdout of a command that succeeded.
fn output_of(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok().filter(|o| o.status.success())?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The short commit hash, and asks cargo to rerun when HEAD moves.
fn git_commit(manifest_dir: &Path) -> String {
    let git = |args: &[&str]| output_of(Command::new("git").args(args).current_dir(manifest_dir));
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return "unknown".into();
    };
    // Rerun only on files that exist: a missing one would rerun every build.
    let watched = [
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--symbolic-full-name", "HEAD"])
            .and_then(|r| git(&["rev-parse", "--git-path", &r])),
        git(&["rev-parse", "--git-path", "packed-refs"]),
    ];
    for path in watched.into_iter().flatten() {
        let p = manifest_dir.join(path);
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    commit
}

/// The LLVM/MLIR version `mlir-sys` builds against.
fn mlir_version() -> String {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let config = Path::new(&prefix).join("bin").join("llvm-config");
    output_of(Command::new(config).arg("--version")).unwrap_or_else(|| "22".into())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let commit = git_commit(Path::new(&manifest_dir));
    let mlir = mlir_version();
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-env=ONNC_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=ONNC_MLIR_VERSION={mlir}");
    println!("cargo:rustc-env=ONNC_VERSION_LINE={version} (git {commit}, MLIR {mlir})");
}
