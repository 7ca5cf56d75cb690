//! `onnc completions SHELL [--dir DIR]` and `onnc man DIR`: shell
//! completions and man pages for all four tools.
//!
//! onnc's own come from its clap definition; the other tools' from their
//! hidden `--generate-completions` / `--generate-man` flags
//! (`common::generate`), run from the directory that holds `onnc`.
//! Without `--dir`, the scripts are printed one after the other (bash,
//! zsh and fish scripts can be sourced together).

use crate::common::generate::{self, COMPLETIONS_FLAG, MAN_FLAG};
use clap::CommandFactory;
use clap_complete::Shell;
use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// The other tools, installed next to `onnc`.
const SIBLINGS: [&str; 3] = ["onnc-opt", "onnc-translate", "onnc-run"];

fn sibling(tool: &str) -> Result<PathBuf, Vec<String>> {
    let exe = std::env::current_exe()
        .map_err(|e| vec![format!("error: cannot find onnc's own path: {e}")])?;
    let path = exe.with_file_name(tool);
    if !path.is_file() {
        return Err(vec![format!(
            "error: {tool} is not installed next to onnc ({}); install all four tools together",
            path.display()
        )]);
    }
    Ok(path)
}

/// Runs `tool` with `args`; its stdout.
fn run_sibling(tool: &str, args: &[&std::ffi::OsStr]) -> Result<Vec<u8>, Vec<String>> {
    let out = Command::new(sibling(tool)?)
        .args(args)
        .output()
        .map_err(|e| vec![format!("error: cannot run {tool}: {e}")])?;
    if !out.status.success() {
        return Err(vec![format!(
            "error: {tool} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )]);
    }
    Ok(out.stdout)
}

/// The file name a shell looks for (`onnc.bash`, `_onnc`, `onnc.fish`, ...).
fn script_name(shell: Shell, tool: &str) -> String {
    match shell {
        Shell::Zsh => format!("_{tool}"),
        Shell::PowerShell => format!("_{tool}.ps1"),
        other => format!("{tool}.{other}"),
    }
}

/// `onnc completions`.
pub fn completions(shell: Shell, dir: Option<&Path>) -> Result<(), Vec<String>> {
    let name = shell.to_string();
    let mut scripts = vec![(
        "onnc".to_string(),
        generate::completions(crate::cli::Cli::command(), shell),
    )];
    for tool in SIBLINGS {
        scripts.push((
            tool.to_string(),
            run_sibling(tool, &[COMPLETIONS_FLAG.as_ref(), name.as_ref()])?,
        ));
    }
    let Some(dir) = dir else {
        let all: Vec<String> = scripts
            .iter()
            .map(|(_, s)| String::from_utf8_lossy(s).into_owned())
            .collect();
        return crate::outputs::print(&all.concat());
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| vec![format!("error: cannot create '{}': {e}", dir.display())])?;
    for (tool, script) in &scripts {
        let path = dir.join(script_name(shell, tool));
        onnc_io::write_file(&path, script).map_err(|e| vec![format!("error: {e}")])?;
    }
    Ok(())
}

/// `onnc man DIR`.
pub fn man(dir: &Path) -> Result<(), Vec<String>> {
    let mut written = generate::man_pages(crate::cli::Cli::command(), dir)
        .map_err(|e| vec![format!("error: {e}")])?
        .len();
    for tool in SIBLINGS {
        run_sibling(tool, &[MAN_FLAG.as_ref(), dir.as_os_str()])?;
        written += 1;
    }
    crate::outputs::print(&format!("wrote {written} man pages to {}\n", dir.display()))
}
