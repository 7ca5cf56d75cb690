//! Logging through `tracing`: `RUST_LOG` (e.g. `RUST_LOG=info`,
//! `RUST_LOG=debug`) chooses what is printed on stderr; without it the tool's
//! default level applies (`warn`, or what `-v`/`-q` asked for).
//!
//! ```text
//!  INFO stage{name="onnx-simplify"}: done ms=40.2
//! ```

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The level for `-q` (`quiet`) and a count of `-v` (`-v` itself only
/// forces progress lines; `-vv` info, `-vvv` debug, `-vvvv` trace).
pub fn level(quiet: bool, verbose: u8) -> &'static str {
    match (quiet, verbose) {
        (true, _) => "error",
        (false, 0 | 1) => "warn",
        (false, 2) => "info",
        (false, 3) => "debug",
        _ => "trace",
    }
}

/// Installs the stderr subscriber (once; later calls change nothing).
/// `RUST_LOG`, when set and valid, wins over `default_level`.
pub fn init(default_level: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_level));
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_ansi(ansi)
        // A closed stderr loses the log, not the compile: the subscriber's
        // own report of a failed write is an `eprintln!`, which would panic.
        .log_internal_errors(false)
        .try_init();
}
