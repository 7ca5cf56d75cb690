//! Command-line syntax of `onnc-translate`, on clap.
//!
//! The fixed flags are a clap derive ([`Cli`]); the translations
//! (`--import-onnx`, …) and their options (`--input-shape`, `--nvdla-abi`,
//! …) come from the registry in `onnc_passes::translate` and are added to
//! the same `clap::Command`. MLIR-style single-dash long flags
//! (`-import-onnx`, `-o=FILE`) are accepted. Out: [`Parsed`], or the error
//! line to print.

use clap::{error::ErrorKind, Arg, ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser};
use onnc_passes::translate::{self, Translation};

/// onnc-translate: move IR across the edge of MLIR (import, emit, dump).
#[derive(Parser, Debug)]
#[command(name = "onnc-translate", version = super::common::VERSION, after_help = "`--list` shows which options each translation takes.")]
pub struct Cli {
    /// Input file (`-` or nothing: stdin).
    pub input: Option<String>,
    /// Output file (`-`: stdout). Written atomically, and only on success.
    #[arg(short = 'o', default_value = "-", value_name = "FILE")]
    pub output: String,
    /// List the translations and their options, and exit.
    #[arg(long)]
    pub list: bool,
    /// A translation option as `key=value` (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = key_value)]
    pub option: Vec<(String, String)>,
    /// MLIR text input: translate each `// -----` chunk on its own; the
    /// outputs are joined by `// -----` lines, every chunk's errors reported.
    #[arg(long)]
    pub split_input_file: bool,
    /// Print locations in MLIR text output (`--bytecode-to-mlir`;
    /// `--import-onnx` always prints the ONNX node names as locations).
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// `--diagnostics-format`, `--color`.
    #[command(flatten)]
    pub diagnostics: super::common::diagnostics::DiagnosticArgs,
}

/// What to run.
pub struct Parsed {
    /// The fixed flags.
    pub cli: Cli,
    /// The chosen translation (`None` with `--list`).
    pub translation: Option<&'static Translation>,
    /// Translation options, in command-line order (`--option` ones last).
    pub options: Vec<(String, String)>,
}

fn key_value(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not key=value"))?;
    Ok((k.to_string(), v.to_string()))
}

/// The `--list` text (also the end of `--help`).
pub fn list() -> String {
    let mut s = String::from("Translations:\n");
    for t in translate::all() {
        let kind = match t.kind {
            translate::Kind::Import => "import",
            translate::Kind::Emit => "emit",
            translate::Kind::Dump => "dump",
        };
        s.push_str(&format!("  --{:<26} [{kind}] {}\n", t.flag, t.summary));
        for o in t.options {
            s.push_str(&format!("      --{} {:<18} {}\n", o.name, o.values, o.help));
        }
    }
    s
}

/// Every translation option name, once (several translations share some).
fn option_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = translate::all()
        .iter()
        .flat_map(|t| t.options.iter().map(|o| o.name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The whole clap command: the derive plus the registry's flags.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for t in translate::all() {
        cmd = cmd.arg(
            Arg::new(t.flag)
                .long(t.flag)
                .action(ArgAction::SetTrue)
                .help(t.summary)
                .help_heading("Translations"),
        );
    }
    for name in option_names() {
        let holders: Vec<&Translation> = translate::all()
            .iter()
            .filter(|t| t.options.iter().any(|o| o.name == name))
            .collect();
        let first = holders[0]
            .options
            .iter()
            .find(|o| o.name == name)
            .expect("holder has it");
        let used_by: Vec<String> = holders.iter().map(|t| format!("--{}", t.flag)).collect();
        let help = format!("{} ({}: {})", first.help, used_by.join(", "), first.values);
        cmd = cmd.arg(
            Arg::new(name)
                .long(name)
                .value_name("VALUE")
                .action(ArgAction::Append)
                .allow_hyphen_values(false)
                .help(help)
                .help_heading("Translation options"),
        );
    }
    cmd
}

/// MLIR tools accept `-long-flag`; clap wants `--long-flag`. `-o`, `-o=F`,
/// `-oF`, `-` and `-h`/`-V` stay as they are.
pub fn normalize(args: impl Iterator<Item = String>) -> Vec<String> {
    args.enumerate()
        .map(|(i, a)| {
            let single = i > 0
                && a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a.as_bytes()[1].is_ascii_alphabetic();
            if single && !a.starts_with("-o") {
                format!("-{a}")
            } else {
                a
            }
        })
        .collect()
}

