//! `onnc-translate` — move IR across the edge of MLIR.
//!
//! ```text
//! onnc-translate --mlir-to-bytecode model.mlir -o model.mlirbc
//! onnc-translate --bytecode-to-mlir model.mlirbc
//! onnc-translate --list
//! ```
//! Exactly one translation flag is given; the registry in
//! `onnc_passes::translate` lists them (importers, emitters, dumpers). The
//! output goes to `-o FILE` (written atomically, never half-written) or
//! stdout. Errors name the file and, where it applies, the op or node; the
//! exit status is then 1 and no output file is created.

use onnc_passes::translate;
use std::{path::Path, process::ExitCode};

const USAGE: &str = "usage: onnc-translate --<translation> [INPUT|-] [-o OUTPUT] [--<translation option> VALUE]...\n       onnc-translate --list";

struct Args {
    translation: String,
    input: String,
    output: String,
    options: Vec<(String, String)>,
}

fn list() -> String {
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

fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    // First pass: which translation? Its options are then accepted as flags.
    let chosen: Vec<&translate::Translation> = args
        .iter()
        .filter_map(|a| a.strip_prefix("--").or_else(|| a.strip_prefix('-')))
        .filter_map(|f| translate::find(f))
        .collect();
    if chosen.len() > 1 {
        return Err(format!(
            "give one translation, not both --{} and --{}",
            chosen[0].flag, chosen[1].flag
        ));
    }
    let mut translation = None;
    let mut input = None;
    let mut output = "-".to_string();
    let mut options = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => {
                onnc_io::stdout::print(&format!("{USAGE}\n\n{}\n", list()))
                    .map_err(|e| onnc_io::stdout::describe(&e))?;
                return Ok(None);
            }
            "--list" => {
                onnc_io::stdout::print(&list()).map_err(|e| onnc_io::stdout::describe(&e))?;
                return Ok(None);
            }
            "-o" => output = it.next().ok_or("-o needs a file name")?.clone(),
            "--option" => {
                let kv = it.next().ok_or("--option needs key=value")?;
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("--option '{kv}' is not key=value"))?;
                options.push((k.to_string(), v.to_string()));
            }
            "-" => {
                if input.replace("-".to_string()).is_some() {
                    return Err("more than one input file ('-')".into());
                }
            }
            flag if flag.starts_with('-') => {
                let name = flag.trim_start_matches('-');
                if let Some(out) = name.strip_prefix("o=") {
                    output = out.to_string();
                    continue;
                }
                if translate::find(name).is_some() {
                    translation = Some(name.to_string());
                    continue;
                }
                let (key, inline) = match name.split_once('=') {
                    Some((k, v)) => (k, Some(v.to_string())),
                    None => (name, None),
                };
                let Some(t) = chosen.first() else {
                    let known: Vec<String> = translate::all()
                        .iter()
                        .map(|t| format!("--{}", t.flag))
                        .collect();
                    return Err(format!(
                        "unknown translation '--{key}'; known: {}",
                        known.join(", ")
                    ));
                };
                if !t.options.iter().any(|o| o.name == key) {
                    let valid: Vec<String> =
                        t.options.iter().map(|o| format!("--{}", o.name)).collect();
                    let hint = if valid.is_empty() {
                        "it takes no options".to_string()
                    } else {
                        format!("its options: {}", valid.join(", "))
                    };
                    return Err(format!("--{} has no option '--{key}'; {hint}", t.flag));
                }
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .ok_or_else(|| format!("--{key} needs a value"))?
                        .clone(),
                };
                options.push((key.to_string(), value));
            }
            file => {
                if input.is_some() {
                    return Err(format!("more than one input file ('{file}')"));
                }
                input = Some(file.to_string());
            }
        }
    }
    let translation = translation.ok_or_else(|| format!("no translation given\n{USAGE}"))?;
    Ok(Some(Args {
        translation,
        input: input.unwrap_or_else(|| "-".into()),
        output,
        options,
    }))
}

fn main() -> ExitCode {
    onnc_dialects::ir::guard::bytecode_child();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match parse_args(&args) {
        Ok(Some(a)) => a,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("onnc-translate: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(t) = translate::find(&parsed.translation) else {
        eprintln!(
            "onnc-translate: error: unknown translation '--{}'",
            parsed.translation
        );
        return ExitCode::FAILURE;
    };
    let inputs: Vec<&Path> = if parsed.input == "-" {
        vec![]
    } else {
        vec![Path::new(&parsed.input)]
    };
    let checked = onnc_io::check_inputs(&inputs)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            onnc_io::check_outputs(
                &[(Path::new(&parsed.output), onnc_io::OutputKind::File)],
                &inputs,
            )
            .map_err(|e| e.to_string())
        });
    if let Err(e) = checked {
        eprintln!("onnc-translate: error: {e}");
        return ExitCode::FAILURE;
    }
    let bytes = if parsed.input == "-" {
        let mut v = Vec::new();
        if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut v) {
            eprintln!("onnc-translate: error: cannot read stdin: {e}");
            return ExitCode::FAILURE;
        }
        v
    } else {
        match std::fs::read(&parsed.input) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("onnc-translate: error: cannot read '{}': {e}", parsed.input);
                return ExitCode::FAILURE;
            }
        }
    };
    let input = translate::Input {
        path: Path::new(&parsed.input),
        bytes: &bytes,
        options: &parsed.options,
    };
    match (t.run)(&input) {
        Ok(out) => match onnc_io::write_file(Path::new(&parsed.output), &out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("onnc-translate: error: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
