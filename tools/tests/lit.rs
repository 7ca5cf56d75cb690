//! The lit suite (`test/**/*.mlir`), run from `cargo test`.
//!
//! cargo builds every binary of this package before integration tests run;
//! this test points lit at them (`ONNC_TOOLS_DIR`) and fails when any lit
//! test fails, printing lit's report (with its summary lines).
//!
//! lit comes from Debian's `llvm-22-tools` (`/usr/lib/llvm-22/bin/lit`) or
//! from PATH (`pip install lit`); `tools/bootstrap.sh` installs both needs.

use std::{path::PathBuf, process::Command};

fn lit_command() -> Command {
    let debian = PathBuf::from("/usr/lib/llvm-22/bin/lit");
    if debian.exists() {
        Command::new(debian)
    } else {
        Command::new("lit")
    }
}

/// lit's closing counts (`Total Discovered Tests: N`, `Passed: N (..%)`, ...),
/// written to the process's stderr itself, past the test harness's output
/// capture, so that `cargo test` and CI show them even when the suite passes.
fn print_summary(lit_stdout: &str) {
    use std::io::Write;
    let Some(start) = lit_stdout.find("Total Discovered Tests:") else {
        return;
    };
    let summary: String = lit_stdout[start..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| format!("lit: {}\n", l.trim()))
        .collect();
    let _ = std::io::stderr().write_all(summary.as_bytes());
}

#[test]
fn lit_suite() {
    let tools = PathBuf::from(env!("CARGO_BIN_EXE_onnc-opt"));
    let tools_dir = tools.parent().expect("binaries live in a directory");
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let suite = repo.join("test");
    let mut cmd = lit_command();
    cmd.arg("-v")
        .arg("--order=lexical")
        .arg(&suite)
        .env("ONNC_TOOLS_DIR", tools_dir);
    if let Ok(filter) = std::env::var("ONNC_LIT_FILTER") {
        cmd.arg(format!("--filter={filter}"));
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run lit ({e}); run tools/bootstrap.sh to install llvm-22-tools")
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    print_summary(&stdout);
    assert!(out.status.success(), "lit reported failures (see above)");
    assert!(stdout.contains("Passed"), "lit ran no test");
}
