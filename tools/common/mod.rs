//! Code every tool shares: the `--version` line, logging, generated shell
//! completions and man pages, the `--input-shape` syntax, and the
//! diagnostics flags and printing (`--diagnostics-format`, `--color`).
//!
//! The package's library (`onnc_tools`); each tool imports it as
//! `use onnc_tools as common;`.

pub mod diagnostics;
pub mod generate;
pub mod input_shape;
pub mod logging;
pub mod split;

/// Every tool allocates through jemalloc, not glibc's malloc: a compile makes
/// millions of small, short-lived strings, vectors and maps, and glibc spent
/// about half of a 100k-node graph's compile time consolidating and freeing
/// them, for the same peak memory (docs/perf.md, "Allocator").
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// What `--version` prints after the tool's name:
/// `0.1.0 (git 1a2b3c4, MLIR 22.1.8)` (see `tools/build.rs`).
pub const VERSION: &str = env!("ONNC_VERSION_LINE");

/// The MLIR (LLVM) version the tools were built against.
pub const MLIR_VERSION: &str = env!("ONNC_MLIR_VERSION");

/// The commit the tools were built from, or `unknown`.
pub const GIT_COMMIT: &str = env!("ONNC_GIT_COMMIT");

/// Everything a tool does before parsing its own flags: the hidden
/// `--generate-completions SHELL` / `--generate-man DIR` (then it exits), and
/// logging from `RUST_LOG` at `default_level` otherwise.
pub fn start(command: impl FnOnce() -> clap::Command, default_level: &str, argv: &[String]) {
    generate::handle_hidden_flags(command, argv);
    logging::init(default_level);
}

#[cfg(test)]
mod tests {
    #[test]
    fn version_names_mlir_22() {
        assert!(
            super::MLIR_VERSION.starts_with("22"),
            "{}",
            super::MLIR_VERSION
        );
        assert!(super::VERSION.contains(super::GIT_COMMIT));
        assert!(super::VERSION.starts_with(env!("CARGO_PKG_VERSION")));
    }
}
