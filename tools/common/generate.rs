//! Shell completions (`clap_complete`) and man pages (`clap_mangen`) made
//! from each tool's clap definition.
//!
//! Every tool answers two hidden flags, given first:
//! `TOOL --generate-completions bash|zsh|fish|elvish|powershell` prints the
//! script on stdout, `TOOL --generate-man DIR` writes `TOOL.1` (and one page
//! per subcommand, `onnc-compile.1`) into DIR. `onnc completions` and
//! `onnc man` call them for all four tools.

use clap::{Command, ValueEnum};
use clap_complete::Shell;
use std::{
    path::{Path, PathBuf},
    process::exit,
};

/// The hidden flag that prints a completion script.
pub const COMPLETIONS_FLAG: &str = "--generate-completions";
/// The hidden flag that writes man pages.
pub const MAN_FLAG: &str = "--generate-man";

/// The completion script of `cmd` for `shell`.
pub fn completions(mut cmd: Command, shell: Shell) -> Vec<u8> {
    let name = cmd.get_name().to_string();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut out);
    out
}

/// Writes the man pages of `cmd` and its subcommands into `dir` (created if
/// missing); returns the files written.
pub fn man_pages(mut cmd: Command, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    cmd.build();
    let mut written = Vec::new();
    write_pages(&cmd, dir, &mut written)?;
    Ok(written)
}

fn write_pages(cmd: &Command, dir: &Path, written: &mut Vec<PathBuf>) -> Result<(), String> {
    let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut page)
        .map_err(|e| format!("cannot render the man page of {name}: {e}"))?;
    let path = dir.join(format!("{name}.1"));
    onnc_io::write_file(&path, &page).map_err(|e| e.to_string())?;
    written.push(path);
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        write_pages(sub, dir, written)?;
    }
    Ok(())
}

/// Answers the hidden flags when they come first on the command line `argv`
/// (program name first; then exits); otherwise returns.
pub fn handle_hidden_flags(command: impl FnOnce() -> Command, argv: &[String]) {
    let args = argv.get(1..).unwrap_or_default();
    let (Some(flag), value) = (args.first(), args.get(1)) else {
        return;
    };
    let tool = argv.first().cloned().unwrap_or_default();
    let fail = |m: String| -> ! {
        onnc_io::stderr::line(&format!("{tool}: error: {m}"));
        exit(2)
    };
    if flag == COMPLETIONS_FLAG {
        let shell = value
            .and_then(|v| Shell::from_str(v, true).ok())
            .unwrap_or_else(|| fail(format!("{COMPLETIONS_FLAG} takes {}", shell_names())));
        let script = String::from_utf8_lossy(&completions(command(), shell)).into_owned();
        if let Err(e) = onnc_io::stdout::print(&script) {
            fail(onnc_io::stdout::describe(&e));
        }
        exit(0);
    }
    if flag == MAN_FLAG {
        let dir = value.unwrap_or_else(|| fail(format!("{MAN_FLAG} needs a directory")));
        match man_pages(command(), Path::new(dir)) {
            Ok(_) => exit(0),
            Err(e) => fail(e),
        }
    }
}

/// `bash, zsh, fish, elvish or powershell`.
pub fn shell_names() -> String {
    let names: Vec<String> = Shell::value_variants()
        .iter()
        .filter_map(|s| s.to_possible_value().map(|v| v.get_name().to_string()))
        .collect();
    names.join(", ")
}