/// Parses `argv`; help, the version and usage errors come back as clap errors.
pub fn parse(args: Vec<String>) -> Result<Parsed, clap::Error> {
    let args = normalize(args.into_iter());
    let matches = command().try_get_matches_from(&args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    let chosen: Vec<&Translation> = translate::all()
        .iter()
        .filter(|t| matches.get_flag(t.flag))
        .collect();
    Ok(Parsed {
        options: options_in_order(&matches, cli.option.clone()),
        translation: chosen.first().copied(),
        cli,
    })
}

/// Translation options as given (by position on the command line).
fn options_in_order(matches: &ArgMatches, extra: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut found: Vec<(usize, String, String)> = Vec::new();
    for name in option_names() {
        let (Some(values), Some(indices)) =
            (matches.get_many::<String>(name), matches.indices_of(name))
        else {
            continue;
        };
        for (v, i) in values.zip(indices) {
            found.push((i, name.to_string(), v.clone()));
        }
    }
    found.sort_by_key(|(i, _, _)| *i);
    found
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(extra)
        .collect()
}

/// Our own checks after clap: exactly one translation, and only its options.
/// Returns the message after `onnc-translate: error: `.
pub fn check(args: &[String], p: &Parsed) -> Result<(), String> {
    let chosen = chosen_in(args);
    if chosen.len() > 1 {
        return Err(format!(
            "give one translation, not both --{} and --{}",
            chosen[0].flag, chosen[1].flag
        ));
    }
    let Some(t) = p.translation else {
        return Err(format!(
            "no translation given\n{}",
            command().render_usage()
        ));
    };
    for name in option_names() {
        if p.options.iter().any(|(k, _)| k == name)
            && !t.options.iter().any(|o| o.name == name)
            && !p.cli.option.iter().any(|(k, _)| k == name)
        {
            return Err(no_such_option(t, name));
        }
    }
    Ok(())
}

fn no_such_option(t: &Translation, key: &str) -> String {
    let valid: Vec<String> = t.options.iter().map(|o| format!("--{}", o.name)).collect();
    let hint = if valid.is_empty() {
        "it takes no options".to_string()
    } else {
        format!("its options: {}", valid.join(", "))
    };
    format!("--{} has no option '--{key}'; {hint}", t.flag)
}

/// The translations named in `args` (any dash count).
fn chosen_in(args: &[String]) -> Vec<&'static Translation> {
    args.iter()
        .skip(1)
        .filter_map(|a| a.strip_prefix("--").or_else(|| a.strip_prefix('-')))
        .filter_map(translate::find)
        .collect()
}

/// A clap error in our words where we had our own before: an unknown
/// `--flag` is an unknown translation, or an option the translation lacks.
pub fn explain(args: &[String], e: &clap::Error) -> Option<String> {
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let bad = e.get(clap::error::ContextKind::InvalidArg)?.to_string();
    let key = bad
        .trim_start_matches('-')
        .split('=')
        .next()
        .unwrap_or_default()
        .to_string();
    if !bad.starts_with('-') {
        return Some(format!("more than one input file ('{bad}')"));
    }
    match chosen_in(args).first() {
        Some(t) => Some(no_such_option(t, &key)),
        None => {
            let known: Vec<String> = translate::all()
                .iter()
                .map(|t| format!("--{}", t.flag))
                .collect();
            Some(format!(
                "unknown translation '--{key}'; known: {}",
                known.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn every_spelling_parses() {
        let p = parse(args(
            "t --verify-nvdla-loadable -nvdla-atom 32 -o=x.txt in.nvdla",
        ))
        .unwrap();
        assert_eq!(p.translation.unwrap().flag, "verify-nvdla-loadable");
        assert_eq!(p.cli.output, "x.txt");
        assert_eq!(p.options, [("nvdla-atom".to_string(), "32".to_string())]);
        let p = parse(args(
            "t -import-onnx m.onnx --input-shape=x=1x3 --option a=b -o out",
        ))
        .unwrap();
        assert_eq!(
            p.options,
            [
                ("input-shape".into(), "x=1x3".into()),
                ("a".into(), "b".into())
            ]
        );
        assert_eq!(p.cli.input.as_deref(), Some("m.onnx"));
    }

    #[test]
    fn our_messages() {
        let a = args("t --to-nowhere x");
        let e = parse(a.clone()).err().unwrap();
        assert!(explain(&a, &e)
            .unwrap()
            .starts_with("unknown translation '--to-nowhere'; known: --import-onnx"));
        let a = args("t --mlir-to-bytecode --nvdla-abi legacy x");
        let p = parse(a.clone()).unwrap();
        assert_eq!(
            check(&a, &p).unwrap_err(),
            "--mlir-to-bytecode has no option '--nvdla-abi'; it takes no options"
        );
    }
}
