//! One binary for the four tools: `onnc opt|translate|run ARGS` runs
//! `onnc-opt|onnc-translate|onnc-run ARGS`, and so does the `onnc` binary
//! started through a link named `onnc-opt`, `onnc-translate` or `onnc-run`
//! (an install is one file plus three links).
//!
//! In: the command line (program name first). Out: which tool to run and
//! the command line it sees (its own name first), or `None` for `onnc`'s
//! own commands.
//!
//! ```text
//! onnc opt m.mlir --pass-pipeline=...     ->  onnc-opt m.mlir --pass-pipeline=...
//! /usr/bin/onnc-run x.nvdla (a link)      ->  onnc-run x.nvdla
//! ```

use std::path::Path;

/// A tool the `onnc` binary also is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `onnc-opt`.
    Opt,
    /// `onnc-translate`.
    Translate,
    /// `onnc-run`.
    Run,
}

impl Tool {
    /// The tool's own program name.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Opt => "onnc-opt",
            Tool::Translate => "onnc-translate",
            Tool::Run => "onnc-run",
        }
    }

    fn by_program(name: &str) -> Option<Tool> {
        [Tool::Opt, Tool::Translate, Tool::Run]
            .into_iter()
            .find(|t| t.program() == name)
    }

    fn by_command(name: &str) -> Option<Tool> {
        match name {
            "opt" => Some(Tool::Opt),
            "translate" => Some(Tool::Translate),
            "run" => Some(Tool::Run),
            _ => None,
        }
    }
}

/// The tool `args` asks for and its command line (see the module doc).
pub fn pick(args: &[String]) -> Option<(Tool, Vec<String>)> {
    let program = args.first()?;
    let stem = Path::new(program).file_stem()?.to_str()?;
    if let Some(tool) = Tool::by_program(stem) {
        return Some((tool, args.to_vec()));
    }
    let tool = Tool::by_command(args.get(1)?)?;
    let mut argv = vec![tool.program().to_string()];
    argv.extend(args[2..].iter().cloned());
    Some((tool, argv))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_subcommand_becomes_the_tool_with_the_rest_of_the_line() {
        assert_eq!(
            pick(&v(&["/x/onnc", "opt", "m.mlir", "-o", "y"])),
            Some((Tool::Opt, v(&["onnc-opt", "m.mlir", "-o", "y"])))
        );
        assert_eq!(
            pick(&v(&["onnc", "run", "--help"])),
            Some((Tool::Run, v(&["onnc-run", "--help"])))
        );
    }

    #[test]
    fn a_link_named_after_a_tool_is_that_tool_with_its_line_unchanged() {
        let line = v(&["/usr/local/bin/onnc-translate", "--list"]);
        assert_eq!(pick(&line), Some((Tool::Translate, line.clone())));
        // A link named like a tool wins over a first word like a command.
        let line = v(&["onnc-run", "opt"]);
        assert_eq!(pick(&line), Some((Tool::Run, line.clone())));
    }

    #[test]
    fn onncs_own_commands_are_left_alone() {
        assert_eq!(pick(&v(&["onnc", "compile", "m.onnx"])), None);
        assert_eq!(pick(&v(&["onnc"])), None);
        assert_eq!(pick(&v(&["onnc", "--version"])), None);
        // A file called "run" after an option is not the command.
        assert_eq!(pick(&v(&["onnc", "--color", "run"])), None);
    }
}
